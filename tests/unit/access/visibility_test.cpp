#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "access/transam/clog.h"
#include "access/transam/combocid.h"
#include "access/transam/multixact.h"
#include "access/transam/visibility.h"
#include "access_test_util.h"

using namespace hearth::access;
using hearth::access::testing::TransamCluster;

namespace {

// The world the table is evaluated in.
constexpr TransactionId kMe = 100;             // current transaction
constexpr CommandId kCurCid = 5;               // current command
constexpr TransactionId kCommittedOld = 50;    // committed long ago
constexpr TransactionId kCommittedOld2 = 55;   // committed long ago
constexpr TransactionId kAborted = 60;         // aborted
constexpr TransactionId kCrashed = 70;         // never finished (crash): in-progress in clog, not running
constexpr TransactionId kCommittedRecent = 85;  // committed before the snapshot, after oldest_xmin
constexpr TransactionId kRunning = 90;         // running (proc slot 1), in the snapshot
constexpr TransactionId kCommittedLate = 95;   // committed after the snapshot was taken
constexpr TransactionId kFuture = 120;         // started (and committed) after the snapshot
constexpr TransactionId kOldestXmin = 80;

constexpr uint16_t XC = kHeapXminCommitted, XI = kHeapXminInvalid, MC = kHeapXmaxCommitted, MI = kHeapXmaxInvalid;
constexpr uint16_t LOCK = kHeapXmaxLockOnly, UPD = kHeapUpdated, FROZEN = kHeapXminFrozen;

constexpr CommandId kNoCombo = kInvalidCommandId;

struct Case {
  const char* name;
  TransactionId xmin, xmax;
  CommandId cid;       // cmin or cmax (or cmin when combo_cmax given)
  CommandId combo_cmax;  // != kNoCombo: t_cid = combo(cid, combo_cmax)
  uint16_t mask;       // initial infomask
  bool visible;        // TupleSatisfiesMVCC
  uint16_t hints_after;  // hint bits after the MVCC check
  TmResult update;
  VacuumResult vacuum;
};

const Case kCases[] = {
    {"committed insert", kCommittedOld, 0, 0, kNoCombo, 0, true, XC, TmResult::kOk, VacuumResult::kLive},
    {"own insert by earlier command", kMe, 0, 3, kNoCombo, 0, true, 0, TmResult::kOk, VacuumResult::kInsertInProgress},
    {"own insert by current command", kMe, 0, 5, kNoCombo, 0, false, 0, TmResult::kInvisible, VacuumResult::kInsertInProgress},
    {"own insert by later command", kMe, 0, 7, kNoCombo, 0, false, 0, TmResult::kInvisible, VacuumResult::kInsertInProgress},
    {"insert in progress", kRunning, 0, 0, kNoCombo, 0, false, 0, TmResult::kInvisible, VacuumResult::kInsertInProgress},
    {"aborted insert", kAborted, 0, 0, kNoCombo, 0, false, XI, TmResult::kInvisible, VacuumResult::kDead},
    {"crashed insert", kCrashed, 0, 0, kNoCombo, 0, false, XI, TmResult::kInvisible, VacuumResult::kDead},
    {"insert committed after snapshot", kCommittedLate, 0, 0, kNoCombo, 0, false, 0, TmResult::kOk, VacuumResult::kLive},
    {"insert by xid beyond xmax", kFuture, 0, 0, kNoCombo, 0, false, 0, TmResult::kOk, VacuumResult::kLive},
    {"deleted by committed", kCommittedOld, kCommittedOld2, 0, kNoCombo, 0, false, XC | MC, TmResult::kDeleted, VacuumResult::kDead},
    {"updated by recent committed", kCommittedOld, kCommittedRecent, 0, kNoCombo, UPD, false, XC | MC, TmResult::kUpdated,
     VacuumResult::kRecentlyDead},
    {"deleted by in-progress", kCommittedOld, kRunning, 0, kNoCombo, 0, true, XC, TmResult::kBeingModified,
     VacuumResult::kDeleteInProgress},
    {"deleted by aborted", kCommittedOld, kAborted, 0, kNoCombo, 0, true, XC | MI, TmResult::kOk, VacuumResult::kLive},
    {"deleted by crashed", kCommittedOld, kCrashed, 0, kNoCombo, 0, true, XC | MI, TmResult::kOk, VacuumResult::kLive},
    {"deleted, committed after snapshot", kCommittedOld, kCommittedLate, 0, kNoCombo, 0, true, XC, TmResult::kDeleted,
     VacuumResult::kRecentlyDead},
    {"deleted by self, earlier command", kCommittedOld, kMe, 2, kNoCombo, 0, false, XC, TmResult::kInvisible,
     VacuumResult::kDeleteInProgress},
    {"deleted by self, current command", kCommittedOld, kMe, 5, kNoCombo, 0, true, XC, TmResult::kSelfUpdated,
     VacuumResult::kDeleteInProgress},
    {"own insert deleted by self earlier (combo)", kMe, kMe, 1, 3, 0, false, 0, TmResult::kInvisible, VacuumResult::kDeleteInProgress},
    {"own insert deleted by self later (combo)", kMe, kMe, 1, 6, 0, true, 0, TmResult::kSelfUpdated, VacuumResult::kDeleteInProgress},
    {"own insert later, deleted later (combo)", kMe, kMe, 5, 6, 0, false, 0, TmResult::kInvisible, VacuumResult::kDeleteInProgress},
    {"row locked by in-progress", kCommittedOld, kRunning, 0, kNoCombo, LOCK, true, XC, TmResult::kBeingModified, VacuumResult::kLive},
    {"row lock of finished xact", kCommittedOld, kCommittedOld2, 0, kNoCombo, LOCK, true, XC, TmResult::kOk, VacuumResult::kLive},
    {"row locked by self", kCommittedOld, kMe, 0, kNoCombo, LOCK, true, XC, TmResult::kOk, VacuumResult::kLive},
    {"hint says xmin aborted", kCommittedOld, 0, 0, kNoCombo, XI, false, XI, TmResult::kInvisible, VacuumResult::kDead},
    {"frozen xid", kFrozenTransactionId, 0, 0, kNoCombo, 0, true, 0, TmResult::kOk, VacuumResult::kLive},
    {"frozen by hint bits", kCommittedLate, 0, 0, kNoCombo, FROZEN, true, FROZEN, TmResult::kOk, VacuumResult::kLive},
    {"committed hint, but after snapshot", kCommittedLate, 0, 0, kNoCombo, XC, false, XC, TmResult::kOk, VacuumResult::kLive},
    {"xmax committed hint, after snapshot", kCommittedOld, kCommittedLate, 0, kNoCombo, MC | UPD, true, XC | MC, TmResult::kUpdated,
     VacuumResult::kRecentlyDead},
    {"xmax invalid hint trusted", kCommittedOld, kCommittedOld2, 0, kNoCombo, MI, true, XC | MI, TmResult::kOk, VacuumResult::kLive},
};

HeapTupleHeaderData MakeTuple(const Case& c) {
  HeapTupleHeaderData t;
  std::memset(&t, 0, sizeof(t));
  t.t_xmin = c.xmin;
  t.t_xmax = c.xmax;
  t.t_infomask = c.mask;
  t.t_cid = c.cid;
  if (c.combo_cmax != kNoCombo) {
    t.t_cid = GetComboCommandId(c.cid, c.combo_cmax);
    t.t_infomask |= kHeapComboCid;
  }
  t.set_natts(2);
  t.t_hoff = static_cast<uint8_t>(HeapTupleHeaderSize(2, false));
  return t;
}

void SetUpWorld() {
  for (TransactionId x : {kCommittedOld, kCommittedOld2, kCommittedRecent, kCommittedLate, kFuture}) {
    TransactionIdSetStatus(x, XidStatus::kCommitted);
  }
  TransactionIdSetStatus(kAborted, XidStatus::kAborted);
  hearth::storage::ProcArray()->slots[1].xid = kRunning;
  hearth::storage::MyProc()->xid = kMe;
}

Snapshot WorldSnapshot() {
  Snapshot s;
  s.xmin = kRunning;
  s.xmax = 110;
  s.xip = {kRunning, kCommittedLate};
  s.curcid = kCurCid;
  return s;
}

}  // namespace

