// catalog/privileges.cpp
//
// Principal entry points: SetCurrentUser, CheckTablePrivileges,
// CheckOwnership, RoleDependencies (GRANT / REVOKE: grant_privileges.cpp;
// has_*_privilege: has_privilege.cpp).
#include "catalog/privileges.h"

#include <algorithm>
#include <bit>
#include <map>

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/default_acl.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/sequence.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

Oid g_current_user = 0;  // 0: never set (tools, bootstrap): no checks
bool g_current_superuser = true;

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
  // The owner's default differs by kind: the key starts with the relkind.
  auto key = std::make_pair(std::string(1, e.relkind) + e.acl.value_or(std::string()), e.owner);
  auto it = c.acls.find(key);
  if (it == c.acls.end()) it = c.acls.emplace(key, internal::RelationAcl(e)).first;
  return it->second;
}

}  // namespace

namespace internal {

Acl RelationAcl(const RelationEntry& e) {
  return EffectiveAcl(e.acl, e.owner, AclRoleOid, e.relkind == 'S' ? kAclAllSequence : kAclAllTable);
}

const char* RelKindName(char relkind) {
  return relkind == 'S' ? "sequence" : relkind == 'v' ? "view" : "table";
}

bool CachedHasPrivsOf(Oid member, Oid role) {
  CheckCache& c = Cache();
  auto key = std::make_pair(member, role);
  auto it = c.privs_of.find(key);
  if (it == c.privs_of.end()) it = c.privs_of.emplace(key, HasPrivsOfRole(member, role)).first;
  return it->second;
}

const Acl& CachedColumnAcl(const std::string& text) {
  CheckCache& c = Cache();
  auto key = std::make_pair(text, Oid{0});
  auto it = c.acls.find(key);
  if (it == c.acls.end()) it = c.acls.emplace(key, ParseAcl(text, AclRoleOid).value_or(Acl{})).first;
  return it->second;
}

}  // namespace internal

using internal::CachedHasPrivsOf;
using internal::RelKindName;

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
                  std::string("permission denied for ") + RelKindName(e.relkind) + " " + e.info.name);
  }
}

namespace {

uint32_t ColumnAclMask(const RelationEntry& e, Oid role, int attnum) {
  const size_t i = static_cast<size_t>(attnum - 1);
  if (i >= e.column_acls.size() || !e.column_acls[i]) return 0;
  return AclMask(internal::CachedColumnAcl(*e.column_acls[i]), role, CachedHasPrivsOf);
}

// Whether `role` holds `priv` on every column of `cols` (any column when empty).
bool ColumnsGrant(const RelationEntry& e, Oid role, uint32_t priv, const std::vector<int>& cols) {
  if (cols.empty()) {
    for (size_t i = 0; i < e.column_acls.size(); ++i) {
      if ((ColumnAclMask(e, role, static_cast<int>(i) + 1) & priv) != 0) return true;
    }
    return false;
  }
  return std::all_of(cols.begin(), cols.end(), [&](int a) { return (ColumnAclMask(e, role, a) & priv) != 0; });
}

}  // namespace

void CheckRelationPrivileges(const RelationEntry& e, uint32_t mask, const std::vector<int>& selected,
                             const std::vector<int>& modified) {
  if (CurrentUserIsSuperuser() || e.oid < kFirstNormalObjectId) return;
  if (!e.acl && e.owner == g_current_user) return;  // the owner's default ACL
  const uint32_t missing = MissingTablePrivileges(e, g_current_user, mask);
  if (missing == 0) return;
  bool ok = (missing & ~(kAclSelect | kAclInsert | kAclUpdate)) == 0;
  for (uint32_t bit : {kAclSelect, kAclInsert, kAclUpdate}) {
    if (ok && (missing & bit) != 0) ok = ColumnsGrant(e, g_current_user, bit, bit == kAclSelect ? selected : modified);
  }
  if (!ok) {
    throw DbError(sqlstate::kInsufficientPrivilege,
                  std::string("permission denied for ") + RelKindName(e.relkind) + " " + e.info.name);
  }
}

