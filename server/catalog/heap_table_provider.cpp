// catalog/heap_table_provider.cpp
//
// Principal entry points: HeapTableProvider::{StartStatement, Lookup,
// OpenScan, OpenModifier, OpenBulkInserter}.
#include "catalog/heap_table_provider.h"

#include "access/transam/xlog_standby.h"

#include <algorithm>
#include <set>
#include <span>

#include "access/heap/heap_lock.h"
#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/transam/pending_sync.h"
#include "access/transam/xact.h"
#include "catalog/heap_bulk_insert.h"
#include "catalog/index_maint.h"
#include "catalog/inherit_access.h"
#include "catalog/inherit_catalog.h"
#include "catalog/partition_bound.h"
#include "catalog/partition_route.h"
#include "catalog/pending_delete.h"
#include "catalog/sequence_scan.h"
#include "catalog/speculative_insert.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "utils/adt/cast.h"
#include "utils/adt/compare.h"

namespace hearth::catalog {

namespace {

using executor::ModifyResult;
using executor::RowId;

class HeapTableScan final : public executor::TableScan {
 public:
  HeapTableScan(RelationRef rel, const access::Snapshot& snap, access::TransactionId my_xid, bool bulk)
      : rel_(std::move(rel)),
        scan_(rel_->rel, rel_->desc, snap, my_xid, Options(bulk)),
        counts_(rel_->oid, rel_->rel) {
    counts_->CountSeqScan();
  }

  bool Next(executor::Row& row, RowId* rid) override {
    heap::ItemPointer tid;
    if (!scan_.Next(&row, &tid)) return false;
    if (rid != nullptr) *rid = heap::ItemPointerToU64(tid);
    counts_->CountSeqTuple();
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
  TableCountsHandle counts_;
};

// Heap rows through a B-tree: TIDs from BtScan, each fetched with the
// statement snapshot (invisible versions skipped). An IN list is one
// rescan per distinct value, in index order.
class HeapIndexScan final : public executor::TableScan {
 public:
  HeapIndexScan(RelationRef rel, size_t index_pos, const executor::IndexScanRequest& req,
                const access::Snapshot& snap, access::TransactionId my_xid)
      : rel_(std::move(rel)), ix_(&rel_->indexes[index_pos]), snap_(snap), my_xid_(my_xid),
        counts_(rel_->oid, rel_->rel) {
    counts_->CountIndexScan();
    dir_ = req.backward ? nbtree::ScanDirection::kBackward : nbtree::ScanDirection::kForward;
    const bool desc = ix_->desc.cols[0].descending;
    for (const executor::IndexBound& b : req.bounds) {
      if (b.value.is_null) {
        empty_ = true;
        return;
      }
      nbtree::ScanKey k;
      k.op = MapOp(b.op, desc);
      k.values.push_back(b.value);
      bounds_.push_back(std::move(k));
    }
    if (req.has_in) {
      for (const types::Value& v : req.in_values) {
        if (!v.is_null) in_.push_back(v);
      }
      // Index order of the values, each once.
      std::sort(in_.begin(), in_.end(), [&](const types::Value& a, const types::Value& b) {
        int c = types::CompareValues(a, b);
        return desc ? c > 0 : c < 0;
      });
      in_.erase(std::unique(in_.begin(), in_.end(),
                            [](const types::Value& a, const types::Value& b) { return types::CompareValues(a, b) == 0; }),
                in_.end());
      if (req.backward) std::reverse(in_.begin(), in_.end());
      if (in_.empty()) {
        empty_ = true;
        return;
      }
      has_in_ = true;
    }
    scan_ = std::make_unique<nbtree::BtScan>(ix_->desc, CurrentKeys(), dir_);
  }

  bool Next(executor::Row& row, RowId* rid) override {
    if (empty_) return false;
    heap::ItemPointer tid;
    for (;;) {
      if (!scan_->Next(&tid)) {
        if (!has_in_ || ++in_pos_ >= in_.size()) {
          scan_->End();
          empty_ = true;
          return false;
        }
        scan_->Rescan(CurrentKeys());
        continue;
      }
      // The entry names the chain's root; the visible version may be a later
      // heap-only one (HOT), whose own TID is the row id.
      heap::ItemPointer found;
      if (!heap::HeapFetch(rel_->rel, rel_->desc, tid, snap_, my_xid_, &row, &found)) {
        KillIfDeadToAll(tid);
        continue;
      }
      if (rid != nullptr) *rid = heap::ItemPointerToU64(found);
      counts_->CountIndexFetch();
      return true;
    }
  }

