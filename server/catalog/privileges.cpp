// catalog/privileges.cpp
//
// Principal entry points: SetCurrentUser, CheckTablePrivileges,
// CheckOwnership, GrantRevokeTablePrivileges, HasTablePrivilege,
// RoleDependencies.
#include "catalog/privileges.h"

#include <algorithm>
#include <bit>
#include <map>

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/sequence.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

Oid g_current_user = 0;  // 0: never set (tools, bootstrap): no checks
bool g_current_superuser = true;

const char* KindName(char relkind) { return relkind == 'S' ? "sequence" : "table"; }

Acl AclOf(const std::optional<std::string>& stored, Oid owner) { return EffectiveAcl(stored, owner, AclRoleOid); }

// Per-backend caches for the checks every execution makes: parsed ACLs
// (by relacl text and owner) and role-membership answers. Role names and
// memberships change only through role DDL, which moves the catalog
// version; so does any GRANT/REVOKE. Cleared whenever it moved.
struct CheckCache {
  uint64_t version = 0;
  std::map<std::pair<std::string, Oid>, Acl> acls;
  std::map<std::pair<Oid, Oid>, bool> privs_of;
};

CheckCache& Cache() {
  static CheckCache cache;
  const uint64_t v = CatalogVersion();
  if (v != cache.version) {
    cache.acls.clear();
    cache.privs_of.clear();
    cache.version = v;
  }
  return cache;
}

const Acl& CachedAcl(const RelationEntry& e) {
  CheckCache& c = Cache();
  auto key = std::make_pair(e.acl.value_or(std::string()), e.owner);
  auto it = c.acls.find(key);
  if (it == c.acls.end()) it = c.acls.emplace(key, AclOf(e.acl, e.owner)).first;
  return it->second;
}

bool CachedHasPrivsOf(Oid member, Oid role) {
  CheckCache& c = Cache();
  auto key = std::make_pair(member, role);
  auto it = c.privs_of.find(key);
  if (it == c.privs_of.end()) it = c.privs_of.emplace(key, HasPrivsOfRole(member, role)).first;
  return it->second;
}

// Privilege names of GRANT (lowercase) → mask; 0LP01 for ones tables lack.
uint32_t PrivilegeMask(const std::vector<std::string>& names) {
  uint32_t mask = 0;
  for (const std::string& n : names) {
    if (n == "all") return kAclAllTable;
    const uint32_t bit = TablePrivilegeByName(n);
    if (bit == 0) {
      std::string upper = n;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      throw DbError("0LP01", "invalid privilege type " + upper + " for table");
    }
    mask |= bit;
  }
  return mask;
}

Oid GranteeOid(const std::string& name) {
  if (name == "public") return 0;
  if (name == "current_user" || name == "current_role" || name == "session_user") return g_current_user;
  const Oid oid = AclRoleOid(name);
  if (oid == 0) throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
  return oid;
}

void StoreAcl(const RelationEntry& e, const Acl& acl) {
  auto cls = internal::FindClassByOid(e.oid);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(e.oid));
  heap::Row row = cls->row;
  row[kClassRelacl] = types::Value::Text(FormatAcl(acl, AclRoleName));
  MarkCatalogChanged(e.oid);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
}

// PostgreSQL's select_best_grantor: the owner for its members and
// superusers; else the role the acting role has the privileges of that
// holds the most of the needed grant options directly.
struct Grantor {
  Oid role = 0;
  uint32_t goptions = 0;
};

Grantor BestGrantor(const Acl& acl, Oid owner, uint32_t needed) {
  const Oid user = g_current_user;
  if (CurrentUserIsSuperuser() || user == owner) return {owner, kAclAllTable};
  std::vector<Oid> candidates{user};
  for (const RoleFields& r : ListRoles()) {
    if (r.oid != user && CachedHasPrivsOf(user, r.oid)) candidates.push_back(r.oid);
  }
  Grantor best{user, 0};
  int best_count = 0;
  for (Oid c : candidates) {
    const uint32_t have = AclDirectGrantOptions(acl, c, owner) & needed;
    if (have == needed) return {c, have};
    const int count = std::popcount(have);
    if (count > best_count) {
      best = {c, have};
      best_count = count;
    }
  }
  return best;
}

