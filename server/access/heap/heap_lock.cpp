// access/heap/heap_lock.cpp
//
// Principal entry points: HeapLockRow, RowLockConflicts, SetXmaxLockers,
// CarryKeyShareLockers. Encoding and rules: heap_lock.h.
#include "access/heap/heap_lock.h"

#include <algorithm>

#include "access/heap/heap_wal.h"
#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "access/heap/heapam_internal.h"
#include "storage/lmgr/lock.h"

namespace hearth::heap {

namespace {

using access::kHeapXmaxExclLock;
using access::kHeapXmaxInvalid;
using access::kHeapXmaxIsMulti;
using access::kHeapXmaxKeyShrLock;
using access::kHeapXmaxLockOnly;

RowLockMode ModeFromBits(uint16_t mask) {
  const bool keyshr = (mask & kHeapXmaxKeyShrLock) != 0;
  const bool excl = (mask & kHeapXmaxExclLock) != 0;
  if (keyshr && excl) return RowLockMode::kShare;
  if (keyshr) return RowLockMode::kKeyShare;
  if (excl) return RowLockMode::kNoKeyUpdate;
  return RowLockMode::kUpdate;
}

uint16_t BitsFromMode(RowLockMode m) {
  switch (m) {
    case RowLockMode::kKeyShare: return kHeapXmaxKeyShrLock;
    case RowLockMode::kShare: return kHeapXmaxKeyShrLock | kHeapXmaxExclLock;
    case RowLockMode::kNoKeyUpdate: return kHeapXmaxExclLock;
    case RowLockMode::kUpdate: return 0;
  }
  return 0;
}

// Every holder named by a lock-only xmax, running or not (capacity
// kMultiXactMaxMembers).
int AllLockers(const HeapTupleHeaderData& tup, RowLocker* out) {
  if ((tup.t_infomask & kHeapXmaxIsMulti) != 0) return access::MultiXactGetMembers(tup.t_xmax, out);
  out[0] = RowLocker{tup.t_xmax, ModeFromBits(tup.t_infomask)};
  return 1;
}

// The mode xid holds on the version, or false when it holds none.
bool HeldMode(const HeapTupleHeaderData& tup, TransactionId xid, RowLockMode* mode) {
  if (!XmaxIsLockOnly(tup)) return false;
  RowLocker all[access::kMultiXactMaxMembers];
  const int n = AllLockers(tup, all);
  for (int i = 0; i < n; ++i) {
    if (all[i].xid == xid) {
      *mode = all[i].mode;
      return true;
    }
  }
  return false;
}

// PostgreSQL's tuple lock modes for the four row-lock strengths.
storage::LockMode TupleLockMode(RowLockMode m) {
  switch (m) {
    case RowLockMode::kKeyShare: return storage::LockMode::kAccessShare;
    case RowLockMode::kShare: return storage::LockMode::kRowShare;
    case RowLockMode::kNoKeyUpdate: return storage::LockMode::kExclusive;
    case RowLockMode::kUpdate: return storage::LockMode::kAccessExclusive;
  }
  return storage::LockMode::kAccessExclusive;
}

// The heavyweight tuple lock a row-lock waiter holds while it waits (as
// PostgreSQL): waiters for one row line up FIFO in the lock manager (and
// show in pg_locks) instead of racing when the holder ends. Released when
// the row lock is set, or by LockReleaseAll on an error.
class TupleQueueGuard {
 public:
  TupleQueueGuard() = default;
  TupleQueueGuard(const TupleQueueGuard&) = delete;
  TupleQueueGuard& operator=(const TupleQueueGuard&) = delete;
  ~TupleQueueGuard() {
    if (held_) storage::LockRelease(tag_, mode_);
  }
  bool held() const { return held_; }
  void Acquire(RelFileLocator rel, ItemPointer tid, RowLockMode mode) {
    tag_ = storage::LockTag::Tuple(rel.db, rel.number.value, tid.block, tid.offset);
    mode_ = TupleLockMode(mode);
    storage::LockAcquire(tag_, mode_);
    held_ = true;
  }

 private:
  storage::LockTag tag_{};
  storage::LockMode mode_ = storage::LockMode::kNoLock;
  bool held_ = false;
};

}  // namespace

bool XmaxIsLockOnly(const HeapTupleHeaderData& tup) {
  const uint16_t mask = tup.t_infomask;
  return access::TransactionIdIsValid(tup.t_xmax) && (mask & kHeapXmaxInvalid) == 0 && (mask & kHeapXmaxLockOnly) != 0;
}

bool LockersDecide(const HeapTupleHeaderData& tup, TmResult r) {
  if (r != TmResult::kOk && r != TmResult::kBeingModified) return false;
  // kOk beside an updater: it aborted, the lockers it let stay hold again.
  return XmaxIsLockOnly(tup) || (r == TmResult::kOk && (tup.t_infomask & access::kHeapXmaxHasLockers) != 0);
}

int RunningLockers(const HeapTupleHeaderData& tup, TransactionId exclude, RowLocker* out) {
  RowLocker all[access::kMultiXactMaxMembers];
  int n = 0;
  if (XmaxIsLockOnly(tup)) {
    n = AllLockers(tup, all);
  } else if ((tup.t_infomask & access::kHeapXmaxHasLockers) != 0) {
    n = access::MultiXactGetMembers(tup.t_cid, all);
  }
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (!access::TransactionIdIsMine(all[i].xid, exclude) && access::TransactionIdIsInProgress(all[i].xid)) out[k++] = all[i];
  }
  return k;
}

