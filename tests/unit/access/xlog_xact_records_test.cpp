// tests/unit/access/xlog_xact_records_test.cpp — commit/abort WAL records:
// encoding, decoding, idempotent clog redo and the replay loop.
#include "access/transam/xlog_xact_records.h"

#include <catch2/catch.hpp>
#include <vector>

#include "access/transam/clog.h"
#include "access/transam/transam.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_replay.h"
#include "access/transam/xlog_rmgr.h"
#include "xlog_test_util.h"

using namespace hearth::access;
using hearth::access::testing::WalCluster;
namespace storage = hearth::storage;

namespace {
std::vector<uint32_t> g_dropped;
void RecordDrops(std::span<const storage::RelFileLocator> rels) {
  for (auto r : rels) g_dropped.push_back(r.number.value);
}
}  // namespace

TEST_CASE("xlog: commit and abort records round-trip and redo into the clog", "[xlog][xact]") {
  WalCluster c;
  TransamStartup(c.dir);
  const storage::RelFileLocator drop[2] = {storage::RelFileLocator(storage::kDefaultDatabaseId, 16400u), storage::RelFileLocator(storage::kDefaultDatabaseId, 16401u)};
  const storage::RelFileLocator created[1] = {storage::RelFileLocator(storage::kDefaultDatabaseId, 16500u)};
  XLogRecPtr first = 0;
  XLogRecPtr start = 0;
  const XLogPart none{nullptr, 0};
  XLogInsert(kRmgrTest, 0, 0, std::span<const XLogPart>(&none, 1),
             &first);  // no redo function: replay must start after it
  const XLogRecPtr c1 = XLogInsertXactCommit(100, 1234567, drop);
  XLogInsertXactAbort(101, 7654321, created);
  XLogInsertXactCommit(102, 1, {});
  XLogFlush(c1);
  XLogFlush(XLogInsertEndPosition());

  XLogReader reader(c.WalDir(), c.opts.segment_size);
  reader.Seek(first);
  REQUIRE(reader.ReadRecord() != nullptr);
  const XLogRecordView* r = reader.ReadRecord();
  REQUIRE(r != nullptr);
  start = r->start_lsn;
  CHECK(r->end_lsn == c1);
  auto x = DecodeXactRecord(*r);
  REQUIRE(x.has_value());
  CHECK(x->commit);
  CHECK(x->xid == 100);
  CHECK(x->time_us == 1234567);
  REQUIRE(x->rels.size() == 2);
  CHECK(x->rels[1].number.value == 16401);
  r = reader.ReadRecord();
  REQUIRE(r != nullptr);
  x = DecodeXactRecord(*r);
  REQUIRE(x.has_value());
  CHECK_FALSE(x->commit);
  CHECK(x->xid == 101);
  CHECK(x->rels.size() == 1);

  // Replay from the commit record: clog learns the outcomes, the drop hook
  // hears the files; replaying again changes nothing.
  RegisterRmgr(kRmgrXact, "Transaction", XactRedo);
  SetXactRedoDropHook(RecordDrops);
  g_dropped.clear();
  CHECK(TransactionIdGetStatus(100) == XidStatus::kInProgress);
  ReplayResult res = XLogReplay(start);
  CHECK(res.records == 3);
  CHECK(res.end_of_wal == BytePosToRecPtr(RecPtrToBytePos(XLogInsertEndPosition())));
  CHECK(TransactionIdGetStatus(100) == XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(101) == XidStatus::kAborted);
  CHECK(TransactionIdGetStatus(102) == XidStatus::kCommitted);
  CHECK(g_dropped == std::vector<uint32_t>{16400, 16401, 16500});
  res = XLogReplay(start);
  CHECK(res.records == 3);
  CHECK(TransactionIdGetStatus(100) == XidStatus::kCommitted);
  // From the very start the kRmgrTest record has no redo function: a clear error.
  RegisterRmgr(kRmgrTest, "test", nullptr);
  CHECK_THROWS_AS(XLogReplay(first), std::runtime_error);
  SetXactRedoDropHook(nullptr);
  TransamShutdown();
}
