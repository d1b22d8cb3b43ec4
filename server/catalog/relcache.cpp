// catalog/relcache.cpp
//
// Principal entry points: AcceptInvalidations, LookupRelation, OpenRelation.
#include "catalog/relcache.h"

#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "access/transam/xact.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"

namespace hearth::catalog {

namespace {

struct Cache {
  uint64_t seen_version = 0;
  bool version_known = false;
  std::map<std::pair<Oid, std::string>, RelationRef> by_name;
  std::unordered_map<Oid, RelationRef> by_oid;
};
Cache& TheCache() {
  static Cache c;
  return c;
}

RelationRef Build(const internal::CatalogTuple& cls) {
  auto e = std::make_shared<RelationEntry>();
  const heap::Row& r = cls.row;
  e->oid = internal::RowOid(r, kClassOid);
  e->namespace_oid = internal::RowOid(r, kClassRelnamespace);
  e->rel = storage::RelFileLocator(internal::RowOid(r, kClassRelfilenode));
  e->fillfactor = r[kClassRelfillfactor].is_null ? 100 : static_cast<int>(r[kClassRelfillfactor].i);
  e->info.oid = e->oid;
  e->info.schema = NamespaceName(e->namespace_oid);
  e->info.name = r[kClassRelname].str;
  std::vector<heap::ColumnDesc> cols;
  for (const internal::CatalogTuple& a : internal::FindAttributes(e->oid)) {
    executor::ColumnInfo c;
    c.name = a.row[kAttAttname].str;
    c.type = internal::RowOid(a.row, kAttAtttypid);
    c.typmod = static_cast<int32_t>(a.row[kAttAtttypmod].i);
    c.not_null = a.row[kAttAttnotnull].b;
    if (!a.row[kAttAttdefault].is_null) c.default_expr = a.row[kAttAttdefault].str;
    cols.push_back(heap::ColumnDesc::ForType(c.type, c.typmod));
    e->info.columns.push_back(std::move(c));
  }
  e->desc = heap::TupleDesc(std::move(cols));
  return e;
}

RelationRef Remember(RelationRef e) {
  Cache& c = TheCache();
  c.by_name[{e->namespace_oid, e->info.name}] = e;
  c.by_oid[e->oid] = e;
  return e;
}

}  // namespace

bool AcceptInvalidations() {
  Cache& c = TheCache();
  uint64_t v = CatalogVersion();
  if (c.version_known && v == c.seen_version) return false;
  bool had = c.version_known;
  InvalidateLocalRelcache();
  c.seen_version = v;
  c.version_known = true;
  return had;
}

void InvalidateLocalRelcache() {
  Cache& c = TheCache();
  c.by_name.clear();
  c.by_oid.clear();
}

RelationRef LookupRelation(const std::string& schema, const std::string& name) {
  Oid ns = NamespaceOid(schema);
  if (ns == types::kInvalidOid) return nullptr;
  Cache& c = TheCache();
  if (auto it = c.by_name.find({ns, name}); it != c.by_name.end()) return it->second;
  auto cls = internal::FindClassByName(ns, name);
  if (!cls) return nullptr;
  return Remember(Build(*cls));
}

RelationRef LookupRelationByOid(Oid oid) {
  Cache& c = TheCache();
  if (auto it = c.by_oid.find(oid); it != c.by_oid.end()) return it->second;
  auto cls = internal::FindClassByOid(oid);
  if (!cls) return nullptr;
  return Remember(Build(*cls));
}

namespace {

template <typename Lookup>
RelationRef OpenWithLock(Lookup lookup, storage::LockMode mode) {
  // The lock is released at transaction end: without one it would leak.
  if (!access::IsTransactionInProgress()) throw std::logic_error("relation lookup outside a transaction");
  AcceptInvalidations();
  RelationRef e = lookup();
  // Bounded: each round waits for a lock holder that changed the catalog.
  for (int round = 0; e != nullptr && round < 100; ++round) {
    storage::LockTag tag = RelationLockTag(e->oid);
    if (storage::LockHeldByMe(tag, mode, /*or_stronger=*/true)) return e;
    storage::LockAcquire(tag, mode);
    if (!AcceptInvalidations()) return e;
    RelationRef again = lookup();
    if (again == nullptr || again->oid == e->oid) return again;
    e = std::move(again);  // dropped and re-created meanwhile: lock the new one
  }
  return e;
}

}  // namespace

RelationRef OpenRelation(const std::string& schema, const std::string& name, storage::LockMode mode) {
  return OpenWithLock([&] { return LookupRelation(schema, name); }, mode);
}

RelationRef OpenRelationByOid(Oid oid, storage::LockMode mode) {
  return OpenWithLock([&] { return LookupRelationByOid(oid); }, mode);
}

}  // namespace hearth::catalog
