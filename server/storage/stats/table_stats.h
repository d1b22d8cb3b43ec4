// storage/stats/table_stats.h
//
// Cumulative per-table activity statistics in shared memory, the numbers
// behind pg_stat_all_tables and autovacuum's choice of tables: one entry per
// relation oid in a fixed-size open-addressing table (kTableStatsSlots
// entries, linear probing, deletion by backward shift), under one LWLock.
//
// Writers never touch it per row: a backend accumulates TableCountsDelta in
// private memory during a transaction and applies all of them at once at
// transaction end (catalog/table_stats_counts.h). VACUUM and ANALYZE report
// their counts directly. Entries of dropped relations are removed when the
// DROP commits. When the table is full a relation without an entry gets
// none (its counts are dropped) until entries are freed: bounded memory
// beats unbounded growth for statistics.
//
// Like PostgreSQL after a crash, the numbers start from zero when the
// segment is rebuilt (crash reset or restart).
//
// Process safety: any process with the segment mapped; every call is safe
// without shared memory (tools, unit tests) and then does nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "storage/ipc/shmem.h"

namespace hearth::storage {

inline constexpr int kTableStatsSlots = 16384;

// Counters that only ever grow, whatever the transaction's outcome.
struct TableActivity {
  int64_t seq_scan = 0;
  int64_t seq_tup_read = 0;
  int64_t idx_scan = 0;
  int64_t idx_tup_fetch = 0;
  int64_t tup_ins = 0;      // n_tup_ins (committed or not)
  int64_t tup_upd = 0;      // n_tup_upd, HOT included
  int64_t tup_del = 0;
  int64_t tup_hot_upd = 0;

  TableActivity& operator+=(const TableActivity& o) {
    seq_scan += o.seq_scan;
    seq_tup_read += o.seq_tup_read;
    idx_scan += o.idx_scan;
    idx_tup_fetch += o.idx_tup_fetch;
    tup_ins += o.tup_ins;
    tup_upd += o.tup_upd;
    tup_del += o.tup_del;
    tup_hot_upd += o.tup_hot_upd;
    return *this;
  }
};

// What a backend applies at transaction end for one relation.
struct TableCountsDelta {
  TableActivity activity;
  int64_t live_delta = 0;   // n_live_tup change
  int64_t dead_delta = 0;   // n_dead_tup change
  int64_t changed = 0;      // n_mod_since_analyze change
  bool truncated = false;   // live/dead/ins_since_vacuum restart from 0 first
};

// One relation's cumulative counters as a reader copied them.
struct TableStatsRow {
  uint32_t relid = 0;
  TableActivity activity;
  int64_t live_tup = 0;
  int64_t dead_tup = 0;
  int64_t mod_since_analyze = 0;
  int64_t ins_since_vacuum = 0;
  int64_t last_vacuum_us = 0;  // Unix microseconds, 0 = never
  int64_t last_autovacuum_us = 0;
  int64_t last_analyze_us = 0;
  int64_t last_autoanalyze_us = 0;
  int64_t vacuum_count = 0;
  int64_t autovacuum_count = 0;
  int64_t analyze_count = 0;
  int64_t autoanalyze_count = 0;
};

size_t TableStatsShmemSize(const ShmemParams& p);
void TableStatsShmemInit(ShmemSegment& seg, const ShmemParams& p);

// Applies a transaction's deltas (one lock acquisition for all of them).
void ApplyTableCounts(std::span<const std::pair<uint32_t, TableCountsDelta>> deltas);

// A finished VACUUM: live/dead versions it left, insert counter reset.
void ReportTableVacuum(uint32_t relid, int64_t live, int64_t dead, bool autovacuum, int64_t now_unix_us);
// A finished ANALYZE: live rows counted, modification counter reset.
void ReportTableAnalyze(uint32_t relid, int64_t live, bool autovacuum, int64_t now_unix_us);

// Forgets dropped relations.
void DropTableStats(std::span<const uint32_t> relids);

// The entry of `relid`, if it has one.
std::optional<TableStatsRow> ReadTableStats(uint32_t relid);

}  // namespace hearth::storage
