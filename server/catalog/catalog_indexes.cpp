// catalog/catalog_indexes.cpp
//
// Principal entry points: CatalogIndexDefs, CreateCatalogIndexes,
// CatalogInsert, CatalogUpdate, CatalogIndexProbe.
#include "catalog/catalog_indexes.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "access/heap/heapam.h"
#include "access/heap/vacuumlazy.h"
#include "access/transam/snapshot.h"
#include "access/transam/xlog_storage_records.h"
#include "catalog/pending_delete.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog::internal {

namespace {

const heap::TupleDesc& DescOf(Oid catalog) {
  switch (catalog) {
    case kHearthClassOid:
      return ClassTupleDesc();
    case kHearthAttributeOid:
      return AttributeTupleDesc();
    case kHearthIndexOid:
      return IndexTupleDesc();
    default:
      break;
  }
  throw std::logic_error("not a system catalog: " + std::to_string(catalog));
}

CatalogIndexDef Define(Oid oid, const char* name, Oid catalog, std::vector<int> columns,
                       const std::vector<const char*>& column_names) {
  CatalogIndexDef d;
  d.oid = oid;
  d.name = name;
  d.catalog = catalog;
  d.desc.rel = CatalogRel(oid);
  d.desc.name = name;
  const heap::TupleDesc& td = DescOf(catalog);
  for (size_t i = 0; i < columns.size(); i++) {
    d.desc.cols.push_back(nbtree::KeyColumn::Asc(td.col(columns[i]).type, column_names[i]));
  }
  d.columns = std::move(columns);
  return d;
}

std::vector<types::Value> KeyOf(const CatalogIndexDef& d, const heap::Row& row) {
  std::vector<types::Value> key;
  key.reserve(d.columns.size());
  for (int c : d.columns) {
    types::Value v = row[static_cast<size_t>(c)];
    // A row read back from the heap holds an oid as a signed int4: keys
    // take the oid's value as probes do (temporary namespaces are >= 2^31).
    if (v.type == types::kOidOid && !v.is_null) v = types::Value::Int(types::kOidOid, static_cast<Oid>(v.i));
    key.push_back(std::move(v));
  }
  return key;
}

void IndexRowVersion(Oid catalog, const heap::Row& row, heap::ItemPointer tid) {
  if (!CatalogIndexesUsable()) return;
  for (const CatalogIndexDef& d : CatalogIndexDefs()) {
    if (d.catalog != catalog) continue;
    std::vector<types::Value> key = KeyOf(d, row);
    nbtree::BtInsert(d.desc, key, tid);  // not unique: no probe, never waits
  }
}

}  // namespace

const std::vector<CatalogIndexDef>& CatalogIndexDefs() {
  static std::vector<CatalogIndexDef> defs = {
      Define(kAttributeRelidAttnumIndexOid, "hearth_attribute_relid_attnum_index", kHearthAttributeOid,
             {kAttAttrelid, kAttAttnum}, {"attrelid", "attnum"}),
      Define(kClassOidIndexOid, "hearth_class_oid_index", kHearthClassOid, {kClassOid}, {"oid"}),
      Define(kClassNameNspIndexOid, "hearth_class_relname_nsp_index", kHearthClassOid,
             {kClassRelname, kClassRelnamespace}, {"relname", "relnamespace"}),
      Define(kIndexIndrelidIndexOid, "hearth_index_indrelid_index", kHearthIndexOid, {kIndIndrelid}, {"indrelid"}),
      Define(kIndexNameNspIndexOid, "hearth_index_indname_nsp_index", kHearthIndexOid, {kIndName, kIndNamespace},
             {"indname", "indnamespace"}),
  };
  // The files are the current database's (bootstrap and tests change it).
  static Oid defs_db = MyDatabaseId();
  if (defs_db != MyDatabaseId()) {
    defs_db = MyDatabaseId();
    for (CatalogIndexDef& d : defs) d.desc.rel = CatalogRel(d.oid);
  }
  return defs;
}

const CatalogIndexDef& CatalogIndex(Oid index_oid) {
  for (const CatalogIndexDef& d : CatalogIndexDefs()) {
    if (d.oid == index_oid) return d;
  }
  throw std::logic_error("not a catalog index: " + std::to_string(index_oid));
}

