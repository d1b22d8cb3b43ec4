// catalog/heap_table_provider.cpp
//
// Principal entry points: HeapTableProvider::{StartStatement, Lookup,
// OpenScan, OpenModifier, OpenBulkInserter}, BulkInserter.
#include "catalog/heap_table_provider.h"

#include <span>

#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/transam/xact.h"
#include "catalog/pending_delete.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

using executor::ModifyResult;
using executor::RowId;

class HeapTableScan final : public executor::TableScan {
 public:
  HeapTableScan(RelationRef rel, const access::Snapshot& snap, access::TransactionId my_xid, bool bulk)
      : rel_(std::move(rel)), scan_(rel_->rel, rel_->desc, snap, my_xid, Options(bulk)) {}

  bool Next(executor::Row& row, RowId* rid) override {
    heap::ItemPointer tid;
    if (!scan_.Next(&row, &tid)) return false;
    if (rid != nullptr) *rid = heap::ItemPointerToU64(tid);
    return true;
  }

 private:
  static heap::HeapScanOptions Options(bool bulk) {
    heap::HeapScanOptions o;
    o.allow_bulkread = bulk;
    return o;
  }
  RelationRef rel_;  // keeps rel_->desc alive for scan_
  heap::HeapScan scan_;
};

// TmResult → ModifyResult; Repeatable Read turns concurrent changes into 40001.
ModifyResult MapResult(access::TmResult r) {
  const bool rr = access::CurrentIsolationLevel() != access::IsolationLevel::kReadCommitted;
  switch (r) {
    case access::TmResult::kOk: return ModifyResult::kOk;
    case access::TmResult::kSelfUpdated: return ModifyResult::kSelfModified;
    case access::TmResult::kUpdated:
    case access::TmResult::kDeleted:
      if (rr) throw DbError("40001", "could not serialize access due to concurrent update");
      return r == access::TmResult::kUpdated ? ModifyResult::kConcurrentlyUpdated : ModifyResult::kConcurrentlyDeleted;
    case access::TmResult::kInvisible: return ModifyResult::kNotFound;
    case access::TmResult::kBeingModified: break;
  }
  throw DbError("XX000", "unexpected heap result while modifying a row");
}

class HeapTableModifier final : public executor::TableModifier {
 public:
  explicit HeapTableModifier(RelationRef rel)
      : rel_(std::move(rel)),
        xid_(access::GetCurrentTransactionId()),
        cid_(access::GetCurrentCommandId(true)) {
    opts_.fillfactor = rel_->fillfactor;
  }

  RowId Insert(const executor::Row& row) override {
    return heap::ItemPointerToU64(heap::HeapInsert(rel_->rel, rel_->desc, row, xid_, cid_, opts_));
  }

  ModifyResult Delete(RowId rid) override {
    heap::TmFailureData fd;
    return MapResult(heap::HeapDelete(rel_->rel, heap::ItemPointerFromU64(rid), xid_, cid_, nullptr, true, &fd));
  }

  ModifyResult Update(RowId rid, const executor::Row& row, RowId* new_rid) override {
    heap::TmFailureData fd;
    heap::ItemPointer new_tid;
    access::TmResult r = heap::HeapUpdate(rel_->rel, heap::ItemPointerFromU64(rid), rel_->desc, row, xid_, cid_,
                                          nullptr, true, &fd, &new_tid, opts_);
    ModifyResult m = MapResult(r);
    if (m == ModifyResult::kOk && new_rid != nullptr) *new_rid = heap::ItemPointerToU64(new_tid);
    return m;
  }

  bool FetchLatestVersion(RowId rid, executor::Row* row, RowId* latest) override {
    const access::Snapshot& snap = access::GetLatestSnapshot();
    heap::ItemPointer tid;
    if (!heap::HeapGetLatestVersion(rel_->rel, rel_->desc, heap::ItemPointerFromU64(rid), snap, xid_, &tid, row)) {
      return false;
    }
    if (latest != nullptr) *latest = heap::ItemPointerToU64(tid);
    return true;
  }

