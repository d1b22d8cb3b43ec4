// tests/unit/access/xlog_insert_test.cpp — WAL insert/read round trips across
// page and segment boundaries, torn tails, XLogFlush semantics, statistics and
// the control file.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "access/transam/xlog.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_rmgr.h"
#include "access/transam/xlog_stats.h"
#include "xlog_test_util.h"

using namespace hearth::access;
using hearth::access::testing::InsertBytes;
using hearth::access::testing::RandomPayload;
using hearth::access::testing::WalCluster;

namespace {

struct Inserted {
  XLogRecPtr start;
  XLogRecPtr end;
  uint8_t info;
  uint32_t xid;
  std::vector<uint8_t> payload;
};

std::vector<Inserted> InsertRandom(std::mt19937& rng, int n, size_t max_len) {
  std::vector<Inserted> out;
  for (int i = 0; i < n; i++) {
    Inserted r;
    // Mostly small records, some big ones that span several pages.
    const size_t len = (rng() % 10 == 0) ? rng() % max_len : rng() % 300;
    r.payload = RandomPayload(rng, len);
    r.info = static_cast<uint8_t>(i);
    r.xid = static_cast<uint32_t>(1000 + i);
    r.end = InsertBytes(r.payload, kRmgrTest, r.info, r.xid, &r.start);
    out.push_back(std::move(r));
  }
  return out;
}

// Reads from `from` and checks every record against `want`; returns the reader's end.
XLogRecPtr ReadAndCompare(const WalCluster& c, XLogRecPtr from, const std::vector<Inserted>& want) {
  XLogReader reader(c.WalDir(), c.opts.segment_size);
  reader.Seek(from);
  size_t i = 0;
  while (const XLogRecordView* rec = reader.ReadRecord()) {
    REQUIRE(i < want.size());
    CHECK(rec->start_lsn == want[i].start);
    CHECK(rec->end_lsn == want[i].end);
    CHECK(rec->header.rmgr == kRmgrTest);
    CHECK(rec->header.info == want[i].info);
    CHECK(rec->header.xid == want[i].xid);
    REQUIRE(rec->payload.size() == want[i].payload.size());
    CHECK(std::equal(rec->payload.begin(), rec->payload.end(), want[i].payload.begin()));
    i++;
  }
  CHECK(i == want.size());
  INFO("end reason: " << reader.EndReason());
  return reader.EndOfWal();
}

void TruncateFile(const std::string& path, off_t size) { REQUIRE(::truncate(path.c_str(), size) == 0); }

void FlipByte(const std::string& path, off_t off) {
  int fd = ::open(path.c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  uint8_t b;
  REQUIRE(::pread(fd, &b, 1, off) == 1);
  b ^= 0x5A;
  REQUIRE(::pwrite(fd, &b, 1, off) == 1);
  ::close(fd);
}

}  // namespace

TEST_CASE("xlog: LSN/byte-position arithmetic", "[xlog]") {
  CHECK(BytePosToRecPtr(0) == kXLogPageHeaderSize);
  CHECK(BytePosToRecPtr(kXLogUsablePerPage) == kXLogPageSize + kXLogPageHeaderSize);
  CHECK(BytePosToEndRecPtr(kXLogUsablePerPage) == kXLogPageSize);
  CHECK(RecPtrToBytePos(kXLogPageSize) == kXLogUsablePerPage);
  CHECK(RecPtrToBytePos(BytePosToRecPtr(123456)) == 123456);
  // PostgreSQL's names: timeline, LSN upper 32 bits, segment within them.
  const uint64_t mb16 = 16ull << 20;
  CHECK(XLogSegmentFileName(0x1A, mb16, 1) == "00000001000000000000001A");
  CHECK(XLogSegmentFileName(0x102, mb16, 1) == "000000010000000100000002");
  CHECK(XLogSegmentFileName(0x102, mb16, 3) == "000000030000000100000002");
  uint64_t segno = 0;
  uint32_t tli = 0;
  CHECK(XLogParseSegmentFileName("0000000100000001000000FF", mb16, &segno, &tli));
  CHECK(segno == 0x1FF);
  CHECK(tli == 1);
  CHECK(XLogParseSegmentFileName("0000000A0000000000000003", mb16, &segno, &tli));
  CHECK(segno == 3);
  CHECK(tli == 10);
  CHECK_FALSE(XLogParseSegmentFileName("000000010000000100000100", mb16, &segno, &tli));  // 256 segments per id
  CHECK_FALSE(XLogParseSegmentFileName("000000000000000000000001", mb16, &segno, &tli));  // no timeline 0
  CHECK_FALSE(XLogParseSegmentFileName("xlogtemp.123", mb16, &segno, &tli));
}

TEST_CASE("xlog: many random records round-trip across pages and segments", "[xlog]") {
  WalCluster c(/*wal_buffers=*/8, /*segment_size=*/64 * 1024);
  std::mt19937 rng(42);
  // Up to 100 KB: larger than the whole 64 KB buffer ring and than a segment.
  auto recs = InsertRandom(rng, 1500, 100 * 1024);
  CHECK(recs.front().start == kXLogPageHeaderSize);
  XLogFlush(recs.back().end);
  CHECK(XLogFlushedUpTo() >= recs.back().end);
  CHECK(XLogSegNo(recs.back().end, c.opts.segment_size) >= 5);  // crossed many segments
  const XLogRecPtr end = ReadAndCompare(c, kXLogPageHeaderSize, recs);
  CHECK(end == BytePosToRecPtr(RecPtrToBytePos(recs.back().end)));
  WalStats st = GetWalStats();
  CHECK(st.wal_records == 1500);
  CHECK(st.wal_buffers_full > 0);  // the 8-page ring had to be written out
  uint64_t bytes = 0;
  for (auto& r : recs) bytes += kXLogRecordHeaderSize + r.payload.size();
  CHECK(st.wal_bytes == bytes);
  CHECK(st.wal_write > 0);
  CHECK(st.wal_sync == 0);  // fsync = off in this cluster
}

TEST_CASE("xlog: restart finds the end of WAL and appends after it", "[xlog]") {
  WalCluster c(16, 64 * 1024);
  std::mt19937 rng(1);
  auto recs = InsertRandom(rng, 300, 20000);
  XLogShutdown();
  c.Restart();
  CHECK(c.info.records_scanned == 300);
  CHECK(c.info.last_record == recs.back().start);
  CHECK(c.info.end_of_wal == BytePosToRecPtr(RecPtrToBytePos(recs.back().end)));
  auto more = InsertRandom(rng, 300, 20000);
  CHECK(more.front().start == c.info.end_of_wal);
  XLogFlush(more.back().end);
  recs.insert(recs.end(), more.begin(), more.end());
  ReadAndCompare(c, kXLogPageHeaderSize, recs);  // prev-links hold across the restart
}

TEST_CASE("xlog: a torn or corrupt tail ends WAL at the previous record", "[xlog]") {
  for (int mode = 0; mode < 3; mode++) {
    DYNAMIC_SECTION("mode " << mode) {
      WalCluster c(16, 64 * 1024);
      std::mt19937 rng(100 + mode);
      auto recs = InsertRandom(rng, 50, 100);
      // The last record: big enough to span pages.
      Inserted last;
      last.payload = RandomPayload(rng, 20000);
      last.info = 9;
      last.xid = 9;
      last.end = InsertBytes(last.payload, kRmgrTest, last.info, last.xid, &last.start);
      XLogShutdown();
      const std::string seg = c.WalDir() + "/" + XLogSegmentFileName(XLogSegNo(last.start, c.opts.segment_size), c.opts.segment_size, 1);
      REQUIRE(XLogSegNo(last.end, c.opts.segment_size) == XLogSegNo(last.start, c.opts.segment_size));
      const off_t start_off = static_cast<off_t>(last.start % c.opts.segment_size);
      if (mode == 0) FlipByte(seg, start_off + 40 + 10000);  // payload byte: CRC fails
      if (mode == 1) FlipByte(seg, start_off + 2);           // length field
      if (mode == 2) TruncateFile(seg, start_off + 9000);    // torn: tail missing
      {
        XLogReader reader(c.WalDir(), c.opts.segment_size);
        reader.Seek(kXLogPageHeaderSize);
        int n = 0;
        while (reader.ReadRecord() != nullptr) n++;
        CHECK(n == 50);
        CHECK(reader.EndOfWal() == last.start);
        CHECK(reader.LastRecordStart() == recs.back().start);
        CHECK_FALSE(reader.EndReason().empty());
      }
      if (mode == 2)
        TruncateFile(seg, static_cast<off_t>(c.opts.segment_size));  // what a crash leaves: the preallocated size
      c.Restart();
      CHECK(c.info.end_of_wal == last.start);
      CHECK(c.info.records_scanned == 50);
      // New records overwrite the broken tail and read back after the intact ones.
      auto more = InsertRandom(rng, 40, 30000);
      CHECK(more.front().start == last.start);
      XLogFlush(more.back().end);
      recs.insert(recs.end(), more.begin(), more.end());
      ReadAndCompare(c, kXLogPageHeaderSize, recs);
    }
  }
}

TEST_CASE("xlog: XLogFlush writes and syncs everything inserted so far", "[xlog]") {
  WalCluster c(16, 1024 * 1024, /*fsync=*/true);
  std::vector<uint8_t> p(100, 7);
  const XLogRecPtr e1 = InsertBytes(p);
  const XLogRecPtr e2 = InsertBytes(p);
  const XLogRecPtr e3 = InsertBytes(p);
  CHECK(XLogNeedsFlush(e1));
  ResetWalStats();
  XLogFlush(e1);
  CHECK(XLogFlushedUpTo() >= e3);  // not only up to e1
  CHECK_FALSE(XLogNeedsFlush(e2));
  CHECK_FALSE(XLogNeedsFlush(e3));
  WalStats st = GetWalStats();
  CHECK(st.wal_sync == 1);
  CHECK(st.wal_write == 1);
  XLogFlush(e3);  // already durable: no new sync
  XLogFlushCommit(e2, 0, 0);
  st = GetWalStats();
  CHECK(st.wal_sync == 1);
  CHECK(st.commit_requests == 1);
  CHECK(st.commit_already_flushed == 1);
  CHECK_THROWS_AS(XLogFlush(e3 + 1000000), std::logic_error);
  // Background flush picks up later inserts.
  const XLogRecPtr e4 = InsertBytes(p);
  CHECK(XLogBackgroundFlush());
  CHECK_FALSE(XLogNeedsFlush(e4));
  CHECK_FALSE(XLogBackgroundFlush());
  CHECK(GetWalStats().wal_sync == 2);
}

TEST_CASE("xlog: a background flush request wakes the walwriter once per MiB of WAL", "[xlog]") {
  WalCluster c(64, 4 * 1024 * 1024, /*fsync=*/false);
  std::vector<uint8_t> p(4000, 3);
  // Less than kFlushRequestStep inserted: no request.
  InsertBytes(p);
  XLogRequestBackgroundFlush();
  CHECK_FALSE(XLogWaitForFlushRequest(0));
  // Past a MiB: the request is pending until the walwriter's flush.
  XLogRecPtr end = 0;
  while (end < kFlushRequestStep + 8192) end = InsertBytes(p);
  XLogRequestBackgroundFlush();
  CHECK(XLogWaitForFlushRequest(0));
  CHECK(XLogNeedsFlush(end));
  CHECK(XLogBackgroundFlush());
  CHECK_FALSE(XLogNeedsFlush(end));
  CHECK_FALSE(XLogWaitForFlushRequest(1));  // satisfied: the walwriter naps
  // Just after a flush a new request needs another MiB.
  InsertBytes(p);
  XLogRequestBackgroundFlush();
  CHECK_FALSE(XLogWaitForFlushRequest(0));
}

TEST_CASE("xlog: wal_sync_method variants and fsync=off", "[xlog]") {
  WalCluster c(16, 1024 * 1024, /*fsync=*/true);
  std::vector<uint8_t> p(100, 1);
  XLogSetSyncOptions(true, WalSyncMethod::kFsync);
  ResetWalStats();
  XLogFlush(InsertBytes(p));
  CHECK(GetWalStats().wal_sync == 1);
  XLogSetSyncOptions(true, WalSyncMethod::kOpenDatasync);  // O_DSYNC writes: no separate sync
  XLogFlush(InsertBytes(p));
  CHECK(GetWalStats().wal_sync == 1);
  CHECK(GetWalStats().wal_write == 2);
  XLogSetSyncOptions(false, WalSyncMethod::kFdatasync);
  const XLogRecPtr e = InsertBytes(p);
  XLogFlush(e);
  CHECK(GetWalStats().wal_sync == 1);
  CHECK_FALSE(XLogNeedsFlush(e));
  XLogSetSyncOptions(true, WalSyncMethod::kFdatasync);
  XLogFlush(InsertBytes(p));
  CHECK(GetWalStats().wal_sync == 2);
}

TEST_CASE("xlog: statistics counters and reset", "[xlog]") {
  WalCluster c;
  const int64_t reset0 = GetWalStats().stats_reset_us;
  CHECK(reset0 > 0);
  std::vector<uint8_t> p(50, 3);
  const XLogPart parts[2] = {{p.data(), 20}, {p.data(), 30}};
  XLogInsert(kRmgrTest, 0, 0, parts, nullptr, /*fpi_count=*/2);
  InsertBytes(p);
  WalStats st = GetWalStats();
  CHECK(st.wal_records == 2);
  CHECK(st.wal_fpi == 2);
  CHECK(st.wal_bytes == 2 * (kXLogRecordHeaderSize + 50));
  ResetWalStats();
  st = GetWalStats();
  CHECK(st.wal_records == 0);
  CHECK(st.wal_bytes == 0);
  CHECK(st.stats_reset_us >= reset0);
}

TEST_CASE("xlog: inserting with an xid marks the proc slot as a WAL writer", "[xlog]") {
  WalCluster c;
  hearth::storage::MyProc()->wrote_wal.store(false);
  InsertBytes({1, 2, 3}, kRmgrTest, 0, /*xid=*/0);
  CHECK_FALSE(hearth::storage::MyProc()->wrote_wal.load());
  InsertBytes({1, 2, 3}, kRmgrTest, 0, /*xid=*/77);
  CHECK(hearth::storage::MyProc()->wrote_wal.load());
}

TEST_CASE("xlog: control file round trip, atomic replace, CRC check", "[xlog]") {
  WalCluster c;
  CHECK_FALSE(ReadControlFile(c.dir).has_value());
  ControlFileData d;
  d.checkpoint_lsn = 0x123456;
  d.redo_lsn = 0x123400;
  d.next_xid = 777;
  d.next_oid = 16384;
  d.segment_size = c.opts.segment_size;
  d.state = DbState::kInProduction;
  UpdateControlFile(c.dir, d);
  auto got = ReadControlFile(c.dir);
  REQUIRE(got.has_value());
  CHECK(got->checkpoint_lsn == 0x123456);
  CHECK(got->redo_lsn == 0x123400);
  CHECK(got->next_xid == 777);
  CHECK(got->next_oid == 16384);
  CHECK(got->state == DbState::kInProduction);
  CHECK(got->time_us > 0);
  d.next_xid = 778;
  UpdateControlFile(c.dir, d);
  CHECK(ReadControlFile(c.dir)->next_xid == 778);
  CHECK_FALSE(std::filesystem::exists(c.dir + "/global/pg_control.tmp"));
  FlipByte(c.dir + "/global/pg_control", 33);
  CHECK_THROWS_AS(ReadControlFile(c.dir), std::runtime_error);
}

TEST_CASE("xlog: startup scans from the control file's redo point", "[xlog]") {
  WalCluster c;
  std::mt19937 rng(5);
  auto before = InsertRandom(rng, 20, 100);
  CheckpointRecord ck{};
  ck.redo_lsn = XLogInsertEndPosition();
  ck.next_xid = 500;
  XLogRecPtr ck_start = 0;
  const XLogRecPtr ck_end = XLogInsertCheckpoint(ck, &ck_start);
  CHECK(ck_start == BytePosToRecPtr(RecPtrToBytePos(ck.redo_lsn)));
  auto after = InsertRandom(rng, 10, 100);
  XLogFlush(after.back().end);
  ControlFileData d;
  d.checkpoint_lsn = ck_start;
  d.redo_lsn = ck_start;
  UpdateControlFile(c.dir, d);
  c.Restart();
  CHECK(c.info.scan_start == ck_start);
  CHECK(c.info.records_scanned == 11);  // the checkpoint + 10
  CHECK(c.info.last_record == after.back().start);
  // The redo dispatch table routes records by rmgr.
  static int redo_calls;
  static XLogRecPtr seen_redo;
  redo_calls = 0;
  RegisterRmgr(kRmgrXLog, "XLOG", [](const XLogRecordView& r) {
    CheckpointRecord got;
    REQUIRE(r.payload.size() == sizeof(got));
    std::memcpy(&got, r.payload.data(), sizeof(got));
    seen_redo = got.redo_lsn;
    redo_calls++;
  });
  RegisterRmgr(kRmgrTest, "test", nullptr);
  XLogReader reader(c.WalDir(), c.opts.segment_size);
  reader.Seek(ck_start);
  const XLogRecordView* r = reader.ReadRecord();
  REQUIRE(r != nullptr);
  CHECK(r->end_lsn == ck_end);
  XLogRedoRecord(*r);
  CHECK(redo_calls == 1);
  CHECK(seen_redo == ck.redo_lsn);
  r = reader.ReadRecord();
  REQUIRE(r != nullptr);
  CHECK_THROWS_AS(XLogRedoRecord(*r), std::runtime_error);  // no redo for kRmgrTest
}
