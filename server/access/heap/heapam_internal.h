// access/heap/heapam_internal.h
//
// INTERNAL to access/heap: the modify prologue shared by delete, update and
// the row locks of heap_lock.cpp.
#pragma once

#include "access/heap/heapam.h"
#include "access/transam/multixact.h"

namespace hearth::heap {

// Pins and exclusively locks the tuple's page into *buf and returns
// TupleSatisfiesUpdate's verdict for a change needing row-lock strength
// `mode`: a lock-only xmax counts as kBeingModified only when a running
// holder's mode conflicts (heap_lock.h). With `wait`, running modifiers are
// waited for (XactLockTableWait, content lock released, pin kept) and the
// check repeated; without, kBeingModified is returned with fd->xmax = whom
// to wait for. *tup_out is the tuple (nullptr for kInvisible on a missing
// item). On return the page is locked whatever the result.
TmResult LockForModify(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid,
                       const Snapshot* crosscheck, access::RowLockMode mode, bool wait, PinnedBuffer* buf,
                       HeapTupleHeaderData** tup_out, TmFailureData* fd);

}  // namespace hearth::heap

namespace hearth::heap {

// Non-key UPDATE beside FOR KEY SHARE holders (heap_lock.cpp), as
// PostgreSQL: the holders still running (other than the updater xid) hold
// both versions. Collect (before the old version is touched) makes them the
// lock-only xmax of the new version `newtup`; KeepOnOldVersion (after the
// old version's xmax became xid) records them beside the updater
// (kHeapXmaxHasLockers), so they hold the old version again if xid aborts.
struct KeyShareLockers {
  RowLocker lockers[access::kMultiXactMaxMembers];
  int n = 0;
  void Collect(const HeapTupleHeaderData& old, TransactionId xid, HeapTupleHeaderData* newtup);
  void KeepOnOldVersion(HeapTupleHeaderData& old, TransactionId xid, CommandId cid) const;
};

// True when the version's row lockers decide whether a change needing some
// mode may go ahead (a lock-only xmax; or the lockers an aborted non-key
// updater let stay), given TupleSatisfiesUpdate's verdict r.
bool LockersDecide(const HeapTupleHeaderData& tup, TmResult r);

}  // namespace hearth::heap
