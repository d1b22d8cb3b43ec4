// storage/stats/table_stats.cpp
//
// Principal entry points: ApplyTableCounts, ReportTableVacuum,
// ReportTableAnalyze, DropTableStats, ReadTableStats.
#include "storage/stats/table_stats.h"

#include <algorithm>

#include "storage/lmgr/lwlock.h"

namespace hearth::storage {

namespace {

static_assert((kTableStatsSlots & (kTableStatsSlots - 1)) == 0, "slot count must be a power of two");
constexpr uint32_t kSlotMask = kTableStatsSlots - 1;
// Full at 7/8: linear probing stays short, and a lookup always meets a gap.
constexpr int kMaxUsed = kTableStatsSlots / 8 * 7;

struct TableStatsShared {
  LWLock lock;
  int32_t used;
  TableStatsRow slots[kTableStatsSlots];  // relid 0 = free
};

TableStatsShared* g_stats = nullptr;
constexpr const char* kRegionName = "table stats";

uint32_t HomeSlot(uint32_t relid) { return (relid * 2654435761u) & kSlotMask; }

// The slot holding `relid`, or the free slot where it would go.
uint32_t Probe(const TableStatsShared& s, uint32_t relid) {
  uint32_t i = HomeSlot(relid);
  while (s.slots[i].relid != 0 && s.slots[i].relid != relid) i = (i + 1) & kSlotMask;
  return i;
}

// REQUIRES: lock held exclusively. nullptr when the table is full.
TableStatsRow* FindOrCreate(TableStatsShared& s, uint32_t relid) {
  const uint32_t i = Probe(s, relid);
  if (s.slots[i].relid == relid) return &s.slots[i];
  if (s.used >= kMaxUsed) return nullptr;
  s.slots[i] = TableStatsRow{};
  s.slots[i].relid = relid;
  ++s.used;
  return &s.slots[i];
}

// Linear-probing deletion without tombstones: later members of the probe
// run move back into the gap when their home slot allows it.
void EraseSlot(TableStatsShared& s, uint32_t gap) {
  s.slots[gap] = TableStatsRow{};
  --s.used;
  for (uint32_t j = (gap + 1) & kSlotMask; s.slots[j].relid != 0; j = (j + 1) & kSlotMask) {
    const uint32_t home = HomeSlot(s.slots[j].relid);
    // Movable when home is not cyclically within (gap, j].
    const bool home_in_range = gap <= j ? (home > gap && home <= j) : (home > gap || home <= j);
    if (home_in_range) continue;
    s.slots[gap] = s.slots[j];
    s.slots[j] = TableStatsRow{};
    gap = j;
  }
}

void Apply(TableStatsRow& e, const TableCountsDelta& d) {
  e.activity += d.activity;
  if (d.truncated) {
    e.live_tup = 0;
    e.dead_tup = 0;
    e.ins_since_vacuum = 0;
  }
  // Clamped as PostgreSQL does: a delta may outrun what was counted before.
  e.live_tup = std::max<int64_t>(0, e.live_tup + d.live_delta);
  e.dead_tup = std::max<int64_t>(0, e.dead_tup + d.dead_delta);
  e.mod_since_analyze += d.changed;
  e.ins_since_vacuum += d.activity.tup_ins;
}

// Runs fn on relid's entry (made if missing) under the exclusive lock.
template <typename Fn>
void UpdateEntry(uint32_t relid, Fn&& fn) {
  if (g_stats == nullptr) return;
  LWLockGuard g(g_stats->lock, LWLockMode::kExclusive);
  if (TableStatsRow* e = FindOrCreate(*g_stats, relid)) fn(*e);
}

}  // namespace

size_t TableStatsShmemSize(const ShmemParams&) { return sizeof(TableStatsShared); }

void TableStatsShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  g_stats = static_cast<TableStatsShared*>(seg.Allocate(kRegionName, TableStatsShmemSize(p)));
  g_stats->lock.Init();
  g_stats->used = 0;
  std::fill(std::begin(g_stats->slots), std::end(g_stats->slots), TableStatsRow{});
}

void ApplyTableCounts(std::span<const std::pair<uint32_t, TableCountsDelta>> deltas) {
  if (g_stats == nullptr || deltas.empty()) return;
  LWLockGuard g(g_stats->lock, LWLockMode::kExclusive);
  for (const auto& [relid, d] : deltas) {
    if (TableStatsRow* e = FindOrCreate(*g_stats, relid)) Apply(*e, d);
  }
}

void ReportTableVacuum(uint32_t relid, int64_t live, int64_t dead, bool autovacuum, int64_t now_unix_us) {
  UpdateEntry(relid, [&](TableStatsRow& e) {
    e.live_tup = live;
    e.dead_tup = dead;
    e.ins_since_vacuum = 0;
    (autovacuum ? e.last_autovacuum_us : e.last_vacuum_us) = now_unix_us;
    ++(autovacuum ? e.autovacuum_count : e.vacuum_count);
  });
}

void ReportTableAnalyze(uint32_t relid, int64_t live, bool autovacuum, int64_t now_unix_us) {
  UpdateEntry(relid, [&](TableStatsRow& e) {
    e.live_tup = live;
    e.mod_since_analyze = 0;
    (autovacuum ? e.last_autoanalyze_us : e.last_analyze_us) = now_unix_us;
    ++(autovacuum ? e.autoanalyze_count : e.analyze_count);
  });
}

void DropTableStats(std::span<const uint32_t> relids) {
  if (g_stats == nullptr || relids.empty()) return;
  LWLockGuard g(g_stats->lock, LWLockMode::kExclusive);
  for (uint32_t relid : relids) {
    const uint32_t i = Probe(*g_stats, relid);
    if (g_stats->slots[i].relid == relid) EraseSlot(*g_stats, i);
  }
}

std::optional<TableStatsRow> ReadTableStats(uint32_t relid) {
  if (g_stats == nullptr || relid == 0) return std::nullopt;
  LWLockGuard g(g_stats->lock, LWLockMode::kShared);
  const uint32_t i = Probe(*g_stats, relid);
  if (g_stats->slots[i].relid != relid) return std::nullopt;
  return g_stats->slots[i];
}

}  // namespace hearth::storage
