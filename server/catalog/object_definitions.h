// catalog/object_definitions.h
//
// SQL text of catalog objects, for pg_get_indexdef, pg_get_constraintdef,
// pg_indexes.indexdef and pg_get_userbyid, in PostgreSQL 15's spelling:
// "CREATE UNIQUE INDEX t_pkey ON public.t USING btree (id)",
// "PRIMARY KEY (id)".
//
// Process safety: per-backend; REQUIRES a transaction in progress (the
// catalog snapshot, as PostgreSQL's ruleutils uses).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "utils/adt/func_context.h"

namespace hearth::catalog {

// The CREATE INDEX statement of index `index_oid`; with column >= 1 only
// that key column (its name, without ordering options, as PostgreSQL).
// nullopt: no such index/column.
std::optional<std::string> IndexDefinition(Oid index_oid, int column);

// The definition of constraint `oid` (a primary key's oid is its index's);
// `pretty` as pg_get_constraintdef's second argument (CHECK (a > 0) rather
// than CHECK ((a > 0))).
std::optional<std::string> ConstraintDefinition(Oid oid, bool pretty);

// pg_get_functiondef / pg_get_function_arguments / ..._identity_arguments /
// pg_get_function_result of user function `oid` (`what`: func_context.h's
// kFunction*); nullopt: no such function (proc_definitions.cpp).
std::optional<std::string> FunctionDefinition(Oid oid, int what);

// Installs IndexDefinition, ConstraintDefinition and the role names of the
// cluster catalog in `datadir` as the session's CatalogCallbacks.
void InstallCatalogCallbacks(types::SessionCallbacks& callbacks, const std::string& datadir);

namespace internal {
// "CREATE [UNIQUE] INDEX name ON schema.table USING btree (a, b DESC)"
// from an index's parts; column_names are the table's, by attnum - 1.
std::string FormatIndexDefinition(const std::string& index_name, const std::string& schema, const std::string& table,
                                  bool unique, const std::vector<int>& attnums, const std::vector<int>& options,
                                  const std::vector<std::string>& column_names);
std::string FormatIndexColumn(const std::string& column_name, int option);
}  // namespace internal

}  // namespace hearth::catalog
