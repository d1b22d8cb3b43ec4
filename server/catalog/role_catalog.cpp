// catalog/role_catalog.cpp
//
// Principal entry points: MakeRoleRow, ParseRoleRow, FindRoleByName,
// FindRoleByOid, ListMemberships, LockRoleCatalog.
#include "catalog/role_catalog.h"

#include "catalog/pending_delete.h"
#include "storage/lmgr/lock.h"

namespace hearth::catalog {

using types::Value;

const heap::TupleDesc& AuthidTupleDesc() {
  using heap::ColumnDesc;
  // Order must match AuthidCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),          // oid
      ColumnDesc::ForType(types::kNameOid),         // rolname
      ColumnDesc::ForType(types::kBoolOid),         // rolsuper
      ColumnDesc::ForType(types::kBoolOid),         // rolinherit
      ColumnDesc::ForType(types::kBoolOid),         // rolcreaterole
      ColumnDesc::ForType(types::kBoolOid),         // rolcreatedb
      ColumnDesc::ForType(types::kBoolOid),         // rolcanlogin
      ColumnDesc::ForType(types::kBoolOid),         // rolreplication
      ColumnDesc::ForType(types::kBoolOid),         // rolbypassrls
      ColumnDesc::ForType(types::kInt4Oid),         // rolconnlimit
      ColumnDesc::ForType(types::kTextOid),         // rolpassword
      ColumnDesc::ForType(types::kTimestampTzOid),  // rolvaliduntil
  });
  return desc;
}

const heap::TupleDesc& AuthMembersTupleDesc() {
  using heap::ColumnDesc;
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // roleid
      ColumnDesc::ForType(types::kOidOid),   // member
      ColumnDesc::ForType(types::kOidOid),   // grantor
      ColumnDesc::ForType(types::kBoolOid),  // admin_option
  });
  return desc;
}

heap::Row MakeRoleRow(const RoleFields& f) {
  heap::Row r(kAuthNatts);
  r[kAuthOid] = Value::Int(types::kOidOid, f.oid);
  r[kAuthRolname] = Value::Bytes(types::kNameOid, f.name);
  r[kAuthRolsuper] = Value::Bool(f.superuser);
  r[kAuthRolinherit] = Value::Bool(f.inherit);
  r[kAuthRolcreaterole] = Value::Bool(f.createrole);
  r[kAuthRolcreatedb] = Value::Bool(f.createdb);
  r[kAuthRolcanlogin] = Value::Bool(f.canlogin);
  r[kAuthRolreplication] = Value::Bool(f.replication);
  r[kAuthRolbypassrls] = Value::Bool(f.bypassrls);
  r[kAuthRolconnlimit] = Value::Int4(f.connlimit);
  r[kAuthRolpassword] = f.password ? Value::Text(*f.password) : Value::Null(types::kTextOid);
  r[kAuthRolvaliduntil] =
      f.valid_until ? Value::Int(types::kTimestampTzOid, *f.valid_until) : Value::Null(types::kTimestampTzOid);
  return r;
}

RoleFields ParseRoleRow(const heap::Row& r) {
  RoleFields f;
  f.oid = internal::RowOid(r, kAuthOid);
  f.name = r[kAuthRolname].str;
  f.superuser = r[kAuthRolsuper].b;
  f.inherit = r[kAuthRolinherit].b;
  f.createrole = r[kAuthRolcreaterole].b;
  f.createdb = r[kAuthRolcreatedb].b;
  f.canlogin = r[kAuthRolcanlogin].b;
  f.replication = r[kAuthRolreplication].b;
  f.bypassrls = r[kAuthRolbypassrls].b;
  f.connlimit = static_cast<int32_t>(r[kAuthRolconnlimit].i);
  if (!r[kAuthRolpassword].is_null) f.password = r[kAuthRolpassword].str;
  if (!r[kAuthRolvaliduntil].is_null) f.valid_until = r[kAuthRolvaliduntil].i;
  return f;
}

namespace {

std::optional<RoleTuple> FindRole(const std::function<bool(const heap::Row&)>& match) {
  auto rows = internal::ScanCatalogWhere(AuthidRel(), AuthidTupleDesc(), match, /*first_only=*/true);
  if (rows.empty()) return std::nullopt;
  return RoleTuple{rows[0].tid, ParseRoleRow(rows[0].row)};
}

}  // namespace

std::optional<RoleTuple> FindRoleByName(const std::string& name) {
  return FindRole([&](const heap::Row& r) { return r[kAuthRolname].str == name; });
}

std::optional<RoleTuple> FindRoleByOid(Oid oid) {
  return FindRole([&](const heap::Row& r) { return internal::RowOid(r, kAuthOid) == oid; });
}

std::vector<RoleFields> ListRoles() {
  std::vector<RoleFields> out;
  for (const auto& t : internal::ScanCatalogWhere(AuthidRel(), AuthidTupleDesc(),
                                                  [](const heap::Row&) { return true; }, false)) {
    out.push_back(ParseRoleRow(t.row));
  }
  return out;
}

std::vector<MembershipRow> ListMemberships() {
  std::vector<MembershipRow> out;
  for (const auto& t : internal::ScanCatalogWhere(AuthMembersRel(), AuthMembersTupleDesc(),
                                                  [](const heap::Row&) { return true; }, false)) {
    out.push_back(MembershipRow{t.tid, internal::RowOid(t.row, kMemRoleid), internal::RowOid(t.row, kMemMember),
                                internal::RowOid(t.row, kMemGrantor), t.row[kMemAdminOption].b});
  }
  return out;
}

heap::Row MakeMembershipRow(Oid roleid, Oid member, Oid grantor, bool admin_option) {
  heap::Row r(kMemNatts);
  r[kMemRoleid] = Value::Int(types::kOidOid, roleid);
  r[kMemMember] = Value::Int(types::kOidOid, member);
  r[kMemGrantor] = Value::Int(types::kOidOid, grantor);
  r[kMemAdminOption] = Value::Bool(admin_option);
  return r;
}

void LockRoleCatalog() {
  storage::LockAcquire(storage::LockTag::Object(kPgAuthidOid, 0), storage::LockMode::kExclusive);
  // Every role change moves the catalog version, so sessions re-resolve
  // the role they act as (superuser or not) at their next statement.
  MarkCatalogChanged(kPgAuthidOid);
}

RoleFields BootstrapSuperuser(const std::string& name) {
  RoleFields f;
  f.oid = kBootstrapSuperuserOid;
  f.name = name;
  f.superuser = f.inherit = f.createrole = f.createdb = f.canlogin = f.replication = f.bypassrls = true;
  return f;
}

}  // namespace hearth::catalog
