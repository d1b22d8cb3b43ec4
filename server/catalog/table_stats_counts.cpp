// catalog/table_stats_counts.cpp
//
// Principal entry points: PendingCounts, CountTableTruncated,
// CountTableDropped, the transaction-end flush (FlushAtXactEnd).
#include "catalog/table_stats_counts.h"

#include <chrono>
#include <unordered_map>
#include <utility>
#include <vector>

#include "access/transam/xact.h"
#include "storage/stats/table_stats.h"

namespace hearth::catalog {

namespace {

struct BackendCounts {
  std::unordered_map<Oid, PendingTableCounts> pending;
  bool callback_registered = false;
  // Reused across transactions: the flush allocates nothing once warm.
  std::vector<std::pair<uint32_t, storage::TableCountsDelta>> deltas;
  std::vector<uint32_t> dropped;
  uint64_t generation = 1;
};

BackendCounts& Counts() {
  static BackendCounts c;
  return c;
}

int64_t NowUnixUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

storage::TableCountsDelta MakeDelta(const PendingTableCounts& p, bool commit) {
  storage::TableCountsDelta d;
  d.activity = p.activity;
  if (commit) {
    d.truncated = p.truncated;
    d.live_delta = p.xact_ins - p.xact_del;
    d.dead_delta = p.xact_upd + p.xact_del;
    d.changed = p.xact_ins + p.xact_upd + p.xact_del;
  } else {
    // The versions the transaction wrote are dead; what it deleted lives on.
    d.dead_delta = p.xact_ins + p.xact_upd;
  }
  return d;
}

void FlushAtXactEnd(access::XactEvent event, void*) {
  if (event == access::XactEvent::kPreCommit) return;
  BackendCounts& c = Counts();
  if (c.pending.empty()) return;
  ++c.generation;  // every TableCountsHandle looks its entry up again
  const bool commit = event == access::XactEvent::kCommit;
  c.deltas.clear();
  c.dropped.clear();
  for (const auto& [relid, p] : c.pending) {
    if (commit && p.dropped) {
      c.dropped.push_back(relid);
      continue;
    }
    c.deltas.emplace_back(relid, MakeDelta(p, commit));
  }
  c.pending.clear();
  // Runs after the commit is visible: must not throw (the lock waits only).
  storage::ApplyTableCounts(c.deltas);
  storage::DropTableStats(c.dropped);
}

}  // namespace

PendingTableCounts& PendingCounts(Oid relid) {
  BackendCounts& c = Counts();
  if (!c.callback_registered) {
    access::RegisterXactCallback(FlushAtXactEnd, nullptr);
    c.callback_registered = true;
  }
  return c.pending[relid];
}

uint64_t PendingCountsGeneration() { return Counts().generation; }

void CountTableTruncated(Oid relid) {
  PendingTableCounts& p = PendingCounts(relid);
  p.truncated = true;
  p.xact_ins = p.xact_upd = p.xact_del = 0;
}

void CountTableDropped(Oid relid) { PendingCounts(relid).dropped = true; }

void ReportVacuumCounts(Oid relid, int64_t live, int64_t dead, bool autovacuum) {
  storage::ReportTableVacuum(relid, live, dead, autovacuum, NowUnixUs());
}

void ReportAnalyzeCounts(Oid relid, int64_t live, bool autovacuum) {
  storage::ReportTableAnalyze(relid, live, autovacuum, NowUnixUs());
}

}  // namespace hearth::catalog
