// access/transam/xlog_stats.h
//
// pg_stat_wal: WAL activity counters with PostgreSQL 15's column names, plus
// Hearth's group-commit counters. The counters live in the wal area of shared
// memory (atomics, updated without locks by every process); GetWalStats takes
// a snapshot (each field read atomically; the set is not a consistent cut).
#pragma once

#include <cstdint>

namespace hearth::access {

struct WalStats {
  // pg_stat_wal (PostgreSQL 15).
  int64_t wal_records = 0;       // records inserted
  int64_t wal_fpi = 0;           // full-page images inserted
  uint64_t wal_bytes = 0;        // record bytes inserted (headers included)
  int64_t wal_buffers_full = 0;  // times an inserter had to write WAL out to reuse a buffer page
  int64_t wal_write = 0;         // write() calls of WAL pages
  int64_t wal_sync = 0;          // fsync/fdatasync calls of WAL files
  double wal_write_time = 0;     // ms spent writing (when track_io_timing)
  double wal_sync_time = 0;      // ms spent syncing (when track_io_timing)
  int64_t stats_reset_us = 0;    // Unix time (µs) of the last reset (or of startup)

  // Group commit (Hearth).
  int64_t commit_requests = 0;         // XLogFlushCommit calls
  int64_t commit_already_flushed = 0;  // ... that found their record already durable on entry
  int64_t flush_leader = 0;            // flushes done by a leader on behalf of waiting processes
  int64_t flush_follower_waits = 0;    // times a process waited for another's flush instead of syncing
  int64_t commit_delays = 0;           // commit_delay sleeps taken
  double commit_delay_time = 0;        // ms slept in them (each at most half of flush_time_avg)
  double flush_time_avg = 0;           // ms, moving average of a commit flush's write + sync

  // Segments (Hearth).
  int64_t segments_created = 0;            // new segment files created (pre-allocation or on demand)
  int64_t segments_created_on_demand = 0;  // ... by the write path because none was ready
  int64_t segments_recycled = 0;           // old segments renamed to future names
  int64_t segments_removed = 0;            // old segments unlinked
};

// REQUIRES: XLogStartup ran (in this process or an ancestor).
WalStats GetWalStats();
// Zeroes every counter and sets stats_reset to now (pg_stat_reset_shared('wal')).
void ResetWalStats();

}  // namespace hearth::access