 private:
  static nbtree::ScanOp MapOp(executor::IndexScanOp op, bool desc) {
    switch (op) {
      case executor::IndexScanOp::kEq: return nbtree::ScanOp::kEq;
      case executor::IndexScanOp::kLt: return desc ? nbtree::ScanOp::kGt : nbtree::ScanOp::kLt;
      case executor::IndexScanOp::kLe: return desc ? nbtree::ScanOp::kGe : nbtree::ScanOp::kLe;
      case executor::IndexScanOp::kGt: return desc ? nbtree::ScanOp::kLt : nbtree::ScanOp::kGt;
      case executor::IndexScanOp::kGe: return desc ? nbtree::ScanOp::kLe : nbtree::ScanOp::kGe;
    }
    return nbtree::ScanOp::kEq;
  }
  // An entry whose whole HOT chain nobody can see any more (the horizon
  // pruning uses, GetOldestXmin, cached for the scan: an older value only
  // finds less dead) is marked LP_DEAD, so later scans skip it.
  void KillIfDeadToAll(heap::ItemPointer tid) {
    // A standby's index pages change only by replay.
    if (access::RecoveryInProgress()) return;
    const nbtree::UniqueProbe probe = ProbeHeapTuple(rel_->rel, tid, &horizon_);
    if (probe.state == nbtree::HeapTupleState::kDead && probe.dead_to_all) scan_->KillCurrent();
  }
  std::span<const nbtree::ScanKey> CurrentKeys() {
    keys_ = bounds_;
    if (has_in_) {
      nbtree::ScanKey k;
      k.op = nbtree::ScanOp::kEq;
      k.values.push_back(in_[in_pos_]);
      keys_.push_back(std::move(k));
    }
    return keys_;
  }

  RelationRef rel_;  // keeps the index description and TupleDesc alive
  const IndexEntry* ix_;
  access::Snapshot snap_;
  access::TransactionId my_xid_;
  access::TransactionId horizon_ = access::kInvalidTransactionId;  // GetOldestXmin(), once needed
  nbtree::ScanDirection dir_ = nbtree::ScanDirection::kForward;
  std::vector<nbtree::ScanKey> bounds_;
  std::vector<nbtree::ScanKey> keys_;
  std::vector<types::Value> in_;
  size_t in_pos_ = 0;
  bool has_in_ = false;
  bool empty_ = false;
  std::unique_ptr<nbtree::BtScan> scan_;
  TableCountsHandle counts_;
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
    case access::TmResult::kBeingModified:
    case access::TmResult::kWouldBlock: break;
  }
  throw DbError("XX000", "unexpected heap result while modifying a row");
}

class HeapTableModifier final : public executor::TableModifier {
 public:
  explicit HeapTableModifier(RelationRef rel)
      : rel_(std::move(rel)),
        xid_(access::GetCurrentTransactionId()),
        cid_(access::GetCurrentCommandId(true)),
        counts_(rel_->oid, rel_->rel) {
    opts_.fillfactor = rel_->fillfactor;
    opts_.toast = rel_->toast_options();
    for (const IndexEntry& ix : rel_->indexes) indexed_attrs_.insert(indexed_attrs_.end(), ix.columns.begin(), ix.columns.end());
    std::sort(indexed_attrs_.begin(), indexed_attrs_.end());
    indexed_attrs_.erase(std::unique(indexed_attrs_.begin(), indexed_attrs_.end()), indexed_attrs_.end());
  }

  RowId Insert(const executor::Row& row) override {
    heap::ItemPointer tid = heap::HeapInsert(rel_->rel, rel_->desc, row, xid_, cid_, opts_);
    counts_->CountInsert();
    InsertIndexEntries(*rel_, row, tid, &key_scratch_);
    return heap::ItemPointerToU64(tid);
  }

  ModifyResult Delete(RowId rid) override {
    heap::TmFailureData fd;
    ModifyResult m =
        MapResult(heap::HeapDelete(rel_->rel, heap::ItemPointerFromU64(rid), xid_, cid_, nullptr, true, &fd,
                                   rel_->toast_desc()));
    if (m == ModifyResult::kOk) counts_->CountDelete();
    return m;
  }

