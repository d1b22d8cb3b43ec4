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

// Non-key UPDATE: the FOR KEY SHARE holders still running on the old
// version (other than xid) become the lock-only xmax of the new version
// `newtup` (heap_lock.cpp). Does nothing when there are none.
void CarryKeyShareLockers(const HeapTupleHeaderData& old, TransactionId xid, HeapTupleHeaderData* newtup);

}  // namespace hearth::heap
