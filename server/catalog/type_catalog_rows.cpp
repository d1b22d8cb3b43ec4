// catalog/type_catalog_rows.cpp
//
// Principal entry points: InstallUserTypeLoader, InsertTypeRow,
// InsertEnumLabel, ColumnsUsingType.
#include "catalog/type_catalog_rows.h"

#include <algorithm>
#include <memory>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/namespace_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/proc_catalog.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

namespace {

// The snapshot of one catalog version; this backend's own uncommitted
// changes force a re-read (and so does the end of their transaction).
struct TypeCache {
  std::shared_ptr<const types::UserTypeSet> set;
  uint64_t catalog_version = 0;
  uint64_t dirty_xact = 0;
};

TypeCache& Cache() {
  static TypeCache cache;
  return cache;
}

void NoteLocalChange() {
  TypeCache& c = Cache();
  c.set = nullptr;
  c.dirty_xact = XactGeneration();
}

types::UserType ParseTypeRow(const heap::Row& r) {
  types::UserType t;
  t.oid = internal::RowOid(r, kTypOid);
  t.name = r[kTypName].str;
  t.namespace_oid = internal::RowOid(r, kTypNamespace);
  t.owner = internal::RowOid(r, kTypOwner);
  t.typtype = r[kTypType].str.empty() ? 'e' : r[kTypType].str[0];
  t.array_oid = internal::RowOid(r, kTypArray);
  t.base_type = internal::RowOid(r, kTypBaseType);
  t.base_typmod = static_cast<int32_t>(r[kTypTypmod].i);
  t.not_null = r[kTypNotNull].b;
  if (!r[kTypDefault].is_null) t.default_expr = r[kTypDefault].str;
  if (!r[kTypConstraints].is_null) {
    std::vector<std::string> parts = DecodeTextList(r[kTypConstraints].str);
    for (size_t i = 0; i + 2 < parts.size(); i += 3) {
      t.checks.push_back({static_cast<Oid>(std::stoul(parts[i])), parts[i + 1], parts[i + 2]});
    }
  }
  return t;
}

heap::Row MakeTypeRow(const types::UserType& t) {
  heap::Row r(kTypNatts);
  r[kTypOid] = Value::Int(types::kOidOid, t.oid);
  r[kTypName] = Value::Bytes(types::kNameOid, t.name);
  r[kTypNamespace] = Value::Int(types::kOidOid, t.namespace_oid);
  r[kTypOwner] = Value::Int(types::kOidOid, t.owner);
  r[kTypType] = Value::Text(std::string(1, t.typtype));
  r[kTypArray] = Value::Int(types::kOidOid, t.array_oid);
  r[kTypBaseType] = Value::Int(types::kOidOid, t.base_type);
  r[kTypTypmod] = Value::Int4(t.base_typmod);
  r[kTypNotNull] = Value::Bool(t.not_null);
  r[kTypDefault] = t.default_expr ? Value::Text(*t.default_expr) : Value::Null(types::kTextOid);
  if (t.checks.empty()) {
    r[kTypConstraints] = Value::Null(types::kTextOid);
  } else {
    std::vector<std::string> parts;
    for (const types::DomainCheck& c : t.checks) {
      parts.push_back(std::to_string(c.oid));
      parts.push_back(c.name);
      parts.push_back(c.expr);
    }
    r[kTypConstraints] = Value::Text(EncodeTextList(parts));
  }
  return r;
}

std::shared_ptr<const types::UserTypeSet> LoadAll() {
  auto set = std::make_shared<types::UserTypeSet>();
  if (!TypeCatalogExists()) return set;
  for (const internal::CatalogTuple& t : internal::ScanCatalogWhere(
           TypeCatalogRel(), TypeCatalogTupleDesc(), [](const heap::Row&) { return true; }, false)) {
    auto u = std::make_unique<types::UserType>(ParseTypeRow(t.row));
    u->namespace_name = NamespaceName(u->namespace_oid);
    set->types.push_back(std::move(u));
  }
  for (const internal::CatalogTuple& t : internal::ScanCatalogWhere(
           EnumCatalogRel(), EnumCatalogTupleDesc(), [](const heap::Row&) { return true; }, false)) {
    const Oid typid = internal::RowOid(t.row, kEnumTypid);
    for (auto& u : set->types) {
      if (u->oid != typid) continue;
      u->labels.push_back({internal::RowOid(t.row, kEnumOid), t.row[kEnumSortOrder].f,
                           t.row[kEnumLabel].str});
    }
  }
  for (auto& u : set->types) {
    std::sort(u->labels.begin(), u->labels.end(),
              [](const types::EnumLabel& a, const types::EnumLabel& b) { return a.sort_order < b.sort_order; });
    std::sort(u->checks.begin(), u->checks.end(),
              [](const types::DomainCheck& a, const types::DomainCheck& b) { return a.name < b.name; });
  }
  set->Index();
  return set;
}

std::shared_ptr<const types::UserTypeSet> CurrentSet() {
  TypeCache& c = Cache();
  // Outside a transaction the catalog cannot be read: the last snapshot serves.
  if (!access::IsTransactionInProgress()) return c.set;
  if (c.dirty_xact != 0 && c.dirty_xact != XactGeneration()) {
    c.set = nullptr;
    c.dirty_xact = 0;
  }
  const uint64_t version = CatalogVersion();
  if (c.set == nullptr || c.catalog_version != version) {
    c.set = LoadAll();
    c.catalog_version = version;
  }
  return c.set;
}

std::optional<internal::CatalogTuple> FindTypeTuple(Oid oid) {
  auto rows = internal::ScanCatalogWhere(
      TypeCatalogRel(), TypeCatalogTupleDesc(), [&](const heap::Row& r) { return internal::RowOid(r, kTypOid) == oid; },
      true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

void Changed() {
  MarkCatalogChanged(kHearthTypeOid);
  access::CommandCounterIncrement();
  NoteLocalChange();
}

void Insert(storage::RelFileLocator rel, Oid catalog, const heap::TupleDesc& desc, const heap::Row& row) {
  heap::HeapInsert(rel, desc, row, access::GetCurrentTransactionId(), access::GetCurrentCommandId(true));
  PendingCounts(catalog).CountInsert();
  Changed();
}

void Update(storage::RelFileLocator rel, Oid catalog, const heap::TupleDesc& desc, heap::ItemPointer tid,
            const heap::Row& row) {
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  access::TmResult r = heap::HeapUpdate(rel, tid, desc, row, access::GetCurrentTransactionId(),
                                        access::GetCurrentCommandId(true), nullptr, /*wait=*/true, &fd, &new_tid);
  if (r != access::TmResult::kOk) throw DbError("XX000", "tuple concurrently updated");
  PendingCounts(catalog).CountUpdate(/*hot=*/false);
  Changed();
}

void Delete(storage::RelFileLocator rel, Oid catalog, heap::ItemPointer tid) {
  internal::DdlDeleteCatalogTuple(rel, tid, access::GetCurrentTransactionId(), access::GetCurrentCommandId(true));
  PendingCounts(catalog).CountDelete();
  Changed();
}

heap::Row MakeEnumRow(Oid type, const types::EnumLabel& l) {
  return {Value::Int(types::kOidOid, l.oid), Value::Int(types::kOidOid, type), Value::Float(types::kFloat8Oid, l.sort_order),
          Value::Bytes(types::kNameOid, l.label)};
}

void RequireCatalog() {
  if (!TypeCatalogExists()) throw DbError("0A000", "this data directory has no type catalog");
}

}  // namespace

const heap::TupleDesc& TypeCatalogTupleDesc() {
  using heap::ColumnDesc;
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kNameOid),  // typname
      ColumnDesc::ForType(types::kOidOid),   // typnamespace
      ColumnDesc::ForType(types::kOidOid),   // typowner
      ColumnDesc::ForType(types::kTextOid),  // typtype
      ColumnDesc::ForType(types::kOidOid),   // typarray
      ColumnDesc::ForType(types::kOidOid),   // typbasetype
      ColumnDesc::ForType(types::kInt4Oid),  // typtypmod
      ColumnDesc::ForType(types::kBoolOid),  // typnotnull
      ColumnDesc::ForType(types::kTextOid),  // typdefault
      ColumnDesc::ForType(types::kTextOid),  // typconstraints
  });
  return desc;
}

