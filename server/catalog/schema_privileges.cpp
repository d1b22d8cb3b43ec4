// catalog/schema_privileges.cpp
//
// Principal entry points: SchemaUsable, CheckSchemaUsage, CheckSchemaCreate,
// HasSchemaPrivilege, GrantRevokeOnSchema — USAGE and CREATE on schemas
// made with CREATE SCHEMA (nspacl; NULL = the owner's `{owner=UC/owner}`).
// The fixed namespaces keep their built-in rules: everyone uses and creates
// in public, nobody creates in pg_catalog.
#include "catalog/database_privileges.h"
#include "catalog/namespace_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_ddl.h"
#include "catalog/schema_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

inline constexpr uint32_t kAclAllSchema = kAclUsage | kAclCreate;

Acl SchemaAcl(const SchemaFields& f) {
  if (f.acl) return ParseAcl(*f.acl, AclRoleOid).value_or(Acl{});
  Acl acl;
  AclGrant(acl, f.owner, f.owner, kAclAllSchema, false);
  return acl;
}

bool Holds(const SchemaFields& f, Oid role, uint32_t priv) {
  if (role == 0 || RoleIsSuperuser(role)) return true;
  return (AclMask(SchemaAcl(f), role, internal::CachedHasPrivsOf) & priv) != 0;
}

void Check(Oid ns, uint32_t priv) {
  const SchemaFields* f = UserSchema(ns);
  if (f == nullptr || Holds(*f, GetCurrentUserId(), priv)) return;
  throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for schema " + f->name);
}

uint32_t SchemaPrivilegeByName(const std::string& n) {
  if (n == "usage") return kAclUsage;
  if (n == "create") return kAclCreate;
  return 0;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool SchemaUsable(Oid ns, Oid role) {
  const SchemaFields* f = UserSchema(ns);
  return f == nullptr || Holds(*f, role, kAclUsage);
}

void CheckSchemaUsage(Oid ns) { Check(ns, kAclUsage); }
void CheckSchemaCreate(Oid ns) { Check(ns, kAclCreate); }

bool HasSchemaPrivilege(Oid role, const std::string& schema, const std::string& privileges) {
  const uint32_t bits = ParsePrivilegeList(privileges, SchemaPrivilegeByName);
  const Oid ns = NamespaceOidUnchecked(schema);
  if (ns == types::kInvalidOid) throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + schema + "\" does not exist");
  const SchemaFields* f = UserSchema(ns);
  if (f == nullptr) {
    // public: USAGE and CREATE for everyone; pg_catalog: USAGE only.
    return ns != kPgCatalogNamespace || (bits & kAclUsage) != 0 || role == 0 || RoleIsSuperuser(role);
  }
  if (role == 0 || RoleIsSuperuser(role)) return true;
  return (AclMask(SchemaAcl(*f), role, internal::CachedHasPrivsOf) & bits) != 0;
}

void GrantRevokeOnSchema(const parser::GrantPrivStmt& stmt, Oid current_user) {
  uint32_t bits = 0;
  for (const std::string& p : stmt.privileges) {
    const uint32_t b = p == "all" ? kAclAllSchema : SchemaPrivilegeByName(p);
    if (b == 0) throw DbError("0LP01", "invalid privilege type " + Upper(p) + " for schema");
    bits |= b;
  }
  LockSchemaCatalog();
  for (const parser::RangeVar& rv : stmt.tables) {
    std::optional<SchemaTuple> t = FindSchemaRow(rv.name);
    if (!t) {
      if (rv.name == "public" || rv.name == "pg_catalog") {
        throw DbError(sqlstate::kFeatureNotSupported, "privileges of schema " + rv.name + " cannot be changed");
      }
      throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + rv.name + "\" does not exist");
    }
    const Oid owner = t->schema.owner;
    if (current_user != 0 && !RoleIsSuperuser(current_user) && !HasPrivsOfRole(current_user, owner)) {
      throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for schema " + rv.name);
    }
    Acl acl = SchemaAcl(t->schema);
    internal::ApplyOwnerGrant(acl, stmt.grantees, stmt.is_grant, stmt.grant_option, stmt.cascade, owner, bits);
    SchemaFields f = t->schema;
    f.acl = FormatAcl(acl, AclRoleName);
    UpdateSchemaRow(*t, f);
  }
}

}  // namespace hearth::catalog
