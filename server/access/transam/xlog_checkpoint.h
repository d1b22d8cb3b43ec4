// access/transam/xlog_checkpoint.h
//
// Checkpoints: the one function that makes everything before a point durable
// in the data files (so recovery may start there), the shared "redo pointer"
// that decides full-page images, and the checkpointer's trigger test.
//
// Process safety: any process after XLogStartup/TransamStartup/SmgrInit.
// Concurrent CreateCheckPoint calls (checkpointer, SQL CHECKPOINT) are
// serialised by an flock on <datadir>/global/checkpoint.lock (released by
// the kernel if the holder dies). The redo pointer is one shared atomic.
#pragma once

#include <cstdint>

#include "access/transam/xlog_format.h"

namespace hearth::access {

// Redo point of the last checkpoint (or the one running). A page whose LSN
// is <= this value is logged whole (full-page image) at its next WAL-logged
// change, so replay from that redo point never depends on a possibly torn
// on-disk copy. Set by CreateCheckPoint and by recovery.
XLogRecPtr GetRedoRecPtr();
void SetRedoRecPtr(XLogRecPtr lsn);
// True when a page whose LSN is `page_lsn` must be logged whole now.
inline bool XLogPageNeedsFullImage(uint64_t page_lsn) { return page_lsn <= GetRedoRecPtr(); }

struct CheckpointResult {
  XLogRecPtr redo_lsn = 0;        // replay after a crash starts here
  XLogRecPtr checkpoint_lsn = 0;  // start of the checkpoint record
  XLogRecPtr end_lsn = 0;         // end of the checkpoint record (flushed)
  int segments_recycled = 0;
  int segments_removed = 0;
};

// Takes a checkpoint: redo = current insert position (published as the redo
// pointer), every buffer dirty at that moment written (WAL first, through
// bufmgr's hook; sorted by file and block; spread over time with `pacing`)
// and each touched file fsynced once, dirty clog pages written, a checkpoint
// record inserted and flushed, global/pg_control updated (state kShutdown
// when `shutdown`, else kInProduction), and WAL segments wholly before redo
// recycled/removed. Without WAL (XLogIsStarted() false) only the buffers and
// clog are written. Throws std::runtime_error on any I/O failure: the caller
// must then PANIC (exit and let the postmaster reset), the on-disk state
// being unknown.
struct CheckpointPacing;
struct CheckpointOptions {
  bool timed = false;  // started by checkpoint_timeout (else requested)
  bool log = false;    // log_checkpoints: "checkpoint starting/complete" lines
  const char* cause = "immediate force wait";  // the words after "checkpoint starting: "
  // Spread the writes (checkpoint_schedule.h); nullptr or `shutdown`: full speed.
  const CheckpointPacing* pacing = nullptr;
};
CheckpointResult CreateCheckPoint(bool shutdown, const CheckpointOptions& opts = {});

// pg_stat_bgwriter's checkpoint columns (zeros without WAL).
struct CheckpointStats {
  int64_t timed = 0;
  int64_t requested = 0;
  double write_time_ms = 0;  // writing dirty buffers
  double sync_time_ms = 0;   // clog, the checkpoint record's flush, pg_control
};
CheckpointStats GetCheckpointStats();

// SQL CHECKPOINT from a backend: CreateCheckPoint(false) at full speed, run
// in the calling process (serialised with the checkpointer's own, which
// stops pacing while this waits). `log`: log_checkpoints.
CheckpointResult RequestCheckpoint(bool log = false);

// Checkpointer: kTime when `checkpoint_timeout_s` seconds passed since the
// start of this process's last checkpoint (or its first call here), kWal when max_wal_size / (1 +
// completion_target) of WAL was inserted since the current redo pointer (as
// PostgreSQL), else kNone.
enum class CheckpointDue { kNone, kTime, kWal };
CheckpointDue CheckpointIsDue(int64_t checkpoint_timeout_s, int64_t max_wal_size_mb, double completion_target);

}  // namespace hearth::access
