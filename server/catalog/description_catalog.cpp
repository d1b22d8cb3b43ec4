// catalog/description_catalog.cpp
//
// Principal entry points: SetDescription, FindDescription,
// DeleteDescriptions, RemapColumnDescriptions.
#include "catalog/description_catalog.h"

#include <map>
#include <tuple>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/table_stats_counts.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

namespace {

using Key = std::tuple<Oid, Oid, int>;  // (objoid, classoid, objsubid)

Oid CatalogFor(Oid classoid) { return IsSharedClass(classoid) ? kHearthShdescriptionOid : kHearthDescriptionOid; }
storage::RelFileLocator RelFor(Oid classoid) { return CatalogRel(CatalogFor(classoid)); }

// Every comment as of the catalog version it was read at; this backend's
// own uncommitted changes force a re-read (and so does the end of the
// transaction that made them), as the function cache does.
struct DescriptionCache {
  bool valid = false;
  uint64_t catalog_version = 0;
  uint64_t dirty_xact = 0;
  std::map<Key, std::string> rows;
};

DescriptionCache& Cache() {
  static DescriptionCache cache;
  return cache;
}

std::vector<internal::CatalogTuple> ScanWhere(Oid catalog, const std::function<bool(const heap::Row&)>& match) {
  return internal::ScanCatalogWhere(CatalogRel(catalog), DescriptionTupleDesc(), match, false);
}

const std::map<Key, std::string>& CachedRows() {
  DescriptionCache& c = Cache();
  if (c.dirty_xact != 0 && c.dirty_xact != XactGeneration()) {
    c.valid = false;
    c.dirty_xact = 0;
  }
  const uint64_t version = CatalogVersion();
  if (c.valid && c.catalog_version == version) return c.rows;
  c.rows.clear();
  if (DescriptionCatalogsExist()) {
    for (Oid catalog : {kHearthDescriptionOid, kHearthShdescriptionOid}) {
      for (const internal::CatalogTuple& t : ScanWhere(catalog, [](const heap::Row&) { return true; })) {
        c.rows[{internal::RowOid(t.row, kDescObjoid), internal::RowOid(t.row, kDescClassoid),
                static_cast<int>(t.row[kDescObjsubid].i)}] = t.row[kDescDescription].str;
      }
    }
  }
  c.valid = true;
  c.catalog_version = version;
  return c.rows;
}

// Deletes the rows matching, marking the catalog changed when there were any.
int DeleteWhere(Oid classoid, const std::function<bool(const heap::Row&)>& match) {
  if (!DescriptionCatalogsExist()) return 0;
  const Oid catalog = CatalogFor(classoid);
  std::vector<internal::CatalogTuple> rows = ScanWhere(catalog, match);
  if (rows.empty()) return 0;
  MarkCatalogChanged(catalog);
  for (const internal::CatalogTuple& t : rows) {
    internal::DdlDeleteCatalogTuple(RelFor(classoid), t.tid, access::GetCurrentTransactionId(),
                                    access::GetCurrentCommandId(true));
  }
  access::CommandCounterIncrement();
  Cache().valid = false;
  Cache().dirty_xact = XactGeneration();
  return static_cast<int>(rows.size());
}

void Insert(Oid objoid, Oid classoid, int objsubid, const std::string& text) {
  heap::Row r(kDescNatts);
  r[kDescObjoid] = Value::Int(types::kOidOid, objoid);
  r[kDescClassoid] = Value::Int(types::kOidOid, classoid);
  r[kDescObjsubid] = Value::Int4(objsubid);
  r[kDescDescription] = Value::Text(text);
  const Oid catalog = CatalogFor(classoid);
  MarkCatalogChanged(catalog);
  heap::HeapInsert(RelFor(classoid), DescriptionTupleDesc(), r, access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  PendingCounts(catalog).CountInsert();
  access::CommandCounterIncrement();
  Cache().valid = false;
  Cache().dirty_xact = XactGeneration();
}

std::function<bool(const heap::Row&)> Matches(Oid objoid, Oid classoid, int objsubid) {
  return [=](const heap::Row& r) {
    return internal::RowOid(r, kDescObjoid) == objoid && internal::RowOid(r, kDescClassoid) == classoid &&
           (objsubid < 0 || r[kDescObjsubid].i == objsubid);
  };
}

}  // namespace

const heap::TupleDesc& DescriptionTupleDesc() {
  using heap::ColumnDesc;
  // Order must match DescriptionCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // objoid
      ColumnDesc::ForType(types::kOidOid),   // classoid
      ColumnDesc::ForType(types::kInt4Oid),  // objsubid
      ColumnDesc::ForType(types::kTextOid),  // description
  });
  return desc;
}

bool DescriptionCatalogsExist() {
  return storage::SmgrExists(CatalogRel(kHearthDescriptionOid), storage::ForkNumber::kMain) &&
         storage::SmgrExists(CatalogRel(kHearthShdescriptionOid), storage::ForkNumber::kMain);
}

void SetDescription(Oid objoid, Oid classoid, int objsubid, const std::optional<std::string>& text) {
  // Concurrent COMMENTs on one object serialise here (PostgreSQL locks the object).
  storage::LockAcquire(storage::LockTag::Object(CatalogFor(classoid), objoid), storage::LockMode::kExclusive);
  DeleteWhere(classoid, Matches(objoid, classoid, objsubid));
  if (text && !text->empty()) Insert(objoid, classoid, objsubid, *text);
}

std::optional<std::string> FindDescription(Oid objoid, Oid classoid, int objsubid) {
  const auto& rows = CachedRows();
  auto it = rows.find({objoid, classoid, objsubid});
  if (it == rows.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> FindDescriptionAnyClass(Oid objoid) {
  for (const auto& [key, text] : CachedRows()) {
    if (std::get<0>(key) == objoid && std::get<2>(key) == 0) return text;
  }
  return std::nullopt;
}

void DeleteDescriptions(Oid objoid, Oid classoid, int objsubid) {
  // Nothing to delete is the common case: answer it from the cache.
  bool any = false;
  for (const auto& [key, text] : CachedRows()) {
    if (std::get<0>(key) == objoid && std::get<1>(key) == classoid && (objsubid < 0 || std::get<2>(key) == objsubid)) {
      any = true;
      break;
    }
  }
  if (any) DeleteWhere(classoid, Matches(objoid, classoid, objsubid));
}

void RemapColumnDescriptions(Oid relid, const std::vector<int>& new_pos) {
  std::vector<std::pair<int, std::string>> moved;  // (new attnum, text)
  bool any = false;
  for (const auto& [key, text] : CachedRows()) {
    const int attnum = std::get<2>(key);
    if (std::get<0>(key) != relid || std::get<1>(key) != kPgClassClassOid || attnum == 0) continue;
    any = true;
    const int pos = attnum <= static_cast<int>(new_pos.size()) ? new_pos[static_cast<size_t>(attnum - 1)] : -1;
    if (pos >= 0) moved.emplace_back(pos + 1, text);
  }
  if (!any) return;
  DeleteWhere(kPgClassClassOid, [relid](const heap::Row& r) {
    return internal::RowOid(r, kDescObjoid) == relid && internal::RowOid(r, kDescClassoid) == kPgClassClassOid &&
           r[kDescObjsubid].i != 0;
  });
  for (const auto& [attnum, text] : moved) Insert(relid, kPgClassClassOid, attnum, text);
}

}  // namespace hearth::catalog
