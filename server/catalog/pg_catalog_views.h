// catalog/pg_catalog_views.h
//
// INTERNAL to server/catalog: PostgreSQL 15's pg_catalog relations as
// read-only views computed, at scan time, from Hearth's own catalogs
// (hearth_class, hearth_attribute, hearth_index, hearth_sequence) read
// through the session's provider, so they see exactly the statement's
// snapshot and can never drift from the real catalog. Relations
// PostgreSQL gives a fixed oid carry it (pg_class 1259, ...); PostgreSQL's
// views (pg_tables, pg_settings, ...) take oids from 12100-12299.
//
// Shared helpers for the files that register them:
// pg_catalog_views.cpp (relations), pg_catalog_fixed.cpp (built-in rows and
// the empty catalogs), pg_catalog_system_views.cpp (pg_tables & co.).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "catalog/system_views.h"

namespace hearth::catalog::internal {

// A view named pg_catalog.`name` with oid `oid` and these columns.
inline executor::TableInfo PgViewInfo(types::Oid oid, const char* name, ViewColumns columns) {
  return MakeViewInfo(oid, name, columns);
}

// Every row of catalog pg_catalog.`name` visible to the statement's
// snapshot, scanned through `tables` (empty when it does not exist).
std::vector<executor::Row> ScanCatalog(executor::TableProvider& tables, const char* name);

// Typed values of catalog columns. PostgreSQL's "char" columns and array
// columns are text here (Hearth has neither type): a "char" is a
// one-character text, an array its text form ('{fillfactor=70}') or NULL.
inline types::Value OidValue(uint32_t v) { return types::Value::Int(types::kOidOid, v); }
inline types::Value NameValue(std::string s) { return types::Value::Bytes(types::kNameOid, std::move(s)); }
inline types::Value CharValue(char c) { return types::Value::Text(std::string(1, c)); }
inline types::Value Int2Value(int v) { return types::Value::Int(types::kInt2Oid, v); }
inline types::Value Float4Value(double v) { return types::Value::Float(types::kFloat4Oid, v); }

void AddPgCatalogRelationViews(SystemViewProvider& p);  // pg_class, pg_attribute, ...
void AddPgCatalogFixedViews(SystemViewProvider& p);     // pg_type, pg_am, pg_database, empty ones
void AddPgCatalogSystemViews(SystemViewProvider& p);    // pg_tables, pg_indexes, pg_views
void AddProcViews(SystemViewProvider& p);               // pg_proc, pg_language (proc_views.cpp)
void AddTriggerView(SystemViewProvider& p);             // pg_trigger (trigger_views.cpp)
// User types (type_views.cpp): pg_type's rows of enums, their arrays and
// domains; pg_enum; pg_constraint's rows of domain CHECKs.
void AppendUserTypeRows(std::vector<executor::Row>* out);
void AddPgEnumView(SystemViewProvider& p);
void AppendDomainConstraintRows(std::vector<executor::Row>* out);
void AddPgInherits(SystemViewProvider& p);              // pg_inherits (inherit_views.cpp)
void AddPgPartitionedTable(SystemViewProvider& p);      // pg_partitioned_table (inherit_views.cpp)
void AddDescriptionViews(SystemViewProvider& p);  // pg_description, pg_shdescription (description_views.cpp)

// Access methods (pg_am oids): heap for tables, btree for indexes.
inline constexpr types::Oid kHeapAmOid = 2;
inline constexpr types::Oid kBtreeAmOid = 403;
// pg_tablespace: pg_default (every relation) and pg_global.
inline constexpr types::Oid kDefaultTablespaceOid = 1663;
inline constexpr types::Oid kGlobalTablespaceOid = 1664;
// pg_collation: "default" (text columns' collation), "C", "POSIX".
inline constexpr types::Oid kDefaultCollationOid = 100;
inline constexpr types::Oid kCCollationOid = 950;

// The collation of a column of type `type` (PostgreSQL's typcollation).
types::Oid TypeCollation(types::Oid type);

}  // namespace hearth::catalog::internal
