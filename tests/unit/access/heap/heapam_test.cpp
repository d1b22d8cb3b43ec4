// Heap operations in one process: insert/scan across pages, visibility with
// several transactions, update chains, fetch, fillfactor, multi-insert, FSM.
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "access/heap/freespace.h"
#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "common/error/db_error.h"
#include "heap_test_util.h"

using namespace hearth;
using namespace hearth::heap;
using hearth::heap::testing::HeapCluster;
using types::Value;

namespace {

const TupleDesc& Desc() {
  static const TupleDesc d = TupleDesc::FromTypes({types::kInt4Oid, types::kTextOid});
  return d;
}

Row MakeRow(int id, const std::string& s) { return Row{Value::Int4(id), Value::Text(s)}; }

struct Tx {
  access::TransactionId xid;
  access::CommandId cid;
};

Tx Begin() {
  access::StartTransaction();
  Tx t;
  t.xid = access::GetCurrentTransactionId();
  t.cid = access::GetCurrentCommandId(true);
  return t;
}

// Rows visible to a fresh statement snapshot of the current transaction.
std::vector<std::pair<int, std::string>> ScanNow(storage::RelFileLocator rel, std::vector<ItemPointer>* tids = nullptr) {
  const access::Snapshot& snap = access::GetTransactionSnapshot();
  HeapScan scan(rel, Desc(), snap, access::GetCurrentTransactionIdIfAny());
  std::vector<std::pair<int, std::string>> out;
  Row row;
  ItemPointer tid;
  while (scan.Next(&row, &tid)) {
    out.emplace_back(static_cast<int>(row[0].i), row[1].str);
    if (tids != nullptr) tids->push_back(tid);
  }
  return out;
}

// Rows visible to a new read-only transaction.
std::vector<std::pair<int, std::string>> ScanCommitted(storage::RelFileLocator rel) {
  access::StartTransaction();
  auto rows = ScanNow(rel);
  access::CommitTransaction();
  return rows;
}

uint16_t InfomaskAt(storage::RelFileLocator rel, ItemPointer tid) {
  storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, tid.block);
  return reinterpret_cast<const HeapTupleHeaderData*>(g.page().GetItem(tid.offset).data())->t_infomask;
}

}  // namespace

TEST_CASE("many rows across pages come back from a scan, larger than the pool", "[heap]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(100);
  Tx t = Begin();
  const int kRows = 6000;
  const std::string pad(40, 'p');
  std::vector<ItemPointer> inserted;
  for (int i = 0; i < kRows; ++i) inserted.push_back(HeapInsert(rel, Desc(), MakeRow(i, pad + std::to_string(i)), t.xid, t.cid));
  access::CommitTransaction();
  CHECK(storage::PrivatePinCount() == 0);

  // 24 + 4 + 4 + ~44 = 80 bytes (+4 line pointer) → 97 rows per page.
  const storage::BlockNumber nblocks = storage::SmgrNblocks(rel, storage::ForkNumber::kMain);
  CHECK(nblocks == (kRows + 96) / 97);
  CHECK(nblocks > 32);  // bigger than shared_buffers: pages were evicted and re-read

  access::StartTransaction();
  const access::Snapshot& snap = access::GetTransactionSnapshot();
  HeapScan scan(rel, Desc(), snap, access::kInvalidTransactionId);
  CHECK(scan.uses_bulkread());
  Row row;
  ItemPointer tid;
  int n = 0;
  while (scan.Next(&row, &tid)) {
    REQUIRE(row[0].i == n);  // one process appends in order
    REQUIRE(row[1].str == pad + std::to_string(n));
    REQUIRE(tid == inserted[static_cast<size_t>(n)]);
    ++n;
  }
  CHECK(n == kRows);
  CHECK(storage::PrivatePinCount() == 0);
  access::CommitTransaction();
  // HeapFetch by TID.
  access::StartTransaction();
  Row r;
  CHECK(HeapFetch(rel, Desc(), inserted[4321], access::GetTransactionSnapshot(), access::kInvalidTransactionId, &r));
  CHECK(r[0].i == 4321);
  CHECK_FALSE(HeapFetch(rel, Desc(), ItemPointer{nblocks + 5, 1}, access::GetTransactionSnapshot(), 0, &r));
  CHECK_FALSE(HeapFetch(rel, Desc(), ItemPointer{0, 500}, access::GetTransactionSnapshot(), 0, &r));
  CHECK(ItemPointerFromU64(ItemPointerToU64(inserted[4321])) == inserted[4321]);
  CHECK(ItemPointerToU64(ItemPointer{3, 7}) == ((3u << 16) | 7u));
  access::CommitTransaction();
}

