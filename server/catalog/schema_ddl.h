// catalog/schema_ddl.h
//
// CREATE SCHEMA, DROP SCHEMA, ALTER SCHEMA ... RENAME TO / OWNER TO with
// PostgreSQL 15's errors: 42P06 `schema "s" already exists` (IF NOT EXISTS:
// notice, skipping), 3F000 `schema "s" does not exist` (IF EXISTS: notice),
// 42939 for names starting "pg_", 42501 `permission denied for database`
// (creating takes a superuser), `must be owner of schema s`, `must be member
// of role "r"`, 2BP01 for a schema with relations unless CASCADE (which
// drops them, with PostgreSQL's notices) and for public and pg_catalog,
// which are fixed. Relations in a dropped schema go with the transaction's
// commit like DROP TABLE's.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include "catalog/ddl.h"
#include "catalog/namespace_catalog.h"
#include "parser/ast.h"

namespace hearth::catalog {

// `database` names the database in 42501 messages.
DdlResult CreateSchema(const parser::CreateSchemaStmt& stmt, Oid session_user, const std::string& database);
DdlResult DropSchemas(const parser::DropStmt& stmt);
DdlResult AlterSchema(const parser::AlterSchemaStmt& stmt, Oid session_user, const std::string& database);

// Schema DDL serialises on one object lock, and every change moves the
// catalog version so other sessions reload their schema cache.
void LockSchemaCatalog();
// A new version of a hearth_namespace row (then CommandCounterIncrement).
void UpdateSchemaRow(const SchemaTuple& t, const SchemaFields& f);

}  // namespace hearth::catalog
