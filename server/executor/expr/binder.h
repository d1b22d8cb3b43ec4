// server/executor/expr/binder.h
//
// Binding of scalar expressions: parser::Expr → BoundExpr with PostgreSQL's
// typing rules (literal typing, operator/function resolution, unknown
// literal and parameter inference, CASE/COALESCE common types). Pure
// functions of their inputs plus the BindContext they are given; call from
// one thread per context.
#pragma once

#include <string>
#include <vector>

#include "executor/expr/bind_context.h"
#include "executor/expr/bound_expr.h"
#include "parser/ast.h"

namespace hearth::executor {

// Binds `expr`. Literals: integers → int4 if they fit, else int8, else
// numeric; decimals → numeric; strings and NULL → unknown (typed later by
// context). Errors are DbErrors carrying the 1-based position of the
// offending node (42703 unknown column, 42883 no such operator/function,
// 42804 type mismatch, 0A000 unsupported constructs, 22P02 etc. for bad
// literals being coerced).
BoundExprPtr BindExpr(const parser::Expr& expr, BindContext& ctx);

// Binds a condition (WHERE, JOIN ON, CASE WHEN): the result must be
// boolean; unknown literals/params become boolean. Throws 42804
// `argument of <what> must be type boolean, not type integer`.
BoundExprPtr BindCondition(const parser::Expr& expr, BindContext& ctx, const char* what);

// Converts `e` to `target`/`typmod` in coercion context `cc`. Unknown
// literals are converted now (errors get the literal's position), unknown
// parameters take the target type, anything else gets a kCast node when
// pg_cast allows it in `cc`, otherwise 42846 `cannot cast type X to Y`.
// Callers wanting PostgreSQL's assignment wording (42804 `column "a" is of
// type integer but expression is of type text`) check types::CanCoerce first.
BoundExprPtr Coerce(BoundExprPtr e, types::Oid target, int32_t typmod, types::CoercionContext cc,
                    BindContext& ctx);

// For select-list outputs: an expression still of type unknown (a string
// literal or an uninferred parameter) becomes text, as in PostgreSQL 10+.
BoundExprPtr ResolveUnknownOutput(BoundExprPtr e, BindContext& ctx);

// Final parameter types for ParameterDescription, after all expressions of
// the statement were bound. Throws 42P18
// `could not determine data type of parameter $n` if one is still unknown.
std::vector<types::Oid> FinalParamTypes(const BindContext& ctx);

// PostgreSQL's output column name for a select-list expression without an
// alias: column → its name, function → function name, cast → the
// argument's name if it has one, else the type name ("int4", "varchar"),
// CASE → its ELSE's name or "case", others "?column?".
std::string OutputColumnName(const parser::Expr& expr);

}  // namespace hearth::executor