void CheckSequenceAccess(const RelationEntry& e, uint32_t any_of) {
  if (CurrentUserIsSuperuser() || e.oid < kFirstNormalObjectId) return;
  if (!e.acl && e.owner == g_current_user) return;  // the owner's default ACL
  if (MissingTablePrivileges(e, g_current_user, any_of) == any_of) {
    throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for sequence " + e.info.name);
  }
}

uint32_t ColumnPrivileges(const RelationEntry& e, Oid role, int attnum) {
  if (RoleIsSuperuser(role)) return kAclAllColumn;
  return (AclMask(internal::RelationAcl(e), role, HasPrivsOfRole) | ColumnAclMask(e, role, attnum)) & kAclAllColumn;
}

void CheckOwnership(Oid owner, const char* kind, const std::string& name) {
  if (CurrentUserIsSuperuser() || owner == g_current_user || CachedHasPrivsOf(g_current_user, owner)) return;
  throw DbError(sqlstate::kInsufficientPrivilege, std::string("must be owner of ") + kind + " " + name);
}

void CheckOwnership(const RelationEntry& e) { CheckOwnership(e.owner, RelKindName(e.relkind), e.info.name); }

std::optional<std::string> ShownAcl(const RelationEntry& e) { return e.acl; }

void RenameRoleInAcls(Oid oid, const std::string& old_name, const std::string& new_name) {
  auto resolve = [&](const std::string& n) { return n == old_name ? oid : AclRoleOid(n); };
  auto name_of = [&](Oid o) { return o == oid ? new_name : AclRoleName(o); };
  auto mentions_role = [&](Acl& acl) {
    return std::any_of(acl.begin(), acl.end(), [&](const AclItem& it) { return it.grantee == oid || it.grantor == oid; });
  };
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    if (internal::RowOid(t.row, kClassOid) >= kFirstNormalObjectId) {
      internal::RewriteColumnAcls(internal::RowOid(t.row, kClassOid), resolve, name_of, mentions_role);
    }
    if (t.row[kClassRelacl].is_null) continue;
    auto acl = ParseAcl(t.row[kClassRelacl].str, resolve);
    if (!acl) continue;
    if (!mentions_role(*acl)) continue;
    heap::Row row = t.row;
    row[kClassRelacl] = types::Value::Text(FormatAcl(*acl, name_of));
    const Oid relid = internal::RowOid(t.row, kClassOid);
    MarkCatalogChanged(relid);
    internal::CatalogUpdate(kHearthClassOid, t.tid, row, access::GetCurrentTransactionId(),
                            access::GetCurrentCommandId(true));
  }
  access::CommandCounterIncrement();
  RenameRoleInDefaultAcls(oid, old_name, new_name);
}

std::vector<std::string> RoleDependencies(Oid role) {
  std::vector<std::string> out;
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    const Oid relid = internal::RowOid(t.row, kClassOid);
    if (relid < kFirstNormalObjectId) continue;
    const std::string name = t.row[kClassRelname].str;
    const char* kind = RelKindName(t.row[kClassRelkind].str.empty() ? 'r' : t.row[kClassRelkind].str[0]);
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
    RelationRef e = LookupRelationByOid(relid);
    for (size_t i = 0; e != nullptr && i < e->column_acls.size(); ++i) {
      if (!e->column_acls[i]) continue;
      const Acl& acl = internal::CachedColumnAcl(*e->column_acls[i]);
      if (std::any_of(acl.begin(), acl.end(), [&](const AclItem& it) { return it.grantee == role; })) {
        out.push_back("privileges for column " + e->info.columns[i].name + " of " + kind + " " + name);
      }
    }
  }
  for (std::string& line : DefaultAclDependencies(role)) out.push_back(std::move(line));
  return out;
}

}  // namespace hearth::catalog