bool CatalogIndexesUsable() {
  // Per data directory (tests open several in one process); the answer
  // never changes while a server runs.
  static std::string checked_dir;
  static Oid checked_db = 0;
  static bool usable = false;
  if (checked_dir.empty() || checked_dir != storage::SmgrDataDir() || checked_db != MyDatabaseId()) {
    usable = storage::SmgrExists(CatalogRel(kClassOidIndexOid), storage::ForkNumber::kMain);
    checked_dir = storage::SmgrDataDir();
    checked_db = MyDatabaseId();
  }
  return usable;
}

void CreateCatalogIndexes() {
  for (const CatalogIndexDef& d : CatalogIndexDefs()) {
    storage::Status st = storage::SmgrCreate(d.desc.rel, storage::ForkNumber::kMain);
    if (!st.ok()) throw std::runtime_error("could not create catalog index: " + st.message());
    access::XLogLogRelationCreate(d.desc.rel);
    nbtree::BtCreateEmpty(d.desc);
  }
}

heap::ItemPointer CatalogInsert(Oid catalog, const heap::Row& row, access::TransactionId xid, access::CommandId cid) {
  heap::ItemPointer tid = heap::HeapInsert(CatalogRel(catalog), DescOf(catalog), row, xid, cid);
  PendingCounts(catalog).CountInsert();
  IndexRowVersion(catalog, row, tid);
  return tid;
}

heap::ItemPointer CatalogUpdate(Oid catalog, heap::ItemPointer tid, const heap::Row& row, access::TransactionId xid,
                                access::CommandId cid) {
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  access::TmResult r = heap::HeapUpdate(CatalogRel(catalog), tid, DescOf(catalog), row, xid, cid, nullptr,
                                        /*wait=*/true, &fd, &new_tid);
  if (r != access::TmResult::kOk) throw DbError("XX000", "tuple concurrently updated");
  PendingCounts(catalog).CountUpdate(/*hot=*/false);
  IndexRowVersion(catalog, row, new_tid);
  return new_tid;
}

std::vector<heap::ItemPointer> CatalogIndexProbe(Oid index_oid, std::vector<types::Value> key) {
  const CatalogIndexDef& d = CatalogIndex(index_oid);
  nbtree::ScanKey cond{nbtree::ScanOp::kEq, std::move(key)};
  nbtree::BtScan scan(d.desc, std::span<const nbtree::ScanKey>(&cond, 1));
  std::vector<heap::ItemPointer> out;
  heap::ItemPointer tid;
  while (scan.Next(&tid)) out.push_back(tid);
  return out;
}

namespace {
std::vector<Oid>& NotedCatalogs() {
  static std::vector<Oid> noted;
  return noted;
}
}  // namespace

void NoteDeadCatalogCandidates(Oid catalog, size_t unusable) {
  if (unusable < kDeadCandidatesForVacuum) return;
  EnsureCatalogXactCallback();  // runs VacuumNotedCatalogs at transaction end
  // All three: the churn that left dead versions of one name also left
  // dead attribute and index rows, under keys nobody probes again.
  (void)catalog;
  NotedCatalogs() = {kHearthClassOid, kHearthAttributeOid, kHearthIndexOid};
}

void VacuumNotedCatalogs() noexcept {
  std::vector<Oid> todo;
  todo.swap(NotedCatalogs());
  for (Oid catalog : todo) {
    const storage::LockTag tag = storage::LockTag::Relation(IsSharedRelation(catalog) ? 0 : MyDatabaseId(), catalog);
    try {
      if (storage::LockAcquire(tag, storage::LockMode::kShareUpdateExclusive, /*dont_wait=*/true) !=
          storage::LockAcquireResult::kGranted) {
        continue;
      }
      heap::HeapVacuumRelation(CatalogRel(catalog), access::GetOldestXmin(),
                               [catalog](std::span<const heap::ItemPointer> dead) {
                                 auto less = [](const heap::ItemPointer& a, const heap::ItemPointer& b) {
                                   return a.block != b.block ? a.block < b.block : a.offset < b.offset;
                                 };
                                 auto is_dead = [&](heap::ItemPointer t) {
                                   return std::binary_search(dead.begin(), dead.end(), t, less);
                                 };
                                 for (const CatalogIndexDef& d : CatalogIndexDefs()) {
                                   if (d.catalog == catalog) nbtree::BtBulkDelete(d.desc, is_dead);
                                 }
                               });
    } catch (...) {
      // Only an optimisation: the next VACUUM does it.
    }
    storage::LockRelease(tag, storage::LockMode::kShareUpdateExclusive);
  }
}

}  // namespace hearth::catalog::internal
