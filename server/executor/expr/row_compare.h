// server/executor/expr/row_compare.h
//
// Row constructors in comparisons, as PostgreSQL: `(a, b) op (c, d)`,
// `(a, b) [NOT] IN ((1, 2), ...)`, `ROW(...) IS [NOT] NULL`,
// `ROW(...) IS [NOT] DISTINCT FROM ROW(...)`. They bind to scalar trees over
// the fields; the binder calls these when an operand is a RowExpr.
#pragma once

#include <string>
#include <vector>

#include "executor/expr/bind_context.h"
#include "executor/expr/bound_expr.h"
#include "parser/ast.h"

namespace hearth::executor {

// `l op r` on bound operands: operator resolution and implicit coercion as
// for the written operator (42883 when none fits).
BoundExprPtr BindOperator(const std::string& op, BoundExprPtr l, BoundExprPtr r, int location, BindContext& ctx);

// (l1, ..., ln) op (r1, ..., rn): `=` all pairs equal, `<>` some pair
// unequal, `<` `<=` `>` `>=` decided by the first pair that is not equal
// (NULL when that pair has a NULL). 42601 `unequal number of entries in row
// expressions`; other operators 0A000.
BoundExprPtr BindRowCompare(const std::string& op, std::vector<BoundExprPtr> l, std::vector<BoundExprPtr> r,
                            int location, BindContext& ctx);

// ROW(a, b) / (a, b) as a value of its own: type record (2249), text form
// "(1,abc)" as PostgreSQL's record_out (fields quoted when needed).
BoundExprPtr BindRowValue(const parser::RowExpr& e, BindContext& ctx);

// Hooks of the binder for a RowExpr operand (null when e has none).
BoundExprPtr BindRowBinary(const parser::BinaryOpExpr& e, BindContext& ctx);
BoundExprPtr BindRowIsNull(const parser::IsNullExpr& e, BindContext& ctx);
BoundExprPtr BindRowIsDistinct(const parser::IsDistinctExpr& e, BindContext& ctx);
BoundExprPtr BindRowInList(const parser::InListExpr& e, BindContext& ctx);

}  // namespace hearth::executor
