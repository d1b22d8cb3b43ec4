// access/transam/varsup.h
//
// The shared transaction-id counter. Xids are handed out in increasing order
// and never reused, across clean restarts and crashes: the counter is
// persisted in <datadir>/global/xid_control, written (temp file + fsync +
// rename) kXidPrefetch xids ahead of the highest xid handed out, and exactly
// at clean shutdown. There is no wraparound handling: after 2^32 - 4 write
// transactions the cluster refuses new ones (54000).
//
// Process safety: any process after TransamStartup; assignment is serialised
// by one shared LWLock (the xid-generation lock).
#pragma once

#include "access/transam/transam.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access {

// How far ahead of the xids handed out the control file is kept.
inline constexpr TransactionId kXidPrefetch = 8192;

// Hands out the next xid. When `publish_to` is given, the xid is stored in
// that proc slot's `xid` before the generation lock is released, so no
// snapshot can see a later xid end while this one is invisible to it.
// Throws DbError 54000 when the xid space is exhausted and std::runtime_error
// when the control file cannot be written.
TransactionId GetNewTransactionId(storage::ProcSlot* publish_to);

// Recovery of a base backup's copy only (no backend running): makes the next
// xid follow `seen` when the copied control file is behind the WAL (xids
// handed out between copying global/xid_control and the backup end).
void AdvanceNextTransactionId(TransactionId seen);

// The next xid that will be handed out (a snapshot of a moving value).
TransactionId ReadNextTransactionId();

}  // namespace hearth::access