// PostgreSQL's restrict_and_check_grant: the privileges of `mask` the
// grantor may grant or revoke, with 01007 / 01006 warnings for the rest;
// 42501 when the acting role holds nothing at all on the relation.
uint32_t RestrictToGrantOptions(DdlResult& result, const RelationEntry& e, const Acl& acl, const Grantor& g,
                                uint32_t mask, bool all, bool is_grant) {
  if (g.goptions == 0 && AclMask(acl, g.role, CachedHasPrivsOf) == 0 &&
      AclGrantOptionMask(acl, g.role, e.owner, CachedHasPrivsOf) == 0) {
    throw DbError(sqlstate::kInsufficientPrivilege,
                  std::string("permission denied for ") + KindName(e.relkind) + " " + e.info.name);
  }
  const uint32_t privs = mask & g.goptions;
  const std::string what = "\"" + e.info.name + "\"";
  if (privs == 0) {
    result.notices.push_back(is_grant ? DdlNotice{"01007", "no privileges were granted for " + what}
                                      : DdlNotice{"01006", "no privileges could be revoked for " + what});
  } else if (!all && privs != mask) {
    result.notices.push_back(is_grant ? DdlNotice{"01007", "not all privileges were granted for " + what}
                                      : DdlNotice{"01006", "not all privileges could be revoked for " + what});
  }
  return privs;
}

}  // namespace

Oid AclRoleOid(const std::string& name) {
  auto t = FindRoleByName(name);
  return t ? t->role.oid : 0;
}

std::string AclRoleName(Oid oid) {
  auto t = FindRoleByOid(oid);
  return t ? t->role.name : std::to_string(oid);
}

void SetCurrentUser(Oid role, bool superuser) {
  g_current_user = role;
  g_current_superuser = superuser;
}

Oid GetCurrentUserId() { return g_current_user; }

Oid OwnerForNewObject() {
  return g_current_user == 0 || g_current_user == kNoSuchRole ? kBootstrapSuperuserOid : g_current_user;
}

bool CurrentUserIsSuperuser() { return g_current_user == 0 || g_current_superuser; }

uint32_t MissingTablePrivileges(const RelationEntry& e, Oid role, uint32_t mask) {
  if (role == g_current_user ? g_current_superuser : RoleIsSuperuser(role)) return 0;
  return mask & ~AclMask(CachedAcl(e), role, CachedHasPrivsOf);
}

void CheckTablePrivileges(const RelationEntry& e, uint32_t mask) {
  if (CurrentUserIsSuperuser() || e.oid < kFirstNormalObjectId) return;
  if (!e.acl && e.owner == g_current_user) return;  // the owner's default ACL
  if (MissingTablePrivileges(e, g_current_user, mask) != 0) {
    throw DbError(sqlstate::kInsufficientPrivilege,
                  std::string("permission denied for ") + KindName(e.relkind) + " " + e.info.name);
  }
}

void CheckOwnership(Oid owner, const char* kind, const std::string& name) {
  if (CurrentUserIsSuperuser() || owner == g_current_user || CachedHasPrivsOf(g_current_user, owner)) return;
  throw DbError(sqlstate::kInsufficientPrivilege, std::string("must be owner of ") + kind + " " + name);
}

void CheckOwnership(const RelationEntry& e) { CheckOwnership(e.owner, KindName(e.relkind), e.info.name); }

