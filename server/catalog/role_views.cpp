// catalog/role_views.cpp
//
// Principal entry point: AddRoleViews — pg_roles and pg_user over
// pg_authid with PostgreSQL 15's columns: passwords always shown as
// '********'; rolconfig / useconfig are NULL (per-role settings do not
// exist; typed text, there are no array types). pg_roles also lists the
// predefined role pg_database_owner (6171), owner of schema public.
#include "catalog/cluster_catalog.h"
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
  using namespace types;
  executor::TableInfo info = MakeViewInfo(kPgRolesOid, "pg_roles",
                                          {{"rolname", kNameOid},
                                           {"rolsuper", kBoolOid},
                                           {"rolinherit", kBoolOid},
                                           {"rolcreaterole", kBoolOid},
                                           {"rolcreatedb", kBoolOid},
                                           {"rolcanlogin", kBoolOid},
                                           {"rolreplication", kBoolOid},
                                           {"rolconnlimit", kInt4Oid},
                                           {"rolpassword", kTextOid},
                                           {"rolvaliduntil", kTimestampTzOid},
                                           {"rolbypassrls", kBoolOid},
                                           {"rolconfig", kTextOid},
                                           {"oid", kOidOid}});
  p.AddView(std::move(info), [] {
    std::vector<executor::Row> rows;
    for (const RoleFields& r : ListRoles()) {
      rows.push_back({Name(r.name), Value::Bool(r.superuser), Value::Bool(r.inherit), Value::Bool(r.createrole),
                      Value::Bool(r.createdb), Value::Bool(r.canlogin), Value::Bool(r.replication),
                      Value::Int4(r.connlimit), Value::Text("********"), ValidUntil(r), Value::Bool(r.bypassrls),
                      Value::Null(kTextOid), Value::Int(kOidOid, r.oid)});
    }
    // The predefined role that owns schema public (pg_namespace.nspowner):
    // pg_dump resolves every owner oid through pg_roles.
    rows.push_back({Name("pg_database_owner"), Value::Bool(false), Value::Bool(true), Value::Bool(false),
                    Value::Bool(false), Value::Bool(false), Value::Bool(false), Value::Int4(-1),
                    Value::Text("********"), Value::Null(kTimestampTzOid), Value::Bool(false),
                    Value::Null(kTextOid), Value::Int(kOidOid, kPgDatabaseOwnerOid)});
    return rows;
  });
}

void AddPgUser(SystemViewProvider& p) {
  using namespace types;
  executor::TableInfo info = MakeViewInfo(kPgUserOid, "pg_user",
                                          {{"usename", kNameOid},
                                           {"usesysid", kOidOid},
                                           {"usecreatedb", kBoolOid},
                                           {"usesuper", kBoolOid},
                                           {"userepl", kBoolOid},
                                           {"usebypassrls", kBoolOid},
                                           {"passwd", kTextOid},
                                           {"valuntil", kTimestampTzOid},
                                           {"useconfig", kTextOid}});
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
