// VACUUM: dead versions are removed, their space is reused without growing
// the relation, recently-dead versions are kept, index cleanup sees the
// TIDs, and a pinned page is cleaned without being compacted.
#include <algorithm>

#include <catch2/catch.hpp>

#include "access/heap/freespace.h"
#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/heap/vacuumlazy.h"
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

std::vector<ItemPointer> InsertRows(storage::RelFileLocator rel, int from, int n, bool commit = true) {
  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  const auto cid = access::GetCurrentCommandId(true);
  std::vector<ItemPointer> tids;
  for (int i = from; i < from + n; ++i) tids.push_back(HeapInsert(rel, Desc(), Row{Value::Int4(i), Value::Text(std::string(60, 'v'))}, xid, cid));
  if (commit) {
    access::CommitTransaction();
  } else {
    access::AbortTransaction();
  }
  return tids;
}

// Deletes the rows whose id satisfies `pred`; returns their TIDs and the deleter's xid.
std::vector<ItemPointer> DeleteWhere(storage::RelFileLocator rel, bool (*pred)(int64_t), access::TransactionId* xid_out = nullptr) {
  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  const auto cid = access::GetCurrentCommandId(true);
  std::vector<ItemPointer> victims;
  {
    HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), xid);
    Row row;
    ItemPointer tid;
    while (scan.Next(&row, &tid)) {
      if (pred(row[0].i)) victims.push_back(tid);
    }
  }
  for (ItemPointer t : victims) REQUIRE(HeapDelete(rel, t, xid, cid, nullptr, true, nullptr) == TmResult::kOk);
  access::CommitTransaction();
  if (xid_out != nullptr) *xid_out = xid;
  return victims;
}

int CountRows(storage::RelFileLocator rel) {
  access::StartTransaction();
  HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), access::kInvalidTransactionId);
  Row row;
  int n = 0;
  while (scan.Next(&row)) ++n;
  access::CommitTransaction();
  return n;
}

storage::BlockNumber Nblocks(storage::RelFileLocator rel) { return storage::SmgrNblocks(rel, storage::ForkNumber::kMain); }

}  // namespace

TEST_CASE("vacuum removes deleted rows and inserts reuse the space", "[heap][vacuum]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(300);
  InsertRows(rel, 0, 2000);
  const auto nblocks = Nblocks(rel);
  REQUIRE(nblocks == 25);  // 96-byte tuples + line pointer: 81 per page
  DeleteWhere(rel, [](int64_t) { return true; });
  CHECK(CountRows(rel) == 0);

  VacuumStats vs = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(vs.pages == nblocks);
  CHECK(vs.tuples_removed == 2000);
  CHECK(vs.tuples_live == 0);
  CHECK(vs.tuples_recently_dead == 0);
  CHECK(vs.pages_compacted == nblocks);
  CHECK(vs.free_bytes >= static_cast<uint64_t>(nblocks) * 8100);
  for (storage::BlockNumber b = 0; b < nblocks; ++b) CHECK(GetRecordedFreeSpace(rel, b) >= 8100);
  {
    storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, 3);
    CHECK(g.page().MaxOffset() == 0);  // all line pointers unused and trimmed
    CHECK(g.page().FreeSpace() == 8164);
  }
  // Nothing left to do on a second pass.
  VacuumStats again = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(again.tuples_removed == 0);
  CHECK(again.pages_compacted == 0);

  InsertRows(rel, 10000, 2000);
  CHECK(Nblocks(rel) == nblocks);
  CHECK(CountRows(rel) == 2000);
}

TEST_CASE("vacuum keeps recently dead versions and removes aborted inserts", "[heap][vacuum]") {
  HeapCluster c;
  auto rel = c.CreateRel(301);
  InsertRows(rel, 0, 10);
  access::TransactionId deleter = 0;
  DeleteWhere(rel, [](int64_t id) { return id % 2 == 0; }, &deleter);
  InsertRows(rel, 100, 7, /*commit=*/false);

  // A horizon at the deleter: some snapshot may still see its victims.
  VacuumStats vs = HeapVacuumRelation(rel, deleter);
  CHECK(vs.tuples_recently_dead == 5);
  CHECK(vs.tuples_removed == 7);  // the aborted inserts are dead to everyone
  CHECK(vs.tuples_live == 5);
  CHECK(CountRows(rel) == 5);

  vs = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(vs.tuples_recently_dead == 0);
  CHECK(vs.tuples_removed == 5);
  CHECK(vs.tuples_live == 5);
  CHECK(CountRows(rel) == 5);
}

