// catalog/owned_ddl.cpp
//
// Principal entry points: ReassignOwned, DropOwned (declared in
// owner_ddl.h).
#include <algorithm>

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/default_acl.h"
#include "catalog/index_ddl.h"
#include "catalog/owner_ddl.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/sequence_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

// The roles named, each one the acting role has the privileges of.
std::vector<Oid> ActedOnRoles(const parser::OwnedStmt& stmt, Oid session_user, const std::string& denied) {
  std::vector<Oid> roles;
  for (const std::string& spec : stmt.roles) roles.push_back(RoleSpecOid(spec, session_user));
  for (Oid r : roles) {
    if (!CurrentUserIsSuperuser() && !HasPrivsOfRole(GetCurrentUserId(), r)) {
      throw DbError(sqlstate::kInsufficientPrivilege, denied);
    }
  }
  return roles;
}

void RejectBootstrapSuperuser(const std::vector<Oid>& roles, const std::string& what) {
  for (Oid r : roles) {
    if (r == kBootstrapSuperuserOid) {
      throw DbError("2BP01", "cannot " + what + " owned by role " + AclRoleName(r) +
                                 " because they are required by the database system");
    }
  }
}

// User relations owned by one of `roles`, with relkind "r" or "S".
std::vector<internal::CatalogTuple> OwnedRelations(const std::vector<Oid>& roles, const std::string& relkind) {
  std::vector<internal::CatalogTuple> out;
  for (internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    if (internal::RowOid(t.row, kClassOid) < kFirstNormalObjectId) continue;
    const Oid owner = internal::RowOid(t.row, kClassRelowner);
    if (t.row[kClassRelkind].str == relkind && std::find(roles.begin(), roles.end(), owner) != roles.end()) {
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<parser::RangeVar> NamesOf(const std::vector<internal::CatalogTuple>& rows) {
  std::vector<parser::RangeVar> names;
  for (const internal::CatalogTuple& t : rows) {
    parser::RangeVar rv;
    rv.schema = NamespaceName(internal::RowOid(t.row, kClassRelnamespace));
    rv.name = t.row[kClassRelname].str;
    names.push_back(rv);
  }
  return names;
}

// Takes every privilege granted to `roles` off every relation (what
// depended on their grant options goes with them).
// Removes every item granting to one of `roles` from `acl` (with what
// depended on it); true when something was removed.
bool RevokeAllFrom(Acl& acl, const std::vector<Oid>& roles, Oid owner) {
  auto has_privs_of = [](Oid member, Oid role) { return HasPrivsOfRole(member, role); };
  bool changed = false;
  for (;;) {
    auto it = std::find_if(acl.begin(), acl.end(), [&](const AclItem& i) {
      return i.grantee != owner && std::find(roles.begin(), roles.end(), i.grantee) != roles.end();
    });
    if (it == acl.end()) return changed;
    AclRevokeFrom(acl, it->grantee, it->grantor, it->privs, /*grant_option_only=*/false, owner, /*cascade=*/true,
                  has_privs_of);
    changed = true;
  }
}

void RevokeFromRoles(const std::vector<Oid>& roles) {
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    const Oid owner = internal::RowOid(t.row, kClassRelowner);
    if (internal::RowOid(t.row, kClassOid) >= kFirstNormalObjectId) {
      internal::RewriteColumnAcls(internal::RowOid(t.row, kClassOid), AclRoleOid, AclRoleName,
                                  [&](Acl& acl) { return RevokeAllFrom(acl, roles, owner); });
    }
    if (t.row[kClassRelacl].is_null) continue;
    auto acl = ParseAcl(t.row[kClassRelacl].str, AclRoleOid);
    if (!acl || !RevokeAllFrom(*acl, roles, owner)) continue;
    heap::Row row = t.row;
    row[kClassRelacl] = types::Value::Text(FormatAcl(*acl, AclRoleName));
    MarkCatalogChanged(internal::RowOid(t.row, kClassOid));
    internal::CatalogUpdate(kHearthClassOid, t.tid, row, access::GetCurrentTransactionId(),
                            access::GetCurrentCommandId(true));
  }
  access::CommandCounterIncrement();
}

}  // namespace

DdlResult ReassignOwned(const parser::OwnedStmt& stmt, Oid session_user) {
  DdlResult result;
  const std::string denied = "permission denied to reassign objects";
  const std::vector<Oid> roles = ActedOnRoles(stmt, session_user, denied);
  const Oid new_owner = RoleSpecOid(stmt.new_owner, session_user);
  if (!CurrentUserIsSuperuser() && !HasPrivsOfRole(GetCurrentUserId(), new_owner)) {
    throw DbError(sqlstate::kInsufficientPrivilege, denied);
  }
  RejectBootstrapSuperuser(roles, "reassign ownership of objects");
  for (const char* relkind : {"r", "S"}) {
    for (const internal::CatalogTuple& t : OwnedRelations(roles, relkind)) {
      const Oid relid = internal::RowOid(t.row, kClassOid);
      if (OpenRelationByOid(relid, storage::LockMode::kAccessExclusive) == nullptr) continue;
      ChangeRelationOwner(relid, new_owner);
    }
  }
  return result;
}

DdlResult DropOwned(const parser::OwnedStmt& stmt, Oid session_user) {
  DdlResult result;
  const std::vector<Oid> roles = ActedOnRoles(stmt, session_user, "permission denied to drop objects");
  RejectBootstrapSuperuser(roles, "drop objects");
  // Tables first (their owned sequences go with them), then what is left.
  const auto tables = NamesOf(OwnedRelations(roles, "r"));
  if (!tables.empty()) DropTablesWithIndexes(tables, /*if_exists=*/true);
  const auto sequences = NamesOf(OwnedRelations(roles, "S"));
  if (!sequences.empty()) DropSequences(sequences, /*if_exists=*/true, parser::DropBehavior::kCascade);
  RevokeFromRoles(roles);
  for (Oid role : roles) DropDefaultAclsOf(role);
  return result;
}

}  // namespace hearth::catalog