TEST_CASE("Visibility table: MVCC, update and vacuum verdicts with hint bits", "[visibility]") {
  TransamCluster cluster;
  SetUpWorld();
  const Snapshot snap = WorldSnapshot();
  for (const Case& c : kCases) {
    INFO(c.name);
    {
      HeapTupleHeaderData t = MakeTuple(c);
      bool hints = false;
      CHECK(TupleSatisfiesMVCC(t, snap, kMe, &hints) == c.visible);
      CHECK((t.t_infomask & kHeapHintBits) == c.hints_after);
      CHECK(hints == ((c.mask & kHeapHintBits) != c.hints_after));
      // Same verdict again, now (possibly) answered from the hint bits.
      bool again = false;
      CHECK(TupleSatisfiesMVCC(t, snap, kMe, &again) == c.visible);
      CHECK_FALSE(again);
    }
    {
      HeapTupleHeaderData t = MakeTuple(c);
      bool hints = false;
      TmResult r = TupleSatisfiesUpdate(t, kCurCid, kMe, &hints);
      INFO("update: " << TmResultName(r));
      CHECK(r == c.update);
    }
    {
      HeapTupleHeaderData t = MakeTuple(c);
      bool hints = false;
      VacuumResult r = TupleSatisfiesVacuum(t, kOldestXmin, &hints);
      INFO("vacuum: " << VacuumResultName(r));
      CHECK(r == c.vacuum);
    }
  }
  AtEOXactComboCid();
  hearth::storage::ProcArray()->slots[1].xid = 0;
  hearth::storage::MyProc()->xid = 0;
}

