// access/transam/xlog_stats.cpp
//
// Principal entry points: GetWalStats, ResetWalStats.
#include "access/transam/xlog_stats.h"

#include "access/transam/xlog_internal.h"

namespace hearth::access {

namespace xi = xlog_internal;

WalStats GetWalStats() {
  const xi::StatsShared& s = xi::Shared()->stats;
  constexpr auto r = std::memory_order_relaxed;
  WalStats w;
  w.wal_records = s.wal_records.load(r);
  w.wal_fpi = s.wal_fpi.load(r);
  w.wal_bytes = s.wal_bytes.load(r);
  w.wal_buffers_full = s.wal_buffers_full.load(r);
  w.wal_write = s.wal_write.load(r);
  w.wal_sync = s.wal_sync.load(r);
  w.wal_write_time = static_cast<double>(s.wal_write_time_ns.load(r)) / 1e6;
  w.wal_sync_time = static_cast<double>(s.wal_sync_time_ns.load(r)) / 1e6;
  w.stats_reset_us = s.stats_reset_us.load(r);
  w.commit_requests = s.commit_requests.load(r);
  w.commit_already_flushed = s.commit_already_flushed.load(r);
  w.flush_leader = s.flush_leader.load(r);
  w.flush_follower_waits = s.flush_follower_waits.load(r);
  w.commit_delays = s.commit_delays.load(r);
  w.commit_delay_time = static_cast<double>(s.commit_delay_time_ns.load(r)) / 1e6;
  w.flush_time_avg = static_cast<double>(s.flush_time_avg_ns.load(r)) / 1e6;
  w.segments_created = s.segments_created.load(r);
  w.segments_created_on_demand = s.segments_created_on_demand.load(r);
  w.segments_recycled = s.segments_recycled.load(r);
  w.segments_removed = s.segments_removed.load(r);
  return w;
}

void ResetWalStats() {
  xi::StatsShared& s = xi::Shared()->stats;
  constexpr auto r = std::memory_order_relaxed;
  s.wal_records.store(0, r);
  s.wal_fpi.store(0, r);
  s.wal_bytes.store(0, r);
  s.wal_buffers_full.store(0, r);
  s.wal_write.store(0, r);
  s.wal_sync.store(0, r);
  s.wal_write_time_ns.store(0, r);
  s.wal_sync_time_ns.store(0, r);
  s.commit_requests.store(0, r);
  s.commit_already_flushed.store(0, r);
  s.flush_leader.store(0, r);
  s.flush_follower_waits.store(0, r);
  s.commit_delays.store(0, r);
  s.commit_delay_time_ns.store(0, r);
  // flush_time_avg_ns is kept: it steers commit_delay, it is not a counter.
  s.segments_created.store(0, r);
  s.segments_created_on_demand.store(0, r);
  s.segments_recycled.store(0, r);
  s.segments_removed.store(0, r);
  s.stats_reset_us.store(xi::NowMicrosUnix(), r);
}

}  // namespace hearth::access
