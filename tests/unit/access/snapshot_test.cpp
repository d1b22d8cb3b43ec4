#include <catch2/catch.hpp>
#include <vector>

#include "access/transam/snapshot.h"
#include "access_test_util.h"

using namespace hearth::access;
using hearth::access::testing::TransamCluster;
using hearth::storage::ProcArray;

TEST_CASE("Snapshots list the running xids of other proc slots", "[snapshot]") {
  TransamCluster c;  // we are slot 0
  auto* pa = ProcArray();
  pa->latest_completed_xid = 20;
  pa->slots[1].xid = 12;
  pa->slots[3].xid = 17;
  pa->slots[4].xid = 25;  // assigned after latest_completed: >= xmax anyway
  pa->slots[5].xmin = 9;  // a read-only snapshot holder
  pa->slots[0].xid = 15;  // our own xid is not in the list

  Snapshot snap;
  GetSnapshotData(&snap);
  CHECK(snap.xmin == 12);
  CHECK(snap.xmax == 21);
  CHECK(snap.xip == std::vector<TransactionId>{12, 17});
  CHECK(pa->slots[0].xmin.load() == 12);  // advertised for vacuum

  CHECK_FALSE(snap.XidInProgress(11));  // ended before the snapshot
  CHECK(snap.XidInProgress(12));
  CHECK_FALSE(snap.XidInProgress(13));  // ended (not listed)
  CHECK(snap.XidInProgress(17));
  CHECK_FALSE(snap.XidInProgress(20));
  CHECK(snap.XidInProgress(21));  // at or beyond xmax: started after us
  CHECK(snap.XidInProgress(25));

  CHECK(TransactionIdIsInProgress(17));
  CHECK(TransactionIdIsInProgress(15));
  CHECK_FALSE(TransactionIdIsInProgress(13));

  // Vacuum's horizon: the oldest of running xids and advertised xmins.
  CHECK(GetOldestXmin() == 9);
  pa->slots[5].xmin = 0;
  CHECK(GetOldestXmin() == 12);

  // Slot 1 ends: out of the array, latest_completed unchanged (12 < 20).
  {
    // Act as slot 1 for ProcArrayEndTransaction.
    hearth::storage::ReleaseProcSlot();
    hearth::storage::ClaimProcSlot(1, hearth::storage::BackendType::kClient);
    pa->slots[1].xid = 12;
    ProcArrayEndTransaction(12);
    CHECK(pa->slots[1].xid.load() == 0);
    CHECK(pa->latest_completed_xid.load() == 20);
    pa->slots[1].xid = 22;
    ProcArrayEndTransaction(22);
    CHECK(pa->latest_completed_xid.load() == 22);
    hearth::storage::ReleaseProcSlot();
    hearth::storage::ClaimProcSlot(0, hearth::storage::BackendType::kClient);
  }
  pa->slots[0].xid = 15;
  GetSnapshotData(&snap);
  CHECK(snap.xmin == 17);  // our own xid is not listed and does not count...
  CHECK(snap.xmax == 23);
  CHECK(snap.xip == std::vector<TransactionId>{17});
  CHECK(pa->slots[0].xmin.load() == 15);  // ...but it does hold back vacuum
  pa->slots[0].xid = 0;
  pa->slots[3].xid = 0;
  pa->slots[4].xid = 0;
}
