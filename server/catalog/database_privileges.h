// catalog/database_privileges.h
//
// Privileges on databases (CONNECT, CREATE, TEMPORARY) and GRANT / REVOKE
// ... ON DATABASE | SCHEMA. A database whose datacl is NULL has PostgreSQL
// 15's default: PUBLIC may connect and create temporary tables, the owner
// holds everything (`{=Tc/owner,owner=CTc/owner}`).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <string>

#include "catalog/acl.h"
#include "catalog/database_catalog.h"
#include "catalog/ddl.h"
#include "parser/ast.h"

namespace hearth::catalog {

inline constexpr uint32_t kAclAllDatabase = kAclCreate | kAclTemporary | kAclConnect;

Acl DatabaseAcl(const DatabaseFields& db);
// datacl as pg_database shows it: NULL while the default is in force.
std::optional<std::string> DatabaseAclText(const DatabaseFields& db);
// The privileges of `privs` that `role` holds on `db` (superusers: all).
uint32_t DatabasePrivileges(const DatabaseFields& db, Oid role, uint32_t privs);

// has_database_privilege / has_schema_privilege: `privileges` as PostgreSQL
// takes them ("CONNECT, TEMP", optionally "... WITH GRANT OPTION"); true when
// `role` holds any of them. 22023 for an unknown privilege, 3D000 / 3F000
// for an unknown database / schema.
uint32_t ParsePrivilegeList(const std::string& text, uint32_t (*allowed)(const std::string&));
bool HasDatabasePrivilege(Oid role, const std::string& database, const std::string& privileges);
bool HasSchemaPrivilege(Oid role, const std::string& schema, const std::string& privileges);

// GRANT / REVOKE privileges ON DATABASE names | ON SCHEMA names.
// Errors: 0LP01 invalid privilege type X for database / schema, 3D000 /
// 3F000 unknown object, 42501 not the owner, grant options as for tables.
DdlResult GrantRevokeDatabaseOrSchema(const parser::GrantPrivStmt& stmt, Oid current_user);
// The ON SCHEMA half (schema_privileges.cpp).
void GrantRevokeOnSchema(const parser::GrantPrivStmt& stmt, Oid current_user);

}  // namespace hearth::catalog