TEST_CASE("visibility across transactions and commands", "[heap][mvcc]") {
  HeapCluster c;
  auto rel = c.CreateRel(101);

  // Own uncommitted insert: invisible to the inserting command, visible to later ones.
  Tx t1 = Begin();
  ItemPointer a = HeapInsert(rel, Desc(), MakeRow(1, "a"), t1.xid, t1.cid);
  CHECK(ScanNow(rel).empty());
  access::CommandCounterIncrement();
  CHECK(ScanNow(rel) == std::vector<std::pair<int, std::string>>{{1, "a"}});
  access::CommitTransaction();

  // Aborted insert: never visible; the scan sets the xmin-invalid hint.
  Tx t2 = Begin();
  ItemPointer b = HeapInsert(rel, Desc(), MakeRow(2, "b"), t2.xid, t2.cid);
  access::AbortTransaction();
  CHECK(ScanCommitted(rel) == std::vector<std::pair<int, std::string>>{{1, "a"}});
  CHECK((InfomaskAt(rel, b) & access::kHeapXminInvalid) != 0);
  CHECK((InfomaskAt(rel, a) & access::kHeapXminCommitted) != 0);

  // Delete by an aborted transaction: still visible.
  Tx t3 = Begin();
  CHECK(HeapDelete(rel, a, t3.xid, t3.cid, nullptr, true, nullptr) == TmResult::kOk);
  access::CommandCounterIncrement();
  CHECK(ScanNow(rel).empty());  // own delete visible to self
  access::AbortTransaction();
  CHECK(ScanCommitted(rel).size() == 1);

  // Delete by a committed transaction: gone.
  Tx t4 = Begin();
  TmFailureData fd;
  CHECK(HeapDelete(rel, a, t4.xid, t4.cid, nullptr, true, &fd) == TmResult::kOk);
  // Deleting it again in the same command: already changed by us.
  CHECK(HeapDelete(rel, a, t4.xid, t4.cid, nullptr, true, &fd) == TmResult::kSelfUpdated);
  CHECK(fd.cmax == t4.cid);
  access::CommitTransaction();
  CHECK(ScanCommitted(rel).empty());

  // Deleting a committed-deleted row: kDeleted; an aborted row: kInvisible.
  Tx t5 = Begin();
  CHECK(HeapDelete(rel, a, t5.xid, t5.cid, nullptr, true, &fd) == TmResult::kDeleted);
  CHECK(fd.xmax == t4.xid);
  CHECK(HeapDelete(rel, b, t5.xid, t5.cid, nullptr, true, &fd) == TmResult::kInvisible);
  CHECK(HeapDelete(rel, ItemPointer{0, 99}, t5.xid, t5.cid, nullptr, true, &fd) == TmResult::kInvisible);
  access::CommitTransaction();
}

