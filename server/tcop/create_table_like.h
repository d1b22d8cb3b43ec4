// tcop/create_table_like.h
//
// CREATE TABLE t (LIKE source [INCLUDING ...], ...): the statement with
// each LIKE clause replaced by the source's columns, as PostgreSQL's
// transformTableLikeClause does — names, types with their modifiers and
// NOT NULL always; DEFAULT expressions with INCLUDING DEFAULTS (or ALL);
// CHECK constraints, under their names, with INCLUDING CONSTRAINTS (or
// ALL). Indexes, identity, comments and storage options are not copied.
//
// The expansion is textual: the columns are written out as SQL in the
// clause's place and the statement is parsed again, so what follows
// (CREATE TABLE's checks, sequences, constraints) sees ordinary columns.
#pragma once

#include <memory>
#include <vector>

#include "parser/ast.h"

namespace hearth::tcop {

// The expanded statement (in `holder`, which must outlive its use), or
// `stmt` itself when it has no LIKE. Errors: 42P01 for a missing source.
const parser::CreateTableStmt& ExpandTableLike(const parser::CreateTableStmt& stmt,
                                               std::vector<parser::StmtPtr>* holder);

}  // namespace hearth::tcop