  ModifyResult Update(RowId rid, const executor::Row& row, RowId* new_rid, bool key_update) override {
    heap::TmFailureData fd;
    heap::ItemPointer new_tid;
    heap::HotUpdate hot{indexed_attrs_};
    opts_.key_update = key_update;
    access::TmResult r = heap::HeapUpdate(rel_->rel, heap::ItemPointerFromU64(rid), rel_->desc, row, xid_, cid_,
                                          nullptr, true, &fd, &new_tid, opts_, &hot);
    ModifyResult m = MapResult(r);
    if (m == ModifyResult::kOk) {
      counts_->CountUpdate(hot.was_hot);
      // A heap-only version is reached through its chain: no new entries.
      if (!hot.was_hot) InsertIndexEntries(*rel_, row, new_tid, &key_scratch_);
      if (new_rid != nullptr) *new_rid = heap::ItemPointerToU64(new_tid);
    }
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

  // INSERT ... ON CONFLICT (speculative_insert.h).
  bool FindConflict(const executor::Row& row, const std::vector<types::Oid>& arbiters, RowId* conflict) override {
    heap::ItemPointer tid;
    if (!FindArbiterConflict(*rel_, row, arbiters, &tid, &key_scratch_)) return false;
    *conflict = heap::ItemPointerToU64(tid);
    return true;
  }

  bool InsertSpeculative(const executor::Row& row, const std::vector<types::Oid>& arbiters, RowId* rid) override {
    heap::ItemPointer tid;
    if (!catalog::InsertSpeculative(*rel_, row, arbiters, xid_, cid_, opts_, &tid, &key_scratch_)) return false;
    counts_->CountInsert();
    *rid = heap::ItemPointerToU64(tid);
    return true;
  }

  void CheckConflictVisible(RowId rid) override {
    catalog::CheckConflictVisible(*rel_, heap::ItemPointerFromU64(rid), xid_);
  }

  ConflictLock LockConflicting(RowId rid, executor::Row* row) override {
    return LockConflictingVersion(*rel_, heap::ItemPointerFromU64(rid), xid_, cid_, row);
  }

 private:
  RelationRef rel_;
  access::TransactionId xid_;
  access::CommandId cid_;
  heap::HeapInsertOptions opts_;
  std::vector<types::Value> key_scratch_;
  std::vector<int> indexed_attrs_;  // every column some index covers (HOT check)
  TableCountsHandle counts_;  // pg_stat_all_tables, applied at transaction end
};

// SELECT ... FOR <strength>: row locks in the tuple headers (heap_lock.h),
// with the Read Committed "follow the update chain and lock the newest
// version" loop; Repeatable Read conflicts are 40001 (MapResult).
class HeapRowLocker final : public executor::TableRowLocker {
 public:
  // `cid`: the command whose rows count as visible (foreign key checks pass
  // the next one, so the current command's own rows can be locked).
  HeapRowLocker(RelationRef rel, std::string name, executor::RowLockStrength strength, executor::RowLockPolicy policy,
                access::CommandId cid = access::GetCurrentCommandId(false))
      : rel_(std::move(rel)),
        name_(std::move(name)),
        mode_(static_cast<access::RowLockMode>(strength)),
        wait_(policy == executor::RowLockPolicy::kBlock        ? heap::RowLockWait::kBlock
              : policy == executor::RowLockPolicy::kSkipLocked ? heap::RowLockWait::kSkip
                                                               : heap::RowLockWait::kError),
        cid_(cid) {}