TEST_CASE("update chains, latest version and self-updated", "[heap][update]") {
  HeapCluster c;
  auto rel = c.CreateRel(102);
  Tx t0 = Begin();
  ItemPointer v1 = HeapInsert(rel, Desc(), MakeRow(7, "v1"), t0.xid, t0.cid);
  access::CommitTransaction();

  Tx t1 = Begin();
  ItemPointer v2, v3;
  TmFailureData fd;
  REQUIRE(HeapUpdate(rel, v1, Desc(), MakeRow(7, "v2"), t1.xid, t1.cid, nullptr, true, &fd, &v2) == TmResult::kOk);
  CHECK(v2.block == v1.block);  // fits on the same page
  CHECK_FALSE(v2 == v1);
  access::CommandCounterIncrement();
  // Updating our own new version in a later command works (combo cid on v2).
  const access::CommandId cid2 = access::GetCurrentCommandId(true);
  REQUIRE(HeapUpdate(rel, v2, Desc(), MakeRow(7, "v3"), t1.xid, cid2, nullptr, true, &fd, &v3) == TmResult::kOk);
  // v3 was made by this command: updating it again now is invisible; v2 is self-updated.
  CHECK(HeapUpdate(rel, v2, Desc(), MakeRow(7, "x"), t1.xid, cid2, nullptr, true, &fd, nullptr) ==
        TmResult::kSelfUpdated);
  CHECK(HeapUpdate(rel, v3, Desc(), MakeRow(7, "x"), t1.xid, cid2, nullptr, true, &fd, nullptr) ==
        TmResult::kInvisible);
  access::CommandCounterIncrement();
  CHECK(ScanNow(rel) == std::vector<std::pair<int, std::string>>{{7, "v3"}});
  access::CommitTransaction();

  access::StartTransaction();
  const access::Snapshot& snap = access::GetTransactionSnapshot();
  Row r;
  CHECK_FALSE(HeapFetch(rel, Desc(), v1, snap, 0, &r));
  CHECK_FALSE(HeapFetch(rel, Desc(), v2, snap, 0, &r));
  REQUIRE(HeapFetch(rel, Desc(), v3, snap, 0, &r));
  CHECK(r[1].str == "v3");
  ItemPointer latest;
  r.clear();
  REQUIRE(HeapGetLatestVersion(rel, Desc(), v1, snap, 0, &latest, &r));
  CHECK(latest == v3);
  CHECK(r[1].str == "v3");
  access::CommitTransaction();

  // A writer still holding the old TID is told where the row went.
  Tx t2 = Begin();
  CHECK(HeapDelete(rel, v1, t2.xid, t2.cid, nullptr, true, &fd) == TmResult::kUpdated);
  CHECK(fd.ctid == v2);
  CHECK(fd.xmax == t1.xid);
  // Repeatable-Read style crosscheck: a snapshot older than the update does not see v3.
  access::Snapshot old_snap;
  old_snap.xmin = t0.xid + 1;
  old_snap.xmax = t1.xid;  // t1 counts as running for it
  CHECK(HeapDelete(rel, v3, t2.xid, t2.cid, &old_snap, true, &fd) == TmResult::kUpdated);
  CHECK(HeapDelete(rel, v3, t2.xid, t2.cid, nullptr, true, &fd) == TmResult::kOk);
  access::CommitTransaction();
  access::StartTransaction();
  CHECK_FALSE(HeapGetLatestVersion(rel, Desc(), v1, access::GetTransactionSnapshot(), 0, &latest, nullptr));
  access::CommitTransaction();
}

TEST_CASE("an update that does not fit goes to another page and links to it", "[heap][update]") {
  HeapCluster c;
  auto rel = c.CreateRel(103);
  Tx t0 = Begin();
  std::vector<ItemPointer> tids;
  for (int i = 0; i < 16; ++i) tids.push_back(HeapInsert(rel, Desc(), MakeRow(i, std::string(900, 'a' + i)), t0.xid, t0.cid));
  access::CommitTransaction();
  REQUIRE(tids[0].block == 0);
  REQUIRE(tids[7].block == 0);  // 8 × (936 + 4) bytes fill page 0
  REQUIRE(tids[8].block == 1);

  Tx t1 = Begin();
  ItemPointer nt;
  TmFailureData fd;
  REQUIRE(HeapUpdate(rel, tids[3], Desc(), MakeRow(3, std::string(2000, 'z')), t1.xid, t1.cid, nullptr, true, &fd,
                     &nt) == TmResult::kOk);
  CHECK(nt.block != 0);
  // The old version is no longer row-locked but updated: xmax = t1, ctid → new.
  {
    storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, 0);
    auto* h = reinterpret_cast<const HeapTupleHeaderData*>(g.page().GetItem(tids[3].offset).data());
    CHECK(h->t_xmax == t1.xid);
    CHECK((h->t_infomask & access::kHeapUpdated) != 0);
    CHECK((h->t_infomask & access::kHeapXmaxLockOnly) == 0);
    CHECK(h->ctid() == nt);
  }
  access::CommitTransaction();
  // The link from the old version (checked before a scan prunes page 0: the
  // old version is dead to everyone now).
  access::StartTransaction();
  ItemPointer latest;
  CHECK(HeapGetLatestVersion(rel, Desc(), tids[3], access::GetTransactionSnapshot(), 0, &latest, nullptr));
  CHECK(latest == nt);
  access::CommitTransaction();
  auto rows = ScanCommitted(rel);
  CHECK(rows.size() == 16);
  int threes = 0;
  for (auto& [id, s] : rows) {
    if (id == 3) {
      ++threes;
      CHECK(s == std::string(2000, 'z'));
    }
  }
  CHECK(threes == 1);
}

