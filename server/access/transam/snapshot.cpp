// access/transam/snapshot.cpp
//
// Principal entry points: GetSnapshotData, GetOldestXmin,
// TransactionIdIsInProgress, ProcArrayEndTransaction.
//
// Why a shared lock suffices for snapshots: xids only leave the array under
// the exclusive lock, so while a snapshot (or GetOldestXmin) holds the lock
// shared, the set of running xids can only grow, and new xids are >= the
// latest_completed_xid + 1 the snapshot uses as xmax (they are published in
// the slot under the xid-generation lock before any later xid can end).
#include "access/transam/snapshot.h"

#include <algorithm>

#include "access/transam/clog.h"
#include "access/transam/subtrans.h"
#include "access/transam/varsup.h"
#include "access/transam/xlog_standby.h"

namespace hearth::access {

using storage::LWLockGuard;
using storage::LWLockMode;
using storage::ProcArray;
using storage::ProcArrayShared;

bool Snapshot::InXip(TransactionId xid) const { return std::binary_search(xip.begin(), xip.end(), xid); }

bool Snapshot::TopInXip(TransactionId subxid) const {
  // The top-level xid is older than its subxids, so it is below xmax.
  const TransactionId top = SubtransGetTopmost(subxid);
  return TransactionIdIsValid(top) && top >= xmin && InXip(top);
}

namespace {

// A standby session's snapshot holds back what index hints may call dead.
void AdvertiseStandbyXmin(TransactionId xmin, bool replace_xmin) {
  const storage::ProcNumber me = storage::MyProcNumber();
  if (me == storage::kInvalidProcNumber) return;
  ProcArrayShared* pa = ProcArray();
  LWLockGuard g(pa->lock, LWLockMode::kShared);
  if (replace_xmin || !TransactionIdIsValid(pa->slots[me].xmin.load(std::memory_order_relaxed))) {
    pa->slots[me].xmin.store(xmin, std::memory_order_release);
  }
}

}  // namespace

void GetSnapshotData(Snapshot* out, bool replace_xmin) {
  if (RecoveryInProgress()) {
    GetStandbySnapshot(out);
    AdvertiseStandbyXmin(out->xmin, replace_xmin);
    return;
  }
  ProcArrayShared* pa = ProcArray();
  const storage::ProcNumber me = storage::MyProcNumber();
  out->xip.clear();
  out->xip.reserve(static_cast<size_t>(pa->nslots));  // no allocation under the lock
  {
    LWLockGuard g(pa->lock, LWLockMode::kShared);
    const TransactionId xmax = pa->latest_completed_xid.load(std::memory_order_acquire) + 1;
    TransactionId xmin = xmax;
    for (int i = 0; i < pa->nslots; i++) {
      if (i == me) continue;
      TransactionId x = pa->slots[i].xid.load(std::memory_order_acquire);
      if (!TransactionIdIsNormal(x) || x >= xmax) continue;
      out->xip.push_back(x);
      xmin = std::min(xmin, x);
    }
    if (me != storage::kInvalidProcNumber) {
      // Our own running xid also holds back what vacuum may remove.
      TransactionId own = pa->slots[me].xid.load(std::memory_order_relaxed);
      TransactionId advertised = TransactionIdIsNormal(own) ? std::min(own, xmin) : xmin;
      if (replace_xmin || !TransactionIdIsValid(pa->slots[me].xmin.load(std::memory_order_relaxed))) {
        pa->slots[me].xmin.store(advertised, std::memory_order_release);
      }
    }
    out->xmin = xmin;
    out->xmax = xmax;
    // Read under the lock: a top-level xid in xip that has subxids was
    // counted before its first subxid was assigned, and is uncounted only
    // after it left the array.
    out->subxids_possible = SubtransAnyRunning();
  }
  std::sort(out->xip.begin(), out->xip.end());
}

TransactionId GetOldestXmin() {
  ProcArrayShared* pa = ProcArray();
  LWLockGuard g(pa->lock, LWLockMode::kShared);
  TransactionId oldest = pa->latest_completed_xid.load(std::memory_order_acquire) + 1;
  // A standby: the primary's running xids are the known-assigned ones.
  if (RecoveryInProgress()) oldest = StandbyOldestRunningXid();
  for (int i = 0; i < pa->nslots; i++) {
    TransactionId x = pa->slots[i].xid.load(std::memory_order_acquire);
    if (TransactionIdIsNormal(x)) oldest = std::min(oldest, x);
    TransactionId m = pa->slots[i].xmin.load(std::memory_order_acquire);
    if (TransactionIdIsNormal(m)) oldest = std::min(oldest, m);
  }
  return oldest;
}

TransactionId GetOldestRunningXid() {
  // Read the next xid first: every xid below it is published in its slot
  // (invariant 2) once the generation lock was free, which the counter's
  // lock-free read does not promise; a later xid only raises the answer.
  TransactionId oldest = NextXidPublished();
  ProcArrayShared* pa = ProcArray();
  LWLockGuard g(pa->lock, LWLockMode::kShared);
  for (int i = 0; i < pa->nslots; i++) {
    const TransactionId x = pa->slots[i].xid.load(std::memory_order_acquire);
    if (TransactionIdIsNormal(x)) oldest = std::min(oldest, x);
  }
  return oldest;
}

bool TransactionIdIsInProgress(TransactionId xid) {
  if (RecoveryInProgress()) return KnownAssignedXidIsRunning(xid);
  if (storage::ProcArrayXidIsRunning(xid)) return true;
  if (!SubtransAnyRunning()) return false;
  const TransactionId top = SubtransGetTopmost(xid);
  if (!TransactionIdIsValid(top) || !storage::ProcArrayXidIsRunning(top)) return false;
  // A subxid rolled back to its savepoint has ended although its top runs on.
  return TransactionIdGetStatus(xid) != XidStatus::kAborted;
}

void ProcArrayEndTransaction(TransactionId xid, TransactionId latest_xid) {
  storage::ProcSlot* me = storage::MyProc();
  if (me == nullptr) return;
  if (!TransactionIdIsValid(xid)) {
    // Read-only: nothing of ours is in anybody's snapshot; no lock needed.
    me->xmin.store(kInvalidTransactionId, std::memory_order_release);
    return;
  }
  ProcArrayShared* pa = ProcArray();
  LWLockGuard g(pa->lock, LWLockMode::kExclusive);
  me->xid.store(kInvalidTransactionId, std::memory_order_release);
  me->xmin.store(kInvalidTransactionId, std::memory_order_release);
  const TransactionId latest = std::max(xid, latest_xid);
  if (latest > pa->latest_completed_xid.load(std::memory_order_relaxed)) {
    pa->latest_completed_xid.store(latest, std::memory_order_release);
  }
}

}  // namespace hearth::access