 private:
  RelationRef rel_;
  access::TransactionId xid_;
  access::CommandId cid_;
  heap::HeapInsertOptions opts_;
};

// A batch is written when it holds this many rows or bytes of values.
constexpr size_t kBatchRows = 1000;
constexpr size_t kBatchBytes = 1 << 20;

}  // namespace

// ---- BulkInserter ---------------------------------------------------------

BulkInserter::BulkInserter(RelationRef rel)
    : rel_(std::move(rel)), xid_(access::GetCurrentTransactionId()), cid_(access::GetCurrentCommandId(true)) {}

BulkInserter::~BulkInserter() { bulk_.ReleaseBuffer(); }

void BulkInserter::Insert(const executor::Row& row) {
  if (used_ == batch_.size()) batch_.emplace_back();
  batch_[used_] = row;  // element-wise: reuses each Value's string capacity
  ++used_;
  for (const types::Value& v : row) batch_bytes_ += 8 + v.str.size();
  if (used_ >= kBatchRows || batch_bytes_ >= kBatchBytes) FlushBatch();
}

void BulkInserter::FlushBatch() {
  if (used_ == 0) return;
  heap::HeapInsertOptions opts;
  opts.fillfactor = rel_->fillfactor;
  opts.bulk = &bulk_;
  heap::HeapMultiInsert(rel_->rel, rel_->desc, std::span<const heap::Row>(batch_.data(), used_), xid_, cid_, opts,
                        nullptr);
  rows_ += used_;
  used_ = 0;
  batch_bytes_ = 0;
}

void BulkInserter::Finish() {
  FlushBatch();
  bulk_.ReleaseBuffer();
}

// ---- HeapTableProvider ----------------------------------------------------------

void HeapTableProvider::StartStatement() {
  AcceptInvalidations();
  snapshot_ = access::GetTransactionSnapshot();
  snapshot_xact_ = XactGeneration();
}

const access::Snapshot& HeapTableProvider::StatementSnapshot() {
  // A new transaction, or a new command whose StartStatement was skipped.
  if (snapshot_xact_ != XactGeneration() || snapshot_.curcid != access::GetCurrentCommandId(false)) {
    snapshot_ = access::GetTransactionSnapshot();
    snapshot_xact_ = XactGeneration();
  }
  return snapshot_;
}

std::optional<executor::TableInfo> HeapTableProvider::Lookup(const std::string& schema, const std::string& name) {
  RelationRef e = OpenRelation(schema, name, storage::LockMode::kAccessShare);
  if (e == nullptr) return std::nullopt;
  return e->info;
}

RelationRef HeapTableProvider::Open(const executor::TableInfo& table, storage::LockMode mode) {
  RelationRef e = OpenRelationByOid(table.oid, mode);
  if (e == nullptr) throw DbError("42P01", "relation \"" + table.name + "\" does not exist");
  return e;
}

std::unique_ptr<executor::TableScan> HeapTableProvider::OpenScan(const executor::TableInfo& table, bool bulk) {
  RelationRef e = Open(table, storage::LockMode::kAccessShare);
  const access::Snapshot& snap = StatementSnapshot();
  return std::make_unique<HeapTableScan>(std::move(e), snap, access::GetCurrentTransactionIdIfAny(), bulk);
}

std::unique_ptr<executor::TableModifier> HeapTableProvider::OpenModifier(const executor::TableInfo& table) {
  return std::make_unique<HeapTableModifier>(Open(table, storage::LockMode::kRowExclusive));
}

std::unique_ptr<BulkInserter> HeapTableProvider::OpenBulkInserter(const executor::TableInfo& table) {
  return std::make_unique<BulkInserter>(Open(table, storage::LockMode::kRowExclusive));
}

}  // namespace hearth::catalog
