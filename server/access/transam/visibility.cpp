// access/transam/visibility.cpp
//
// Principal entry points: TupleSatisfiesMVCC, TupleSatisfiesUpdate,
// TupleSatisfiesVacuum, HeapTupleHeaderSetXmax.
//
// Order of questions about a foreign xid matters:
//  - With a snapshot (MVCC): "running for the snapshot?" first. An xid the
//    snapshot does not count as running had ended before the snapshot was
//    taken, so its clog status is final (commit writes the clog before the
//    xid leaves the proc array); "in progress" in the clog then means the
//    transaction died in a crash: aborted.
//  - Without a snapshot (Update, Vacuum): "in the proc array?" before the
//    clog, for the same reason in reverse: a running transaction's clog
//    entry says in-progress, which must not be read as aborted.
// Hint bits are set only for final outcomes (committed, aborted/crashed).
#include "access/transam/visibility.h"

#include <atomic>

#include "access/transam/clog.h"
#include "access/transam/combocid.h"
#include "access/transam/multixact.h"
#include "access/transam/xact.h"

namespace hearth::access {

namespace {

bool (*g_commit_hint_check)(TransactionId) = nullptr;

uint16_t LoadMask(HeapTupleHeaderData& tup) { return std::atomic_ref<uint16_t>(tup.t_infomask).load(std::memory_order_relaxed); }

// Sets `bit` (a hint); `committed_xid` != 0 when it records that xid's commit.
void SetHint(HeapTupleHeaderData& tup, uint16_t bit, TransactionId committed_xid, bool* hints_set) {
  if (committed_xid != kInvalidTransactionId && g_commit_hint_check != nullptr && !g_commit_hint_check(committed_xid)) return;
  uint16_t old = std::atomic_ref<uint16_t>(tup.t_infomask).fetch_or(bit, std::memory_order_relaxed);
  if ((old & bit) != bit && hints_set != nullptr) *hints_set = true;
}

// Ours: my_xid, or (with savepoints) any level of ours not rolled back.
bool IsCurrent(TransactionId xid, TransactionId my_xid) { return TransactionIdIsMine(xid, my_xid); }

// Inserted by an xid whose effects everybody sees (frozen or bootstrap).
bool XminFrozen(const HeapTupleHeaderData& tup, uint16_t mask) {
  return (mask & kHeapXminFrozen) == kHeapXminFrozen || tup.t_xmin == kFrozenTransactionId ||
         tup.t_xmin == kBootstrapTransactionId;
}

bool XminCommittedHint(uint16_t mask) { return (mask & kHeapXminCommitted) != 0; }
bool XminInvalidHint(uint16_t mask) { return (mask & kHeapXminFrozen) == kHeapXminInvalid; }
bool XmaxAbsent(const HeapTupleHeaderData& tup, uint16_t mask) {
  return (mask & kHeapXmaxInvalid) != 0 || !TransactionIdIsValid(tup.t_xmax);
}
bool LockOnly(uint16_t mask) { return (mask & kHeapXmaxLockOnly) != 0; }

// True when a lock-only xmax still has a running locker other than my_xid
// (a multixact: any such member; unknown multixacts have none).
bool LockerRunning(const HeapTupleHeaderData& tup, uint16_t mask, TransactionId my_xid) {
  if ((mask & kHeapXmaxIsMulti) == 0) return !IsCurrent(tup.t_xmax, my_xid) && TransactionIdIsInProgress(tup.t_xmax);
  RowLocker members[kMultiXactMaxMembers];
  const int n = MultiXactGetMembers(tup.t_xmax, members);
  for (int i = 0; i < n; ++i) {
    if (!IsCurrent(members[i].xid, my_xid) && TransactionIdIsInProgress(members[i].xid)) return true;
  }
  return false;
}

}  // namespace

CommandId HeapTupleHeaderGetCmin(const HeapTupleHeaderData& tup) {
  return (tup.t_infomask & kHeapComboCid) != 0 ? ComboCommandIdGetCmin(tup.t_cid) : tup.t_cid;
}

CommandId HeapTupleHeaderGetCmax(const HeapTupleHeaderData& tup) {
  if ((tup.t_infomask & kHeapXmaxHasLockers) != 0) return MultiXactGetCmax(tup.t_cid);
  return (tup.t_infomask & kHeapComboCid) != 0 ? ComboCommandIdGetCmax(tup.t_cid) : tup.t_cid;
}

bool TupleSatisfiesMVCC(HeapTupleHeaderData& tup, const Snapshot& snap, TransactionId my_xid, bool* hints_set) {
  const uint16_t mask = LoadMask(tup);
  const TransactionId xmin = tup.t_xmin;
  if (!XminFrozen(tup, mask)) {
    if (!XminCommittedHint(mask)) {
      if (XminInvalidHint(mask)) return false;
      if (IsCurrent(xmin, my_xid)) {
        if (HeapTupleHeaderGetCmin(tup) >= snap.curcid) return false;  // inserted after this scan began
        if (XmaxAbsent(tup, mask) || LockOnly(mask)) return true;
        if (!IsCurrent(tup.t_xmax, my_xid)) return true;
        return HeapTupleHeaderGetCmax(tup) >= snap.curcid;  // deleted after this scan began?
      }
      if (snap.XidInProgress(xmin)) return false;
      if (!TransactionIdDidCommit(xmin)) {
        SetHint(tup, kHeapXminInvalid, kInvalidTransactionId, hints_set);
        return false;
      }
      SetHint(tup, kHeapXminCommitted, xmin, hints_set);
    } else if (snap.XidInProgress(xmin)) {
      return false;  // committed, but after the snapshot was taken
    }
  }
  // The inserter's effects are visible; now the deleter's.
  if (XmaxAbsent(tup, mask) || LockOnly(mask)) return true;
  const TransactionId xmax = tup.t_xmax;
  if ((mask & kHeapXmaxCommitted) == 0) {
    if (IsCurrent(xmax, my_xid)) return HeapTupleHeaderGetCmax(tup) >= snap.curcid;
    if (snap.XidInProgress(xmax)) return true;
    if (!TransactionIdDidCommit(xmax)) {
      SetHint(tup, kHeapXmaxInvalid, kInvalidTransactionId, hints_set);
      return true;
    }
    SetHint(tup, kHeapXmaxCommitted, xmax, hints_set);
    return false;
  }
  return snap.XidInProgress(xmax);
}

TmResult TupleSatisfiesUpdate(HeapTupleHeaderData& tup, CommandId curcid, TransactionId my_xid, bool* hints_set) {
  const uint16_t mask = LoadMask(tup);
  const TransactionId xmin = tup.t_xmin;
  if (!XminFrozen(tup, mask) && !XminCommittedHint(mask)) {
    if (XminInvalidHint(mask)) return TmResult::kInvisible;
    if (IsCurrent(xmin, my_xid)) {
      if (HeapTupleHeaderGetCmin(tup) >= curcid) return TmResult::kInvisible;
      if (XmaxAbsent(tup, mask) || LockOnly(mask) || !IsCurrent(tup.t_xmax, my_xid)) return TmResult::kOk;
      return HeapTupleHeaderGetCmax(tup) >= curcid ? TmResult::kSelfUpdated : TmResult::kInvisible;
    }
    if (TransactionIdIsInProgress(xmin)) return TmResult::kInvisible;
    if (!TransactionIdDidCommit(xmin)) {
      SetHint(tup, kHeapXminInvalid, kInvalidTransactionId, hints_set);
      return TmResult::kInvisible;
    }
    SetHint(tup, kHeapXminCommitted, xmin, hints_set);
  }
  if (XmaxAbsent(tup, mask)) return TmResult::kOk;
  const TransactionId xmax = tup.t_xmax;
  const TmResult gone = (mask & kHeapUpdated) != 0 ? TmResult::kUpdated : TmResult::kDeleted;
  if ((mask & kHeapXmaxCommitted) != 0) return LockOnly(mask) ? TmResult::kOk : gone;
  if (LockOnly(mask)) {
    // Row locks: the caller decides whether the lock modes conflict.
    if (LockerRunning(tup, mask, my_xid)) return TmResult::kBeingModified;
    if (IsCurrent(xmax, my_xid)) return TmResult::kOk;  // we hold the row lock ourselves
    if (!LockerRunning(tup, mask, kInvalidTransactionId)) SetHint(tup, kHeapXmaxInvalid, kInvalidTransactionId, hints_set);
    return TmResult::kOk;
  }
  if (IsCurrent(xmax, my_xid)) return HeapTupleHeaderGetCmax(tup) >= curcid ? TmResult::kSelfUpdated : TmResult::kInvisible;
  if (TransactionIdIsInProgress(xmax)) return TmResult::kBeingModified;
  if (!TransactionIdDidCommit(xmax)) {
    // A finished locker's lock, or an aborted/crashed deleter, is no more.
    SetHint(tup, kHeapXmaxInvalid, kInvalidTransactionId, hints_set);
    return TmResult::kOk;
  }
  SetHint(tup, kHeapXmaxCommitted, xmax, hints_set);
  return gone;
}

VacuumResult TupleSatisfiesVacuum(HeapTupleHeaderData& tup, TransactionId oldest_xmin, bool* hints_set) {
  const uint16_t mask = LoadMask(tup);
  const TransactionId xmin = tup.t_xmin;
  if (!XminFrozen(tup, mask) && !XminCommittedHint(mask)) {
    if (XminInvalidHint(mask)) return VacuumResult::kDead;
    if (TransactionIdIsInProgress(xmin)) {
      if (XmaxAbsent(tup, mask) || LockOnly(mask)) return VacuumResult::kInsertInProgress;
      // Inserted and deleted by the same running transaction.
      return tup.t_xmax == xmin ? VacuumResult::kDeleteInProgress : VacuumResult::kInsertInProgress;
    }
    if (!TransactionIdDidCommit(xmin)) {
      SetHint(tup, kHeapXminInvalid, kInvalidTransactionId, hints_set);
      return VacuumResult::kDead;
    }
    SetHint(tup, kHeapXminCommitted, xmin, hints_set);
  }
  if (XmaxAbsent(tup, mask)) return VacuumResult::kLive;
  const TransactionId xmax = tup.t_xmax;
  if (LockOnly(mask)) {
    if (!LockerRunning(tup, mask, kInvalidTransactionId)) SetHint(tup, kHeapXmaxInvalid, kInvalidTransactionId, hints_set);
    return VacuumResult::kLive;
  }
  if ((mask & kHeapXmaxCommitted) == 0) {
    if (TransactionIdIsInProgress(xmax)) return VacuumResult::kDeleteInProgress;
    if (!TransactionIdDidCommit(xmax)) {
      SetHint(tup, kHeapXmaxInvalid, kInvalidTransactionId, hints_set);
      return VacuumResult::kLive;
    }
    SetHint(tup, kHeapXmaxCommitted, xmax, hints_set);
  }
  // Deleted by a committed transaction: dead once no snapshot predates it.
  return xmax >= oldest_xmin ? VacuumResult::kRecentlyDead : VacuumResult::kDead;
}

void HeapTupleHeaderSetXmax(HeapTupleHeaderData& tup, TransactionId my_xid, CommandId cmax, bool is_update, bool lock_only) {
  uint16_t mask = tup.t_infomask;
  mask &= static_cast<uint16_t>(~(kHeapXmaxCommitted | kHeapXmaxInvalid | kHeapXmaxLockBits | kHeapUpdated));
  if (lock_only) {
    mask |= kHeapXmaxLockOnly;  // t_cid keeps cmin: a lock has no cmax
  } else {
    if (is_update) mask |= kHeapUpdated;
    if (IsCurrent(tup.t_xmin, my_xid) && !XminFrozen(tup, tup.t_infomask)) {
      tup.t_cid = GetComboCommandId(HeapTupleHeaderGetCmin(tup), cmax);
      mask |= kHeapComboCid;
    } else {
      tup.t_cid = cmax;
      mask &= static_cast<uint16_t>(~kHeapComboCid);
    }
  }
  tup.t_xmax = my_xid;
  tup.t_infomask = mask;
}

void SetCommitHintCheck(bool (*check)(TransactionId xid)) { g_commit_hint_check = check; }

const char* TmResultName(TmResult r) {
  switch (r) {
    case TmResult::kOk: return "Ok";
    case TmResult::kInvisible: return "Invisible";
    case TmResult::kSelfUpdated: return "SelfUpdated";
    case TmResult::kUpdated: return "Updated";
    case TmResult::kDeleted: return "Deleted";
    case TmResult::kBeingModified: return "BeingModified";
    case TmResult::kWouldBlock: return "WouldBlock";
  }
  return "?";
}

const char* VacuumResultName(VacuumResult r) {
  switch (r) {
    case VacuumResult::kLive: return "Live";
    case VacuumResult::kDead: return "Dead";
    case VacuumResult::kRecentlyDead: return "RecentlyDead";
    case VacuumResult::kInsertInProgress: return "InsertInProgress";
    case VacuumResult::kDeleteInProgress: return "DeleteInProgress";
  }
  return "?";
}

}  // namespace hearth::access
