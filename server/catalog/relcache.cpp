// catalog/relcache.cpp
//
// Principal entry points: AcceptInvalidations, LookupRelation, OpenRelation.
#include "catalog/relcache.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "access/transam/xact.h"
#include "catalog/namespace_catalog.h"
#include "catalog/temp_namespace.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/constraint_catalog.h"
#include "catalog/inherit_catalog.h"
#include "catalog/partition_bound.h"
#include "catalog/pending_delete.h"
#include "storage/smgr/smgr.h"
#include "catalog/type_catalog_rows.h"

namespace hearth::catalog {

namespace {

using types::Value;

struct Cache {
  uint64_t seen_version = 0;
  uint64_t seen_messages = 0;
  bool version_known = false;
  std::map<std::pair<Oid, std::string>, RelationRef> by_name;
  std::unordered_map<Oid, RelationRef> by_oid;
};
Cache& TheCache() {
  static Cache c;
  return c;
}

// relkind; a view's query; a sequence's parameters; identity markers of a table's columns
// (only tables with a nextval() default can have owned sequences).
void LoadSequenceParts(RelationEntry& e, const heap::Row& cls) {
  const Value& kind = cls[kClassRelkind];
  e.relkind = kind.is_null || kind.str.empty() ? 'r' : kind.str[0];
  if (e.relkind == 'v' && cls.size() > kClassRelviewdef && !cls[kClassRelviewdef].is_null) {
    e.info.view_query = cls[kClassRelviewdef].str;
    e.info.view_owner = e.owner;
    return;
  }
  if (e.relkind == 'S') {
    if (auto row = FindSequenceRow(e.oid)) e.sequence = std::make_shared<SequenceParams>(ParseSequenceRow(row->row));
    return;
  }
  bool may_own = false;
  for (const executor::ColumnInfo& c : e.info.columns) may_own |= c.default_expr.starts_with("nextval(");
  if (!may_own) return;
  for (const internal::CatalogTuple& t : FindSequencesOwnedBy(e.oid)) {
    SequenceParams p = ParseSequenceRow(t.row);
    if (p.identity != 0 && p.owner_col >= 1 && p.owner_col <= static_cast<int>(e.info.columns.size())) {
      e.info.columns[static_cast<size_t>(p.owner_col - 1)].identity = p.identity;
    }
  }
}

void NameTable(Oid oid, std::string* schema, std::string* name) {
  if (auto cls = internal::FindClassByOid(oid)) {
    *schema = NamespaceName(internal::RowOid(cls->row, kClassRelnamespace));
    *name = cls->row[kClassRelname].str;
  }
}

std::vector<int> ZeroBased(const std::vector<int>& attnums) {
  std::vector<int> out;
  for (int a : attnums) out.push_back(a - 1);
  return out;
}

// CHECK and FOREIGN KEY constraints on or referencing the table
// (hearth_constraint); catalogs have none.
void LoadConstraints(RelationEntry& e) {
  if (e.oid < kFirstNormalObjectId) return;
  for (const internal::CatalogTuple& t : FindConstraintsOf(e.oid, /*referencing=*/true)) {
    const ConstraintFields f = ParseConstraintRow(t.row);
    if (f.type == 'c') {
      if (f.relid == e.oid) e.info.checks.push_back({f.name, f.bin});
      continue;
    }
    executor::ForeignKeyInfo fk;
    fk.oid = f.oid;
    fk.name = f.name;
    fk.table = f.relid;
    fk.columns = ZeroBased(f.key);
    fk.ref_table = f.frelid;
    fk.ref_columns = ZeroBased(f.fkey);
    fk.ref_index = f.indid;
    fk.on_update = f.upd_type;
    fk.on_delete = f.del_type;
    // A key naming a column the table no longer has is skipped, never
    // indexed out of range (the row describes a newer or broken layout).
    const size_t ncols = e.info.columns.size();
    auto in_range = [](const std::vector<int>& cols, size_t n) {
      return !cols.empty() && std::all_of(cols.begin(), cols.end(), [&](int c) { return c >= 0 && c < static_cast<int>(n); });
    };
    if ((f.relid == e.oid && !in_range(fk.columns, ncols)) || (f.frelid == e.oid && !in_range(fk.ref_columns, ncols))) {
      continue;
    }
    if (f.relid == e.oid) {
      fk.table_schema = e.info.schema;
      fk.table_name = e.info.name;
    } else {
      NameTable(f.relid, &fk.table_schema, &fk.table_name);
    }
    if (f.frelid == e.oid) {
      fk.ref_schema = e.info.schema;
      fk.ref_name = e.info.name;
    } else {
      NameTable(f.frelid, &fk.ref_schema, &fk.ref_name);
    }
    if (f.frelid == e.oid) e.info.referenced_by.push_back(fk);
    if (f.relid == e.oid) e.info.foreign_keys.push_back(std::move(fk));
  }
  // Checks run in name order, foreign keys in creation order (oid), as
  // PostgreSQL's constraint checks and RI triggers fire.
  std::sort(e.info.checks.begin(), e.info.checks.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  auto by_oid = [](const auto& a, const auto& b) { return a.oid < b.oid; };
  std::sort(e.info.foreign_keys.begin(), e.info.foreign_keys.end(), by_oid);
  std::sort(e.info.referenced_by.begin(), e.info.referenced_by.end(), by_oid);
}

// PARTITION BY's key, and a partition's bound read with its parent's key
// (the parent's entry is looked up: it never looks up its children).
void LoadPartitioning(RelationEntry& e, const heap::Row& r) {
  if (r.size() > kClassRelpartkey && !r[kClassRelpartkey].is_null) {
    e.partition_key = ParsePartitionKey(r[kClassRelpartkey].str, e.info);
    e.info.partitioned = true;
  }
  if (r.size() <= kClassRelpartbound || r[kClassRelpartbound].is_null || e.parents.empty()) return;
  RelationRef parent = LookupRelationByOid(e.parents[0]);
  if (parent == nullptr || parent->partition_key == nullptr) return;
  e.partition_bound = ParsePartitionBound(r[kClassRelpartbound].str, *parent->partition_key);
}

// A column of a domain holds the domain's base type; the domain's checks
// run on every write (executor/domain_checks.h) and its default serves a
// column without one of its own.
void ResolveDomainColumn(executor::ColumnInfo& c) {
  if (types::FindDomainType(c.type) == nullptr) return;
  c.domain = c.type;
  for (const types::UserType* d = types::FindDomainType(c.type); d != nullptr; d = types::FindDomainType(d->base_type)) {
    if (c.default_expr.empty() && d->default_expr) c.default_expr = *d->default_expr;
  }
  c.type = types::DomainBaseType(c.type, &c.typmod);
}

RelationRef Build(const internal::CatalogTuple& cls) {
  InstallUserTypeLoader();  // column layouts of enum and domain columns need it (any process)
  auto e = std::make_shared<RelationEntry>();
  const heap::Row& r = cls.row;
  e->oid = internal::RowOid(r, kClassOid);
  e->namespace_oid = internal::RowOid(r, kClassRelnamespace);
  e->rel = IsSharedRelation(e->oid) ? CatalogRel(e->oid) : DatabaseRel(internal::RowOid(r, kClassRelfilenode));
  e->fillfactor = r[kClassRelfillfactor].is_null ? 100 : static_cast<int>(r[kClassRelfillfactor].i);
  // Rows written before the column existed have fewer attributes: NULL.
  if (r.size() > kClassReloptions && !r[kClassReloptions].is_null) {
    constexpr std::string_view kKey = "autovacuum_enabled=";
    const std::string& opts = r[kClassReloptions].str;
    if (opts.starts_with(kKey)) e->autovacuum_enabled = internal::ParseBoolOption(opts.substr(kKey.size())).value_or(true);
  }
  e->info.oid = e->oid;
  e->info.schema = NamespaceName(e->namespace_oid);
  e->info.name = r[kClassRelname].str;
  if (!r[kClassRelowner].is_null) e->owner = internal::RowOid(r, kClassRelowner);
  if (!r[kClassRelacl].is_null) e->acl = r[kClassRelacl].str;
  std::vector<heap::ColumnDesc> cols;
  for (const internal::CatalogTuple& a : internal::FindAttributes(e->oid)) {
    executor::ColumnInfo c;
    c.name = a.row[kAttAttname].str;
    c.type = internal::RowOid(a.row, kAttAtttypid);
    c.typmod = static_cast<int32_t>(a.row[kAttAtttypmod].i);
    ResolveDomainColumn(c);
    c.not_null = a.row[kAttAttnotnull].b;
    if (!a.row[kAttAttdefault].is_null && !a.row[kAttAttdefault].str.empty()) c.default_expr = a.row[kAttAttdefault].str;
    cols.push_back(heap::ColumnDesc::ForType(c.type, c.typmod));
    e->info.columns.push_back(std::move(c));
    // Rows written before attacl existed have fewer attributes: none.
    const bool has_acl = a.row.size() > kAttAttacl && !a.row[kAttAttacl].is_null;
    e->column_acls.push_back(has_acl ? std::optional<std::string>(a.row[kAttAttacl].str) : std::nullopt);
  }
  e->desc = heap::TupleDesc(std::move(cols));
  LoadSequenceParts(*e, r);
  if (e->relkind == 'r' && e->oid >= kFirstNormalObjectId) {
    e->has_toast = heap::HasToastableColumn(e->desc);
    e->toast.toastrelid = ToastRelationOid(e->oid);
  }
  for (const internal::CatalogTuple& t : internal::FindIndexes(e->oid)) {
    internal::IndexFields f = internal::ParseIndexRow(t.row);
    IndexEntry ix;
    ix.oid = f.indexrelid;
    ix.unique = f.unique;
    ix.primary = f.primary;
    ix.desc.rel = DatabaseRel(f.relfilenode);
    ix.desc.name = f.name;
    executor::IndexInfo ii;
    ii.oid = f.indexrelid;
    ii.name = f.name;
    ii.unique = f.unique;
    ii.primary = f.primary;
    for (size_t k = 0; k < f.attnums.size(); ++k) {
      const int col = f.attnums[k] - 1;
      if (col < 0 || col >= static_cast<int>(e->info.columns.size())) continue;  // corrupt row: skip the column
      const executor::ColumnInfo& c = e->info.columns[static_cast<size_t>(col)];
      nbtree::KeyColumn kc;
      kc.type = c.type;
      kc.descending = (f.options[k] & 1) != 0;
      kc.nulls_first = (f.options[k] & 2) != 0;
      kc.name = c.name;
      ix.desc.cols.push_back(kc);
      ix.columns.push_back(col);
      ii.columns.push_back(col);
      ii.descending.push_back(kc.descending);
      ii.nulls_first.push_back(kc.nulls_first);
    }
    e->info.indexes.push_back(std::move(ii));
    e->indexes.push_back(std::move(ix));
  }
  // Stable order (creation order = oid order) for the planner's choice.
  std::vector<size_t> order(e->indexes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return e->indexes[a].oid < e->indexes[b].oid; });
  std::vector<IndexEntry> ixs;
  std::vector<executor::IndexInfo> infos;
  for (size_t i : order) {
    ixs.push_back(std::move(e->indexes[i]));
    infos.push_back(std::move(e->info.indexes[i]));
  }
  e->indexes = std::move(ixs);
  e->info.indexes = std::move(infos);
  LoadConstraints(*e);
  e->parents = ParentsInClassRow(r);
  if (HasSubclassInClassRow(r)) e->children = FindInheritanceChildren(e->oid);
  LoadPartitioning(*e, r);
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
  storage::SmgrCloseDroppedFiles();
  FinishDeferredDeletes(/*wait=*/false);
  Cache& c = TheCache();
  uint64_t v = CatalogVersion();
  if (c.version_known && v == c.seen_version) return false;
  bool had = c.version_known;
  std::vector<Oid> relids;
  if (!ReadRelationInvalidations(&c.seen_messages, &relids) || !had) {
    InvalidateLocalRelcache();
  } else {
    InvalidateRelcacheEntries(relids);
  }
  c.seen_version = v;
  c.version_known = true;
  return had;
}

void InvalidateLocalRelcache() {
  InvalidateSchemaCache();
  Cache& c = TheCache();
  c.by_name.clear();
  c.by_oid.clear();
}

void InvalidateRelcacheEntries(const std::vector<Oid>& relids) {
  Cache& c = TheCache();
  for (Oid oid : relids) {
    if (oid == kHearthNamespaceOid) InvalidateSchemaCache();
    auto it = c.by_oid.find(oid);
    if (it == c.by_oid.end()) continue;
    auto name = c.by_name.find({it->second->namespace_oid, it->second->info.name});
    if (name != c.by_name.end() && name->second->oid == oid) c.by_name.erase(name);
    c.by_oid.erase(it);
  }
}

RelationRef LookupRelationIn(Oid ns, const std::string& name) {
  Cache& c = TheCache();
  if (auto it = c.by_name.find({ns, name}); it != c.by_name.end()) return it->second;
  auto cls = internal::FindClassByName(ns, name);
  if (!cls) return nullptr;
  return Remember(Build(*cls));
}

RelationRef LookupRelation(const std::string& schema, const std::string& name) {
  if (schema.empty()) {
    // The search path: the session's temporary relations first, then
    // pg_catalog, then the path's schemas.
    for (Oid ns : SearchPathNamespaces()) {
      if (ns == kPgCatalogNamespace) continue;  // system views are found by their own lookup
      if (RelationRef r = LookupRelationIn(ns, name)) return r;
    }
    return nullptr;
  }
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

uint64_t& LockChangesSeen() {
  static uint64_t n = 0;
  return n;
}

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
    ++LockChangesSeen();
    RelationRef again = lookup();
    if (again == nullptr || again->oid == e->oid) return again;
    e = std::move(again);  // dropped and re-created meanwhile: lock the new one
  }
  return e;
}

}  // namespace

uint64_t CatalogChangesSeenAfterLock() { return LockChangesSeen(); }

RelationRef OpenRelation(const std::string& schema, const std::string& name, storage::LockMode mode) {
  return OpenWithLock([&] { return LookupRelation(schema, name); }, mode);
}

RelationRef OpenRelationByOid(Oid oid, storage::LockMode mode) {
  return OpenWithLock([&] { return LookupRelationByOid(oid); }, mode);
}

}  // namespace hearth::catalog
