// catalog/information_schema_routines.cpp
//
// Principal entry point: AddInformationSchemaRoutineViews —
// information_schema.routines and information_schema.parameters as
// PostgreSQL 15 defines them (every column, in order, with the same
// values), over pg_proc, pg_language, pg_type and pg_namespace. ORMs read
// them to find functions and their parameters. A row shows when the current
// user has the privileges of the function's owner or may execute it.
// Hearth's pg_proc keeps its arrays as text ("{23,25}", "{i,o}", "23 25"),
// so the array subscripts of PostgreSQL's definitions are split_part here.
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/system_views.h"

namespace hearth::catalog {

namespace {

using types::Oid;

constexpr Oid kName = types::kNameOid;
constexpr Oid kInt = types::kInt4Oid;
constexpr Oid kVarchar = types::kVarcharOid;
constexpr Oid kTimestamptz = types::kTimestampTzOid;

using Columns = std::vector<std::pair<const char*, Oid>>;

// data_type of type t (schema nt): PostgreSQL's CASE in both views.
#define DATA_TYPE                                                                                        \
  "(CASE WHEN t.typelem <> 0 AND t.typlen = -1 THEN 'ARRAY' WHEN nt.nspname = 'pg_catalog' "             \
  "THEN pg_catalog.format_type(t.oid, NULL) ELSE 'USER-DEFINED' END)"
// The facets neither view fills in: character_maximum_length through
// interval_precision.
#define NULL_FACETS                                                                                      \
  "NULL::int4, NULL::int4, NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, "    \
  "NULL::int4, NULL::int4, NULL::int4, NULL::int4, NULL::varchar, NULL::int4"
#define MAY_SEE_FUNCTION(p) \
  "(pg_catalog.pg_has_role(" p ".proowner, 'USAGE') OR pg_catalog.has_function_privilege(" p ".oid, 'EXECUTE'))"

const Columns kRoutineColumns = {
    {"specific_catalog", kName}, {"specific_schema", kName}, {"specific_name", kName}, {"routine_catalog", kName},
    {"routine_schema", kName}, {"routine_name", kName}, {"routine_type", kVarchar}, {"module_catalog", kName},
    {"module_schema", kName}, {"module_name", kName}, {"udt_catalog", kName}, {"udt_schema", kName},
    {"udt_name", kName}, {"data_type", kVarchar}, {"character_maximum_length", kInt},
    {"character_octet_length", kInt}, {"character_set_catalog", kName}, {"character_set_schema", kName},
    {"character_set_name", kName}, {"collation_catalog", kName}, {"collation_schema", kName},
    {"collation_name", kName}, {"numeric_precision", kInt}, {"numeric_precision_radix", kInt},
    {"numeric_scale", kInt}, {"datetime_precision", kInt}, {"interval_type", kVarchar},
    {"interval_precision", kInt}, {"type_udt_catalog", kName}, {"type_udt_schema", kName},
    {"type_udt_name", kName}, {"scope_catalog", kName}, {"scope_schema", kName}, {"scope_name", kName},
    {"maximum_cardinality", kInt}, {"dtd_identifier", kName}, {"routine_body", kVarchar},
    {"routine_definition", kVarchar}, {"external_name", kVarchar}, {"external_language", kVarchar},
    {"parameter_style", kVarchar}, {"is_deterministic", kVarchar}, {"sql_data_access", kVarchar},
    {"is_null_call", kVarchar}, {"sql_path", kVarchar}, {"schema_level_routine", kVarchar},
    {"max_dynamic_result_sets", kInt}, {"is_user_defined_cast", kVarchar}, {"is_implicitly_invocable", kVarchar},
    {"security_type", kVarchar}, {"to_sql_specific_catalog", kName}, {"to_sql_specific_schema", kName},
    {"to_sql_specific_name", kName}, {"as_locator", kVarchar}, {"created", kTimestamptz},
    {"last_altered", kTimestamptz}, {"new_savepoint_level", kVarchar}, {"is_udt_dependent", kVarchar},
    {"result_cast_from_data_type", kVarchar}, {"result_cast_as_locator", kVarchar},
    {"result_cast_char_max_length", kInt}, {"result_cast_char_octet_length", kInt},
    {"result_cast_char_set_catalog", kName}, {"result_cast_char_set_schema", kName},
    {"result_cast_char_set_name", kName}, {"result_cast_collation_catalog", kName},
    {"result_cast_collation_schema", kName}, {"result_cast_collation_name", kName},
    {"result_cast_numeric_precision", kInt}, {"result_cast_numeric_precision_radix", kInt},
    {"result_cast_numeric_scale", kInt}, {"result_cast_datetime_precision", kInt},
    {"result_cast_interval_type", kVarchar}, {"result_cast_interval_precision", kInt},
    {"result_cast_type_udt_catalog", kName}, {"result_cast_type_udt_schema", kName},
    {"result_cast_type_udt_name", kName}, {"result_cast_scope_catalog", kName},
    {"result_cast_scope_schema", kName}, {"result_cast_scope_name", kName},
    {"result_cast_maximum_cardinality", kInt}, {"result_cast_dtd_identifier", kName}};

const char* kRoutinesQuery =
    "SELECT current_database()::name, n.nspname::name, (p.proname || '_' || p.oid::text)::name, "
    "current_database()::name, n.nspname::name, p.proname::name, "
    "(CASE p.prokind WHEN 'f' THEN 'FUNCTION' WHEN 'p' THEN 'PROCEDURE' END)::varchar, "
    "NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, "
    "(CASE WHEN p.prokind = 'p' THEN NULL ELSE " DATA_TYPE " END)::varchar, " NULL_FACETS ", "
    "(CASE WHEN nt.nspname IS NOT NULL THEN current_database() END)::name, nt.nspname::name, t.typname::name, "
    "NULL::name, NULL::name, NULL::name, NULL::int4, (CASE WHEN p.prokind <> 'p' THEN '0' END)::name, "
    "(CASE WHEN l.lanname = 'sql' THEN 'SQL' ELSE 'EXTERNAL' END)::varchar, "
    "(CASE WHEN pg_catalog.pg_has_role(p.proowner, 'USAGE') THEN p.prosrc END)::varchar, "
    "(CASE WHEN l.lanname = 'c' THEN p.prosrc END)::varchar, upper(l.lanname)::varchar, 'GENERAL'::varchar, "
    "(CASE WHEN p.provolatile = 'i' THEN 'YES' ELSE 'NO' END)::varchar, 'MODIFIES'::varchar, "
    "(CASE WHEN p.prokind <> 'p' THEN CASE WHEN p.proisstrict THEN 'YES' ELSE 'NO' END END)::varchar, "
    "NULL::varchar, 'YES'::varchar, 0::int4, NULL::varchar, NULL::varchar, "
    "(CASE WHEN p.prosecdef THEN 'DEFINER' ELSE 'INVOKER' END)::varchar, NULL::name, NULL::name, NULL::name, "
    "'NO'::varchar, NULL::timestamptz, NULL::timestamptz, NULL::varchar, 'NO'::varchar, "
    "NULL::varchar, NULL::varchar, " NULL_FACETS ", NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, "
    "NULL::name, NULL::int4, NULL::name "
    "FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_proc p ON n.oid = p.pronamespace "
    "JOIN pg_catalog.pg_language l ON p.prolang = l.oid "
    "LEFT JOIN (pg_catalog.pg_type t JOIN pg_catalog.pg_namespace nt ON t.typnamespace = nt.oid) "
    "ON p.prorettype = t.oid AND p.prokind <> 'p' "
    "WHERE " MAY_SEE_FUNCTION("p");

const Columns kParameterColumns = {
    {"specific_catalog", kName}, {"specific_schema", kName}, {"specific_name", kName},
    {"ordinal_position", kInt}, {"parameter_mode", kVarchar}, {"is_result", kVarchar}, {"as_locator", kVarchar},
    {"parameter_name", kName}, {"data_type", kVarchar}, {"character_maximum_length", kInt},
    {"character_octet_length", kInt}, {"character_set_catalog", kName}, {"character_set_schema", kName},
    {"character_set_name", kName}, {"collation_catalog", kName}, {"collation_schema", kName},
    {"collation_name", kName}, {"numeric_precision", kInt}, {"numeric_precision_radix", kInt},
    {"numeric_scale", kInt}, {"datetime_precision", kInt}, {"interval_type", kVarchar},
    {"interval_precision", kInt}, {"udt_catalog", kName}, {"udt_schema", kName}, {"udt_name", kName},
    {"scope_catalog", kName}, {"scope_schema", kName}, {"scope_name", kName}, {"maximum_cardinality", kInt},
    {"dtd_identifier", kName}, {"parameter_default", kVarchar}};

// One row per argument (OUT ones too): proallargtypes, else proargtypes.
const char* kParametersQuery =
    "SELECT current_database()::name, ss.n_nspname::name, (ss.proname || '_' || ss.p_oid::text)::name, "
    "ss.n::int4, (CASE split_part(btrim(coalesce(ss.proargmodes, ''), '{}'), ',', ss.n::int4) "
    "WHEN 'o' THEN 'OUT' WHEN 'b' THEN 'INOUT' WHEN 't' THEN 'OUT' ELSE 'IN' END)::varchar, "
    "'NO'::varchar, 'NO'::varchar, "
    "NULLIF(btrim(split_part(btrim(coalesce(ss.proargnames, ''), '{}'), ',', ss.n::int4), '\"'), '')::name, "
    DATA_TYPE "::varchar, " NULL_FACETS ", current_database()::name, nt.nspname::name, t.typname::name, "
    "NULL::name, NULL::name, NULL::name, NULL::int4, ss.n::text::name, "
    "(CASE WHEN pg_catalog.pg_has_role(ss.proowner, 'USAGE') "
    "THEN pg_catalog.pg_get_function_arg_default(ss.p_oid, ss.n::int4) END)::varchar "
    "FROM (SELECT n.nspname AS n_nspname, p.proname, p.oid AS p_oid, p.proowner, p.proargnames, p.proargmodes, "
    "x.typ, x.n FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_proc p ON n.oid = p.pronamespace "
    "CROSS JOIN LATERAL unnest(string_to_array(btrim(coalesce(p.proallargtypes, "
    "'{' || replace(p.proargtypes::text, ' ', ',') || '}'), '{}'), ',')) WITH ORDINALITY AS x(typ, n) "
    "WHERE " MAY_SEE_FUNCTION("p") ") ss "
    "JOIN pg_catalog.pg_type t ON t.oid = ss.typ::oid JOIN pg_catalog.pg_namespace nt ON t.typnamespace = nt.oid";

#undef DATA_TYPE
#undef NULL_FACETS
#undef MAY_SEE_FUNCTION

void AddQueryView(SystemViewProvider& p, Oid oid, const char* name, const Columns& columns, const char* query) {
  executor::TableInfo info;
  info.oid = oid;
  info.schema = "information_schema";
  info.name = name;
  for (const auto& [column, type] : columns) info.columns.push_back(ViewColumn(column, type));
  info.view_query = query;
  p.AddQueryView(std::move(info));
}

}  // namespace

void AddInformationSchemaRoutineViews(SystemViewProvider& p) {
  AddQueryView(p, kInformationSchemaRoutinesOid, "routines", kRoutineColumns, kRoutinesQuery);
  AddQueryView(p, kInformationSchemaParametersOid, "parameters", kParameterColumns, kParametersQuery);
}

}  // namespace hearth::catalog
