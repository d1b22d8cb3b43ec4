// catalog/proc_views.cpp
//
// Principal entry point: internal::AddProcViews — pg_proc (1255) with a row
// per user function from hearth_proc (built-in functions have no oids and
// are not listed), and pg_language (2612) with PostgreSQL's internal, c and
// sql languages (no procedural language is installed).
#include "catalog/pg_catalog_views.h"
#include "catalog/proc_catalog.h"
#include "catalog/proc_privileges.h"

namespace hearth::catalog::internal {

namespace {

using executor::Row;
using types::Value;
using namespace types;


// '{a,b}' text of a list (NULL when empty).
Value ArrayText(const std::vector<std::string>& items) {
  if (items.empty()) return Value::Null(kTextOid);
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + (items[i].empty() ? "\"\"" : items[i]);
  return Value::Text(out + "}");
}

Row PgProcRow(const ProcInfo& p) {
  std::vector<std::string> alltypes, modes, oids;
  for (Oid t : p.allargtypes) alltypes.push_back(std::to_string(t));
  for (char m : p.argmodes) modes.emplace_back(1, m);
  for (Oid t : p.argtypes) oids.push_back(std::to_string(t));
  std::string argtypes;
  for (size_t i = 0; i < oids.size(); ++i) argtypes += (i ? " " : "") + oids[i];
  std::string defaults;
  for (size_t i = 0; i < p.argdefaults.size(); ++i) defaults += (i ? ", " : "") + p.argdefaults[i];
  return {OidValue(p.oid), NameValue(p.name), OidValue(p.ns), OidValue(p.owner),
          OidValue(p.lang), Float4Value(100), Float4Value(p.retset ? 1000 : 0), OidValue(0),
          OidValue(0), CharValue(p.kind), Value::Bool(p.secdef), Value::Bool(false),
          Value::Bool(p.strict), Value::Bool(p.retset), CharValue(p.volatility), CharValue('u'),
          Int2Value(static_cast<int>(p.argtypes.size())), Int2Value(static_cast<int>(p.argdefaults.size())),
          OidValue(p.rettype), Value::Text(argtypes),
          ArrayText(alltypes), ArrayText(modes), ArrayText(p.argnames),
          defaults.empty() ? Value::Null(kTextOid) : Value::Text(defaults), Value::Null(kTextOid),
          Value::Text(p.sqlbody ? std::string() : p.src), Value::Null(kTextOid),
          p.sqlbody ? Value::Text(*p.sqlbody) : Value::Null(kTextOid), Value::Null(kTextOid),
          p.acl ? Value::Text(*p.acl) : Value::Null(kTextOid)};
}

}  // namespace

void AddProcViews(SystemViewProvider& p) {
  executor::TableProvider& tables = p.wrapped();
  p.AddView(PgViewInfo(kPgProcOid, "pg_proc",
                       {{"oid", kOidOid},          {"proname", kNameOid},     {"pronamespace", kOidOid}, {"proowner", kOidOid},
                        {"prolang", kOidOid},      {"procost", kFloat4Oid},   {"prorows", kFloat4Oid},   {"provariadic", kOidOid},
                        {"prosupport", kOidOid},   {"prokind", kTextOid},     {"prosecdef", kBoolOid},   {"proleakproof", kBoolOid},
                        {"proisstrict", kBoolOid}, {"proretset", kBoolOid},   {"provolatile", kTextOid}, {"proparallel", kTextOid},
                        {"pronargs", kInt2Oid},    {"pronargdefaults", kInt2Oid}, {"prorettype", kOidOid}, {"proargtypes", kTextOid},
                        {"proallargtypes", kTextOid}, {"proargmodes", kTextOid}, {"proargnames", kTextOid},
                        {"proargdefaults", kTextOid}, {"protrftypes", kTextOid}, {"prosrc", kTextOid},  {"probin", kTextOid},
                        {"prosqlbody", kTextOid},  {"proconfig", kTextOid},   {"proacl", kTextOid}}),
            [&tables] {
              std::vector<Row> out;
              for (const Row& r : ScanCatalog(tables, kHearthProcName)) out.push_back(PgProcRow(ParseProcRow(r)));
              return out;
            });
  p.AddView(PgViewInfo(kPgLanguageOid, "pg_language",
                       {{"oid", kOidOid}, {"lanname", kNameOid}, {"lanowner", kOidOid}, {"lanispl", kBoolOid},
                        {"lanpltrusted", kBoolOid}, {"lanplcallfoid", kOidOid}, {"laninline", kOidOid},
                        {"lanvalidator", kOidOid}, {"lanacl", kTextOid}}),
            [] {
              auto lang = [](Oid oid, const char* name, bool trusted, Oid validator) {
                return Row{OidValue(oid), NameValue(name), OidValue(kBootstrapSuperuserOid), Value::Bool(false),
                           Value::Bool(trusted), OidValue(0), OidValue(0), OidValue(validator), Value::Null(kTextOid)};
              };
              std::vector<Row> rows{lang(kInternalLanguageOid, "internal", false, 2246),
                                      lang(kCLanguageOid, "c", false, 2247), lang(kSqlLanguageOid, "sql", true, 2248),
                                      lang(kPlpgsqlLanguageOid, "plpgsql", true, 0)};
              rows.back()[3] = Value::Bool(true);  // lanispl
              return rows;
            });
}

}  // namespace hearth::catalog::internal
