// catalog/table_rewrite.cpp
//
// Principal entry points: TableRewriteProvider::{Lookup, OpenScan, OpenBulkInserter}.
#include "catalog/table_rewrite.h"

#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "catalog/heap_bulk_insert.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

// Every row of the source visible to a fresh snapshot.
class FreshSnapshotScan final : public executor::TableScan {
 public:
  explicit FreshSnapshotScan(RelationRef rel) : rel_(std::move(rel)), scan_(rel_->rel, rel_->desc, Snap(), access::GetCurrentTransactionIdIfAny(), Options()) {}

  bool Next(executor::Row& row, executor::RowId* rid) override {
    heap::ItemPointer tid;
    if (!scan_.Next(&row, &tid)) return false;
    if (rid != nullptr) *rid = heap::ItemPointerToU64(tid);
    return true;
  }

 private:
  static access::Snapshot Snap() {
    access::Snapshot snap;
    access::GetSnapshotData(&snap, /*replace_xmin=*/false);
    snap.curcid = access::GetCurrentCommandId(false);
    return snap;
  }
  static heap::HeapScanOptions Options() {
    heap::HeapScanOptions o;
    o.allow_bulkread = true;
    return o;
  }
  RelationRef rel_;  // keeps rel_->desc alive for scan_
  heap::HeapScan scan_;
};

// The bulk inserter into the new file, checking NOT NULL as ALTER TABLE does.
class RewriteInserter final : public executor::TableBulkInserter {
 public:
  RewriteInserter(RelationRef target, const std::vector<executor::ColumnInfo>& columns)
      : target_(target), columns_(columns), heap_(std::move(target)) {}

  void Insert(const executor::Row& row, uint64_t tag) override {
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (columns_[i].not_null && row[i].is_null) {
        throw DbError("23502", "column \"" + columns_[i].name + "\" of relation \"" + target_->info.name +
                                   "\" contains null values");
      }
    }
    heap_.Insert(row, tag);
  }
  void Finish() override { heap_.Finish(); }
  uint64_t failing_tag() const override { return heap_.failing_tag(); }

 private:
  RelationRef target_;
  const std::vector<executor::ColumnInfo>& columns_;
  HeapBulkInserter heap_;
};

}  // namespace

TableRewriteProvider::TableRewriteProvider(executor::TableProvider& inner, RelationRef source,
                                           std::vector<executor::ColumnInfo> columns, Oid new_relfilenode)
    : inner_(inner), source_(std::move(source)), columns_(std::move(columns)) {
  auto target = std::make_shared<RelationEntry>(*source_);
  target->rel = DatabaseRel(new_relfilenode);
  target->indexes.clear();
  target->info.indexes.clear();
  target->info.columns = columns_;
  std::vector<heap::ColumnDesc> descs;
  for (const executor::ColumnInfo& c : columns_) descs.push_back(heap::ColumnDesc::ForType(c.type, c.typmod));
  target->desc = heap::TupleDesc(std::move(descs));
  // The new file gets its own toast relation when a column may need one.
  target->has_toast = heap::HasToastableColumn(target->desc);
  target_ = std::move(target);
}

std::optional<executor::TableInfo> TableRewriteProvider::Lookup(const std::string& schema, const std::string& name) {
  if (schema != kRewriteTargetSchema) return inner_.Lookup(schema, name);
  if (name != source_->info.name) return std::nullopt;
  executor::TableInfo t = target_->info;
  t.schema = kRewriteTargetSchema;
  // NOT NULL is checked by the inserter (ALTER TABLE's message); the
  // statement names every column it fills, so no identity rule applies.
  for (executor::ColumnInfo& c : t.columns) {
    c.not_null = false;
    c.identity = 0;
  }
  return t;
}

std::unique_ptr<executor::TableScan> TableRewriteProvider::OpenScan(const executor::TableInfo& table, bool bulk) {
  if (!IsTarget(table) && table.oid == source_->oid) return std::make_unique<FreshSnapshotScan>(source_);
  if (IsTarget(table)) throw DbError("XX000", "the rewrite target cannot be read");
  return inner_.OpenScan(table, bulk);
}

std::unique_ptr<executor::TableModifier> TableRewriteProvider::OpenModifier(const executor::TableInfo& table) {
  if (IsTarget(table) || table.oid == source_->oid) throw DbError("XX000", "the rewrite target takes bulk inserts only");
  return inner_.OpenModifier(table);
}

std::unique_ptr<executor::TableRowLocker> TableRewriteProvider::OpenRowLocker(const executor::TableInfo& table,
                                                                              executor::RowLockStrength strength,
                                                                              executor::RowLockPolicy policy) {
  return inner_.OpenRowLocker(table, strength, policy);
}

std::unique_ptr<executor::TableScan> TableRewriteProvider::OpenIndexScan(const executor::TableInfo& table,
                                                                         const executor::IndexInfo& index,
                                                                         const executor::IndexScanRequest& req) {
  if (table.oid == source_->oid) throw DbError("XX000", "the rewritten table is read sequentially");
  return inner_.OpenIndexScan(table, index, req);
}

std::unique_ptr<executor::TableBulkInserter> TableRewriteProvider::OpenBulkInserter(const executor::TableInfo& table) {
  if (!IsTarget(table)) return inner_.OpenBulkInserter(table);
  // The new file replaces the old one: its rows are the table's live rows.
  CountTableTruncated(source_->oid);
  return std::make_unique<RewriteInserter>(target_, columns_);
}

}  // namespace hearth::catalog
