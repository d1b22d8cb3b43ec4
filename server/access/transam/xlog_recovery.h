// access/transam/xlog_recovery.h
//
// Crash recovery, run once by the postmaster before it forks anything (at
// start and again after a crash reset), after XLogStartup, TransamStartup
// and SmgrInit on the fresh shared segment:
//   1. registers the xlog (checkpoint/noop), xact and storage resource
//      managers (other rmgrs, e.g. heap::RegisterHeapRmgr, must already be
//      registered by the caller);
//   2. replays every record from the control file's redo point (or the start
//      of WAL without a control file) to the end of valid WAL;
//   3. marks aborted every xid that wrote WAL but has neither a commit nor an
//      abort record (it was in progress at the crash);
//   4. takes a checkpoint, so the replayed pages and clog are on disk and the
//      next crash starts from here.
// Replaying after a clean shutdown is harmless (only the shutdown checkpoint
// record follows the redo point).
//
// Process safety: single process, nothing else running. Claims proc slot 0
// (kStartup) for the duration when the process has none.
#pragma once

#include <cstdint>

#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_replay.h"

namespace hearth::access {

struct RecoveryResult {
  bool had_control_file = false;
  bool was_clean_shutdown = false;  // control file said kShutdown
  ReplayResult replay;
  int64_t xids_aborted = 0;  // in-progress xids marked aborted
  CheckpointResult checkpoint;
  bool from_backup = false;  // started from a base backup's backup_label (now backup_label.old)
};

// Step 1 alone (standby mode: the startup process replays later).
void RegisterCoreRmgrs();

// Runs the steps above. Throws std::runtime_error when a record cannot be
// replayed, or when WAL shows an xid at or beyond the persisted next xid
// (the cluster is then inconsistent); the caller must refuse to start.
RecoveryResult StartupXLogRecovery();

}  // namespace hearth::access
