// catalog/table_stats_counts.cpp
//
// Principal entry points: PendingCounts, CountTableTruncated,
// CountTableDropped, the transaction-end flush (FlushAtXactEnd).
#include "catalog/table_stats_counts.h"

#include <chrono>
#include <unordered_map>
#include <utility>
#include <vector>

#include "access/heap/pruneheap.h"
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
  std::vector<std::pair<storage::RelFileLocator, int64_t>> pruned;
  std::unordered_map<uint32_t, Oid> oid_of_file;  // relfilenode → relation
  uint64_t generation = 1;
};

// Bounds oid_of_file: a backend that touched this many tables starts over.
constexpr size_t kMaxRememberedFiles = 4096;

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
  d.dead_delta = -p.pruned;
  if (commit) {
    d.truncated = p.truncated;
    d.live_delta = p.xact_ins - p.xact_del;
    d.dead_delta += p.xact_upd + p.xact_del;
    d.changed = p.xact_ins + p.xact_upd + p.xact_del;
  } else {
    // The versions the transaction wrote are dead; what it deleted lives on.
    d.dead_delta += p.xact_ins + p.xact_upd;
  }
  return d;
}

void FlushAtXactEnd(access::XactEvent event, void*) {
  if (event == access::XactEvent::kPreCommit) return;
  BackendCounts& c = Counts();
  c.pruned.clear();
  heap::TakePrunedTupleCounts(&c.pruned);
  for (const auto& [rel, tuples] : c.pruned) {
    const uint32_t file = rel.number.value;
    auto it = c.oid_of_file.find(file);
    // Catalogs are stored under their own oid.
    const Oid relid = it != c.oid_of_file.end() ? it->second : file < kFirstNormalObjectId ? file : 0;
    if (relid != 0) c.pending[relid].pruned += tuples;
  }
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

void NoteRelationFile(Oid relid, storage::RelFileLocator rel) {
  BackendCounts& c = Counts();
  if (c.oid_of_file.size() >= kMaxRememberedFiles) c.oid_of_file.clear();
  c.oid_of_file[rel.number.value] = relid;
}

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
