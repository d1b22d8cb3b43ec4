// catalog/table_stats_counts.h
//
// This backend's table activity counts (pg_stat_all_tables), gathered in
// private memory while a transaction runs and applied to the shared table
// (storage/stats/table_stats.h) once, when it ends: as PostgreSQL, the rows
// a committed transaction inserted become live and those it updated or
// deleted dead; an aborted transaction's inserted and updated-to versions
// become dead. n_tup_ins/upd/del count either way.
//
// Scans and modifiers hold a TableCountsHandle, so counting a row is one
// comparison and an increment in private memory.
//
// Process safety: per-process state; any process that runs transactions.
#pragma once

#include <cstdint>

#include "catalog/catalog_defs.h"
#include "storage/smgr/relfile.h"
#include "storage/stats/table_stats.h"

namespace hearth::catalog {

struct PendingTableCounts {
  storage::TableActivity activity;
  // Since the last TRUNCATE in this transaction: what decides live/dead.
  int64_t xact_ins = 0;
  int64_t xact_upd = 0;
  int64_t xact_del = 0;
  bool truncated = false;
  bool dropped = false;
  int64_t pruned = 0;  // freed by pruning on access: no longer dead, whatever the outcome

  void CountInsert(int64_t n = 1) {
    activity.tup_ins += n;
    xact_ins += n;
  }
  void CountUpdate(bool hot) {
    ++activity.tup_upd;
    ++xact_upd;
    activity.tup_hot_upd += hot ? 1 : 0;
  }
  void CountDelete() {
    ++activity.tup_del;
    ++xact_del;
  }
  void CountSeqScan() { ++activity.seq_scan; }
  void CountSeqTuple() { ++activity.seq_tup_read; }
  void CountIndexScan() { ++activity.idx_scan; }
  void CountIndexFetch() { ++activity.idx_tup_fetch; }
};

// The counts of `relid` in the running transaction. REQUIRES: a transaction
// in progress (they are applied at its end). The reference is valid until
// the transaction ends.
PendingTableCounts& PendingCounts(Oid relid);

// Bumped whenever the pending counts are applied (every transaction end).
uint64_t PendingCountsGeneration();

// Remembers that `relid` is stored in `rel`, so versions that pruning on
// access frees there (heap::TakePrunedTupleCounts) lower its n_dead_tup.
void NoteRelationFile(Oid relid, storage::RelFileLocator rel);

// PendingCounts(relid), looked up again only after a transaction ended: for
// objects that may outlive one (a prepared statement's plan keeps them).
class TableCountsHandle {
 public:
  TableCountsHandle(Oid relid, storage::RelFileLocator rel) : relid_(relid), rel_(rel) {}
  PendingTableCounts* operator->() {
    if (generation_ != PendingCountsGeneration() || counts_ == nullptr) {
      counts_ = &PendingCounts(relid_);
      NoteRelationFile(relid_, rel_);
      generation_ = PendingCountsGeneration();
    }
    return counts_;
  }

 private:
  Oid relid_;
  storage::RelFileLocator rel_;
  uint64_t generation_ = 0;
  PendingTableCounts* counts_ = nullptr;
};

// TRUNCATE: at commit the table's live and dead counts restart from what
// this transaction did after it.
void CountTableTruncated(Oid relid);
// DROP: at commit the table's statistics are forgotten.
void CountTableDropped(Oid relid);

// VACUUM / ANALYZE results, applied at once (not transactional, as PostgreSQL).
void ReportVacuumCounts(Oid relid, int64_t live, int64_t dead, bool autovacuum);
void ReportAnalyzeCounts(Oid relid, int64_t live, bool autovacuum);

}  // namespace hearth::catalog
