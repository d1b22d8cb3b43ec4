// catalog/role_views.cpp
//
// Principal entry point: AddRoleViews — pg_roles and pg_user over
// pg_authid with PostgreSQL 15's columns: passwords always shown as
// '********'; rolconfig / useconfig are NULL (per-role settings do not
// exist; typed text, there are no array types).
#include "catalog/role_catalog.h"
#include "catalog/system_views.h"

namespace hearth::catalog {

namespace {

types::Value ValidUntil(const RoleFields& r) {
  return r.valid_until ? types::Value::Int(types::kTimestampTzOid, *r.valid_until)
                       : types::Value::Null(types::kTimestampTzOid);
}

types::Value Name(const std::string& s) { return types::Value::Bytes(types::kNameOid, s); }

void AddPgRoles(SystemViewProvider& p) {
  executor::TableInfo info = MakeViewInfo(kPgRolesOid, "pg_roles");
  using namespace types;
  info.columns.push_back(ViewColumn("rolname", kNameOid));
  for (const char* n : {"rolsuper", "rolinherit", "rolcreaterole", "rolcreatedb", "rolcanlogin", "rolreplication"}) {
    info.columns.push_back(ViewColumn(n, kBoolOid));
  }
  info.columns.push_back(ViewColumn("rolconnlimit", kInt4Oid));
  info.columns.push_back(ViewColumn("rolpassword", kTextOid));
  info.columns.push_back(ViewColumn("rolvaliduntil", kTimestampTzOid));
  info.columns.push_back(ViewColumn("rolbypassrls", kBoolOid));
  info.columns.push_back(ViewColumn("rolconfig", kTextOid));
  info.columns.push_back(ViewColumn("oid", kOidOid));
  p.AddView(std::move(info), [] {
    std::vector<executor::Row> rows;
    for (const RoleFields& r : ListRoles()) {
      rows.push_back({Name(r.name), Value::Bool(r.superuser), Value::Bool(r.inherit), Value::Bool(r.createrole),
                      Value::Bool(r.createdb), Value::Bool(r.canlogin), Value::Bool(r.replication),
                      Value::Int4(r.connlimit), Value::Text("********"), ValidUntil(r), Value::Bool(r.bypassrls),
                      Value::Null(kTextOid), Value::Int(kOidOid, r.oid)});
    }
    return rows;
  });
}

void AddPgUser(SystemViewProvider& p) {
  executor::TableInfo info = MakeViewInfo(kPgUserOid, "pg_user");
  using namespace types;
  info.columns.push_back(ViewColumn("usename", kNameOid));
  info.columns.push_back(ViewColumn("usesysid", kOidOid));
  for (const char* n : {"usecreatedb", "usesuper", "userepl", "usebypassrls"}) info.columns.push_back(ViewColumn(n, kBoolOid));
  info.columns.push_back(ViewColumn("passwd", kTextOid));
  info.columns.push_back(ViewColumn("valuntil", kTimestampTzOid));
  info.columns.push_back(ViewColumn("useconfig", kTextOid));
  p.AddView(std::move(info), [] {
    std::vector<executor::Row> rows;
    for (const RoleFields& r : ListRoles()) {
      if (!r.canlogin) continue;
      rows.push_back({Name(r.name), Value::Int(kOidOid, r.oid), Value::Bool(r.createdb), Value::Bool(r.superuser),
                      Value::Bool(r.replication), Value::Bool(r.bypassrls), Value::Text("********"), ValidUntil(r),
                      Value::Null(kTextOid)});
    }
    return rows;
  });
}

}  // namespace

void AddRoleViews(SystemViewProvider& p) {
  AddPgRoles(p);
  AddPgUser(p);
}

}  // namespace hearth::catalog
