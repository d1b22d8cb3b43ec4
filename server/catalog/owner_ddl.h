// catalog/owner_ddl.h
//
// ALTER {TABLE | SEQUENCE | INDEX | VIEW} name OWNER TO role, with
// PostgreSQL 15's rules: the acting role must own the relation (have its
// owner's privileges) and be a member of the new owner, unless superuser.
// relowner changes, relacl's owner entries are renamed (aclnewowner), and
// the sequences a table owns follow it. An index belongs to its table:
// ALTER INDEX warns and changes nothing. Errors: 42P01, 42704 role, 42809
// wrong kind, 42501 `must be owner of table t` / `must be member of role
// "r"`, 0A000 for a sequence linked to a table.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include "catalog/ddl.h"
#include "parser/ast.h"

namespace hearth::catalog {

// `session_user` resolves SESSION_USER in the new owner's name.
DdlResult AlterRelationOwner(const parser::AlterOwnerStmt& stmt, Oid session_user);

// The role a RoleSpec names (CURRENT_USER, CURRENT_ROLE, SESSION_USER
// resolved); 42704 `role "x" does not exist` (also for PUBLIC).
Oid RoleSpecOid(const std::string& spec, Oid session_user);

// REASSIGN OWNED BY ... TO ... / DROP OWNED BY ...: every relation the
// roles own changes owner / is dropped (DROP OWNED also revokes what was
// granted to them, with CASCADE). 42501 `permission denied to reassign
// objects` / `... to drop objects` unless the acting role has the
// privileges of every role named; 2BP01 for the bootstrap superuser.
DdlResult ReassignOwned(const parser::OwnedStmt& stmt, Oid session_user);
DdlResult DropOwned(const parser::OwnedStmt& stmt, Oid session_user);

// Makes `new_owner` the owner of relation `relid` (relowner and relacl);
// no checks. Tables carry their owned sequences along.
void ChangeRelationOwner(Oid relid, Oid new_owner);

}  // namespace hearth::catalog
