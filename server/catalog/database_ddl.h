// catalog/database_ddl.h
//
// CREATE / DROP / ALTER DATABASE with PostgreSQL 15's checks and messages.
// A database is a directory base/<oid>/ holding its own catalogs and
// relations; CREATE copies the template's directory (after writing its dirty
// buffers), DROP removes the directory once the commit is durable (its files
// are also listed in the commit record, so recovery removes them after a
// crash). Both run outside transaction blocks (the caller checks, 25001) and
// serialise on LockDatabaseCatalog; the database objects' locks keep
// connections out while they run (LockDatabaseForConnect).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include "catalog/ddl.h"
#include "parser/ast.h"

namespace hearth::catalog {

DdlResult CreateDatabase(const parser::CreateDatabaseStmt& stmt, Oid current_user);
DdlResult DropDatabase(const parser::DropStmt& stmt, Oid current_user);
// Everything but SET/RESET's validation of the parameter name (the caller's).
DdlResult AlterDatabase(const parser::AlterDatabaseStmt& stmt, Oid current_user);

// Connection start: the lock that makes a login wait for a CREATE or DROP
// DATABASE in progress on `db` (held to the end of the login's transaction).
// The caller has already published `db` in its proc slot.
void LockDatabaseForConnect(Oid db);

}  // namespace hearth::catalog
