// catalog/heap_bulk_insert.h
//
// HeapBulkInserter: the one bulk-insert path of heap tables (COPY FROM,
// INSERT ... SELECT), opened through HeapTableProvider::OpenBulkInserter.
// Rows are formed into heap tuples as they arrive (an oversized row fails
// at once, naming its own tag) and queued; a full batch (kBatchRows rows
// or kBatchBytes of tuples) is written with HeapMultiInsertFormed through a
// BULKWRITE ring: the target page stays pinned between batches, is filled
// under one lock with one WAL record per page (rows that would only partly
// fill the last page wait for the next batch), and new pages come from runs
// of blocks the relation is extended by in one write. Then the batch's
// entries go into each index in key order (neighbouring keys land on the
// same leaf while it is hot).
//
// Process safety: one per backend and statement; REQUIRES a transaction
// (an xid is assigned on construction) and RowExclusiveLock on the table.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "access/heap/hio.h"
#include "access/transam/transam.h"
#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

class HeapBulkInserter final : public executor::TableBulkInserter {
 public:
  // A batch is written when it holds this many rows or bytes of tuples.
  static constexpr size_t kBatchRows = 1000;
  static constexpr size_t kBatchBytes = 64 * 1024;

  // `frozen`: COPY FREEZE, rows written with xmin marked frozen (the
  // caller checked the transaction created or truncated the table).
  explicit HeapBulkInserter(RelationRef rel, bool frozen = false);
  ~HeapBulkInserter() override;
  HeapBulkInserter(const HeapBulkInserter&) = delete;
  HeapBulkInserter& operator=(const HeapBulkInserter&) = delete;

  void Insert(const executor::Row& row, uint64_t tag) override;
  // Writes what is queued, drops the kept pin and offers unused extended
  // blocks to the free-space map.
  void Finish() override;
  uint64_t failing_tag() const override { return failing_tag_; }
  uint64_t rows_inserted() const { return rows_; }

 private:
  // Writes the queued rows; unless `last`, the rows that would only partly
  // fill their page stay queued (moved to the front) for the next batch.
  void FlushBatch(bool last);
  void KeepTail(size_t written);
  // Index entries of the first `count` queued rows, index by index in key order.
  void InsertBatchIndexEntries(size_t count);

  RelationRef rel_;
  access::TransactionId xid_;
  access::CommandId cid_;
  bool frozen_;
  heap::BulkInsertState bulk_;
  // The queued batch: rows (kept for index keys, only when there are
  // indexes), tags, and formed tuples 8-aligned in one arena.
  std::vector<executor::Row> rows_kept_;
  std::vector<uint64_t> tags_;
  std::vector<char> arena_;
  std::vector<size_t> starts_;
  std::vector<size_t> lens_;
  std::vector<char> form_scratch_;
  std::vector<heap::toast::ToastPointer> toasted_;  // values a row stored out of line (unused)
  std::vector<std::span<char>> tuples_;
  std::vector<heap::ItemPointer> tids_;
  std::vector<size_t> order_;
  std::vector<types::Value> key_scratch_;
  size_t used_ = 0;
  uint64_t failing_tag_ = 0;
  uint64_t rows_ = 0;
};

}  // namespace hearth::catalog
