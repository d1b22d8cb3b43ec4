// catalog/role_ddl.h
//
// CREATE / ALTER / DROP ROLE (USER, GROUP), GRANT / REVOKE role membership,
// and the membership questions privilege checks ask. Everything writes
// pg_authid / pg_auth_members rows in the calling transaction under the role
// catalog's lock, so it commits or rolls back with it. Errors as PostgreSQL
// 15: 42710 `role "x" already exists`, 42704 `role "x" does not exist`,
// 42501 permission denied ..., 42939 reserved names, 42601 unknown or
// conflicting options, 55006 dropping the current or session user, 2BP01
// dropping the bootstrap superuser, 0LP01 circular membership.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <string>
#include <vector>

#include "catalog/ddl.h"
#include "catalog/role_catalog.h"
#include "parser/ast.h"

namespace hearth::catalog {

// Who runs the statement, and how new passwords are stored.
struct RoleActor {
  Oid current_user = 0;
  Oid session_user = 0;
  std::string password_encryption = "scram-sha-256";  // or "md5"
};

DdlResult CreateRole(const parser::CreateRoleStmt& stmt, const RoleActor& actor);
DdlResult AlterRole(const parser::AlterRoleStmt& stmt, const RoleActor& actor);
DdlResult DropRoles(const parser::DropStmt& stmt, const RoleActor& actor);
DdlResult GrantRevokeRoles(const parser::GrantRoleStmt& stmt, const RoleActor& actor);

// The form a password is stored in: an md5 hash or SCRAM verifier given as
// the password is kept as is; anything else is hashed by `method`.
std::string EncryptPassword(const std::string& user, const std::string& password, const std::string& method);

// True when `member` is `role` or belongs to it through memberships (all of
// them, whatever INHERIT says: what SET ROLE and GRANT admin checks use).
bool IsMemberOfRole(Oid member, Oid role);
// True when `member` has `role`'s privileges: superusers always, else
// membership through a chain of roles that all INHERIT.
bool HasPrivsOfRole(Oid member, Oid role);
// Names of every role `member` belongs to, directly or not, itself included
// (pg_hba.conf's +role and samerole).
std::vector<std::string> RoleNamesOf(Oid member);
// rolsuper of `role` (false when it does not exist).
bool RoleIsSuperuser(Oid role);

}  // namespace hearth::catalog