TEST_CASE("row lock by xmax: own lock is reentrant and does not hide the row", "[heap][lock]") {
  HeapCluster c;
  auto rel = c.CreateRel(104);
  Tx t0 = Begin();
  ItemPointer a = HeapInsert(rel, Desc(), MakeRow(1, "a"), t0.xid, t0.cid);
  access::CommitTransaction();
  Tx t1 = Begin();
  TmFailureData fd;
  CHECK(HeapLockTuple(rel, a, t1.xid, t1.cid, true, &fd) == TmResult::kOk);
  CHECK(HeapLockTuple(rel, a, t1.xid, t1.cid, true, &fd) == TmResult::kOk);
  CHECK((InfomaskAt(rel, a) & access::kHeapXmaxLockOnly) != 0);
  access::CommandCounterIncrement();
  CHECK(ScanNow(rel).size() == 1);
  ItemPointer nt;
  CHECK(HeapUpdate(rel, a, Desc(), MakeRow(1, "b"), t1.xid, access::GetCurrentCommandId(true), nullptr, true, &fd,
                   &nt) == TmResult::kOk);
  access::CommitTransaction();
  CHECK(ScanCommitted(rel) == std::vector<std::pair<int, std::string>>{{1, "b"}});
}

TEST_CASE("fillfactor leaves room; same-page updates may use it", "[heap][fsm]") {
  HeapCluster c;
  auto rel = c.CreateRel(105);
  Tx t = Begin();
  HeapInsertOptions opts;
  opts.fillfactor = 50;
  std::vector<ItemPointer> tids;
  for (int i = 0; i < 400; ++i) tids.push_back(HeapInsert(rel, Desc(), MakeRow(i, std::string(60, 'f')), t.xid, t.cid, opts));
  const storage::BlockNumber nblocks = storage::SmgrNblocks(rel, storage::ForkNumber::kMain);
  // ~96 bytes per row: at 50% about 42 rows per page instead of 84.
  CHECK(nblocks >= 9);
  CHECK(nblocks <= 11);
  for (storage::BlockNumber b = 0; b < nblocks; ++b) {
    storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, b);
    CHECK(g.page().FreeSpace() + 4 >= FillfactorReserve(50));
  }
  access::CommandCounterIncrement();
  ItemPointer nt;
  TmFailureData fd;
  REQUIRE(HeapUpdate(rel, tids[0], Desc(), MakeRow(0, std::string(60, 'g')), t.xid, access::GetCurrentCommandId(true),
                     nullptr, true, &fd, &nt) == TmResult::kOk);
  CHECK(nt.block == tids[0].block);
  access::CommitTransaction();
}

TEST_CASE("oversized rows are refused before touching the relation", "[heap]") {
  HeapCluster c;
  auto rel = c.CreateRel(106);
  Tx t = Begin();
  try {
    HeapInsert(rel, Desc(), MakeRow(1, std::string(9000, 'x')), t.xid, t.cid);
    FAIL("expected 54000");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "54000");
    CHECK(e.message() == "row is too big: size 9032, maximum size 8160");
  }
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kMain) == 0);
  CHECK(storage::PrivatePinCount() == 0);
  // The biggest row that fits takes a page of its own.
  HeapInsert(rel, Desc(), MakeRow(1, std::string(8128, 'x')), t.xid, t.cid);
  HeapInsert(rel, Desc(), MakeRow(2, "small"), t.xid, t.cid);
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kMain) == 2);
  access::CommitTransaction();
}

