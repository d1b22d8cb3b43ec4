// replication/lag_tracker.h
//
// pg_stat_replication's write_lag / flush_lag / replay_lag, measured as
// PostgreSQL measures them: the walsender notes when it sent WAL up to each
// position; when the standby reports having written (flushed, replayed)
// past a noted position, the lag is the time from that send until the
// report arrived. Per walsender, process-local; no locks.
#pragma once

#include <array>
#include <cstdint>

#include "access/transam/xlog_format.h"

namespace hearth::replication {

enum class LagKind { kWrite = 0, kFlush = 1, kApply = 2 };

class LagTracker {
 public:
  // WAL up to `lsn` went out at `now_us`.
  void Sent(access::XLogRecPtr lsn, int64_t now_us);
  // The standby reports `lsn` for `kind` at `now_us`: the lag in µs of the
  // newest sample it passed, or -1 when it passed none (no new measurement).
  int64_t Read(LagKind kind, access::XLogRecPtr lsn, int64_t now_us);

 private:
  struct Sample {
    access::XLogRecPtr lsn = 0;
    int64_t time_us = 0;
  };
  static constexpr int kSamples = 1024;
  std::array<Sample, kSamples> ring_{};
  int write_head_ = 0;                  // next slot to fill
  std::array<int, 3> read_heads_{};     // next sample each kind has not passed
  access::XLogRecPtr last_lsn_ = 0;
};

}  // namespace hearth::replication
