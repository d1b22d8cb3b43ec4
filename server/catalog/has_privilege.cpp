// catalog/has_privilege.cpp
//
// Principal entry points: HasTablePrivilege, HasSequencePrivilege,
// HasColumnPrivilege, HasRelationPrivilegeByOid — PostgreSQL's has_*_privilege functions: a
// comma-separated privilege list, each item optionally `WITH GRANT
// OPTION`, true when the role holds any of them.
#include <string_view>

#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/sequence.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

struct WantedPrivileges {
  uint32_t privs = 0;
  uint32_t grant_options = 0;
};

// 'SELECT, insert WITH GRANT OPTION' → bits; 22023 for a name outside `allowed`.
WantedPrivileges ParsePrivilegeList(const std::string& privileges, uint32_t allowed) {
  WantedPrivileges w;
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
    const uint32_t bit = TablePrivilegeByName(lower) & allowed;
    if (bit == 0) throw DbError(sqlstate::kInvalidParameterValue, "unrecognized privilege type: \"" + item + "\"");
    (grant_option ? w.grant_options : w.privs) |= bit;
  }
  return w;
}

void CheckRoleExists(Oid role) {
  if (role == 0 || !FindRoleByOid(role)) {
    throw DbError(sqlstate::kUndefinedObject, "role with OID " + std::to_string(role) + " does not exist");
  }
}

RelationRef LookupNamedRelation(const std::string& qualified) {
  auto [schema, name] = SplitQualifiedName(qualified);
  RelationRef e = LookupRelation(schema, name);
  if (e == nullptr) throw DbError(sqlstate::kUndefinedTable, "relation \"" + qualified + "\" does not exist");
  return e;
}

// Whether `role` holds any of `w` in `acl` (of an object owned by `owner`).
bool HoldsAny(const Acl& acl, Oid role, Oid owner, const WantedPrivileges& w) {
  if ((AclMask(acl, role, HasPrivsOfRole) & w.privs) != 0) return true;
  return (AclGrantOptionMask(acl, role, owner, HasPrivsOfRole) & w.grant_options) != 0;
}

}  // namespace

bool HasTablePrivilege(Oid role, const std::string& table, const std::string& privileges) {
  CheckRoleExists(role);
  RelationRef e = LookupNamedRelation(table);
  const WantedPrivileges w = ParsePrivilegeList(privileges, kAclAllTable);
  if (RoleIsSuperuser(role)) return true;
  return HoldsAny(internal::RelationAcl(*e), role, e->owner, w);
}

bool HasSequencePrivilege(Oid role, const std::string& sequence, const std::string& privileges) {
  CheckRoleExists(role);
  RelationRef e = LookupNamedRelation(sequence);
  const WantedPrivileges w = ParsePrivilegeList(privileges, kAclAllSequence);
  if (e->relkind != 'S') throw DbError("42809", "\"" + sequence + "\" is not a sequence");
  if (RoleIsSuperuser(role)) return true;
  return HoldsAny(internal::RelationAcl(*e), role, e->owner, w);
}

bool HasColumnPrivilege(Oid role, const std::string& table, const std::string& column,
                        const std::string& privileges) {
  CheckRoleExists(role);
  RelationRef e = LookupNamedRelation(table);
  int attnum = 0;
  for (size_t i = 0; i < e->info.columns.size(); ++i) {
    if (e->info.columns[i].name == column) attnum = static_cast<int>(i) + 1;
  }
  if (attnum == 0) {
    throw DbError(sqlstate::kUndefinedColumn,
                  "column \"" + column + "\" of relation \"" + e->info.name + "\" does not exist");
  }
  const WantedPrivileges w = ParsePrivilegeList(privileges, kAclAllColumn);
  if (RoleIsSuperuser(role)) return true;
  if (HoldsAny(internal::RelationAcl(*e), role, e->owner, w)) return true;
  const auto& stored = e->column_acls[static_cast<size_t>(attnum - 1)];
  return stored && HoldsAny(internal::CachedColumnAcl(*stored), role, e->owner, w);
}

std::optional<bool> HasRelationPrivilegeByOid(Oid role, Oid relid, int attnum, const std::string& privileges) {
  CheckRoleExists(role);
  RelationRef e = LookupRelationByOid(relid);
  if (e == nullptr) return std::nullopt;
  const uint32_t allowed = attnum != 0 ? kAclAllColumn : e->relkind == 'S' ? kAclAllSequence : kAclAllTable;
  const WantedPrivileges w = ParsePrivilegeList(privileges, allowed);
  if (RoleIsSuperuser(role)) return true;
  if (HoldsAny(internal::RelationAcl(*e), role, e->owner, w)) return true;
  if (attnum == 0) return false;
  for (size_t i = 0; i < e->column_acls.size(); ++i) {
    if (attnum > 0 && static_cast<int>(i) + 1 != attnum) continue;
    const auto& stored = e->column_acls[i];
    if (stored && HoldsAny(internal::CachedColumnAcl(*stored), role, e->owner, w)) return true;
  }
  return false;
}

}  // namespace hearth::catalog
