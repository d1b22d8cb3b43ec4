// access/transam/checkpoint_schedule.h
//
// Pacing of a spread checkpoint (PostgreSQL's CheckpointWriteDelay and
// IsCheckpointOnSchedule): the checkpointer writes its buffers so that the
// write-out ends after checkpoint_completion_target of the interval to the
// next checkpoint, measured both in time (checkpoint_timeout) and in WAL
// (max_wal_size), whichever runs out first. After each buffer it sleeps
// 100 ms while it is ahead of both schedules.
//
// It stops sleeping (the rest goes at full speed) when a process waits for
// its own checkpoint (SQL CHECKPOINT: CheckpointWaiterGuard), or when the
// caller's `hurry` says so (the checkpointer asked to shut down).
//
// Process safety: a schedule belongs to the process running the
// checkpoint; the waiter count is one shared atomic (zero without WAL).
#pragma once

#include <cstdint>

#include "access/transam/xlog_format.h"

namespace hearth::access {

struct CheckpointPacing {
  double completion_target = 0.9;  // checkpoint_completion_target
  int64_t timeout_s = 300;         // checkpoint_timeout
  int64_t max_wal_size_mb = 1024;  // max_wal_size
  bool (*hurry)() = nullptr;       // true: stop sleeping (e.g. shutdown requested)
};

// WAL bytes after a redo point at which the next checkpoint is due: PostgreSQL
// spreads max_wal_size over (1 + completion_target) checkpoint cycles.
uint64_t CheckpointWalDistance(int64_t max_wal_size_mb, double completion_target);

class CheckpointSchedule {
 public:
  // `redo`: the checkpoint's redo point; `start_ns`: its steady-clock start.
  CheckpointSchedule(const CheckpointPacing& pacing, XLogRecPtr redo, int64_t start_ns)
      : pacing_(pacing), redo_(redo), start_ns_(start_ns) {}

  // Called after each buffer with the fraction written so far: sleeps 100 ms
  // if the write-out is ahead of schedule and nobody asked to hurry.
  void AfterWrite(double progress) const;

  // Whether `progress` (fraction of buffers written) is at least the
  // fraction of the time and of the WAL budget used so far.
  bool OnSchedule(double progress) const;

 private:
  CheckpointPacing pacing_;
  XLogRecPtr redo_;
  int64_t start_ns_;
};

// Held by a process that wants a checkpoint now (SQL CHECKPOINT) for as long
// as it waits for and runs it: a spread checkpoint running meanwhile finishes
// at full speed instead of making it wait minutes.
class CheckpointWaiterGuard {
 public:
  CheckpointWaiterGuard();
  ~CheckpointWaiterGuard();
  CheckpointWaiterGuard(const CheckpointWaiterGuard&) = delete;
  CheckpointWaiterGuard& operator=(const CheckpointWaiterGuard&) = delete;
};

}  // namespace hearth::access
