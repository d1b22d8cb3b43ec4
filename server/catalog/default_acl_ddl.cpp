// catalog/default_acl_ddl.cpp
//
// Principal entry points: AlterDefaultPrivileges, NewObjectAcl,
// NewRelationAcl — PostgreSQL 15's SetDefaultACL and get_user_default_acl
// over hearth_default_acl.
#include <algorithm>
#include <tuple>

#include "catalog/acl.h"
#include "catalog/default_acl.h"
#include "catalog/default_acl_internal.h"
#include "catalog/namespace_catalog.h"
#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/lmgr/lock.h"

namespace hearth::catalog {

namespace {

struct ObjtypeRules {
  char objtype;
  uint32_t all;             // every privilege of the kind
  uint32_t public_default;  // what PUBLIC holds by default
  const char* noun;         // in "invalid privilege type X for <noun>"
};

const ObjtypeRules& RulesFor(char objtype) {
  static constexpr ObjtypeRules kRules[] = {
      {'r', kAclAllTable, 0, "relation"},
      {'S', kAclAllSequence, 0, "sequence"},
      {'f', kAclExecute, kAclExecute, "function"},
      {'T', kAclUsage, kAclUsage, "type"},
      {'n', kAclUsage | kAclCreate, 0, "schema"},
  };
  for (const ObjtypeRules& r : kRules) {
    if (r.objtype == objtype) return r;
  }
  return kRules[0];
}

// The built-in ACL of a new object of `objtype` owned by `owner`
// (PostgreSQL's acldefault: PUBLIC's item first).
Acl BuiltinAcl(char objtype, Oid owner) {
  const ObjtypeRules& rules = RulesFor(objtype);
  Acl acl;
  if (rules.public_default != 0) AclGrant(acl, 0, owner, rules.public_default, false);
  AclGrant(acl, owner, owner, rules.all, false);
  return acl;
}

// PostgreSQL's aclequal after aclitemsort: the same items in any order.
Acl Sorted(Acl acl) {
  std::sort(acl.begin(), acl.end(), [](const AclItem& a, const AclItem& b) {
    return std::tie(a.grantee, a.grantor, a.privs, a.grant_options) <
           std::tie(b.grantee, b.grantor, b.privs, b.grant_options);
  });
  return acl;
}

bool SameItems(const Acl& a, const Acl& b) {
  const Acl sa = Sorted(a);
  const Acl sb = Sorted(b);
  return std::equal(sa.begin(), sa.end(), sb.begin(), sb.end(), [](const AclItem& x, const AclItem& y) {
    return x.grantee == y.grantee && x.grantor == y.grantor && x.privs == y.privs &&
           x.grant_options == y.grant_options;
  });
}

const DefaultAclEntry* FindEntry(Oid role, Oid ns, char objtype) {
  for (const DefaultAclEntry& e : DefaultAcls()) {
    if (e.role == role && e.ns == ns && e.objtype == objtype) return &e;
  }
  return nullptr;
}

uint32_t PrivilegeByName(const std::string& name) {
  if (name == "usage") return kAclUsage;
  if (name == "create") return kAclCreate;
  if (name == "execute") return kAclExecute;
  if (name == "temporary" || name == "temp") return kAclTemporary;
  if (name == "connect") return kAclConnect;
  return TablePrivilegeByName(name);
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

uint32_t RequestedPrivileges(const parser::AlterDefaultPrivilegesStmt& stmt) {
  const ObjtypeRules& rules = RulesFor(stmt.objtype);
  uint32_t bits = 0;
  for (const std::string& p : stmt.privileges) {
    if (p == "all") {
      bits |= rules.all;
      continue;
    }
    const uint32_t b = PrivilegeByName(p);
    if (b == 0) throw DbError(sqlstate::kSyntaxError, "unrecognized privilege type \"" + p + "\"");
    if ((b & ~rules.all) != 0) {
      throw DbError("0LP01", "invalid privilege type " + Upper(p) + " for " + rules.noun);
    }
    bits |= b;
  }
  return bits;
}

// One (role, schema) pair of the statement: the entry's new ACL, stored,
// or removed when it is what the entry would default to anyway.
void SetDefaultAcl(const parser::AlterDefaultPrivilegesStmt& stmt, Oid role, Oid ns, uint32_t privs,
                   const std::vector<Oid>& grantees) {
  const DefaultAclEntry* existing = FindEntry(role, ns, stmt.objtype);
  const Acl fallback = ns != 0 ? Acl{} : BuiltinAcl(stmt.objtype, role);
  Acl acl = existing != nullptr ? ParseAcl(existing->acl, AclRoleOid).value_or(Acl{}) : fallback;
  for (Oid g : grantees) {
    if (stmt.is_grant) {
      if (stmt.grant_option && g == 0) throw DbError("0LP01", "grant options can only be granted to roles");
      AclGrant(acl, g, role, privs, stmt.grant_option);
    } else {
      AclRevokeFrom(acl, g, role, privs, stmt.grant_option, role, stmt.cascade, internal::CachedHasPrivsOf);
    }
  }
  DefaultAclEntry e;
  if (existing != nullptr) e = *existing;
  if (SameItems(acl, fallback)) {
    if (existing != nullptr) internal::DeleteDefaultAcl(e.oid);
    return;
  }
  e.role = role;
  e.ns = ns;
  e.objtype = stmt.objtype;
  e.acl = FormatAcl(acl, AclRoleName);
  internal::WriteDefaultAcl(e);
}

}  // namespace

void AlterDefaultPrivileges(const parser::AlterDefaultPrivilegesStmt& stmt) {
  if (!DefaultAclCatalogExists()) {
    throw DbError(sqlstate::kFeatureNotSupported,
                  "ALTER DEFAULT PRIVILEGES needs a data directory initialised by this version");
  }
  const uint32_t privs = RequestedPrivileges(stmt);
  std::vector<Oid> grantees;
  for (const std::string& name : stmt.grantees) grantees.push_back(internal::GranteeOid(name));
  std::vector<Oid> roles;
  for (const std::string& name : stmt.roles) {
    const Oid role = name == "public" ? 0 : internal::GranteeOid(name);
    if (role == 0) throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
    roles.push_back(role);
  }
  if (roles.empty()) roles.push_back(OwnerForNewObject());
  std::vector<Oid> schemas;
  for (const std::string& name : stmt.schemas) {
    const Oid ns = NamespaceOidUnchecked(name);
    if (ns == types::kInvalidOid) {
      throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + name + "\" does not exist");
    }
    schemas.push_back(ns);
  }
  if (schemas.empty()) schemas.push_back(0);
  // Two sessions changing entries at once would each miss the other's row.
  storage::LockAcquire(storage::LockTag::Object(kHearthDefaultAclOid, 0), storage::LockMode::kExclusive);
  const Oid me = GetCurrentUserId();
  for (Oid role : roles) {
    // FOR ROLE is a shorthand for SET ROLE: it gives nothing a member lacks.
    if (me != 0 && !RoleIsSuperuser(me) && !IsMemberOfRole(me, role)) {
      throw DbError(sqlstate::kInsufficientPrivilege, "must be member of role \"" + AclRoleName(role) + "\"");
    }
    for (Oid ns : schemas) {
      if (ns != 0 && stmt.objtype == 'n') {
        throw DbError("0LP01", "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS");
      }
      SetDefaultAcl(stmt, role, ns, privs, grantees);
    }
  }
}

std::optional<std::string> NewObjectAcl(char objtype, Oid owner, Oid ns) {
  if (!DefaultAclCatalogExists()) return std::nullopt;
  const DefaultAclEntry* global = FindEntry(owner, 0, objtype);
  const DefaultAclEntry* in_schema = ns != 0 ? FindEntry(owner, ns, objtype) : nullptr;
  if (global == nullptr && in_schema == nullptr) return std::nullopt;
  const Acl builtin = BuiltinAcl(objtype, owner);
  Acl acl = global != nullptr ? ParseAcl(global->acl, AclRoleOid).value_or(Acl{}) : builtin;
  if (in_schema != nullptr) {
    for (const AclItem& it : ParseAcl(in_schema->acl, AclRoleOid).value_or(Acl{})) {
      if ((it.privs & ~it.grant_options) != 0) AclGrant(acl, it.grantee, it.grantor, it.privs & ~it.grant_options, false);
      if (it.grant_options != 0) AclGrant(acl, it.grantee, it.grantor, it.grant_options, true);
    }
  }
  // An empty result, like the built-in one, leaves the ACL NULL (as
  // PostgreSQL's aclmerge returns NULL for two empty ACLs).
  if (acl.empty() || SameItems(acl, builtin)) return std::nullopt;
  // PostgreSQL stores the merged ACL sorted (aclitemsort).
  return FormatAcl(Sorted(acl), AclRoleName);
}

std::optional<std::string> NewRelationAcl(char relkind, Oid owner, Oid ns) {
  if (relkind == 'i' || relkind == 'I' || relkind == 'c' || relkind == 't') return std::nullopt;
  return NewObjectAcl(relkind == 'S' ? 'S' : 'r', owner, ns);
}

}  // namespace hearth::catalog
