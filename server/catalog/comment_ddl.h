// catalog/comment_ddl.h
//
// COMMENT ON: finds the object with PostgreSQL 15's errors (42P01 relation,
// 42703 column, 42704 constraint / role, 3F000 schema, 3D000 database,
// 42809 wrong kind of relation), checks that the current user owns it
// (42501 `must be owner of table t`; roles: superuser, or CREATEROLE for a
// role that is not a superuser) and stores or removes its comment
// (description_catalog.h). Functions are resolved by the caller (tcop
// knows their signatures) and passed to CommentOnFunction.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include "catalog/proc_catalog.h"
#include "parser/ast.h"

namespace hearth::catalog {

// Every object kind but FUNCTION / PROCEDURE.
void CommentOn(const parser::CommentStmt& stmt);
void CommentOnFunction(const ProcInfo& fn, const std::optional<std::string>& comment);

}  // namespace hearth::catalog
