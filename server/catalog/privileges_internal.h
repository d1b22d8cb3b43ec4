// catalog/privileges_internal.h
//
// INTERNAL to server/catalog: the per-backend check caches of
// privileges.cpp, shared with grant_privileges.cpp. Same contracts.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/acl.h"
#include "catalog/relcache.h"

namespace hearth::catalog::internal {

// The relation's ACL in force (the owner's default by kind when relacl is NULL).
Acl RelationAcl(const RelationEntry& e);
// "sequence" for relkind 'S', else "table" (as error messages name them).
const char* RelKindName(char relkind);
// HasPrivsOfRole, cached until the catalog version moves.
bool CachedHasPrivsOf(Oid member, Oid role);
// A column ACL parsed (empty when malformed), cached the same way.
const Acl& CachedColumnAcl(const std::string& text);

// Passes every column ACL of relation `relid` to `fn`; those it changed
// (returns true) are stored (NULL when left empty). Role names resolve
// through `role_oid` / `role_name`.
void RewriteColumnAcls(Oid relid, const std::function<Oid(const std::string&)>& role_oid,
                       const std::function<std::string(Oid)>& role_name, const std::function<bool(Acl&)>& fn);

// A GRANT/REVOKE grantee: 0 for PUBLIC, the acting role for CURRENT_USER &
// co; 42704 for an unknown role.
Oid GranteeOid(const std::string& name);

// GRANT (or REVOKE, `is_grant` false) of `privs` on an object owned by
// `owner`, who is the grantor, to each of `grantees` (names as written);
// 0LP01 for WITH GRANT OPTION to PUBLIC.
void ApplyOwnerGrant(Acl& acl, const std::vector<std::string>& grantees, bool is_grant, bool grant_option,
                     bool cascade, Oid owner, uint32_t privs);

}  // namespace hearth::catalog::internal
