// server/executor/expr/bind_context.h
//
// BindContext: what the binder needs from its caller — parameter types
// (some unknown, to be inferred), and callbacks for column references,
// aggregates and subqueries, which live outside scalar expressions. One
// context per statement being bound; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "executor/expr/bound_expr.h"
#include "parser/ast.h"

namespace hearth::executor {

// Where a column reference points: a slot in the row the executor passes in
// EvalContext::row, and the column's declared type.
struct ColumnBinding {
  int index = 0;
  types::Oid type = types::kInvalidOid;
  int32_t typmod = types::kNoTypmod;
};

struct BindContext {
  // Types of $1..$n. 0 (or unknown, 705) means "infer from context" as
  // PostgreSQL does for Parse messages with unspecified types; the binder
  // writes the inferred type back. References to $n beyond the end extend
  // the vector when allow_new_params is true (else 42P02).
  std::vector<types::Oid> param_types;
  bool allow_new_params = true;

  // Column references. nullopt (or no resolver) → 42703
  // `column "x" does not exist`. May throw its own DbError (e.g. ambiguity).
  std::function<std::optional<ColumnBinding>(const parser::ColumnRefExpr&)> resolve_column;

  // Aggregate calls: receives the call, its bound and coerced arguments and
  // the resolved signature; returns the node that stands for the result
  // (typically kAggRef). Unset → 0A000 "aggregate functions are not
  // supported yet".
  std::function<BoundExprPtr(const parser::FuncCallExpr&, std::vector<BoundExprPtr>,
                             const types::ResolvedFunc&, BindContext&)>
      bind_aggregate;

  // Window function calls (f(...) OVER ...): returns the node that stands
  // for the result. Unset → 42P20 "window functions are not allowed in
  // <window_clause>" (or "... here" when window_clause is null).
  std::function<BoundExprPtr(const parser::FuncCallExpr&, BindContext&)> bind_window;
  const char* window_clause = nullptr;
  // Set-returning function calls (types::srf_registry.h), with their bound,
  // coerced arguments and the resolved kSetReturning row; returns the node
  // that stands for the current value. Unset → 0A000
  // "set-returning functions are not allowed in this context".
  std::function<BoundExprPtr(const parser::FuncCallExpr&, std::vector<BoundExprPtr>,
                             const types::ResolvedFunc&, BindContext&)>
      bind_srf;

  // Subqueries in expressions. Unset → 0A000 "subqueries are not supported yet".
  std::function<BoundExprPtr(const parser::SubLinkExpr&, BindContext&)> bind_sublink;
};

}  // namespace hearth::executor
