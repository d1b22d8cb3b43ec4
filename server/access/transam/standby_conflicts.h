// access/transam/standby_conflicts.h
//
// Recovery conflicts on a hot standby, as PostgreSQL resolves them: replay
// must sometimes remove what a read-only query still uses.
//   snapshot    a prune record removes row versions that snapshots with
//               xmin <= its horizon might still need (the primary logs the
//               horizon just before the prune);
//   buffer pin  a prune or vacuum record moves tuples on a page, which needs
//               the cleanup lock (no other pin on the buffer);
//   database    a replayed DROP DATABASE removes the files of sessions
//               connected to it.
// The startup process waits up to max_standby_streaming_delay (-1: forever)
// for the queries in the way to finish, then asks them (SIGUSR1, reason in
// their proc slot) to give way: a running statement is canceled with 40001
// "canceling statement due to conflict with recovery", a session idle in a
// transaction is ended (FATAL 40001); a dropped database's sessions are
// ended at once (FATAL 57P04). The delay is counted from the moment the
// conflict is met (PostgreSQL counts from the WAL's receipt).
//
// Process model: Resolve*/LockBufferForCleanupInRedo run in the startup
// process (redo); BackendRecoveryConflictCheck in each client backend
// (installed with SetRecoveryConflictCheck, storage/ipc/interrupts.h).
#pragma once

#include <cstdint>

#include "access/transam/transam.h"
#include "access/transam/xlog_reader.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::access {

// kRmgrXLog record: the newest xid whose row versions the next prune record
// removes (payload u32). Written only for a valid horizon.
inline constexpr uint8_t kXLogInfoSnapshotConflict = 0x50;

// Primary: logs `horizon` ahead of a prune record (no-op without WAL or for
// an invalid xid).
void LogSnapshotConflictHorizon(TransactionId horizon);

// Redo of kXLogInfoSnapshotConflict (called by the kRmgrXLog redo function).
void SnapshotConflictRedo(const XLogRecordView& rec);

// Startup process: returns once no client backend's xmin is at or before
// `horizon`, canceling those still in the way after the delay.
void ResolveSnapshotConflict(TransactionId horizon);

// Startup process: `buf` (pinned once by the caller, exclusively locked)
// becomes cleanup-locked: waits for the other pins to go, asking their
// holders to give way after the delay.
void LockBufferForCleanupInRedo(storage::PinnedBuffer& buf);

// Startup process: ends every session connected to database `db`.
void ResolveDatabaseConflict(uint32_t db);

// max_standby_streaming_delay in milliseconds (-1: wait forever).
void SetMaxStandbyDelay(int64_t ms);

// Client backend: the storage::RecoveryConflict reason that applies to this
// process after SIGUSR1 (0: none any more), as int.
int BackendRecoveryConflictCheck();

}  // namespace hearth::access
