// catalog/trigger_views.cpp
//
// Principal entry point: internal::AddTriggerView — pg_trigger (2620, the
// columns of PostgreSQL 15) with a row per hearth_trigger row. Hearth has no
// internal (constraint) triggers, partitions or transition tables, so those
// columns are constant.
#include "catalog/pg_catalog_views.h"
#include "catalog/trigger_catalog.h"

namespace hearth::catalog::internal {

namespace {

using executor::Row;
using types::Value;
using namespace types;

Row PgTriggerRow(const TriggerFields& f) {
  std::string attr, args;
  for (int a : f.attnums) attr += (attr.empty() ? "" : " ") + std::to_string(a);
  for (const std::string& a : f.args) args += a + "\\000";  // bytea's escape form of NUL-terminated arguments
  return {OidValue(f.oid),
          OidValue(f.relid),
          OidValue(0),
          NameValue(f.name),
          OidValue(f.func),
          Int2Value(f.type),
          CharValue(f.enabled),
          Value::Bool(false),
          OidValue(0),
          OidValue(0),
          OidValue(0),
          Value::Bool(false),
          Value::Bool(false),
          Int2Value(static_cast<int>(f.args.size())),
          Value::Text(attr),
          Value::Text(args),
          f.when ? Value::Text(*f.when) : Value::Null(kTextOid),
          Value::Null(kNameOid),
          Value::Null(kNameOid)};
}

}  // namespace

void AddTriggerView(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgTriggerOid, "pg_trigger",
                       {{"oid", kOidOid},          {"tgrelid", kOidOid},       {"tgparentid", kOidOid},
                        {"tgname", kNameOid},      {"tgfoid", kOidOid},        {"tgtype", kInt2Oid},
                        {"tgenabled", kTextOid},   {"tgisinternal", kBoolOid}, {"tgconstrrelid", kOidOid},
                        {"tgconstrindid", kOidOid}, {"tgconstraint", kOidOid}, {"tgdeferrable", kBoolOid},
                        {"tginitdeferred", kBoolOid}, {"tgnargs", kInt2Oid},   {"tgattr", kTextOid},
                        {"tgargs", kTextOid},      {"tgqual", kTextOid},       {"tgoldtable", kNameOid},
                        {"tgnewtable", kNameOid}}),
            [] {
              std::vector<Row> out;
              for (const TriggerFields& f : AllTriggers()) out.push_back(PgTriggerRow(f));
              return out;
            });
}

}  // namespace hearth::catalog::internal