const heap::TupleDesc& EnumCatalogTupleDesc() {
  using heap::ColumnDesc;
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),     // oid
      ColumnDesc::ForType(types::kOidOid),     // enumtypid
      ColumnDesc::ForType(types::kFloat8Oid),  // enumsortorder (float8: room for many ADD VALUE BEFORE)
      ColumnDesc::ForType(types::kNameOid),    // enumlabel
  });
  return desc;
}

bool TypeCatalogExists() {
  // A data directory made before hearth_type has no file and never gains one.
  static const bool exists = storage::SmgrExists(TypeCatalogRel(), storage::ForkNumber::kMain);
  return exists;
}

void LockTypeCatalog() {
  RequireCatalog();
  storage::LockAcquire(storage::LockTag::Object(kHearthTypeOid, 0), storage::LockMode::kExclusive);
}

void InstallUserTypeLoader() {
  types::SetUserTypeLoader(&CurrentSet);
  types::SetUserTypeSearchPath(&SearchPathNamespaces);
}

void InsertTypeRow(const types::UserType& t) {
  RequireCatalog();
  Insert(TypeCatalogRel(), kHearthTypeOid, TypeCatalogTupleDesc(), MakeTypeRow(t));
}

void UpdateTypeRow(const types::UserType& t) {
  auto row = FindTypeTuple(t.oid);
  if (!row) throw DbError("XX000", "cache lookup failed for type " + std::to_string(t.oid));
  Update(TypeCatalogRel(), kHearthTypeOid, TypeCatalogTupleDesc(), row->tid, MakeTypeRow(t));
}