TEST_CASE("multi-insert fills pages through a BULKWRITE ring", "[heap][bulk]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(107);
  Tx t = Begin();
  BulkInsertState bulk;
  HeapInsertOptions opts;
  opts.bulk = &bulk;
  std::vector<ItemPointer> tids;
  std::vector<Row> batch;
  int next = 0;
  for (int b = 0; b < 60; ++b) {
    batch.clear();
    for (int i = 0; i < 100; ++i, ++next) batch.push_back(MakeRow(next, std::string(40, 'm')));
    HeapMultiInsert(rel, Desc(), batch, t.xid, t.cid, opts, &tids);
    CHECK(storage::PrivatePinCount() == 1);  // the target page stays pinned between batches
  }
  // Single rows through the same bulk state continue on the kept page.
  ItemPointer last = HeapInsert(rel, Desc(), MakeRow(next++, "tail"), t.xid, t.cid, opts);
  CHECK(last.block == tids.back().block);
  bulk.ReleaseBuffer();
  CHECK(storage::PrivatePinCount() == 0);
  REQUIRE(tids.size() == 6000);
  std::set<std::pair<uint32_t, uint16_t>> uniq;
  for (size_t i = 0; i < tids.size(); ++i) {
    uniq.insert({tids[i].block, tids[i].offset});
    if (i > 0) {
      const bool next_slot = tids[i].block == tids[i - 1].block && tids[i].offset == tids[i - 1].offset + 1;
      const bool next_page = tids[i].block == tids[i - 1].block + 1 && tids[i].offset == 1;
      REQUIRE((next_slot || next_page));
    }
  }
  CHECK(uniq.size() == 6000);
  // 72-byte tuples + line pointer: 107 per page. The relation was extended
  // in runs of 8, 16, 32, 64 blocks, so it may end past the last used page.
  CHECK(tids.back().block + 1 == (6000 + 106) / 107);
  const storage::BlockNumber nblocks = storage::SmgrNblocks(rel, storage::ForkNumber::kMain);
  CHECK(nblocks == 8 + 16 + 32 + 64);  // the runs: 8, 16, 32, then 64 a time
  // The ring (capped at 1/8 of 32 buffers) kept the load out of most of the pool.
  CHECK(storage::CountBuffersOfRelation(rel) <= 8);
  access::CommitTransaction();
  auto rows = ScanCommitted(rel);
  REQUIRE(rows.size() == 6001);
  CHECK(rows[5999].first == 5999);
  CHECK(rows[6000].second == "tail");
}

TEST_CASE("free-space map records and finds pages", "[heap][fsm]") {
  HeapCluster c;
  auto rel = c.CreateRel(108);
  CHECK(GetPageWithFreeSpace(rel, 100, 100000) == storage::kInvalidBlockNumber);
  RecordPageWithFreeSpace(rel, 5, 1000);
  CHECK(GetRecordedFreeSpace(rel, 5) == 992);  // category granularity 32 bytes, rounded down
  CHECK(GetPageWithFreeSpace(rel, 900, 100000) == 5);
  CHECK(GetPageWithFreeSpace(rel, 993, 100000) == storage::kInvalidBlockNumber);
  CHECK(GetPageWithFreeSpace(rel, 900, 100000, /*exclude=*/5) == storage::kInvalidBlockNumber);
  CHECK(GetPageWithFreeSpace(rel, 900, /*limit=*/5) == storage::kInvalidBlockNumber);
  // A block described by the second FSM page.
  RecordPageWithFreeSpace(rel, 9000, 8000);
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kFsm) == 2);
  CHECK(GetPageWithFreeSpace(rel, 4000, 100000) == 9000);
  RecordPageWithFreeSpace(rel, 9000, 0);
  CHECK(GetPageWithFreeSpace(rel, 4000, 100000) == storage::kInvalidBlockNumber);
  CHECK(GetPageWithFreeSpace(rel, 500, 100000) == 5);
}
