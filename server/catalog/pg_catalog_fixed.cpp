// catalog/pg_catalog_fixed.cpp
//
// Principal entry point: AddPgCatalogFixedViews — the pg_catalog relations
// whose rows are built in (pg_type from the type catalog, pg_am,
// pg_tablespace, pg_collation), come from the cluster catalog files
// (pg_database), or are empty because Hearth has no such objects yet
// (triggers, rules, policies, publications, inheritance, extended
// statistics, foreign tables, partitioning, extensions).
#include <array>

#include "catalog/catalog_defs.h"
#include "catalog/cluster_catalog.h"
#include "catalog/database_privileges.h"
#include "catalog/pg_catalog_views.h"
#include "catalog/proc_catalog.h"
#include "storage/smgr/smgr.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog::internal {

namespace {

using executor::Row;
using types::Value;
using namespace types;

// pg_proc oid of array_subscript_handler (pg_type.typsubscript of arrays).
constexpr Oid kArraySubscriptHandlerOid = 6179;

// pg_type: one row per built-in type (regproc columns are plain oids, 0),
// then the user types' rows (type_views.cpp).
void AddPgType(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgTypeOid, "pg_type",
      {{"oid", kOidOid},          {"typname", kNameOid},       {"typnamespace", kOidOid},  {"typowner", kOidOid},
       {"typlen", kInt2Oid},      {"typbyval", kBoolOid},      {"typtype", kTextOid},      {"typcategory", kTextOid},
       {"typispreferred", kBoolOid}, {"typisdefined", kBoolOid}, {"typdelim", kTextOid},   {"typrelid", kOidOid},
       {"typsubscript", kOidOid}, {"typelem", kOidOid},        {"typarray", kOidOid},      {"typinput", kOidOid},
       {"typoutput", kOidOid},    {"typreceive", kOidOid},     {"typsend", kOidOid},       {"typmodin", kOidOid},
       {"typmodout", kOidOid},    {"typanalyze", kOidOid},     {"typalign", kTextOid},     {"typstorage", kTextOid},
       {"typnotnull", kBoolOid},  {"typbasetype", kOidOid},    {"typtypmod", kInt4Oid},    {"typndims", kInt4Oid},
       {"typcollation", kOidOid}, {"typdefaultbin", kTextOid}, {"typdefault", kTextOid},   {"typacl", kTextOid}});
  p.AddView(std::move(info), [] {
    std::vector<Row> out;
    for (const TypeInfo& t : AllTypes()) {
      const bool byval = t.typlen == 1 || t.typlen == 2 || t.typlen == 4 || t.typlen == 8;
      const bool pseudo = t.category == TypeCategory::kPseudo || t.oid == kUnknownOid;
      // An array is aligned as its element (_int8 'd'), at least 'i'.
      const int16_t align_len = t.elem != 0 ? TypeLength(t.elem) : t.typlen;
      // timetz (12 bytes: an int64 and an int32) is 'd' as in PostgreSQL.
      const char align = align_len == 8 || align_len == 12 ? 'd' : t.elem != 0 ? 'i' : align_len == 2 ? 's' : (align_len == 1 || align_len == 64 || align_len == -2) ? 'c' : 'i';
      const char storage = t.oid == kNumericOid ? 'm' : t.typlen == -1 ? 'x' : 'p';
      out.push_back({OidValue(t.oid), NameValue(t.name), OidValue(kPgCatalogNamespace), OidValue(kBootstrapSuperuserOid),
                     Int2Value(t.typlen), Value::Bool(byval), CharValue(pseudo ? 'p' : 'b'),
                     CharValue(static_cast<char>(t.category)), Value::Bool(t.preferred), Value::Bool(true),
                     CharValue(','), OidValue(0), OidValue(t.elem != 0 ? kArraySubscriptHandlerOid : 0), OidValue(t.elem),
                     OidValue(ArrayTypeOf(t.oid)),
                     OidValue(0), OidValue(0), OidValue(0), OidValue(0), OidValue(0), OidValue(0), OidValue(0),
                     CharValue(align), CharValue(storage), Value::Bool(false), OidValue(0), Value::Int4(-1),
                     Value::Int4(0), OidValue(TypeCollation(t.oid)), Value::Null(kTextOid), Value::Null(kTextOid),
                     Value::Null(kTextOid)});
    }
    AppendUserTypeRows(&out);
    return out;
  });
}