bool RowLockConflicts(const HeapTupleHeaderData& tup, TransactionId my_xid, RowLockMode mode, TransactionId* xwait) {
  RowLocker running[access::kMultiXactMaxMembers];
  const int n = RunningLockers(tup, my_xid, running);
  for (int i = 0; i < n; ++i) {
    if (access::RowLockModesConflict(running[i].mode, mode)) {
      *xwait = running[i].xid;
      return true;
    }
  }
  return false;
}

void SetXmaxLockers(HeapTupleHeaderData& tup, std::span<const RowLocker> lockers) {
  uint16_t mask = tup.t_infomask;
  mask &= static_cast<uint16_t>(~(access::kHeapXmaxCommitted | kHeapXmaxInvalid | access::kHeapXmaxLockBits |
                                  access::kHeapUpdated));
  mask |= kHeapXmaxLockOnly;
  if (lockers.size() == 1) {
    tup.t_xmax = lockers[0].xid;
    mask |= BitsFromMode(lockers[0].mode);
  } else {
    tup.t_xmax = access::MultiXactCreate(lockers);
    mask |= kHeapXmaxIsMulti;
  }
  tup.t_infomask = mask;  // t_cid keeps cmin: a lock has no cmax
}

void KeyShareLockers::Collect(const HeapTupleHeaderData& old, TransactionId xid, HeapTupleHeaderData* newtup) {
  n = RunningLockers(old, xid, lockers);
  if (n > 0) SetXmaxLockers(*newtup, std::span<const RowLocker>(lockers, static_cast<size_t>(n)));
}

void KeyShareLockers::KeepOnOldVersion(HeapTupleHeaderData& old, TransactionId xid, CommandId cid) const {
  // A combo cid means we inserted the version ourselves: nobody else can
  // have locked it, so there is nothing to keep.
  if (n == 0 || (old.t_infomask & access::kHeapComboCid) != 0) return;
  old.t_cid = access::MultiXactCreate(std::span<const RowLocker>(lockers, static_cast<size_t>(n)), xid, cid);
  old.t_infomask |= access::kHeapXmaxHasLockers;
}

TmResult HeapLockRow(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid, RowLockMode mode,
                     RowLockWait wait, TmFailureData* fd) {
  TmFailureData local_fd;
  if (fd == nullptr) fd = &local_fd;
  access::XLogEnsureSpaceForChange();  // a full disk: 53100 before the tuple is touched
  PinnedBuffer buf;
  HeapTupleHeaderData* tup = nullptr;
  TupleQueueGuard queue;
  TmResult r;
  for (;;) {
    r = LockForModify(rel, tid, xid, cid, nullptr, mode, /*wait=*/false, &buf, &tup, fd);
    if (r != TmResult::kBeingModified) break;
    if (wait != RowLockWait::kBlock) return TmResult::kWouldBlock;
    // A holder of a weaker lock on the row that queued behind others could
    // deadlock with them: it waits without the queue (as PostgreSQL).
    RowLockMode own;
    const bool skip_queue = queue.held() || HeldMode(*tup, xid, &own);
    const TransactionId xwait = fd->xmax;
    buf.Unlock();  // never sleep on a lock while holding a content lock
    if (skip_queue) {
      storage::XactLockTableWait(xwait);
    } else {
      queue.Acquire(rel, tid, mode);  // then look again: the holder may be gone
    }
  }
  if (r != TmResult::kOk) return r;
  // Each rank conflicts with a superset of what the ranks below it conflict
  // with, so holding a mode at least as strong as the request is enough.
  RowLockMode held;
  const bool holds = HeldMode(*tup, xid, &held);
  if (holds && held >= mode) return TmResult::kOk;
  // The new holder set: the running holders (no conflicting one, or we would
  // have waited) plus xid at the stronger of its old and requested modes.
  RowLocker lockers[access::kMultiXactMaxMembers + 1];
  int n = RunningLockers(*tup, xid, lockers);
  if (holds) mode = std::max(mode, held);
  lockers[n++] = RowLocker{xid, mode};
  SetXmaxLockers(*tup, std::span<const RowLocker>(lockers, static_cast<size_t>(n)));
  buf.MarkDirty();
  // WAL: lock (the header as stamped; a multixact id is meaningless after a
  // restart and reads as "no running holder").
  HeapWalRecord rec(kHeapInfoLock);
  rec.Block(buf);
  rec.SetHeader(tid.offset);
  rec.Insert(xid);
  return TmResult::kOk;
}

}  // namespace hearth::heap
