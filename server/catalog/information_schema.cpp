// catalog/information_schema.cpp
//
// Principal entry point: AddInformationSchemaViews — the SQL standard's
// information_schema as PostgreSQL 15 defines it (column names and order,
// values, privilege filtering: a row shows when the current user has the
// privileges of the owner or some privilege on the object), written as
// queries over pg_catalog that the planner expands like views. Column types
// are PostgreSQL's domains' base types: sql_identifier = name,
// cardinal_number = integer, character_data / yes_or_no = character varying.
//
// Deviations (Hearth's catalogs): views' is_updatable / is_insertable_into
// are NO; collation columns are NULL.
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

struct QueryView {
  const char* name;
  std::vector<std::pair<const char*, Oid>> columns;
  const char* query;
};

// Owner or some privilege on relation `r` (information_schema's usual test).
#define IS_REL_VISIBLE(r)                                                                            \
  "(pg_catalog.pg_has_role(" r ".relowner, 'USAGE') OR pg_catalog.has_table_privilege(" r            \
  ".oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') OR "                       \
  "pg_catalog.has_any_column_privilege(" r ".oid, 'SELECT, INSERT, UPDATE, REFERENCES'))"
// The same without SELECT (constraints are visible to those who could violate them).
#define IS_REL_MODIFIABLE(r)                                                                         \
  "(pg_catalog.pg_has_role(" r ".relowner, 'USAGE') OR pg_catalog.has_table_privilege(" r            \
  ".oid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') OR "                               \
  "pg_catalog.has_any_column_privilege(" r ".oid, 'INSERT, UPDATE, REFERENCES'))"
// A constraint's column numbers (pg_constraint's conkey / confkey) as rows.
#define KEY_ATTNUMS(col) "unnest(string_to_array(btrim((" col ")::text, '{}'), ','))"

const QueryView kSchemata = {
    "schemata",
    {{"catalog_name", kName}, {"schema_name", kName}, {"schema_owner", kName},
     {"default_character_set_catalog", kName}, {"default_character_set_schema", kName},
     {"default_character_set_name", kName}, {"sql_path", kVarchar}},
    // Hearth has no schema privileges: every schema is usable by everyone.
    "SELECT current_database()::name, n.nspname::name, pg_catalog.pg_get_userbyid(n.nspowner)::name, NULL::name, "
    "NULL::name, NULL::name, NULL::varchar FROM pg_catalog.pg_namespace n"};

const QueryView kTables = {
    "tables",
    {{"table_catalog", kName}, {"table_schema", kName}, {"table_name", kName}, {"table_type", kVarchar},
     {"self_referencing_column_name", kName}, {"reference_generation", kVarchar},
     {"user_defined_type_catalog", kName}, {"user_defined_type_schema", kName}, {"user_defined_type_name", kName},
     {"is_insertable_into", kVarchar}, {"is_typed", kVarchar}, {"commit_action", kVarchar}},
    "SELECT current_database()::name, nc.nspname::name, c.relname::name, "
    "(CASE WHEN nc.nspname LIKE 'pg\\_temp\\_%' THEN 'LOCAL TEMPORARY' WHEN c.relkind IN ('r', 'p') THEN 'BASE TABLE' "
    "WHEN c.relkind = 'v' THEN 'VIEW' WHEN c.relkind = 'f' THEN 'FOREIGN' END)::varchar, "
    "NULL::name, NULL::varchar, NULL::name, NULL::name, NULL::name, "
    "(CASE WHEN c.relkind IN ('r', 'p') THEN 'YES' ELSE 'NO' END)::varchar, 'NO'::varchar, NULL::varchar "
    "FROM pg_catalog.pg_namespace nc JOIN pg_catalog.pg_class c ON nc.oid = c.relnamespace "
    "WHERE c.relkind IN ('r', 'v', 'f', 'p') AND NOT pg_catalog.pg_is_other_temp_schema(nc.oid) AND " IS_REL_VISIBLE("c")};