TEST_CASE("vacuum hands dead TIDs to index cleanup before reusing the slots", "[heap][vacuum]") {
  HeapCluster c;
  auto rel = c.CreateRel(302);
  InsertRows(rel, 0, 300);
  std::vector<ItemPointer> victims = DeleteWhere(rel, [](int64_t id) { return id % 3 == 0; });
  REQUIRE(victims.size() == 100);

  std::vector<ItemPointer> seen;
  bool slots_still_dead = true;
  VacuumStats vs = HeapVacuumRelation(rel, access::GetOldestXmin(), [&](std::span<const ItemPointer> tids) {
    seen.assign(tids.begin(), tids.end());
    // During the callback the slots are DEAD, not yet reusable.
    storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, tids[0].block);
    slots_still_dead = g.page().GetItemId(tids[0].offset).state() == storage::ItemState::kDead;
  });
  CHECK(vs.tuples_removed == 100);
  CHECK(vs.tuples_live == 200);
  CHECK(slots_still_dead);
  auto key = [](const ItemPointer& t) { return std::make_pair(t.block, t.offset); };
  std::sort(victims.begin(), victims.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
  CHECK(seen == victims);
  {
    storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, victims[0].block);
    CHECK(g.page().GetItemId(victims[0].offset).IsUnused());
  }
  // New rows take the freed slots: the relation does not grow.
  const auto nblocks = Nblocks(rel);
  InsertRows(rel, 1000, 100);
  CHECK(Nblocks(rel) == nblocks);
  CHECK(CountRows(rel) == 300);
}

TEST_CASE("an update-heavy workload stays bounded with vacuum", "[heap][vacuum]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(303);
  InsertRows(rel, 0, 400);
  const auto initial = Nblocks(rel);
  for (int round = 0; round < 12; ++round) {
    access::StartTransaction();
    const auto xid = access::GetCurrentTransactionId();
    const auto cid = access::GetCurrentCommandId(true);
    std::vector<std::pair<ItemPointer, int64_t>> rows;
    {
      HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), xid);
      Row row;
      ItemPointer tid;
      while (scan.Next(&row, &tid)) rows.emplace_back(tid, row[0].i);
    }
    for (auto& [tid, id] : rows) {
      ItemPointer nt;
      REQUIRE(HeapUpdate(rel, tid, Desc(), Row{Value::Int4(static_cast<int32_t>(id)), Value::Text(std::string(60, 'a' + round))},
                         xid, cid, nullptr, true, nullptr, &nt) == TmResult::kOk);
    }
    access::CommitTransaction();
    VacuumStats vs = HeapVacuumRelation(rel, access::GetOldestXmin());
    REQUIRE(vs.tuples_removed == 400);
    REQUIRE(vs.tuples_live == 400);
  }
  CHECK(CountRows(rel) == 400);
  CHECK(Nblocks(rel) <= 2 * initial + 1);
}

TEST_CASE("a page pinned by a scan is cleaned but not compacted", "[heap][vacuum]") {
  HeapCluster c;
  auto rel = c.CreateRel(304);
  InsertRows(rel, 0, 200);  // 3 pages
  DeleteWhere(rel, [](int64_t id) { return id % 2 == 0; });
  // A second pin keeps the scan from pruning page 0 itself when it loads it.
  storage::PinnedBuffer extra = storage::ReadBuffer(rel, storage::ForkNumber::kMain, 0);
  access::StartTransaction();
  HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), access::kInvalidTransactionId);
  Row row;
  REQUIRE(scan.Next(&row));  // page 0 stays pinned
  extra.Release();
  int n = 1;
  VacuumStats vs = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(vs.tuples_removed == 100);
  CHECK(vs.pages_without_cleanup == 1);
  CHECK(vs.pages_compacted == vs.pages - 1);
  while (scan.Next(&row)) {
    CHECK(row[0].i % 2 == 1);
    CHECK(row[1].str == std::string(60, 'v'));
    ++n;
  }
  CHECK(n == 100);
  access::CommitTransaction();
  // Next time, with no pin around, page 0 is compacted too.
  VacuumStats vs2 = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(vs2.tuples_removed == 0);
  CHECK(vs2.pages_compacted == 1);
  CHECK(CountRows(rel) == 100);
}

TEST_CASE("an update moves its new version into space vacuum freed on an earlier page", "[heap][vacuum][update]") {
  HeapCluster c;
  auto rel = c.CreateRel(305);
  std::vector<ItemPointer> tids = InsertRows(rel, 0, 243);  // exactly 3 full pages of 81
  REQUIRE(tids.back().block == 2);
  DeleteWhere(rel, [](int64_t id) { return id < 81; });  // page 0 emptied
  HeapVacuumRelation(rel, access::GetOldestXmin());
  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  ItemPointer nt;
  TmFailureData fd;
  REQUIRE(HeapUpdate(rel, tids.back(), Desc(), Row{Value::Int4(242), Value::Text(std::string(3000, 'u'))}, xid,
                     access::GetCurrentCommandId(true), nullptr, true, &fd, &nt) == TmResult::kOk);
  CHECK(nt.block == 0);  // lower than the old page: locks taken new-then-old
  CHECK(storage::PrivatePinCount() == 0);
  access::CommitTransaction();
  CHECK(Nblocks(rel) == 3);
  access::StartTransaction();
  Row row;
  REQUIRE(HeapFetch(rel, Desc(), nt, access::GetTransactionSnapshot(), access::kInvalidTransactionId, &row));
  CHECK(row[0].i == 242);
  CHECK(row[1].str.size() == 3000);
  access::CommitTransaction();
  CHECK(CountRows(rel) == 243 - 81);
}
