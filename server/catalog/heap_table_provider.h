// catalog/heap_table_provider.h
//
// The executor's TableProvider over heap tables: names resolved through the
// relcache, rows read with heap::HeapScan under the statement's snapshot and
// written with HeapInsert/HeapDelete/HeapUpdate as the current transaction.
// Also BulkInserter, the COPY path (HeapMultiInsert with a BULKWRITE ring).
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

#include "access/heap/hio.h"
#include "access/transam/snapshot.h"
#include "access/transam/transam.h"
#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

// COPY FROM: buffers rows and writes them a page at a time with
// HeapMultiInsert through a BULKWRITE ring. Call Finish() before the
// statement ends (the destructor does not write: it may run during unwinding).
class BulkInserter {
 public:
  // REQUIRES: RowExclusiveLock (or stronger) on the relation; a transaction.
  explicit BulkInserter(RelationRef rel);
  ~BulkInserter();
  BulkInserter(const BulkInserter&) = delete;
  BulkInserter& operator=(const BulkInserter&) = delete;

  // Queues one row (copied into a reused slot: no allocation per row once
  // the batch is warm). Writes a batch when it is full. Row as TableModifier::Insert.
  void Insert(const executor::Row& row);
  // Writes what is queued and drops the kept buffer pin.
  void Finish();
  uint64_t rows_inserted() const { return rows_; }

 private:
  void FlushBatch();

  RelationRef rel_;
  access::TransactionId xid_;
  access::CommandId cid_;
  heap::BulkInsertState bulk_;
  std::vector<heap::Row> batch_;
  std::vector<heap::ItemPointer> tids_;      // TIDs of the batch (index maintenance)
  std::vector<types::Value> key_scratch_;
  size_t used_ = 0;
  size_t batch_bytes_ = 0;
  uint64_t rows_ = 0;
};

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
  std::unique_ptr<BulkInserter> OpenBulkInserter(const executor::TableInfo& table);

  // The relcache entry behind `table`, locked in `mode`; 42P01 if it is gone.
  RelationRef Open(const executor::TableInfo& table, storage::LockMode mode);

 private:
  const access::Snapshot& StatementSnapshot();

  access::Snapshot snapshot_;
  uint64_t snapshot_xact_ = 0;  // XactGeneration() when snapshot_ was taken; 0 = none
};

}  // namespace hearth::catalog
