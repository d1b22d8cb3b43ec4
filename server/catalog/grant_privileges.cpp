// catalog/grant_privileges.cpp
//
// Principal entry point: GrantRevokeTablePrivileges — GRANT / REVOKE on
// tables and their columns, as PostgreSQL's ExecGrant_Relation /
// ExecGrant_Attribute: the grantor chosen as select_best_grantor does,
// privileges restricted to its grant options (01007 / 01006 warnings),
// revokes cascading through grant options.
#include <algorithm>
#include <bit>

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

using internal::CachedHasPrivsOf;
using internal::RelKindName;

[[noreturn]] void ThrowInvalidPrivilege(const std::string& name, const char* object) {
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  throw DbError("0LP01", "invalid privilege type " + upper + " for " + object);
}

// A privilege name of GRANT (lowercase, not "all") → bit; 0LP01 for one
// neither tables nor sequences have (ON SEQUENCE: sequences).
uint32_t PrivilegeBit(const std::string& name, bool on_sequence) {
  const uint32_t bit = TablePrivilegeByName(name);
  const uint32_t allowed = on_sequence ? kAclAllSequence : kAclAllTable | kAclAllSequence;
  if (bit == 0 || (bit & ~allowed) != 0) ThrowInvalidPrivilege(name, on_sequence ? "sequence" : "table");
  return bit;
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
  const Oid user = GetCurrentUserId();
  if (CurrentUserIsSuperuser() || user == owner) return {owner, needed};
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
// grantor may grant or revoke, with 01007 / 01006 warnings naming `what`
// for the rest; 42501 `denied` when the acting role holds nothing at all
// in `acl`.
uint32_t RestrictToGrantOptions(DdlResult& result, const std::string& what, const std::string& denied,
                                const Acl& acl, Oid owner, const Grantor& g, uint32_t mask, bool all, bool is_grant) {
  if (g.goptions == 0 && AclMask(acl, g.role, CachedHasPrivsOf) == 0 &&
      AclGrantOptionMask(acl, g.role, owner, CachedHasPrivsOf) == 0) {
    throw DbError(sqlstate::kInsufficientPrivilege, denied);
  }
  const uint32_t privs = mask & g.goptions;
  if (privs == 0) {
    result.notices.push_back(is_grant ? DdlNotice{"01007", "no privileges were granted for " + what}
                                      : DdlNotice{"01006", "no privileges could be revoked for " + what});
  } else if (!all && privs != mask) {
    result.notices.push_back(is_grant ? DdlNotice{"01007", "not all privileges were granted for " + what}
                                      : DdlNotice{"01006", "not all privileges could be revoked for " + what});
  }
  return privs;
}

// Applies the statement to `acl` for every grantee, as `grantor`.
void ApplyToAcl(Acl& acl, const parser::GrantPrivStmt& stmt, const std::vector<Oid>& grantees, Oid grantor,
                uint32_t privs, Oid owner) {
  for (Oid g : grantees) {
    if (!stmt.is_grant) {
      AclRevokeFrom(acl, g, grantor, privs, stmt.grant_option, owner, stmt.cascade, CachedHasPrivsOf);
      continue;
    }
    if (stmt.grant_option && g == 0) throw DbError("0LP01", "grant options can only be granted to roles");
    if (privs == 0) continue;
    if (stmt.grant_option) AclCheckCircularity(acl, g, grantor, privs, owner, CachedHasPrivsOf);
    AclGrant(acl, g, grantor, privs, stmt.grant_option);
  }
}

// The privileges a statement names: for the whole table, and per column.
struct GrantTargets {
  uint32_t table_mask = 0;
  bool table_all = false;  // ALL [PRIVILEGES]
  std::vector<std::pair<std::string, uint32_t>> columns;  // in order named, merged
};

GrantTargets SplitTargets(const parser::GrantPrivStmt& stmt) {
  GrantTargets t;
  for (size_t i = 0; i < stmt.privileges.size(); ++i) {
    const std::string& name = stmt.privileges[i];
    const bool has_cols = i < stmt.columns.size() && !stmt.columns[i].empty();
    if (!has_cols) {
      if (name == "all") {
        t.table_all = true;
      } else {
        t.table_mask |= PrivilegeBit(name, stmt.on_sequence);
      }
      continue;
    }
    const uint32_t bit = name == "all" ? kAclAllColumn : TablePrivilegeByName(name);
    if (bit == 0 || (bit & ~kAclAllColumn) != 0) ThrowInvalidPrivilege(name, "column");
    for (const std::string& col : stmt.columns[i]) {
      auto it = std::find_if(t.columns.begin(), t.columns.end(), [&](const auto& c) { return c.first == col; });
      if (it == t.columns.end()) {
        t.columns.emplace_back(col, bit);
      } else {
        it->second |= bit;
      }
    }
  }
  return t;
}

// attacl of column `attnum` of `relid` rewritten (NULL when empty).
void StoreColumnAcl(Oid relid, int attnum, const Acl& acl) {
  for (const internal::CatalogTuple& a : internal::FindAttributes(relid)) {
    if (a.row[kAttAttnum].i != attnum) continue;
    heap::Row row = a.row;
    while (row.size() < static_cast<size_t>(kAttNatts)) row.push_back(types::Value::Null(types::kTextOid));
    row[kAttAttacl] = acl.empty() ? types::Value::Null(types::kTextOid)
                                  : types::Value::Text(FormatAcl(acl, AclRoleName));
    MarkCatalogChanged(relid);
    internal::CatalogUpdate(kHearthAttributeOid, a.tid, row, access::GetCurrentTransactionId(),
                            access::GetCurrentCommandId(true));
    access::CommandCounterIncrement();
    return;
  }
}

Acl ColumnAclOf(const RelationEntry& e, int attnum) {
  const size_t i = static_cast<size_t>(attnum - 1);
  if (i >= e.column_acls.size() || !e.column_acls[i]) return {};
  return ParseAcl(*e.column_acls[i], AclRoleOid).value_or(Acl{});
}

// PostgreSQL's ExecGrant_Attribute for one column. `implicit`: a table
// REVOKE taking the same privileges off the column (no warnings).
void GrantRevokeColumn(DdlResult& result, const RelationEntry& e, const Acl& table_acl, int attnum, uint32_t mask,
                       const parser::GrantPrivStmt& stmt, const std::vector<Oid>& grantees, bool implicit) {
  Acl acl = ColumnAclOf(e, attnum);
  Acl merged = table_acl;
  merged.insert(merged.end(), acl.begin(), acl.end());
  const Grantor grantor = BestGrantor(merged, e.owner, mask);
  const std::string& col = e.info.columns[static_cast<size_t>(attnum - 1)].name;
  const uint32_t privs =
      implicit ? mask & grantor.goptions
               : RestrictToGrantOptions(result, "column \"" + col + "\" of relation \"" + e.info.name + "\"",
                                        "permission denied for column " + col + " of relation " + e.info.name, acl,
                                        e.owner, grantor, mask, false, stmt.is_grant);
  ApplyToAcl(acl, stmt, grantees, grantor.role, privs, e.owner);
  StoreColumnAcl(e.oid, attnum, acl);
}

// The table-level privileges of the statement for relation `e`: ALL is
// what its kind has; a sequence named ON TABLE keeps only its own (with
// PostgreSQL's warning); a table named ON SEQUENCE is 42809, and USAGE on
// a table 0LP01.
uint32_t RelationMask(DdlResult& result, const RelationEntry& e, const GrantTargets& t, bool on_sequence) {
  const bool is_sequence = e.relkind == 'S';
  if (on_sequence && !is_sequence) throw DbError("42809", "\"" + e.info.name + "\" is not a sequence");
  uint32_t mask = t.table_mask | (t.table_all ? (is_sequence ? kAclAllSequence : kAclAllTable) : 0u);
  if (is_sequence && (mask & ~kAclAllSequence) != 0) {
    if (!t.table_all) {
      result.notices.push_back(
          {"0LP01", "sequence \"" + e.info.name + "\" only supports USAGE, SELECT, and UPDATE privileges"});
    }
    mask &= kAclAllSequence;
  }
  if (!is_sequence && (mask & ~kAclAllTable) != 0) ThrowInvalidPrivilege("usage", "table");
  return mask;
}

int AttnumOf(const RelationEntry& e, const std::string& col) {
  for (size_t i = 0; i < e.info.columns.size(); ++i) {
    if (e.info.columns[i].name == col) return static_cast<int>(i) + 1;
  }
  throw DbError(sqlstate::kUndefinedColumn, "column \"" + col + "\" of relation \"" + e.info.name + "\" does not exist");
}

}  // namespace

