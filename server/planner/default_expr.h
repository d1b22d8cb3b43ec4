// server/planner/default_expr.h
//
// CheckDefaultExpr: what a column DEFAULT may contain. It is evaluated for
// each inserted row with no query around it, so parameters, subqueries,
// aggregates, window functions and column references are refused when the
// table is created, with PostgreSQL's SQLSTATEs and messages.
#pragma once

#include "parser/ast.h"

namespace hearth::planner {

// Throws DbError (42P02, 0A000, 42803, 42P20) at the first forbidden node.
void CheckDefaultExpr(const parser::Expr& e);

}  // namespace hearth::planner