void AddPgAm(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgAmOid, "pg_am",
                       {{"oid", kOidOid}, {"amname", kNameOid}, {"amhandler", kOidOid}, {"amtype", kTextOid}}),
            [] {
              return std::vector<Row>{{OidValue(kHeapAmOid), NameValue("heap"), OidValue(0), CharValue('t')},
                                      {OidValue(kBtreeAmOid), NameValue("btree"), OidValue(0), CharValue('i')}};
            });
}

void AddPgTablespace(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgTablespaceOid, "pg_tablespace",
                       {{"oid", kOidOid}, {"spcname", kNameOid}, {"spcowner", kOidOid}, {"spcacl", kTextOid},
                        {"spcoptions", kTextOid}}),
            [] {
              const Value owner = OidValue(kBootstrapSuperuserOid);
              return std::vector<Row>{
                  {OidValue(kDefaultTablespaceOid), NameValue("pg_default"), owner, Value::Null(kTextOid),
                   Value::Null(kTextOid)},
                  {OidValue(kGlobalTablespaceOid), NameValue("pg_global"), owner, Value::Null(kTextOid),
                   Value::Null(kTextOid)}};
            });
}

// pg_database over the shared hearth_database catalog: UTF8 with the C
// locale Hearth compares text in; datacl NULL while the default is in force.
void AddPgDatabase(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgDatabaseOid, "pg_database",
      {{"oid", kOidOid},           {"datname", kNameOid},      {"datdba", kOidOid},       {"encoding", kInt4Oid},
       {"datlocprovider", kTextOid}, {"datistemplate", kBoolOid}, {"datallowconn", kBoolOid}, {"datconnlimit", kInt4Oid},
       {"datfrozenxid", kInt8Oid}, {"datminmxid", kInt8Oid},   {"dattablespace", kOidOid}, {"datcollate", kTextOid},
       {"datctype", kTextOid},     {"daticulocale", kTextOid}, {"datcollversion", kTextOid}, {"datacl", kTextOid}});
  p.AddView(std::move(info), [] {
    std::vector<Row> out;
    for (const DatabaseFields& d : ListDatabaseRows()) {
      const std::optional<std::string> acl = DatabaseAclText(d);
      out.push_back({OidValue(d.oid), NameValue(d.name), OidValue(d.owner), Value::Int4(d.encoding), CharValue('c'),
                     Value::Bool(d.is_template), Value::Bool(d.allow_connections), Value::Int4(d.connection_limit),
                     Value::Int8(0), Value::Int8(0), OidValue(kDefaultTablespaceOid), Value::Text("C"),
                     Value::Text("C"), Value::Null(kTextOid), Value::Null(kTextOid),
                     acl ? Value::Text(*acl) : Value::Null(kTextOid)});
    }
    return out;
  });
}

void AddPgCollation(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgCollationOid, "pg_collation",
      {{"oid", kOidOid},           {"collname", kNameOid},     {"collnamespace", kOidOid}, {"collowner", kOidOid},
       {"collprovider", kTextOid}, {"collisdeterministic", kBoolOid}, {"collencoding", kInt4Oid},
       {"collcollate", kTextOid},  {"collctype", kTextOid},    {"colliculocale", kTextOid}, {"collversion", kTextOid}});
  p.AddView(std::move(info), [] {
    auto row = [](Oid oid, const char* name, char provider, int enc, const char* locale) {
      const Value loc = locale == nullptr ? Value::Null(kTextOid) : Value::Text(locale);
      return Row{OidValue(oid), NameValue(name), OidValue(kPgCatalogNamespace), OidValue(kBootstrapSuperuserOid),
                 CharValue(provider), Value::Bool(true), Value::Int4(enc), loc, loc, Value::Null(kTextOid),
                 Value::Null(kTextOid)};
    };
    return std::vector<Row>{row(kDefaultCollationOid, "default", 'd', -1, nullptr),
                            row(kCCollationOid, "C", 'c', -1, "C"), row(951, "POSIX", 'c', -1, "POSIX")};
  });
}

