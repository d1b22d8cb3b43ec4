// catalog/pg_catalog_dump.cpp
//
// Principal entry point: AddDumpCatalogViews — the rest of the pg_catalog
// relations pg_dump and pg_dumpall read, with PostgreSQL 15's columns:
// pg_language (the built-in languages internal, c and sql), pg_default_acl
// (over hearth_default_acl) and, empty because Hearth has no such objects,
// operators and operator classes, casts, conversions, text search, foreign
// data wrappers and servers, initial privileges, large objects, event triggers,
// subscriptions, transforms, ranges, security labels (and the pg_seclabels
// view), per-role settings and parameter privileges.
// Array columns are their text form except where a query needs the array
// (evttags, setconfig: unnest).
#include "catalog/catalog_defs.h"
#include "catalog/default_acl.h"
#include "catalog/pg_catalog_views.h"

namespace hearth::catalog {

namespace {

using executor::Row;
using types::Value;
using namespace types;
using internal::CharValue;
using internal::NameValue;
using internal::OidValue;
using internal::PgViewInfo;

void AddEmptyView(SystemViewProvider& p, Oid oid, const char* name, ViewColumns columns) {
  p.AddView(PgViewInfo(oid, name, columns), [] { return std::vector<Row>{}; });
}

void AddOperatorCatalogs(SystemViewProvider& p) {
  AddEmptyView(p, kPgOperatorOid, "pg_operator",
               {{"oid", kOidOid},       {"oprname", kNameOid},     {"oprnamespace", kOidOid}, {"oprowner", kOidOid},
                {"oprkind", kTextOid},  {"oprcanmerge", kBoolOid}, {"oprcanhash", kBoolOid},  {"oprleft", kOidOid},
                {"oprright", kOidOid},  {"oprresult", kOidOid},    {"oprcom", kOidOid},       {"oprnegate", kOidOid},
                {"oprcode", kRegprocOid}, {"oprrest", kRegprocOid}, {"oprjoin", kRegprocOid}});
  AddEmptyView(p, kPgOpclassOid, "pg_opclass",
               {{"oid", kOidOid},       {"opcmethod", kOidOid},   {"opcname", kNameOid},  {"opcnamespace", kOidOid},
                {"opcowner", kOidOid},  {"opcfamily", kOidOid},   {"opcintype", kOidOid}, {"opcdefault", kBoolOid},
                {"opckeytype", kOidOid}});
  AddEmptyView(p, kPgOpfamilyOid, "pg_opfamily",
               {{"oid", kOidOid}, {"opfmethod", kOidOid}, {"opfname", kNameOid}, {"opfnamespace", kOidOid},
                {"opfowner", kOidOid}});
  AddEmptyView(p, kPgAmopOid, "pg_amop",
               {{"oid", kOidOid},          {"amopfamily", kOidOid},  {"amoplefttype", kOidOid},
                {"amoprighttype", kOidOid}, {"amopstrategy", kInt2Oid}, {"amoppurpose", kTextOid},
                {"amopopr", kOidOid},      {"amopmethod", kOidOid},  {"amopsortfamily", kOidOid}});
  AddEmptyView(p, kPgAmprocOid, "pg_amproc",
               {{"oid", kOidOid}, {"amprocfamily", kOidOid}, {"amproclefttype", kOidOid},
                {"amprocrighttype", kOidOid}, {"amprocnum", kInt2Oid}, {"amproc", kRegprocOid}});
  AddEmptyView(p, kPgCastOid, "pg_cast",
               {{"oid", kOidOid}, {"castsource", kOidOid}, {"casttarget", kOidOid}, {"castfunc", kOidOid},
                {"castcontext", kTextOid}, {"castmethod", kTextOid}});
  AddEmptyView(p, kPgConversionOid, "pg_conversion",
               {{"oid", kOidOid}, {"conname", kNameOid}, {"connamespace", kOidOid}, {"conowner", kOidOid},
                {"conforencoding", kInt4Oid}, {"contoencoding", kInt4Oid}, {"conproc", kRegprocOid},
                {"condefault", kBoolOid}});
  AddEmptyView(p, kPgRangeOid, "pg_range",
               {{"rngtypid", kOidOid}, {"rngsubtype", kOidOid}, {"rngmultitypid", kOidOid},
                {"rngcollation", kOidOid}, {"rngsubopc", kOidOid}, {"rngcanonical", kRegprocOid},
                {"rngsubdiff", kRegprocOid}});
  AddEmptyView(p, kPgTransformOid, "pg_transform",
               {{"oid", kOidOid}, {"trftype", kOidOid}, {"trflang", kOidOid}, {"trffromsql", kRegprocOid},
                {"trftosql", kRegprocOid}});
}

void AddTextSearchCatalogs(SystemViewProvider& p) {
  AddEmptyView(p, kPgTsParserOid, "pg_ts_parser",
               {{"oid", kOidOid}, {"prsname", kNameOid}, {"prsnamespace", kOidOid}, {"prsstart", kRegprocOid},
                {"prstoken", kRegprocOid}, {"prsend", kRegprocOid}, {"prsheadline", kRegprocOid},
                {"prslextype", kRegprocOid}});
  AddEmptyView(p, kPgTsTemplateOid, "pg_ts_template",
               {{"oid", kOidOid}, {"tmplname", kNameOid}, {"tmplnamespace", kOidOid}, {"tmplinit", kRegprocOid},
                {"tmpllexize", kRegprocOid}});
  AddEmptyView(p, kPgTsDictOid, "pg_ts_dict",
               {{"oid", kOidOid}, {"dictname", kNameOid}, {"dictnamespace", kOidOid}, {"dictowner", kOidOid},
                {"dicttemplate", kOidOid}, {"dictinitoption", kTextOid}});
  AddEmptyView(p, kPgTsConfigOid, "pg_ts_config",
               {{"oid", kOidOid}, {"cfgname", kNameOid}, {"cfgnamespace", kOidOid}, {"cfgowner", kOidOid},
                {"cfgparser", kOidOid}});
  AddEmptyView(p, kPgTsConfigMapOid, "pg_ts_config_map",
               {{"mapcfg", kOidOid}, {"maptokentype", kInt4Oid}, {"mapseqno", kInt4Oid}, {"mapdict", kOidOid}});
}

void AddForeignCatalogs(SystemViewProvider& p) {
  AddEmptyView(p, kPgForeignDataWrapperOid, "pg_foreign_data_wrapper",
               {{"oid", kOidOid}, {"fdwname", kNameOid}, {"fdwowner", kOidOid}, {"fdwhandler", kOidOid},
                {"fdwvalidator", kOidOid}, {"fdwacl", kTextOid}, {"fdwoptions", kTextOid}});
  AddEmptyView(p, kPgForeignServerOid, "pg_foreign_server",
               {{"oid", kOidOid}, {"srvname", kNameOid}, {"srvowner", kOidOid}, {"srvfdw", kOidOid},
                {"srvtype", kTextOid}, {"srvversion", kTextOid}, {"srvacl", kTextOid}, {"srvoptions", kTextOid}});
  AddEmptyView(p, kPgUserMappingOid, "pg_user_mapping",
               {{"oid", kOidOid}, {"umuser", kOidOid}, {"umserver", kOidOid}, {"umoptions", kTextOid}});
}

void AddPrivilegeAndObjectCatalogs(SystemViewProvider& p) {
  // Over hearth_default_acl (same columns), with the statement's snapshot.
  p.AddView(PgViewInfo(kPgDefaultAclOid, "pg_default_acl",
                       {{"oid", kOidOid}, {"defaclrole", kOidOid}, {"defaclnamespace", kOidOid},
                        {"defaclobjtype", kTextOid}, {"defaclacl", kTextOid}}),
            [&p] {
              if (!DefaultAclCatalogExists()) return std::vector<Row>{};
              return internal::ScanCatalog(p.wrapped(), kHearthDefaultAclName);
            });
  AddEmptyView(p, kPgInitPrivsOid, "pg_init_privs",
               {{"objoid", kOidOid}, {"classoid", kOidOid}, {"objsubid", kInt4Oid}, {"privtype", kTextOid},
                {"initprivs", kTextOid}});
  AddEmptyView(p, kPgLargeobjectMetadataOid, "pg_largeobject_metadata",
               {{"oid", kOidOid}, {"lomowner", kOidOid}, {"lomacl", kTextOid}});
  AddEmptyView(p, kPgLargeobjectOid, "pg_largeobject",
               {{"loid", kOidOid}, {"pageno", kInt4Oid}, {"data", kByteaOid}});
  AddEmptyView(p, kPgEventTriggerOid, "pg_event_trigger",
               {{"oid", kOidOid}, {"evtname", kNameOid}, {"evtevent", kNameOid}, {"evtowner", kOidOid},
                {"evtfoid", kOidOid}, {"evtenabled", kTextOid}, {"evttags", kTextArrayOid}});
  AddEmptyView(p, kPgSubscriptionOid, "pg_subscription",
               {{"oid", kOidOid},           {"subdbid", kOidOid},         {"subskiplsn", kPgLsnOid},
                {"subname", kNameOid},      {"subowner", kOidOid},        {"subenabled", kBoolOid},
                {"subbinary", kBoolOid},    {"substream", kBoolOid},      {"subtwophasestate", kTextOid},
                {"subdisableonerr", kBoolOid}, {"subconninfo", kTextOid}, {"subslotname", kNameOid},
                {"subsynccommit", kTextOid}, {"subpublications", kTextArrayOid}});
  AddEmptyView(p, kPgSeclabelOid, "pg_seclabel",
               {{"objoid", kOidOid}, {"classoid", kOidOid}, {"objsubid", kInt4Oid}, {"provider", kTextOid},
                {"label", kTextOid}});
  AddEmptyView(p, kPgShseclabelOid, "pg_shseclabel",
               {{"objoid", kOidOid}, {"classoid", kOidOid}, {"provider", kTextOid}, {"label", kTextOid}});
  AddEmptyView(p, kPgSeclabelsOid, "pg_seclabels",
               {{"objoid", kOidOid}, {"classoid", kOidOid}, {"objsubid", kInt4Oid}, {"objtype", kTextOid},
                {"objnamespace", kOidOid}, {"objname", kTextOid}, {"provider", kTextOid}, {"label", kTextOid}});
  AddEmptyView(p, kPgParameterAclOid, "pg_parameter_acl",
               {{"oid", kOidOid}, {"parname", kTextOid}, {"paracl", kTextOid}});
  AddEmptyView(p, kPgDbRoleSettingOid, "pg_db_role_setting",
               {{"setdatabase", kOidOid}, {"setrole", kOidOid}, {"setconfig", kTextArrayOid}});
}

}  // namespace

void AddDumpCatalogViews(SystemViewProvider& p) {
  AddOperatorCatalogs(p);
  AddTextSearchCatalogs(p);
  AddForeignCatalogs(p);
  AddPrivilegeAndObjectCatalogs(p);
}

}  // namespace hearth::catalog
