// catalog/privileges.h
//
// Who the backend is acting as, and the checks PostgreSQL makes with it:
// table privileges (ACLs, acl.h) at execution, ownership for DDL, and
// GRANT / REVOKE on tables. The acting role is per backend (PostgreSQL's
// GetUserId()): tcop sets it before each statement from current_user.
// Superusers pass every check. Errors: 42501 `permission denied for table
// t` / `... for sequence s`, 42501 `must be owner of table t` (index,
// sequence).
//
// Process safety: per-backend; checks REQUIRE a transaction in progress.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/acl.h"
#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "parser/ast.h"

namespace hearth::catalog {

// The acting role (0 in processes that never set one: no checks;
// kNoSuchRole for a role dropped under its session: every check fails).
inline constexpr Oid kNoSuchRole = 0xffffffffu;
void SetCurrentUser(Oid role, bool superuser);
Oid GetCurrentUserId();
// The owner of an object created now: the acting role (the bootstrap
// superuser when none is set).
Oid OwnerForNewObject();
bool CurrentUserIsSuperuser();

// Throws 42501 unless the acting role holds every privilege in `mask` on
// relation `e` (its owner holds all unless revoked).
void CheckTablePrivileges(const RelationEntry& e, uint32_t mask);
// PostgreSQL's ExecCheckRTEPerms: like CheckTablePrivileges, but SELECT
// is also met by column privileges on every column in `selected` (on any
// column when it is empty), INSERT and UPDATE by column privileges on every
// column in `modified` (1-based attnums).
void CheckRelationPrivileges(const RelationEntry& e, uint32_t mask, const std::vector<int>& selected,
                             const std::vector<int>& modified);
// nextval (USAGE or UPDATE), currval / lastval (USAGE or SELECT), setval
// (UPDATE): 42501 `permission denied for sequence s` unless the acting
// role holds one of `any_of`.
void CheckSequenceAccess(const RelationEntry& e, uint32_t any_of);
// has_column_privilege: what `role` holds on column `attnum` of `e`, table
// privileges included.
uint32_t ColumnPrivileges(const RelationEntry& e, Oid role, int attnum);
// The privileges of `mask` role `role` lacks on `e` (0: none lacking).
uint32_t MissingTablePrivileges(const RelationEntry& e, Oid role, uint32_t mask);
// Throws 42501 `must be owner of <kind> <name>` unless the acting role has
// the privileges of `e`'s owner.
void CheckOwnership(const RelationEntry& e);
void CheckOwnership(Oid owner, const char* kind, const std::string& name);

// GRANT / REVOKE privileges ON [TABLE] ... (relacl rewritten).
DdlResult GrantRevokeTablePrivileges(const parser::GrantPrivStmt& stmt);

// relacl as PostgreSQL shows it (NULL for the default).
std::optional<std::string> ShownAcl(const RelationEntry& e);

// has_table_privilege(role, table, 'SELECT, INSERT WITH GRANT OPTION'):
// 42704 unknown role, 42P01 unknown table, 22023 unknown privilege.
bool HasTablePrivilege(Oid role, const std::string& table, const std::string& privileges);
// has_sequence_privilege (USAGE, SELECT, UPDATE; 42809 for a table).
bool HasSequencePrivilege(Oid role, const std::string& sequence, const std::string& privileges);
// has_column_privilege (SELECT, INSERT, UPDATE, REFERENCES; table
// privileges count; 42703 unknown column).
bool HasColumnPrivilege(Oid role, const std::string& table, const std::string& column,
                        const std::string& privileges);
// has_table_privilege(oid, text) (attnum 0), has_column_privilege(oid,
// attnum, text) (attnum > 0), has_any_column_privilege(oid, text) (attnum
// -1: the table or any column): nullopt when there is no such relation
// (the SQL functions then return NULL, as PostgreSQL's).
std::optional<bool> HasRelationPrivilegeByOid(Oid role, Oid relid, int attnum, const std::string& privileges);

// Role name ↔ oid as ParseAcl / FormatAcl want them (0 for an unknown
// name; the number for an unknown oid).
Oid AclRoleOid(const std::string& name);
std::string AclRoleName(Oid oid);

// ACLs name roles: after role `oid` was renamed from `old_name` to
// `new_name`, rewrites every relacl that mentions it.
void RenameRoleInAcls(Oid oid, const std::string& old_name, const std::string& new_name);

// Descriptions of what `role` owns or holds privileges on ("owner of table
// t", "privileges for table t"), for DROP ROLE's 2BP01.
std::vector<std::string> RoleDependencies(Oid role);

}  // namespace hearth::catalog