// data_type and the numeric / character / datetime facets of a column of
// type t.oid with typmod `m` (PostgreSQL's _pg_* helper functions inlined).
#define TYPE_FACETS(m)                                                                                              \
  "(CASE WHEN t.typcategory = 'A' THEN 'ARRAY' WHEN t.typnamespace <> 11 THEN 'USER-DEFINED' "                      \
  "ELSE pg_catalog.format_type(t.oid, NULL) END)::varchar, "                                                          \
  "(CASE WHEN t.oid IN (1042, 1043) AND " m " <> -1 THEN " m " - 4 END)::int4, "                                     \
  "(CASE WHEN t.oid IN (25, 1042, 1043) THEN CASE WHEN " m " = -1 THEN 1073741824 ELSE (" m " - 4) * 4 END END)::int4, " \
  "NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, NULL::name, "                                          \
  "(CASE t.oid WHEN 21 THEN 16 WHEN 23 THEN 32 WHEN 20 THEN 64 WHEN 700 THEN 24 WHEN 701 THEN 53 "                   \
  "WHEN 1700 THEN CASE WHEN " m " = -1 THEN NULL ELSE (" m " - 4) / 65536 END END)::int4, "                   \
  "(CASE WHEN t.oid IN (21, 23, 20, 700, 701) THEN 2 WHEN t.oid = 1700 THEN 10 END)::int4, "                         \
  "(CASE WHEN t.oid IN (21, 23, 20) THEN 0 WHEN t.oid = 1700 AND " m " <> -1 THEN (" m " - 4) % 65536 END)::int4, "  \
  "(CASE WHEN t.oid = 1082 THEN 0 WHEN t.oid IN (1083, 1114, 1184, 1266) THEN CASE WHEN " m " < 0 THEN 6 ELSE " m    \
  " END WHEN t.oid = 1186 THEN CASE WHEN " m " < 0 THEN 6 ELSE " m " % 65536 END END)::int4, "                       \
  "NULL::varchar, NULL::int4"

const QueryView kColumns = {
    "columns",
    {{"table_catalog", kName}, {"table_schema", kName}, {"table_name", kName}, {"column_name", kName},
     {"ordinal_position", kInt}, {"column_default", kVarchar}, {"is_nullable", kVarchar}, {"data_type", kVarchar},
     {"character_maximum_length", kInt}, {"character_octet_length", kInt}, {"character_set_catalog", kName},
     {"character_set_schema", kName}, {"character_set_name", kName}, {"collation_catalog", kName},
     {"collation_schema", kName}, {"collation_name", kName}, {"numeric_precision", kInt},
     {"numeric_precision_radix", kInt}, {"numeric_scale", kInt}, {"datetime_precision", kInt},
     {"interval_type", kVarchar}, {"interval_precision", kInt}, {"domain_catalog", kName}, {"domain_schema", kName},
     {"domain_name", kName}, {"udt_catalog", kName}, {"udt_schema", kName}, {"udt_name", kName},
     {"scope_catalog", kName}, {"scope_schema", kName}, {"scope_name", kName}, {"maximum_cardinality", kInt},
     {"dtd_identifier", kName}, {"is_self_referencing", kVarchar}, {"is_identity", kVarchar},
     {"identity_generation", kVarchar}, {"identity_start", kVarchar}, {"identity_increment", kVarchar},
     {"identity_maximum", kVarchar}, {"identity_minimum", kVarchar}, {"identity_cycle", kVarchar},
     {"is_generated", kVarchar}, {"generation_expression", kVarchar}, {"is_updatable", kVarchar}},
    "SELECT current_database()::name, nc.nspname::name, c.relname::name, a.attname::name, a.attnum::int4, "
    "pg_catalog.pg_get_expr(ad.adbin, ad.adrelid)::varchar, "
    "(CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END)::varchar, " TYPE_FACETS("a.atttypmod") ", "
    "NULL::name, NULL::name, NULL::name, current_database()::name, 'pg_catalog'::name, t.typname::name, "
    "NULL::name, NULL::name, NULL::name, NULL::int4, a.attnum::text::name, 'NO'::varchar, "
    "(CASE WHEN a.attidentity IN ('a', 'd') THEN 'YES' ELSE 'NO' END)::varchar, "
    "(CASE a.attidentity WHEN 'a' THEN 'ALWAYS' WHEN 'd' THEN 'BY DEFAULT' END)::varchar, "
    "seq.seqstart::varchar, seq.seqincrement::varchar, seq.seqmax::varchar, seq.seqmin::varchar, "
    "(CASE WHEN seq.seqcycle THEN 'YES' ELSE 'NO' END)::varchar, 'NEVER'::varchar, NULL::varchar, "
    "(CASE WHEN c.relkind IN ('r', 'p') THEN 'YES' ELSE 'NO' END)::varchar "
    "FROM pg_catalog.pg_attribute a "
    "JOIN pg_catalog.pg_class c ON a.attrelid = c.oid "
    "JOIN pg_catalog.pg_namespace nc ON c.relnamespace = nc.oid "
    "JOIN pg_catalog.pg_type t ON a.atttypid = t.oid "
    "LEFT JOIN pg_catalog.pg_attrdef ad ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum "
    "LEFT JOIN (pg_catalog.pg_depend dep JOIN pg_catalog.pg_sequence seq ON dep.objid = seq.seqrelid "
    "AND dep.deptype = 'i') ON dep.refobjid = c.oid AND dep.refobjsubid = a.attnum "
    "WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v', 'f', 'p') "
    "AND NOT pg_catalog.pg_is_other_temp_schema(nc.oid) AND (pg_catalog.pg_has_role(c.relowner, 'USAGE') OR "
    "pg_catalog.has_column_privilege(c.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES'))"};