// Catalogs of objects Hearth does not have yet: PostgreSQL 15's columns,
// no rows (array and pg_node_tree columns as text, "char" as text).
void AddEmpty(SystemViewProvider& p, Oid oid, const char* name, ViewColumns columns) {
  p.AddView(PgViewInfo(oid, name, columns), [] { return std::vector<Row>{}; });
}

// pg_extension: plpgsql, as initdb installs it (PostgreSQL 15's oid, so
// pg_dump sees a built-in extension and leaves it out of dumps). Its
// comment is pg_description's (description_views.cpp).
void AddPgExtension(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgExtensionOid, "pg_extension",
                       {{"oid", kOidOid}, {"extname", kNameOid}, {"extowner", kOidOid}, {"extnamespace", kOidOid},
                        {"extrelocatable", kBoolOid}, {"extversion", kTextOid}, {"extconfig", kTextOid},
                        {"extcondition", kTextOid}}),
            [] {
              return std::vector<Row>{{OidValue(kPlpgsqlExtensionOid), NameValue("plpgsql"),
                                       OidValue(kBootstrapSuperuserOid), OidValue(kPgCatalogNamespace),
                                       Value::Bool(false), Value::Text("1.0"), Value::Null(kTextOid),
                                       Value::Null(kTextOid)}};
            });
}

void AddEmptyCatalogs(SystemViewProvider& p) {
  AddPgInherits(p);  // inherit_views.cpp
  AddTriggerView(p);  // pg_trigger (trigger_views.cpp)
  AddEmpty(p, kPgRewriteOid, "pg_rewrite",
           {{"oid", kOidOid}, {"rulename", kNameOid}, {"ev_class", kOidOid}, {"ev_type", kTextOid},
            {"ev_enabled", kTextOid}, {"is_instead", kBoolOid}, {"ev_qual", kTextOid}, {"ev_action", kTextOid}});
  AddEmpty(p, kPgPolicyOid, "pg_policy",
           {{"oid", kOidOid}, {"polname", kNameOid}, {"polrelid", kOidOid}, {"polcmd", kTextOid},
            {"polpermissive", kBoolOid}, {"polroles", kOidArrayOid}, {"polqual", kTextOid}, {"polwithcheck", kTextOid}});
  AddEmpty(p, kPgPublicationOid, "pg_publication",
           {{"oid", kOidOid}, {"pubname", kNameOid}, {"pubowner", kOidOid}, {"puballtables", kBoolOid},
            {"pubinsert", kBoolOid}, {"pubupdate", kBoolOid}, {"pubdelete", kBoolOid}, {"pubtruncate", kBoolOid},
            {"pubviaroot", kBoolOid}});
  AddEmpty(p, kPgPublicationRelOid, "pg_publication_rel",
           {{"oid", kOidOid}, {"prpubid", kOidOid}, {"prrelid", kOidOid}, {"prqual", kTextOid}, {"prattrs", types::kInt2ArrayOid}});
  AddEmpty(p, kPgPublicationNamespaceOid, "pg_publication_namespace",
           {{"oid", kOidOid}, {"pnpubid", kOidOid}, {"pnnspid", kOidOid}});
  AddEmpty(p, kPgStatisticExtOid, "pg_statistic_ext",
           {{"oid", kOidOid}, {"stxrelid", kOidOid}, {"stxname", kNameOid}, {"stxnamespace", kOidOid},
            {"stxowner", kOidOid}, {"stxstattarget", kInt4Oid}, {"stxkeys", kTextOid}, {"stxkind", kTextArrayOid},
            {"stxexprs", kTextOid}});
  AddPgEnumView(p);  // type_views.cpp
  AddEmpty(p, kPgForeignTableOid, "pg_foreign_table",
           {{"ftrelid", kOidOid}, {"ftserver", kOidOid}, {"ftoptions", kTextOid}});
  AddPgPartitionedTable(p);  // inherit_views.cpp
  AddPgExtension(p);
}

}  // namespace

void AddPgCatalogFixedViews(SystemViewProvider& p) {
  AddPgType(p);
  AddPgAm(p);
  AddPgTablespace(p);
  AddPgDatabase(p);
  AddPgCollation(p);
  AddEmptyCatalogs(p);
  AddProcViews(p);  // pg_proc, pg_language (proc_views.cpp)
  AddDescriptionViews(p);  // pg_description, pg_shdescription (description_views.cpp)
}

}  // namespace hearth::catalog::internal