TEST_CASE("Hint bits record only final outcomes", "[visibility]") {
  TransamCluster cluster;
  SetUpWorld();
  HeapTupleHeaderData t = MakeTuple(kCases[0]);
  t.t_xmin = kRunning;
  bool hints = false;
  CHECK(TupleSatisfiesUpdate(t, kCurCid, kMe, &hints) == TmResult::kInvisible);
  CHECK_FALSE(hints);
  CHECK((t.t_infomask & kHeapHintBits) == 0);
  // The running transaction commits: the next check sees it and hints it.
  TransactionIdSetStatus(kRunning, XidStatus::kCommitted);
  hearth::storage::ProcArray()->slots[1].xid = 0;
  CHECK(TupleSatisfiesUpdate(t, kCurCid, kMe, &hints) == TmResult::kOk);
  CHECK(hints);
  CHECK((t.t_infomask & kHeapXminCommitted) != 0);
  // An installed commit-hint check (asynchronous commit) can veto the hint.
  HeapTupleHeaderData u = MakeTuple(kCases[0]);
  SetCommitHintCheck([](TransactionId) { return false; });
  hints = false;
  CHECK(TupleSatisfiesMVCC(u, WorldSnapshot(), kMe, &hints));
  CHECK_FALSE(hints);
  CHECK((u.t_infomask & kHeapHintBits) == 0);
  SetCommitHintCheck(nullptr);
  hearth::storage::MyProc()->xid = 0;
}

TEST_CASE("SetXmax stamps deletes, updates and locks with combo ids for own tuples", "[visibility]") {
  TransamCluster cluster;
  SetUpWorld();
  HeapTupleHeaderData own = MakeTuple(kCases[1]);  // inserted by kMe at cid 3
  HeapTupleHeaderSetXmax(own, kMe, 6, /*is_update=*/true, /*lock_only=*/false);
  CHECK(own.t_xmax == kMe);
  CHECK((own.t_infomask & kHeapComboCid) != 0);
  CHECK((own.t_infomask & kHeapUpdated) != 0);
  CHECK(HeapTupleHeaderGetCmin(own) == 3);
  CHECK(HeapTupleHeaderGetCmax(own) == 6);
  Snapshot snap = WorldSnapshot();
  CHECK(TupleSatisfiesMVCC(own, snap, kMe, nullptr));  // deleted by a later command
  snap.curcid = 7;
  CHECK_FALSE(TupleSatisfiesMVCC(own, snap, kMe, nullptr));

  HeapTupleHeaderData other = MakeTuple(kCases[0]);  // inserted by a committed xact
  other.t_infomask |= kHeapXmaxInvalid;              // stale hint from before
  HeapTupleHeaderSetXmax(other, kMe, 4, false, false);
  CHECK((other.t_infomask & (kHeapComboCid | kHeapXmaxInvalid | kHeapUpdated)) == 0);
  CHECK(HeapTupleHeaderGetCmax(other) == 4);
  CHECK(TupleSatisfiesUpdate(other, kCurCid, kMe, nullptr) == TmResult::kInvisible);
  CHECK(TupleSatisfiesUpdate(other, 4, kMe, nullptr) == TmResult::kSelfUpdated);

  HeapTupleHeaderData locked = MakeTuple(kCases[0]);
  HeapTupleHeaderSetXmax(locked, kMe, 4, false, /*lock_only=*/true);
  CHECK((locked.t_infomask & kHeapXmaxLockOnly) != 0);
  CHECK(TupleSatisfiesMVCC(locked, WorldSnapshot(), kMe, nullptr));
  CHECK(TupleSatisfiesUpdate(locked, kCurCid, kMe, nullptr) == TmResult::kOk);
  AtEOXactComboCid();
  hearth::storage::ProcArray()->slots[1].xid = 0;
  hearth::storage::MyProc()->xid = 0;
}