  executor::LockRowResult Lock(RowId rid, executor::Row* row, RowId* latest) override {
    // The xid is assigned with the first row locked (as PostgreSQL): a
    // locking query that returns nothing leaves the transaction read-only.
    if (!access::TransactionIdIsValid(xid_)) xid_ = access::GetCurrentTransactionId();
    heap::ItemPointer tid = heap::ItemPointerFromU64(rid);
    for (;;) {
      heap::TmFailureData fd;
      const access::TmResult r = heap::HeapLockRow(rel_->rel, tid, xid_, cid_, mode_, wait_, &fd);
      if (r == access::TmResult::kWouldBlock) {
        if (wait_ == heap::RowLockWait::kSkip) return executor::LockRowResult::kSkipped;
        throw DbError(sqlstate::kLockNotAvailable, "could not obtain lock on row in relation \"" + name_ + "\"");
      }
      switch (MapResult(r)) {  // 40001 under Repeatable Read
        case ModifyResult::kOk:
          if (heap::ItemPointerToU64(tid) == rid) return executor::LockRowResult::kLocked;
          *latest = heap::ItemPointerToU64(tid);
          return executor::LockRowResult::kUpdated;
        case ModifyResult::kConcurrentlyUpdated:
          // Read Committed: lock the newest committed version instead.
          if (!heap::HeapGetLatestVersion(rel_->rel, rel_->desc, fd.ctid, access::GetLatestSnapshot(), xid_, &tid,
                                          row)) {
            return executor::LockRowResult::kGone;
          }
          break;
        default: return executor::LockRowResult::kGone;
      }
    }
  }