// PRIMARY KEY, UNIQUE, FOREIGN KEY and CHECK from pg_constraint (a unique
// index made by CREATE UNIQUE INDEX is no constraint), and the NOT NULL columns as
// CHECK constraints named nspoid_reloid_attnum_not_null (as PostgreSQL 15).
const QueryView kTableConstraints = {
    "table_constraints",
    {{"constraint_catalog", kName}, {"constraint_schema", kName}, {"constraint_name", kName}, {"table_catalog", kName},
     {"table_schema", kName}, {"table_name", kName}, {"constraint_type", kVarchar}, {"is_deferrable", kVarchar},
     {"initially_deferred", kVarchar}, {"enforced", kVarchar}, {"nulls_distinct", kVarchar}},
    "SELECT current_database()::name, nc.nspname::name, c.conname::name, current_database()::name, nr.nspname::name, "
    "r.relname::name, (CASE c.contype WHEN 'c' THEN 'CHECK' WHEN 'f' THEN 'FOREIGN KEY' WHEN 'p' THEN 'PRIMARY KEY' "
    "WHEN 'u' THEN 'UNIQUE' END)::varchar, (CASE WHEN c.condeferrable THEN 'YES' ELSE 'NO' END)::varchar, "
    "(CASE WHEN c.condeferred THEN 'YES' ELSE 'NO' END)::varchar, 'YES'::varchar, "
    "(CASE WHEN c.contype = 'u' THEN 'YES' END)::varchar "
    "FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_namespace nc ON nc.oid = c.connamespace "
    "JOIN pg_catalog.pg_class r ON c.conrelid = r.oid JOIN pg_catalog.pg_namespace nr ON nr.oid = r.relnamespace "
    "WHERE c.contype IN ('c', 'f', 'p', 'u') AND r.relkind IN ('r', 'p') "
    "AND NOT pg_catalog.pg_is_other_temp_schema(nr.oid) AND " IS_REL_MODIFIABLE("r") " "
    "UNION ALL "
    "SELECT current_database()::name, nr.nspname::name, "
    "(nr.oid::text || '_' || r.oid::text || '_' || a.attnum::text || '_not_null')::name, current_database()::name, "
    "nr.nspname::name, r.relname::name, 'CHECK'::varchar, 'NO'::varchar, 'NO'::varchar, 'YES'::varchar, "
    "NULL::varchar "
    "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class r ON r.oid = a.attrelid "
    "JOIN pg_catalog.pg_namespace nr ON nr.oid = r.relnamespace "
    "WHERE a.attnotnull AND a.attnum > 0 AND NOT a.attisdropped AND r.relkind IN ('r', 'p') "
    "AND NOT pg_catalog.pg_is_other_temp_schema(nr.oid) AND " IS_REL_MODIFIABLE("r")};

const QueryView kCheckConstraints = {
    "check_constraints",
    {{"constraint_catalog", kName}, {"constraint_schema", kName}, {"constraint_name", kName},
     {"check_clause", kVarchar}},
    "SELECT current_database()::name, rs.nspname::name, con.conname::name, "
    "substring(pg_catalog.pg_get_constraintdef(con.oid) from 7)::varchar "
    "FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_namespace rs ON rs.oid = con.connamespace "
    "JOIN pg_catalog.pg_class c ON c.oid = con.conrelid "
    "WHERE con.contype = 'c' AND pg_catalog.pg_has_role(c.relowner, 'USAGE') "
    "UNION ALL "
    "SELECT current_database()::name, n.nspname::name, "
    "(n.oid::text || '_' || r.oid::text || '_' || a.attnum::text || '_not_null')::name, "
    "(a.attname::text || ' IS NOT NULL')::varchar "
    "FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_class r ON n.oid = r.relnamespace "
    "JOIN pg_catalog.pg_attribute a ON r.oid = a.attrelid "
    "WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attnotnull AND r.relkind IN ('r', 'p') "
    "AND pg_catalog.pg_has_role(r.relowner, 'USAGE')"};