void DeleteTypeRow(Oid oid) {
  auto row = FindTypeTuple(oid);
  if (!row) throw DbError("XX000", "cache lookup failed for type " + std::to_string(oid));
  Delete(TypeCatalogRel(), kHearthTypeOid, row->tid);
}

void InsertEnumLabel(Oid type, const types::EnumLabel& l) {
  Insert(EnumCatalogRel(), kHearthEnumOid, EnumCatalogTupleDesc(), MakeEnumRow(type, l));
}

void UpdateEnumLabel(Oid type, const types::EnumLabel& l) {
  auto rows = internal::ScanCatalogWhere(
      EnumCatalogRel(), EnumCatalogTupleDesc(), [&](const heap::Row& r) { return internal::RowOid(r, kEnumOid) == l.oid; },
      true);
  if (rows.empty()) throw DbError("XX000", "cache lookup failed for enum label " + std::to_string(l.oid));
  Update(EnumCatalogRel(), kHearthEnumOid, EnumCatalogTupleDesc(), rows[0].tid, MakeEnumRow(type, l));
}

void DeleteEnumLabels(Oid type) {
  for (const internal::CatalogTuple& t : internal::ScanCatalogWhere(
           EnumCatalogRel(), EnumCatalogTupleDesc(),
           [&](const heap::Row& r) { return internal::RowOid(r, kEnumTypid) == type; }, false)) {
    Delete(EnumCatalogRel(), kHearthEnumOid, t.tid);
  }
}

std::vector<TypeUse> ColumnsUsingType(Oid type) {
  const types::UserType* u = types::FindUserType(type);
  const Oid array = u != nullptr && u->oid == type ? u->array_oid : types::kInvalidOid;
  std::vector<TypeUse> out;
  for (const internal::CatalogTuple& t : internal::ScanCatalogWhere(
           AttributeRel(), AttributeTupleDesc(),
           [&](const heap::Row& r) {
             const Oid a = internal::RowOid(r, kAttAtttypid);
             return a == type || (array != types::kInvalidOid && a == array);
           },
           false)) {
    out.push_back({internal::RowOid(t.row, kAttAttrelid), t.row[kAttAttname].str,
                   internal::RowOid(t.row, kAttAtttypid) != type});
  }
  std::stable_partition(out.begin(), out.end(), [](const TypeUse& u) { return u.of_array; });
  return out;
}

}  // namespace hearth::catalog
