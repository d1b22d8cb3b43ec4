// access/heap/heap_lock.h
//
// Row locks kept in the tuple header (PostgreSQL's idea): SELECT ... FOR
// UPDATE / NO KEY UPDATE / SHARE / KEY SHARE stamp the version's xmax with
// kHeapXmaxLockOnly plus strength bits (htup.h), or, when several
// transactions hold shared locks at once, with a multixact id
// (kHeapXmaxIsMulti, access/transam/multixact.h). No lock-table entry per
// row: whoever meets a conflicting lock waits on the holder's transaction id
// (XactLockTableWait), so deadlock detection, lock_timeout and cancel are
// the heavyweight lock manager's. A SELECT ... FOR waiter holds the row's
// heavyweight tuple lock while it waits, so waiters line up in order.
//
// Encoding of a single-xid lock-only xmax:
//   KEYSHR            FOR KEY SHARE
//   KEYSHR | EXCL     FOR SHARE
//   EXCL              FOR NO KEY UPDATE
//   (no strength bit) FOR UPDATE (also the cross-page update's own lock)
//
// Updaters and deleters meet locks in the modify prologue (heapam.cpp
// LockForModify): DELETE and key-changing UPDATE need kUpdate strength, an
// UPDATE that keeps every unique-index column kNoKeyUpdate, so it does not
// wait for FOR KEY SHARE holders. Those then hold both versions: the new
// version's xmax names them (lock-only), and the old version, whose xmax
// is the updater as usual, gets kHeapXmaxHasLockers with t_cid = a
// multixact of them (and of the updater's cmax), so they hold it again if
// the updater aborts. A multixact thus never stands in t_xmax for an
// updater: after a crash an unknown id only ever loses locks.
//
// Crash safety: a lock-only xmax never hides a row (visibility.cpp treats it
// as "not deleted" whatever its outcome), lock records are WAL-logged as a
// header change (kHeapInfoLock) so redo reproduces the header, and a
// multixact unknown after a restart has no running member.
//
// Process safety: as heapam.h (page changes under the exclusive content
// lock; waits with only the pin held).
#pragma once

#include <span>

#include "access/heap/heapam.h"
#include "access/transam/multixact.h"

namespace hearth::heap {

using access::RowLocker;
using access::RowLockMode;

// What a lock request does when a conflicting holder runs.
enum class RowLockWait : uint8_t {
  kBlock,       // wait for it (then re-check)
  kSkip,        // SKIP LOCKED: return kWouldBlock
  kError,       // NOWAIT: return kWouldBlock (the caller raises 55P03)
};

// SELECT ... FOR <mode>: locks the version at `tid` for xid. Results as
// HeapDelete, plus kWouldBlock (kSkip/kError and a conflicting holder runs;
// fd->xmax is one such holder). kOk also when xid already holds `mode` or a
// stronger one. Waiting: XactLockTableWait on each conflicting holder in
// turn, so 40P01 / 55P03 (lock_timeout) / 57014 may be thrown.
TmResult HeapLockRow(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid, RowLockMode mode,
                     RowLockWait wait, TmFailureData* fd);

// --- Header helpers (REQUIRE: the page content-locked, exclusively for Set) ---

// True when xmax is a row lock only (valid, not hinted invalid, lock-only).
bool XmaxIsLockOnly(const HeapTupleHeaderData& tup);

// The still-running holders (of a lock-only xmax, or those an updater let
// stay: kHeapXmaxHasLockers) other than `exclude` into out (capacity
// kMultiXactMaxMembers); returns their number.
int RunningLockers(const HeapTupleHeaderData& tup, TransactionId exclude, RowLocker* out);

// True when a running holder other than my_xid holds a mode conflicting with
// `mode`; *xwait is then that holder.
bool RowLockConflicts(const HeapTupleHeaderData& tup, TransactionId my_xid, RowLockMode mode, TransactionId* xwait);

// Stamps xmax as a lock-only xmax held by `lockers` (one: that xid and its
// mode bits; several: a new multixact). REQUIRES: !lockers.empty().
void SetXmaxLockers(HeapTupleHeaderData& tup, std::span<const RowLocker> lockers);

}  // namespace hearth::heap