// Key columns of PRIMARY KEY / UNIQUE / FOREIGN KEY constraints.
const QueryView kKeyColumnUsage = {
    "key_column_usage",
    {{"constraint_catalog", kName}, {"constraint_schema", kName}, {"constraint_name", kName}, {"table_catalog", kName},
     {"table_schema", kName}, {"table_name", kName}, {"column_name", kName}, {"ordinal_position", kInt},
     {"position_in_unique_constraint", kInt}},
    "SELECT current_database()::name, nc.nspname::name, c.conname::name, current_database()::name, nr.nspname::name, "
    "r.relname::name, a.attname::name, k.n::int4, "
    "(CASE WHEN c.contype = 'f' THEN (SELECT p.n FROM unnest(string_to_array(ri.indkey::text, ' ')) WITH ORDINALITY "
    "AS p(att, n) WHERE p.att = split_part(btrim(c.confkey::text, '{}'), ',', k.n::int4)) END)::int4 "
    "FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_namespace nc ON nc.oid = c.connamespace "
    "JOIN pg_catalog.pg_class r ON r.oid = c.conrelid JOIN pg_catalog.pg_namespace nr ON nr.oid = r.relnamespace "
    "LEFT JOIN pg_catalog.pg_index ri ON ri.indexrelid = c.conindid AND c.contype = 'f' "
    "CROSS JOIN LATERAL " KEY_ATTNUMS("c.conkey") " WITH ORDINALITY AS k(att, n) "
    "JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum = k.att::int2 "
    "WHERE c.contype IN ('p', 'u', 'f') AND r.relkind IN ('r', 'p') "
    "AND NOT pg_catalog.pg_is_other_temp_schema(nr.oid) AND " IS_REL_VISIBLE("r")};

#define RULE(col)                                                                                              \
  "(CASE " col " WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' WHEN 'r' THEN " \
  "'RESTRICT' WHEN 'a' THEN 'NO ACTION' END)::varchar"

const QueryView kReferentialConstraints = {
    "referential_constraints",
    {{"constraint_catalog", kName}, {"constraint_schema", kName}, {"constraint_name", kName},
     {"unique_constraint_catalog", kName}, {"unique_constraint_schema", kName}, {"unique_constraint_name", kName},
     {"match_option", kVarchar}, {"update_rule", kVarchar}, {"delete_rule", kVarchar}},
    // The referenced key is its unique index (a primary key's constraint
    // shares its index's name).
    "SELECT current_database()::name, ncon.nspname::name, con.conname::name, "
    "(CASE WHEN npkc.nspname IS NULL THEN NULL ELSE current_database() END)::name, npkc.nspname::name, "
    "pkc.relname::name, (CASE con.confmatchtype WHEN 'f' THEN 'FULL' WHEN 'p' THEN 'PARTIAL' WHEN 's' THEN 'NONE' "
    "END)::varchar, " RULE("con.confupdtype") ", " RULE("con.confdeltype") " "
    "FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_namespace ncon ON ncon.oid = con.connamespace "
    "JOIN pg_catalog.pg_class c ON con.conrelid = c.oid "
    "LEFT JOIN pg_catalog.pg_class pkc ON pkc.oid = con.conindid "
    "LEFT JOIN pg_catalog.pg_namespace npkc ON npkc.oid = pkc.relnamespace "
    "WHERE con.contype = 'f' AND " IS_REL_MODIFIABLE("c")};

// The columns constraints use: a CHECK's and a key's own columns, a
// foreign key's referenced columns; shown to the owner of their table.
const QueryView kConstraintColumnUsage = {
    "constraint_column_usage",
    {{"table_catalog", kName}, {"table_schema", kName}, {"table_name", kName}, {"column_name", kName},
     {"constraint_catalog", kName}, {"constraint_schema", kName}, {"constraint_name", kName}},
    "SELECT DISTINCT current_database()::name, tn.nspname::name, t.relname::name, a.attname::name, "
    "current_database()::name, cn.nspname::name, c.conname::name "
    "FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_namespace cn ON cn.oid = c.connamespace "
    "JOIN pg_catalog.pg_class t ON t.oid = (CASE WHEN c.contype = 'f' THEN c.confrelid ELSE c.conrelid END) "
    "JOIN pg_catalog.pg_namespace tn ON tn.oid = t.relnamespace "
    "CROSS JOIN LATERAL " KEY_ATTNUMS("CASE WHEN c.contype = 'f' THEN c.confkey ELSE c.conkey END") " AS k(att) "
    "JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.att::int2 "
    "WHERE c.contype IN ('c', 'f', 'p', 'u') AND t.relkind IN ('r', 'p') "
    "AND pg_catalog.pg_has_role(t.relowner, 'USAGE')"};

