// tests/unit/access/xlog_segment_test.cpp — segment pre-allocation and
// recycling (old segments renamed to future names; stale pages never read).
#include "access/transam/xlog_segment.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <set>
#include <vector>

#include "access/transam/xlog.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_stats.h"
#include "xlog_test_util.h"

using namespace hearth::access;
using hearth::access::testing::InsertBytes;
using hearth::access::testing::WalCluster;

namespace {

std::set<uint64_t> SegmentsOnDisk(const std::string& wal_dir) {
  std::set<uint64_t> out;
  for (auto& e : std::filesystem::directory_iterator(wal_dir)) {
    uint64_t segno;
    uint32_t tli;
    if (XLogParseSegmentFileName(e.path().filename().string(), 64 * 1024, &segno, &tli)) {
      out.insert(segno);
      CHECK(std::filesystem::file_size(e.path()) == 64 * 1024);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("xlog: startup and the walwriter pre-allocate segments ahead", "[xlog][segment]") {
  WalCluster c(16, 64 * 1024);
  CHECK(SegmentsOnDisk(c.WalDir()) == std::set<uint64_t>{0, 1});
  std::vector<uint8_t> p(1000, 1);
  ResetWalStats();
  // ~3 segments of WAL, with the walwriter running between batches.
  for (int batch = 0; batch < 12; batch++) {
    XLogRecPtr end = 0;
    for (int i = 0; i < 16; i++) end = InsertBytes(p);
    XLogFlush(end);
    XLogBackgroundFlush();  // the walwriter's round: flush, then pre-allocate
    XLogPreallocateSegments();
  }
  const uint64_t cur = XLogSegNo(XLogInsertEndPosition(), 64 * 1024);
  CHECK(cur >= 2);
  auto segs = SegmentsOnDisk(c.WalDir());
  CHECK(segs.count(cur + 1) == 1);                       // one ahead exists
  CHECK(GetWalStats().segments_created_on_demand == 0);  // writers never had to create one
  CHECK(GetWalStats().segments_created >= 2);
}

TEST_CASE("xlog: RemoveOldSegments recycles segments before the redo point", "[xlog][segment]") {
  WalCluster c(16, 64 * 1024);
  c.opts.max_recycled_segments = 3;
  c.Restart();  // pick up the option
  std::mt19937 rng(3);
  std::vector<uint8_t> p(3000, 2);
  XLogRecPtr end = 0;
  while (XLogSegNo(XLogInsertEndPosition(), 64 * 1024) < 8) end = InsertBytes(p);
  XLogFlush(end);
  const uint64_t cur = XLogSegNo(XLogInsertEndPosition(), 64 * 1024);
  REQUIRE(cur == 8);
  auto before = SegmentsOnDisk(c.WalDir());
  REQUIRE(before.count(0) == 1);
  const uint64_t highest_before = *before.rbegin();
  // A redo point in segment 6: segments 0..5 are no longer needed.
  XLogRecPtr redo_start = 0;
  InsertBytes(p, kRmgrTest, 1, 0, &redo_start);
  const XLogRecPtr redo = 6 * 64 * 1024 + kXLogPageHeaderSize;
  RemovedSegments r = RemoveOldSegments(redo);
  // 3 future segments allowed beyond the insert segment (8): 9 exists (pre-
  // allocated), so 10 and 11 come from recycling, the rest are removed.
  CHECK(r.recycled == static_cast<int>(8 + 3 - highest_before));
  CHECK(r.recycled + r.removed == 6);
  auto after = SegmentsOnDisk(c.WalDir());
  for (uint64_t s = 0; s < 6; s++) CHECK(after.count(s) == 0);
  for (uint64_t s = 6; s <= 11; s++) CHECK(after.count(s) == 1);
  CHECK(after.count(12) == 0);
  CHECK(GetWalStats().segments_recycled == r.recycled);
  CHECK(GetWalStats().segments_removed == r.removed);

  // Fill into the recycled segments: their stale pages must never be read as WAL.
  std::vector<XLogRecPtr> starts;
  while (XLogSegNo(XLogInsertEndPosition(), 64 * 1024) < 10) {
    XLogRecPtr s = 0;
    InsertBytes(p, kRmgrTest, 2, 0, &s);
    starts.push_back(s);
  }
  // End in the middle of segment 10 (a recycled file full of old pages).
  for (int i = 0; i < 3; i++) {
    XLogRecPtr s = 0;
    end = InsertBytes(p, kRmgrTest, 2, 0, &s);
    starts.push_back(s);
  }
  XLogFlush(end);
  XLogReader reader(c.WalDir(), 64 * 1024);
  reader.Seek(redo_start);
  int n = 0;
  while (reader.ReadRecord() != nullptr) n++;
  CHECK(n == static_cast<int>(starts.size()) + 1);
  CHECK(reader.EndOfWal() == BytePosToRecPtr(RecPtrToBytePos(end)));
  // A restart (from a control file pointing at the redo record) finds the
  // same end despite the stale pages after it.
  XLogShutdown();
  ControlFileData d;
  d.redo_lsn = redo_start;
  d.checkpoint_lsn = redo_start;
  UpdateControlFile(c.dir, d);
  c.Restart();
  CHECK(c.info.end_of_wal == reader.EndOfWal());
}
