// catalog/type_catalog_rows.h
//
// hearth_type (1247, pg_type's oid): one row per type made by SQL (enums and
// domains); hearth_enum (3501, pg_enum's oid) holds the enum labels with
// PostgreSQL 15's columns (oid, enumtypid, enumsortorder, enumlabel), the
// sort order kept as float8 (pg_enum shows it as float4).
//
// hearth_type columns: oid, typname, typnamespace, typowner, typtype
// ('e'/'d'), typarray (the "_name" array type's oid: enums only; the array
// type has no row of its own, pg_type shows it), typbasetype, typtypmod,
// typnotnull, typdefault (SQL text or NULL), typconstraints (a domain's
// CHECKs: length-prefixed triples oid, name, condition over VALUE; NULL
// for none). Domain CHECKs appear in pg_constraint with contypid.
//
// Every backend reads all rows into a types::UserTypeSet (user_types.h),
// read again when the catalog version moves or this backend's transaction
// changed them (InstallUserTypeLoader).
//
// Process safety: per-backend; writers REQUIRE a transaction and hold
// LockTypeCatalog().
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"
#include "utils/adt/user_types.h"

namespace hearth::catalog {

inline constexpr Oid kHearthTypeOid = 1247;  // pg_type's oid
inline constexpr char kHearthTypeName[] = "hearth_type";
inline constexpr Oid kHearthEnumOid = 3501;  // pg_enum's oid
inline constexpr char kHearthEnumName[] = "hearth_enum";
inline storage::RelFileLocator TypeCatalogRel() { return CatalogRel(kHearthTypeOid); }
inline storage::RelFileLocator EnumCatalogRel() { return CatalogRel(kHearthEnumOid); }

enum TypeCol : int {
  kTypOid = 0,
  kTypName,
  kTypNamespace,
  kTypOwner,
  kTypType,
  kTypArray,
  kTypBaseType,
  kTypTypmod,
  kTypNotNull,
  kTypDefault,
  kTypConstraints,
  kTypNatts
};
enum EnumCol : int { kEnumOid = 0, kEnumTypid, kEnumSortOrder, kEnumLabel, kEnumNatts };

const heap::TupleDesc& TypeCatalogTupleDesc();
const heap::TupleDesc& EnumCatalogTupleDesc();

// True when this data directory has hearth_type and hearth_enum.
bool TypeCatalogExists();

// Serializes type DDL (names, labels, dependent columns).
void LockTypeCatalog();

// Installs the loader of types::UserTypeSet (once per process).
void InstallUserTypeLoader();

// Writers: the row of t (labels not included), by t.oid.
void InsertTypeRow(const types::UserType& t);
void UpdateTypeRow(const types::UserType& t);
void DeleteTypeRow(Oid oid);
void InsertEnumLabel(Oid type, const types::EnumLabel& l);
void UpdateEnumLabel(Oid type, const types::EnumLabel& l);
void DeleteEnumLabels(Oid type);

// Tables with a column of `type` (or of its array type), the array type's
// columns first (PostgreSQL's order of dependents), then by attribute row.
struct TypeUse {
  Oid relid = 0;
  std::string column;
  bool of_array = false;  // the column is of the type's array type
};
std::vector<TypeUse> ColumnsUsingType(Oid type);

// pg_get_constraintdef of a domain CHECK ("CHECK (VALUE > 0)"), or nullopt
// (type_views.cpp).
std::optional<std::string> DomainConstraintDefinition(Oid oid, bool pretty);

}  // namespace hearth::catalog
