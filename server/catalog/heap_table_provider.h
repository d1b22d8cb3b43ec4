// catalog/heap_table_provider.h
//
// The executor's TableProvider over heap tables: names resolved through the
// relcache, rows read with heap::HeapScan under the statement's snapshot and
// written with HeapInsert/HeapDelete/HeapUpdate as the current transaction.
// OpenBulkInserter opens the bulk-insert path (heap_bulk_insert.h).
// Inserts, updates and COPY maintain the table's B-tree indexes
// (index_maint.h); OpenIndexScan reads through one.
//
// Locks (held to transaction end): Lookup and OpenScan take AccessShareLock
// on the relation, OpenModifier and OpenBulkInserter RowExclusiveLock. So
// DROP/TRUNCATE (AccessExclusiveLock) wait for readers and writers, and vice versa.
//
// Snapshots: StartStatement() takes the statement's snapshot
// (access::GetTransactionSnapshot: new per statement under Read Committed,
// the transaction's under Repeatable Read); every scan of the statement uses
// it. Without StartStatement in the current transaction, the first OpenScan
// takes one.
//
// Concurrent updates (see access/heap/README.md): Delete/Update return
// kConcurrentlyUpdated / kConcurrentlyDeleted under Read Committed; under
// Repeatable Read they throw 40001 "could not serialize access due to
// concurrent update". RowId = heap::ItemPointerToU64(tid).
//
// Process safety: one provider per backend, single-threaded; scans and
// modifiers must not outlive the transaction that opened them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "access/transam/snapshot.h"
#include "access/transam/transam.h"
#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

class HeapTableProvider : public executor::TableProvider {
 public:
  HeapTableProvider() = default;

  // Per statement, before planning: AcceptInvalidations() and the statement
  // snapshot. REQUIRES: a transaction in progress.
  void StartStatement();

  std::optional<executor::TableInfo> Lookup(const std::string& schema, const std::string& name) override;
  std::unique_ptr<executor::TableScan> OpenScan(const executor::TableInfo& table, bool bulk) override;
  std::unique_ptr<executor::TableModifier> OpenModifier(const executor::TableInfo& table) override;
  // SELECT ... FOR UPDATE/SHARE: RowShareLock on the table, row locks in
  // the tuple headers (access/heap/heap_lock.h).
  std::unique_ptr<executor::TableRowLocker> OpenRowLocker(const executor::TableInfo& table,
                                                          executor::RowLockStrength strength,
                                                          executor::RowLockPolicy policy) override;
  // B-tree scan (AccessShareLock on the table): the rows visible to the
  // statement snapshot, in index order. Throws XX000 if the index is gone.
  std::unique_ptr<executor::TableScan> OpenIndexScan(const executor::TableInfo& table,
                                                     const executor::IndexInfo& index,
                                                     const executor::IndexScanRequest& req) override;
  // COPY FROM and INSERT ... SELECT (RowExclusiveLock on the table).
  std::unique_ptr<executor::TableBulkInserter> OpenBulkInserter(const executor::TableInfo& table) override;
  // COPY FREEZE: 55000 unless this transaction created or truncated the
  // table's file (access::RelfileCreatedInXact).
  std::unique_ptr<executor::TableBulkInserter> OpenFrozenBulkInserter(const executor::TableInfo& table) override;

  // Foreign key checks: a fresh snapshot seeing the current command's rows.
  std::unique_ptr<executor::TableScan> OpenLatestScan(const executor::TableInfo& table,
                                                      const executor::IndexInfo* index,
                                                      const executor::IndexScanRequest& req) override;
  void TakeLatestSnapshot() override;
  std::unique_ptr<executor::TableRowLocker> OpenLatestRowLocker(const executor::TableInfo& table) override;
  // AccessShareLock on the table, like Lookup.
  std::optional<executor::TableInfo> LookupByOid(types::Oid oid) override;
  // Partition pruning of constant conditions (partition_prune.cpp).
  void PruneInheritors(executor::TableInfo* table, const std::vector<executor::ColumnCondition>& conds) override;

  // The relcache entry behind `table`, locked in `mode`; 42P01 if it is gone.
  RelationRef Open(const executor::TableInfo& table, storage::LockMode mode);

 private:
  const access::Snapshot& StatementSnapshot();

  access::Snapshot snapshot_;
  uint64_t snapshot_xact_ = 0;  // XactGeneration() when snapshot_ was taken; 0 = none
  access::Snapshot latest_;    // foreign key checks' snapshot (OpenLatestScan)
  uint64_t latest_xact_ = 0;
  access::CommandId latest_cid_ = 0;
  bool snapshot_used_ = false;  // a scan of this statement has read with snapshot_
};

}  // namespace hearth::catalog
