// catalog/table_stats_counts.h
//
// This backend's table activity counts (pg_stat_all_tables), gathered in
// private memory while a transaction runs and applied to the shared table
// (storage/stats/table_stats.h) once, when it ends: as PostgreSQL, the rows
// a committed transaction inserted become live and those it updated or
// deleted dead; an aborted transaction's inserted and updated-to versions
// become dead. n_tup_ins/upd/del count either way.
//
// Callers keep the reference PendingCounts returns for the duration of one
// statement (it stays valid until the transaction ends), so counting a row
// is an increment in private memory.
//
// Process safety: per-process state; any process that runs transactions.
#pragma once

#include <cstdint>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

struct PendingTableCounts {
  int64_t seq_scan = 0;
  int64_t seq_tup_read = 0;
  int64_t idx_scan = 0;
  int64_t idx_tup_fetch = 0;
  int64_t tup_ins = 0;
  int64_t tup_upd = 0;
  int64_t tup_del = 0;
  int64_t tup_hot_upd = 0;
  // Since the last TRUNCATE in this transaction: what decides live/dead.
  int64_t xact_ins = 0;
  int64_t xact_upd = 0;
  int64_t xact_del = 0;
  bool truncated = false;
  bool dropped = false;

  void CountInsert(int64_t n = 1) {
    tup_ins += n;
    xact_ins += n;
  }
  void CountUpdate(bool hot) {
    ++tup_upd;
    ++xact_upd;
    tup_hot_upd += hot ? 1 : 0;
  }
  void CountDelete() {
    ++tup_del;
    ++xact_del;
  }
};

// The counts of `relid` in the running transaction. REQUIRES: a transaction
// in progress (they are applied at its end).
PendingTableCounts& PendingCounts(Oid relid);

// TRUNCATE: at commit the table's live and dead counts restart from what
// this transaction did after it.
void CountTableTruncated(Oid relid);
// DROP: at commit the table's statistics are forgotten.
void CountTableDropped(Oid relid);

// VACUUM / ANALYZE results, applied at once (not transactional, as PostgreSQL).
void ReportVacuumCounts(Oid relid, int64_t live, int64_t dead, bool autovacuum);
void ReportAnalyzeCounts(Oid relid, int64_t live, bool autovacuum);

}  // namespace hearth::catalog