void internal::RewriteColumnAcls(Oid relid, const std::function<Oid(const std::string&)>& role_oid,
                                 const std::function<std::string(Oid)>& role_name,
                                 const std::function<bool(Acl&)>& fn) {
  bool changed = false;
  for (const internal::CatalogTuple& a : internal::FindAttributes(relid)) {
    if (a.row.size() <= static_cast<size_t>(kAttAttacl) || a.row[kAttAttacl].is_null) continue;
    auto acl = ParseAcl(a.row[kAttAttacl].str, role_oid);
    if (!acl || !fn(*acl)) continue;
    heap::Row row = a.row;
    row[kAttAttacl] = acl->empty() ? types::Value::Null(types::kTextOid)
                                   : types::Value::Text(FormatAcl(*acl, role_name));
    MarkCatalogChanged(relid);
    internal::CatalogUpdate(kHearthAttributeOid, a.tid, row, access::GetCurrentTransactionId(),
                            access::GetCurrentCommandId(true));
    changed = true;
  }
  if (changed) access::CommandCounterIncrement();
}

DdlResult GrantRevokeTablePrivileges(const parser::GrantPrivStmt& stmt) {
  DdlResult result;
  const GrantTargets targets = SplitTargets(stmt);
  std::vector<Oid> grantees;
  for (const std::string& g : stmt.grantees) grantees.push_back(internal::GranteeOid(g));
  for (const parser::RangeVar& rv : stmt.tables) {
    const std::string name = internal::DdlTruncateName(rv.name);
    RelationRef e = NamespaceOid(rv.schema) == types::kInvalidOid
                        ? nullptr
                        : OpenRelation(rv.schema, name, storage::LockMode::kShareUpdateExclusive);
    if (e == nullptr) throw DbError(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
    internal::DdlRejectSystemCatalog(*e);
    Acl acl = internal::RelationAcl(*e);
    for (const auto& [col, mask] : targets.columns) {
      GrantRevokeColumn(result, *e, acl, AttnumOf(*e, col), mask, stmt, grantees, /*implicit=*/false);
    }
    if (targets.table_mask == 0 && !targets.table_all) continue;
    const uint32_t mask = RelationMask(result, *e, targets, stmt.on_sequence);
    const Grantor grantor = BestGrantor(acl, e->owner, mask);
    const uint32_t privs = RestrictToGrantOptions(
        result, "\"" + e->info.name + "\"", std::string("permission denied for ") + RelKindName(e->relkind) + " " + e->info.name,
        acl, e->owner, grantor, mask, targets.table_all, stmt.is_grant);
    ApplyToAcl(acl, stmt, grantees, grantor.role, privs, e->owner);
    StoreAcl(*e, acl);
    // Revoking a privilege from the table revokes it from every column too.
    if (!stmt.is_grant && e->relkind != 'S' && (mask & kAclAllColumn) != 0) {
      for (size_t i = 0; i < e->column_acls.size(); ++i) {
        if (!e->column_acls[i]) continue;
        GrantRevokeColumn(result, *e, acl, static_cast<int>(i) + 1, mask & kAclAllColumn, stmt,
                          grantees, /*implicit=*/true);
      }
    }
  }
  return result;
}

namespace internal {

Oid GranteeOid(const std::string& name) {
  if (name == "public") return 0;
  if (name == "current_user" || name == "current_role" || name == "session_user") return GetCurrentUserId();
  const Oid oid = AclRoleOid(name);
  if (oid == 0) throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
  return oid;
}

void ApplyOwnerGrant(Acl& acl, const std::vector<std::string>& grantees, bool is_grant, bool grant_option,
                     bool cascade, Oid owner, uint32_t privs) {
  for (const std::string& name : grantees) {
    const Oid g = GranteeOid(name);
    if (!is_grant) {
      AclRevokeFrom(acl, g, owner, privs, grant_option, owner, cascade, CachedHasPrivsOf);
      continue;
    }
    if (grant_option && g == 0) throw DbError("0LP01", "grant options can only be granted to roles");
    AclGrant(acl, g, owner, privs, grant_option);
  }
}

}  // namespace internal

}  // namespace hearth::catalog