 private:
  RelationRef rel_;
  std::string name_;
  access::RowLockMode mode_;
  heap::RowLockWait wait_;
  access::TransactionId xid_ = access::kInvalidTransactionId;
  access::CommandId cid_;
};

}  // namespace

// ---- HeapTableProvider ----------------------------------------------------------

void HeapTableProvider::StartStatement() {
  AcceptInvalidations();
  snapshot_ = access::GetTransactionSnapshot();
  snapshot_xact_ = XactGeneration();
  snapshot_used_ = false;
}

const access::Snapshot& HeapTableProvider::StatementSnapshot() {
  // A new transaction, or a new command whose StartStatement was skipped.
  if (snapshot_xact_ != XactGeneration() || snapshot_.curcid != access::GetCurrentCommandId(false)) {
    snapshot_ = access::GetTransactionSnapshot();
    snapshot_xact_ = XactGeneration();
  }
  snapshot_used_ = true;
  return snapshot_;
}

namespace {

// A partitioned table's leaf partitions in PostgreSQL's Append order:
// depth first, each level in bound order (partition_bound.h).
void AddLeafPartitions(const RelationEntry& node, executor::TableInfo* info) {
  std::vector<RelationRef> parts;
  for (Oid c : node.children) {
    if (RelationRef p = LookupRelationByOid(c); p != nullptr && p->partition_bound != nullptr) parts.push_back(p);
  }
  std::stable_sort(parts.begin(), parts.end(), [](const RelationRef& a, const RelationRef& b) {
    return PartitionBoundLess(*a->partition_bound, *b->partition_bound);
  });
  for (const RelationRef& p : parts) {
    if (p->partition_key != nullptr) {
      AddLeafPartitions(*p, info);  // sub-partitioned: no rows of its own
      continue;
    }
    info->inheritors.push_back(p->oid);
    info->inheritor_names.push_back(p->info.name);
  }
}

}  // namespace

std::optional<executor::TableInfo> HeapTableProvider::Lookup(const std::string& schema, const std::string& name) {
  const uint64_t changes = CatalogChangesSeenAfterLock();
  RelationRef e = OpenRelation(schema, name, storage::LockMode::kAccessShare);
  // We waited for a transaction that changed the catalog (a rewrite, a
  // TRUNCATE): as in PostgreSQL, where a statement's snapshot is taken
  // after its locks, read with a snapshot that sees it (a new one under
  // Read Committed), unless a scan of this statement already used the old one.
  if (changes != CatalogChangesSeenAfterLock() && !snapshot_used_ && snapshot_xact_ == XactGeneration()) {
    snapshot_ = access::GetTransactionSnapshot();
  }
  if (e == nullptr) return std::nullopt;
  if (e->children.empty()) return e->info;
  executor::TableInfo info = e->info;
  if (e->partition_key != nullptr) {
    AddLeafPartitions(*e, &info);
    return info;
  }
  for (Oid c : FindAllInheritors(e->oid)) {
    RelationRef ce = LookupRelationByOid(c);
    if (ce == nullptr) continue;
    info.inheritors.push_back(c);
    info.inheritor_names.push_back(ce->info.name);
  }
  return info;
}

namespace {

// A DEFAULT partition can be pruned when an equality on a one-column key
// names a value another partition takes.
bool DefaultMayMatch(const PartitionKey& key, const std::vector<RelationRef>& parts,
                     const std::vector<executor::ColumnCondition>& conds) {
  if (key.columns.size() != 1) return true;
  for (const executor::ColumnCondition& c : conds) {
    if (c.column != key.columns[0] || c.op != executor::IndexScanOp::kEq || c.value.is_null) continue;
    executor::Row keyvals;
    try {
      keyvals.push_back(types::CastValue(c.value, key.types[0], key.typmods[0], types::CoercionContext::kAssignment));
    } catch (const DbError&) {
      return true;
    }
    for (const RelationRef& p : parts) {
      if (p->partition_bound->strategy != 'd' && KeyInBound(key, *p->partition_bound, keyvals)) return false;
    }
  }
  return true;
}

}  // namespace

void HeapTableProvider::PruneInheritors(executor::TableInfo* table, const std::vector<executor::ColumnCondition>& conds) {
  RelationRef root = LookupRelationByOid(table->oid);
  if (root == nullptr || root->partition_key == nullptr || conds.empty()) return;
  // Direct partitions whose bound no qualifying row can satisfy go, with
  // everything below them.
  std::set<Oid> pruned;
  std::vector<RelationRef> parts;
  for (Oid c : root->children) {
    if (RelationRef part = LookupRelationByOid(c); part != nullptr && part->partition_bound != nullptr) {
      parts.push_back(std::move(part));
    }
  }
  for (const RelationRef& part : parts) {
    const bool keep = part->partition_bound->strategy == 'd'
                          ? DefaultMayMatch(*root->partition_key, parts, conds)
                          : BoundMayMatch(*root->partition_key, *part->partition_bound, conds);
    if (keep) continue;
    pruned.insert(part->oid);
    for (Oid below : FindAllInheritors(part->oid)) pruned.insert(below);
  }
  if (pruned.empty()) return;
  std::vector<types::Oid> oids;
  std::vector<std::string> names;
  for (size_t i = 0; i < table->inheritors.size(); ++i) {
    if (pruned.count(table->inheritors[i]) != 0) continue;
    oids.push_back(table->inheritors[i]);
    names.push_back(table->inheritor_names[i]);
  }
  table->inheritors = std::move(oids);
  table->inheritor_names = std::move(names);
}

RelationRef HeapTableProvider::Open(const executor::TableInfo& table, storage::LockMode mode) {
  RelationRef e = OpenRelationByOid(table.oid, mode);
  if (e == nullptr) throw DbError("42P01", "relation \"" + table.name + "\" does not exist");
  // A view has no file: the planner expands it (planner/view_ref.cpp).
  if (e->relkind == 'v') throw DbError("42809", "\"" + table.name + "\" is a view");
  return e;
}

std::unique_ptr<executor::TableScan> HeapTableProvider::OpenScan(const executor::TableInfo& table, bool bulk) {
  if (!table.inheritors.empty()) return OpenInheritanceScan(*this, table, bulk);
  RelationRef e = Open(table, storage::LockMode::kAccessShare);
  if (e->relkind == 'S') return OpenSequenceScan(std::move(e));
  const access::Snapshot& snap = StatementSnapshot();
  return std::make_unique<HeapTableScan>(std::move(e), snap, access::GetCurrentTransactionIdIfAny(), bulk);
}

std::unique_ptr<executor::TableScan> HeapTableProvider::OpenIndexScan(const executor::TableInfo& table,
                                                                     const executor::IndexInfo& index,
                                                                     const executor::IndexScanRequest& req) {
  RelationRef e = Open(table, storage::LockMode::kAccessShare);
  size_t pos = e->indexes.size();
  for (size_t i = 0; i < e->indexes.size(); ++i) {
    if (e->indexes[i].oid == index.oid) pos = i;
  }
  if (pos == e->indexes.size() || e->indexes[pos].desc.cols.empty()) {
    throw DbError("XX000", "index \"" + index.name + "\" of relation \"" + table.name + "\" no longer exists");
  }
  const access::Snapshot& snap = StatementSnapshot();
  return std::make_unique<HeapIndexScan>(std::move(e), pos, req, snap, access::GetCurrentTransactionIdIfAny());
}

std::unique_ptr<executor::TableScan> HeapTableProvider::OpenLatestScan(const executor::TableInfo& table,
                                                                      const executor::IndexInfo* index,
                                                                      const executor::IndexScanRequest& req) {
  RelationRef e = Open(table, storage::LockMode::kAccessShare);
  if (latest_xact_ != XactGeneration() || latest_cid_ != access::GetCurrentCommandId(false)) TakeLatestSnapshot();
  const access::Snapshot& snap = latest_;
  const access::TransactionId me = access::GetCurrentTransactionIdIfAny();
  if (index == nullptr) return std::make_unique<HeapTableScan>(std::move(e), snap, me, false);
  for (size_t i = 0; i < e->indexes.size(); ++i) {
    if (e->indexes[i].oid == index->oid && !e->indexes[i].desc.cols.empty()) {
      return std::make_unique<HeapIndexScan>(std::move(e), i, req, snap, me);
    }
  }
  throw DbError("XX000", "index \"" + index->name + "\" of relation \"" + table.name + "\" no longer exists");
}

std::unique_ptr<executor::TableRowLocker> HeapTableProvider::OpenLatestRowLocker(const executor::TableInfo& table) {
  return std::make_unique<HeapRowLocker>(Open(table, storage::LockMode::kRowShare), table.name,
                                         executor::RowLockStrength::kKeyShare, executor::RowLockPolicy::kBlock,
                                         access::GetCurrentCommandId(false) + 1);
}

void HeapTableProvider::TakeLatestSnapshot() {
  access::GetSnapshotData(&latest_, /*replace_xmin=*/false);
  latest_cid_ = access::GetCurrentCommandId(false);
  // The current command's own changes count too (the checks run after them).
  latest_.curcid = latest_cid_ + 1;
  latest_xact_ = XactGeneration();
}

std::optional<executor::TableInfo> HeapTableProvider::LookupByOid(types::Oid oid) {
  RelationRef e = OpenRelationByOid(oid, storage::LockMode::kAccessShare);
  if (e == nullptr) return std::nullopt;
  return e->info;
}

std::unique_ptr<executor::TableModifier> HeapTableProvider::OpenModifier(const executor::TableInfo& table) {
  if (!table.inheritors.empty()) return OpenInheritanceModifier(*this, table);
  RelationRef e = Open(table, storage::LockMode::kRowExclusive);
  if (e->relkind == 'S') throw DbError("42809", "cannot change sequence \"" + e->info.name + "\"");
  // Declarative partitioning: rows route to partitions; a partition's own
  // rows must fit its bound (partition_route.h).
  if (e->partition_key != nullptr) return OpenRoutingModifier(*this, std::move(e));
  if (e->partition_bound != nullptr) return WrapPartitionCheck(e, std::make_unique<HeapTableModifier>(e));
  return std::make_unique<HeapTableModifier>(std::move(e));
}

std::unique_ptr<executor::TableRowLocker> HeapTableProvider::OpenRowLocker(const executor::TableInfo& table,
                                                                           executor::RowLockStrength strength,
                                                                           executor::RowLockPolicy policy) {
  if (!table.inheritors.empty()) return OpenInheritanceRowLocker(*this, table, strength, policy);
  return std::make_unique<HeapRowLocker>(Open(table, storage::LockMode::kRowShare), table.name, strength, policy);
}

std::unique_ptr<executor::TableBulkInserter> HeapTableProvider::OpenBulkInserter(const executor::TableInfo& table) {
  RelationRef e = Open(table, storage::LockMode::kRowExclusive);
  if (e->partition_key != nullptr) return OpenRoutingBulkInserter(*this, std::move(e));
  if (e->partition_bound != nullptr) return WrapPartitionCheck(e, std::make_unique<HeapBulkInserter>(e));
  return std::make_unique<HeapBulkInserter>(std::move(e));
}

std::unique_ptr<executor::TableBulkInserter> HeapTableProvider::OpenFrozenBulkInserter(
    const executor::TableInfo& table) {
  RelationRef rel = Open(table, storage::LockMode::kRowExclusive);
  // Rows frozen at once are safe only in a file no other transaction can
  // see until commit and that an abort throws away.
  if (!access::RelfileCreatedInXact(rel->rel)) executor::ThrowCopyFreezeNotAllowed();
  return std::make_unique<HeapBulkInserter>(std::move(rel), /*frozen=*/true);
}

}  // namespace hearth::catalog
