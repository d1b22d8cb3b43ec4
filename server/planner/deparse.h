// server/planner/deparse.h
//
// Turns a parsed expression back into SQL text in PostgreSQL's EXPLAIN
// style: every operator application is parenthesized ("(x > 1)",
// "((a.id = b.id) AND (b.v < 10))"), functions print as name(args),
// parameters as $n. Column references are printed by a caller-supplied
// namer (so the planner can qualify them when several relations are in
// scope). Also used to compare expressions structurally (GROUP BY / ORDER
// BY matching the select list). Pure; safe from any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "parser/ast.h"

namespace hearth::planner {

using ColumnNamer = std::function<std::string(const parser::ColumnRefExpr&)>;

// Without a namer, column references print as written ("t.x", "x").
std::string Deparse(const parser::Expr& e, const ColumnNamer& namer = nullptr);

// Text to print for a node instead of its usual form (nullopt: the usual
// form). Lets a caller that knows the operands' types print the implicit
// casts PostgreSQL shows (check_constraint_text.cpp).
using NodeOverride = std::function<std::optional<std::string>(const parser::Expr&)>;
std::string Deparse(const parser::Expr& e, const ColumnNamer& namer, const NodeOverride& override_node);

}  // namespace hearth::planner
