// catalog/database_privileges.cpp
//
// Principal entry points: DatabaseAcl, DatabasePrivileges,
// GrantRevokeDatabaseOrSchema.
#include "catalog/database_privileges.h"

#include <algorithm>
#include <cctype>

#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// "connect" → kAclConnect, ...; 0LP01 for a privilege databases do not have.
uint32_t DatabasePrivilegeBits(const std::vector<std::string>& names) {
  uint32_t bits = 0;
  for (const std::string& n : names) {
    if (n == "all") {
      bits |= kAclAllDatabase;
    } else if (n == "connect") {
      bits |= kAclConnect;
    } else if (n == "create") {
      bits |= kAclCreate;
    } else if (n == "temporary" || n == "temp") {
      bits |= kAclTemporary;
    } else {
      throw DbError("0LP01", "invalid privilege type " + Upper(n) + " for database");
    }
  }
  return bits;
}

bool IsSuperuser(Oid role) { return role == 0 || RoleIsSuperuser(role); }

void GrantRevokeOnDatabase(const parser::GrantPrivStmt& stmt, Oid current_user) {
  const uint32_t bits = DatabasePrivilegeBits(stmt.privileges);
  LockDatabaseCatalog();
  for (const parser::RangeVar& rv : stmt.tables) {
    auto t = FindDatabaseByName(rv.name);
    if (!t) throw DbError(sqlstate::kInvalidCatalogName, "database \"" + rv.name + "\" does not exist");
    if (!IsSuperuser(current_user) && !HasPrivsOfRole(current_user, t->db.owner)) {
      throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for database " + rv.name);
    }
    Acl acl = DatabaseAcl(t->db);
    const Oid owner = t->db.owner;
    internal::ApplyOwnerGrant(acl, stmt.grantees, stmt.is_grant, stmt.grant_option, stmt.cascade, owner, bits);
    DatabaseFields f = t->db;
    f.acl = FormatAcl(acl, AclRoleName);
    UpdateDatabaseRow(*t, f);
  }
}

}  // namespace

Acl DatabaseAcl(const DatabaseFields& db) {
  if (db.acl) return ParseAcl(*db.acl, AclRoleOid).value_or(Acl{});
  Acl acl;
  AclGrant(acl, 0, db.owner, kAclTemporary | kAclConnect, false);
  AclGrant(acl, db.owner, db.owner, kAclAllDatabase, false);
  return acl;
}

std::optional<std::string> DatabaseAclText(const DatabaseFields& db) {
  if (!db.acl) return std::nullopt;
  return FormatAcl(DatabaseAcl(db), AclRoleName);
}

uint32_t DatabasePrivileges(const DatabaseFields& db, Oid role, uint32_t privs) {
  if (IsSuperuser(role)) return privs;
  return AclMask(DatabaseAcl(db), role, internal::CachedHasPrivsOf) & privs;
}

// "CONNECT, temp WITH GRANT OPTION" → the privilege bits; `allowed` maps a
// lowercase name to its bit (0: not a privilege of this object kind).
uint32_t ParsePrivilegeList(const std::string& text, uint32_t (*allowed)(const std::string&)) {
  uint32_t bits = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    for (char& ch : item) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const size_t b = item.find_first_not_of(" \t\n");
    const size_t e = item.find_last_not_of(" \t\n");
    item = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    constexpr std::string_view kGrantOption = " with grant option";
    if (item.size() > kGrantOption.size() && item.ends_with(kGrantOption)) {
      item = item.substr(0, item.size() - kGrantOption.size());
      while (!item.empty() && item.back() == ' ') item.pop_back();
    }
    const uint32_t bit = allowed(item);
    if (bit == 0) throw DbError(sqlstate::kInvalidParameterValue, "unrecognized privilege type: \"" + item + "\"");
    bits |= bit;
    start = comma + 1;
  }
  return bits;
}

namespace {

uint32_t DatabasePrivilegeByName(const std::string& n) {
  if (n == "connect") return kAclConnect;
  if (n == "create") return kAclCreate;
  if (n == "temporary" || n == "temp") return kAclTemporary;
  return 0;
}

}  // namespace

bool HasDatabasePrivilege(Oid role, const std::string& database, const std::string& privileges) {
  const uint32_t bits = ParsePrivilegeList(privileges, DatabasePrivilegeByName);
  auto t = FindDatabaseByName(database);
  if (!t) throw DbError(sqlstate::kInvalidCatalogName, "database \"" + database + "\" does not exist");
  return DatabasePrivileges(t->db, role, bits) != 0;
}

DdlResult GrantRevokeDatabaseOrSchema(const parser::GrantPrivStmt& stmt, Oid current_user) {
  if (stmt.object_kind == "database") {
    GrantRevokeOnDatabase(stmt, current_user);
  } else {
    GrantRevokeOnSchema(stmt, current_user);
  }
  return {};
}

}  // namespace hearth::catalog