const QueryView kViews = {
    "views",
    {{"table_catalog", kName}, {"table_schema", kName}, {"table_name", kName}, {"view_definition", kVarchar},
     {"check_option", kVarchar}, {"is_updatable", kVarchar}, {"is_insertable_into", kVarchar},
     {"is_trigger_updatable", kVarchar}, {"is_trigger_deletable", kVarchar}, {"is_trigger_insertable_into", kVarchar}},
    "SELECT current_database()::name, nc.nspname::name, c.relname::name, "
    "(CASE WHEN pg_catalog.pg_has_role(c.relowner, 'USAGE') THEN pg_catalog.pg_get_viewdef(c.oid) END)::varchar, "
    "'NONE'::varchar, 'NO'::varchar, 'NO'::varchar, 'NO'::varchar, 'NO'::varchar, 'NO'::varchar "
    "FROM pg_catalog.pg_namespace nc JOIN pg_catalog.pg_class c ON c.relnamespace = nc.oid "
    "WHERE c.relkind = 'v' AND NOT pg_catalog.pg_is_other_temp_schema(nc.oid) AND " IS_REL_VISIBLE("c")};

// Identity columns' sequences are not listed (PostgreSQL: internal dependency).
const QueryView kSequences = {
    "sequences",
    {{"sequence_catalog", kName}, {"sequence_schema", kName}, {"sequence_name", kName}, {"data_type", kVarchar},
     {"numeric_precision", kInt}, {"numeric_precision_radix", kInt}, {"numeric_scale", kInt},
     {"start_value", kVarchar}, {"minimum_value", kVarchar}, {"maximum_value", kVarchar}, {"increment", kVarchar},
     {"cycle_option", kVarchar}},
    "SELECT current_database()::name, nc.nspname::name, c.relname::name, "
    "pg_catalog.format_type(s.seqtypid, NULL)::varchar, "
    "(CASE s.seqtypid WHEN 21 THEN 16 WHEN 23 THEN 32 ELSE 64 END)::int4, 2::int4, 0::int4, "
    "s.seqstart::varchar, s.seqmin::varchar, s.seqmax::varchar, s.seqincrement::varchar, "
    "(CASE WHEN s.seqcycle THEN 'YES' ELSE 'NO' END)::varchar "
    "FROM pg_catalog.pg_namespace nc JOIN pg_catalog.pg_class c ON c.relnamespace = nc.oid "
    "JOIN pg_catalog.pg_sequence s ON c.oid = s.seqrelid "
    "WHERE c.relkind = 'S' AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.objid = c.oid "
    "AND d.deptype = 'i') AND NOT pg_catalog.pg_is_other_temp_schema(nc.oid) "
    "AND (pg_catalog.pg_has_role(c.relowner, 'USAGE') OR "
    "pg_catalog.has_sequence_privilege(c.oid, 'SELECT, UPDATE, USAGE'))"};

#undef IS_REL_VISIBLE
#undef IS_REL_MODIFIABLE
#undef KEY_ATTNUMS
#undef TYPE_FACETS
#undef RULE

}  // namespace

void AddInformationSchemaViews(SystemViewProvider& p) {
  Oid oid = kInformationSchemaFirstViewOid;
  for (const QueryView* v : {&kSchemata, &kTables, &kColumns, &kTableConstraints, &kCheckConstraints,
                             &kKeyColumnUsage, &kReferentialConstraints, &kConstraintColumnUsage, &kViews,
                             &kSequences}) {
    executor::TableInfo info;
    info.oid = oid++;
    info.schema = "information_schema";
    info.name = v->name;
    for (const auto& [name, type] : v->columns) info.columns.push_back(ViewColumn(name, type));
    info.view_query = v->query;
    p.AddQueryView(std::move(info));
  }
}

}  // namespace hearth::catalog
