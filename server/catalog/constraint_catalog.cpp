// catalog/constraint_catalog.cpp
//
// Principal entry points: MakeConstraintRow, ParseConstraintRow,
// FindConstraintsOf, FindConstraintByName.
#include "catalog/constraint_catalog.h"

#include <sstream>

#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

namespace {

std::string JoinAttnums(const std::vector<int>& v) {
  std::string out;
  for (int a : v) out += (out.empty() ? "" : " ") + std::to_string(a);
  return out;
}

std::vector<int> SplitAttnums(const Value& v) {
  std::vector<int> out;
  if (v.is_null) return out;
  std::istringstream in(v.str);
  int a = 0;
  while (in >> a) out.push_back(a);
  return out;
}

char FirstChar(const Value& v, char dflt) { return v.is_null || v.str.empty() ? dflt : v.str[0]; }

}  // namespace

const heap::TupleDesc& ConstraintCatalogTupleDesc() {
  using heap::ColumnDesc;
  // Order must match ConstraintCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kNameOid),  // conname
      ColumnDesc::ForType(types::kOidOid),   // connamespace
      ColumnDesc::ForType(types::kTextOid),  // contype
      ColumnDesc::ForType(types::kOidOid),   // conrelid
      ColumnDesc::ForType(types::kOidOid),   // confrelid
      ColumnDesc::ForType(types::kOidOid),   // conindid
      ColumnDesc::ForType(types::kTextOid),  // conkey
      ColumnDesc::ForType(types::kTextOid),  // confkey
      ColumnDesc::ForType(types::kTextOid),  // confupdtype
      ColumnDesc::ForType(types::kTextOid),  // confdeltype
      ColumnDesc::ForType(types::kBoolOid),  // convalidated
      ColumnDesc::ForType(types::kTextOid),  // conbin
  });
  return desc;
}

heap::Row MakeConstraintRow(const ConstraintFields& f) {
  heap::Row r(kConNatts);
  r[kConOid] = Value::Int(types::kOidOid, f.oid);
  r[kConName] = Value::Bytes(types::kNameOid, f.name);
  r[kConNamespace] = Value::Int(types::kOidOid, f.ns);
  r[kConType] = Value::Text(std::string(1, f.type));
  r[kConRelid] = Value::Int(types::kOidOid, f.relid);
  r[kConFrelid] = Value::Int(types::kOidOid, f.frelid);
  r[kConIndid] = Value::Int(types::kOidOid, f.indid);
  r[kConKey] = Value::Text(JoinAttnums(f.key));
  r[kConFkey] = Value::Text(JoinAttnums(f.fkey));
  r[kConUpdType] = Value::Text(f.type == 'f' ? std::string(1, f.upd_type) : std::string());
  r[kConDelType] = Value::Text(f.type == 'f' ? std::string(1, f.del_type) : std::string());
  r[kConValidated] = Value::Bool(f.validated);
  r[kConBin] = Value::Text(f.bin);
  return r;
}

ConstraintFields ParseConstraintRow(const heap::Row& r) {
  ConstraintFields f;
  f.oid = internal::RowOid(r, kConOid);
  f.name = r[kConName].str;
  f.ns = internal::RowOid(r, kConNamespace);
  f.type = FirstChar(r[kConType], 'c');
  f.relid = internal::RowOid(r, kConRelid);
  f.frelid = internal::RowOid(r, kConFrelid);
  f.indid = internal::RowOid(r, kConIndid);
  f.key = SplitAttnums(r[kConKey]);
  f.fkey = SplitAttnums(r[kConFkey]);
  f.upd_type = FirstChar(r[kConUpdType], 'a');
  f.del_type = FirstChar(r[kConDelType], 'a');
  f.validated = r[kConValidated].b;
  f.bin = r[kConBin].is_null ? std::string() : r[kConBin].str;
  return f;
}

bool ConstraintCatalogExists() {
  // A data directory made before hearth_constraint has no file; it never
  // gains one, so the first answer holds for the process.
  static const bool exists = storage::SmgrExists(ConstraintCatalogRel(), storage::ForkNumber::kMain);
  return exists;
}

std::vector<internal::CatalogTuple> FindConstraintsOf(Oid relid, bool referencing) {
  if (!ConstraintCatalogExists()) return {};
  return internal::ScanCatalogWhere(
      ConstraintCatalogRel(), ConstraintCatalogTupleDesc(),
      [&](const heap::Row& r) {
        return internal::RowOid(r, kConRelid) == relid || (referencing && internal::RowOid(r, kConFrelid) == relid);
      },
      false);
}

std::optional<internal::CatalogTuple> FindConstraintByName(Oid relid, const std::string& name) {
  if (!ConstraintCatalogExists()) return std::nullopt;
  auto rows = internal::ScanCatalogWhere(
      ConstraintCatalogRel(), ConstraintCatalogTupleDesc(),
      [&](const heap::Row& r) { return internal::RowOid(r, kConRelid) == relid && r[kConName].str == name; }, true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

std::optional<internal::CatalogTuple> FindConstraintByOid(Oid oid) {
  if (!ConstraintCatalogExists()) return std::nullopt;
  auto rows = internal::ScanCatalogWhere(
      ConstraintCatalogRel(), ConstraintCatalogTupleDesc(),
      [&](const heap::Row& r) { return internal::RowOid(r, kConOid) == oid; }, true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

}  // namespace hearth::catalog