DdlResult GrantRevokeTablePrivileges(const parser::GrantPrivStmt& stmt) {
  DdlResult result;
  const uint32_t mask = PrivilegeMask(stmt.privileges);
  const bool all = !stmt.privileges.empty() && stmt.privileges.front() == "all";
  std::vector<Oid> grantees;
  for (const std::string& g : stmt.grantees) grantees.push_back(GranteeOid(g));
  for (const parser::RangeVar& rv : stmt.tables) {
    const std::string name = internal::DdlTruncateName(rv.name);
    RelationRef e = NamespaceOid(rv.schema) == types::kInvalidOid
                        ? nullptr
                        : OpenRelation(rv.schema, name, storage::LockMode::kShareUpdateExclusive);
    if (e == nullptr) throw DbError(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
    internal::DdlRejectSystemCatalog(*e);
    Acl acl = AclOf(e->acl, e->owner);
    const Grantor grantor = BestGrantor(acl, e->owner, mask);
    const uint32_t privs = RestrictToGrantOptions(result, *e, acl, grantor, mask, all, stmt.is_grant);
    for (Oid g : grantees) {
      if (!stmt.is_grant) {
        AclRevokeFrom(acl, g, grantor.role, privs, stmt.grant_option, e->owner, stmt.cascade, CachedHasPrivsOf);
        continue;
      }
      if (stmt.grant_option && g == 0) throw DbError("0LP01", "grant options can only be granted to roles");
      if (privs == 0) continue;
      if (stmt.grant_option) AclCheckCircularity(acl, g, grantor.role, privs, e->owner, CachedHasPrivsOf);
      AclGrant(acl, g, grantor.role, privs, stmt.grant_option);
    }
    StoreAcl(*e, acl);
  }
  return result;
}

std::optional<std::string> ShownAcl(const RelationEntry& e) { return e.acl; }

bool HasTablePrivilege(Oid role, const std::string& table, const std::string& privileges) {
  if (role == 0 || !FindRoleByOid(role)) throw DbError(sqlstate::kUndefinedObject, "role with OID " + std::to_string(role) + " does not exist");
  auto [schema, name] = SplitQualifiedName(table);
  RelationRef e = LookupRelation(schema, name);
  if (e == nullptr) throw DbError(sqlstate::kUndefinedTable, "relation \"" + table + "\" does not exist");
  uint32_t wanted = 0;
  uint32_t wanted_grant = 0;
  size_t pos = 0;
  while (pos <= privileges.size()) {
    size_t end = privileges.find(',', pos);
    if (end == std::string::npos) end = privileges.size();
    std::string item = privileges.substr(pos, end - pos);
    pos = end + 1;
    std::string lower;
    for (char c : item) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    lower.erase(0, lower.find_first_not_of(" \t"));
    lower.erase(lower.find_last_not_of(" \t") + 1);
    bool grant_option = false;
    constexpr std::string_view kWith = " with grant option";
    if (lower.size() > kWith.size() && lower.compare(lower.size() - kWith.size(), kWith.size(), kWith) == 0) {
      grant_option = true;
      lower.resize(lower.size() - kWith.size());
      lower.erase(lower.find_last_not_of(" \t") + 1);
    }
    const uint32_t bit = TablePrivilegeByName(lower);
    if (bit == 0) throw DbError(sqlstate::kInvalidParameterValue, "unrecognized privilege type: \"" + item + "\"");
    (grant_option ? wanted_grant : wanted) |= bit;
  }
  if (RoleIsSuperuser(role)) return true;
  const Acl acl = AclOf(e->acl, e->owner);
  if ((AclMask(acl, role, HasPrivsOfRole) & wanted) != 0) return true;
  return (AclGrantOptionMask(acl, role, e->owner, HasPrivsOfRole) & wanted_grant) != 0;
}

void RenameRoleInAcls(Oid oid, const std::string& old_name, const std::string& new_name) {
  auto resolve = [&](const std::string& n) { return n == old_name ? oid : AclRoleOid(n); };
  auto name_of = [&](Oid o) { return o == oid ? new_name : AclRoleName(o); };
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    if (t.row[kClassRelacl].is_null) continue;
    auto acl = ParseAcl(t.row[kClassRelacl].str, resolve);
    if (!acl) continue;
    const bool mentions = std::any_of(acl->begin(), acl->end(),
                                      [&](const AclItem& it) { return it.grantee == oid || it.grantor == oid; });
    if (!mentions) continue;
    heap::Row row = t.row;
    row[kClassRelacl] = types::Value::Text(FormatAcl(*acl, name_of));
    const Oid relid = internal::RowOid(t.row, kClassOid);
    MarkCatalogChanged(relid);
    internal::CatalogUpdate(kHearthClassOid, t.tid, row, access::GetCurrentTransactionId(),
                            access::GetCurrentCommandId(true));
  }
  access::CommandCounterIncrement();
}

std::vector<std::string> RoleDependencies(Oid role) {
  std::vector<std::string> out;
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    const Oid relid = internal::RowOid(t.row, kClassOid);
    if (relid < kFirstNormalObjectId) continue;
    const std::string name = t.row[kClassRelname].str;
    const char* kind = KindName(t.row[kClassRelkind].str.empty() ? 'r' : t.row[kClassRelkind].str[0]);
    const Oid owner = internal::RowOid(t.row, kClassRelowner);
    if (owner == role) {
      out.push_back(std::string("owner of ") + kind + " " + name);
      continue;
    }
    if (!t.row[kClassRelacl].is_null) {
      for (const AclItem& it : AclOf(t.row[kClassRelacl].str, owner)) {
        if (it.grantee == role) {
          out.push_back(std::string("privileges for ") + kind + " " + name);
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace hearth::catalog
