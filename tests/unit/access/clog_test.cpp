#include <catch2/catch.hpp>
#include <filesystem>
#include <vector>

#include "access/transam/clog.h"
#include "access/transam/varsup.h"
#include "access_test_util.h"

using namespace hearth::access;
using hearth::access::testing::TransamCluster;

namespace {
constexpr TransactionId kPage = 32768;  // xids per clog page
}

TEST_CASE("Clog records statuses across pages and special xids", "[clog]") {
  TransamCluster c;
  CHECK(TransactionIdGetStatus(kBootstrapTransactionId) == XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(kFrozenTransactionId) == XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(kInvalidTransactionId) == XidStatus::kAborted);
  CHECK(TransactionIdGetStatus(100) == XidStatus::kInProgress);

  // Neighbours in one byte must not disturb each other.
  TransactionIdSetStatus(4, XidStatus::kCommitted);
  TransactionIdSetStatus(5, XidStatus::kAborted);
  TransactionIdSetStatus(7, XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(4) == XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(5) == XidStatus::kAborted);
  CHECK(TransactionIdGetStatus(6) == XidStatus::kInProgress);
  CHECK(TransactionIdGetStatus(7) == XidStatus::kCommitted);
  CHECK(TransactionIdDidCommit(4));
  CHECK(TransactionIdDidAbort(5));
  CHECK_FALSE(TransactionIdDidCommit(6));

  // Page boundaries, and more pages than the 32 buffers (forces eviction
  // writes and re-reads).
  std::vector<TransactionId> committed, aborted;
  for (TransactionId page = 0; page < 40; page++) {
    committed.push_back(page * kPage + kPage - 1);
    aborted.push_back((page + 1) * kPage);
    TransactionIdSetStatus(committed.back(), XidStatus::kCommitted);
    TransactionIdSetStatus(aborted.back(), XidStatus::kAborted);
  }
  for (size_t i = 0; i < committed.size(); i++) {
    INFO("page " << i);
    CHECK(TransactionIdGetStatus(committed[i]) == XidStatus::kCommitted);
    CHECK(TransactionIdGetStatus(aborted[i]) == XidStatus::kAborted);
    CHECK(TransactionIdGetStatus(committed[i] - 1) == XidStatus::kInProgress);
  }
  // Evicted pages went to segment files of 32 pages each.
  CHECK(std::filesystem::exists(c.dir + "/pg_xact/0000"));
  CHECK(std::filesystem::exists(c.dir + "/pg_xact/0001"));
}

TEST_CASE("Clog survives a restart through its files after a checkpoint", "[clog]") {
  TransamCluster c;
  TransactionIdSetStatus(10, XidStatus::kCommitted);
  TransactionIdSetStatus(11, XidStatus::kAborted);
  TransactionIdSetStatus(3 * kPage + 5, XidStatus::kCommitted);
  TransamCheckpoint();
  TransactionIdSetStatus(12, XidStatus::kCommitted);  // after the checkpoint: lost in a crash
  c.Restart();                                        // crash: no shutdown
  CHECK(TransactionIdGetStatus(10) == XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(11) == XidStatus::kAborted);
  CHECK(TransactionIdGetStatus(12) == XidStatus::kInProgress);
  CHECK(TransactionIdGetStatus(3 * kPage + 5) == XidStatus::kCommitted);
  CHECK(TransactionIdGetStatus(3 * kPage + 6) == XidStatus::kInProgress);
  TransactionIdSetStatus(12, XidStatus::kAborted);
  TransamShutdown();
  c.Restart();
  CHECK(TransactionIdGetStatus(12) == XidStatus::kAborted);
  CHECK(std::filesystem::file_size(c.dir + "/pg_xact/0000") == 4 * 8192);
}

namespace {
std::vector<uint64_t> g_flushed_lsns;
void RecordFlush(uint64_t lsn) { g_flushed_lsns.push_back(lsn); }
}  // namespace

TEST_CASE("Clog asks WAL to be flushed up to a page's commit LSN before writing it", "[clog]") {
  TransamCluster c;
  g_flushed_lsns.clear();
  SetClogWalFlushHook(RecordFlush);
  TransactionIdSetStatus(20, XidStatus::kCommitted, 5000);
  TransactionIdSetStatus(21, XidStatus::kCommitted, 7000);
  TransactionIdSetStatus(22, XidStatus::kAborted, 6000);
  TransactionIdSetStatus(kPage + 1, XidStatus::kAborted);  // no LSN: no flush request
  ClogFlush();
  SetClogWalFlushHook(nullptr);
  REQUIRE(g_flushed_lsns.size() == 1);
  CHECK(g_flushed_lsns[0] == 7000);
}