TEST_CASE("Lock-only xmax: multixacts, unknown ids and crashed lockers never hide a row", "[visibility]") {
  TransamCluster cluster;
  SetUpWorld();
  Snapshot snap = WorldSnapshot();
  auto locked_by = [](TransactionId xmax, uint16_t extra) {
    HeapTupleHeaderData t = MakeTuple(kCases[0]);  // inserted by a committed xact
    t.t_xmax = xmax;
    t.t_infomask = static_cast<uint16_t>((t.t_infomask & ~kHeapXmaxInvalid) | kHeapXmaxLockOnly | extra);
    return t;
  };
  // A running member other than the caller: kBeingModified (the heap then
  // compares lock modes); visible to readers either way.
  const RowLocker live[] = {{kRunning, RowLockMode::kKeyShare}, {kMe, RowLockMode::kShare}};
  HeapTupleHeaderData shared = locked_by(MultiXactCreate(live), kHeapXmaxIsMulti);
  CHECK(TupleSatisfiesMVCC(shared, snap, kMe, nullptr));
  CHECK(TupleSatisfiesUpdate(shared, kCurCid, kMe, nullptr) == TmResult::kBeingModified);
  CHECK(TupleSatisfiesVacuum(shared, kOldestXmin, nullptr) == VacuumResult::kLive);
  CHECK((shared.t_infomask & kHeapXmaxInvalid) == 0);
  RowLocker members[kMultiXactMaxMembers];
  REQUIRE(MultiXactGetMembers(shared.t_xmax, members) == 2);
  CHECK(members[0].xid == kRunning);
  CHECK(members[1].mode == RowLockMode::kShare);
  // Only finished members, an id nobody knows (after a restart), a crashed
  // single locker: the lock is gone, the row alive, the xmax hinted invalid.
  const RowLocker done[] = {{kAborted, RowLockMode::kUpdate}, {kCommittedOld2, RowLockMode::kShare}};
  for (HeapTupleHeaderData t : {locked_by(MultiXactCreate(done), kHeapXmaxIsMulti),
                                locked_by(kFuture + 1000, kHeapXmaxIsMulti), locked_by(kCrashed, kHeapXmaxExclLock)}) {
    CHECK(TupleSatisfiesMVCC(t, snap, kMe, nullptr));
    CHECK(TupleSatisfiesUpdate(t, kCurCid, kMe, nullptr) == TmResult::kOk);
    CHECK((t.t_infomask & kHeapXmaxInvalid) != 0);
    CHECK(TupleSatisfiesVacuum(t, kOldestXmin, nullptr) == VacuumResult::kLive);
  }
  // Key-share holders beside a non-key updater: t_cid names them and the
  // updater's cmax; the updater (xmax) decides visibility as usual.
  HeapTupleHeaderData beside = MakeTuple(kCases[0]);
  HeapTupleHeaderSetXmax(beside, kMe, 7, /*is_update=*/true, false);
  const RowLocker ks[] = {{kRunning, RowLockMode::kKeyShare}};
  beside.t_cid = MultiXactCreate(ks, kMe, 7);
  beside.t_infomask |= kHeapXmaxHasLockers;
  CHECK(HeapTupleHeaderGetCmax(beside) == 7);
  CHECK(TupleSatisfiesMVCC(beside, snap, kMe, nullptr));  // curcid 5: updated by a later command
  Snapshot later = snap;
  later.curcid = 8;
  CHECK_FALSE(TupleSatisfiesMVCC(beside, later, kMe, nullptr));
  CHECK(TupleSatisfiesMVCC(beside, snap, kCommittedOld, nullptr));  // others: the updater still runs
  // A delete stamps over the lock bits.
  HeapTupleHeaderSetXmax(shared, kMe, 4, false, false);
  CHECK((shared.t_infomask & kHeapXmaxLockBits) == 0);
  hearth::storage::ProcArray()->slots[1].xid = 0;
  hearth::storage::MyProc()->xid = 0;
}

TEST_CASE("Tuple header layout matches the documented byte offsets", "[visibility]") {
  CHECK(HeapTupleHeaderSize(2, false) == 24);
  CHECK(HeapTupleHeaderSize(8, true) == 24);
  CHECK(HeapTupleHeaderSize(9, true) == 32);
  alignas(8) uint8_t buf[32] = {};
  auto* t = reinterpret_cast<HeapTupleHeaderData*>(buf);
  t->t_infomask = kHeapHasNull;
  t->set_natts(10);
  t->null_bitmap()[0] = 0xFD;  // attribute 1 null
  t->null_bitmap()[1] = 0x01;  // attribute 9 null
  CHECK(buf[23] == 0xFD);
  CHECK(t->natts() == 10);
  CHECK_FALSE(t->attr_is_null(0));
  CHECK(t->attr_is_null(1));
  CHECK_FALSE(t->attr_is_null(8));
  CHECK(t->attr_is_null(9));
  t->set_ctid(ItemPointer{7, 3});
  CHECK(t->ctid() == ItemPointer{7, 3});
  CHECK(buf[12] == 7);
  CHECK(buf[16] == 3);
}
