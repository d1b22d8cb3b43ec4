// server/executor/expr/eval.h
//
// Evaluation of bound expressions with SQL NULL semantics (strict functions
// return NULL on NULL input; AND/OR are three-valued). EvalContext carries
// everything that varies per call: parameter values, the current row,
// aggregate results and the session callbacks. An EvalContext is used by
// one thread at a time; the BoundExpr it evaluates is shared and read-only.
#pragma once

#include <cstddef>

#include "executor/expr/bound_expr.h"
#include "utils/adt/func_context.h"
#include "utils/adt/value.h"

namespace hearth::executor {

struct EvalContext {
  // $1..$n values, already converted to the statement's final parameter
  // types (InputValue/ReceiveBinary with FinalParamTypes()).
  const types::Value* params = nullptr;
  size_t nparams = 0;
  // The user's $1..$n come first; hidden parameters (kHiddenParamBase + s)
  // are at params[nuser + s].
  size_t nuser = 0;
  // The current input row, indexed by ColumnBinding::index.
  const types::Value* row = nullptr;
  size_t nrow = 0;
  // Aggregate results, indexed by kAggRef::index.
  const types::Value* aggregates = nullptr;
  size_t naggregates = 0;
  // Session callbacks (now(), current_user, ...) and random() state.
  types::FuncCallContext func;

  // Internal: the operand of the CASE being evaluated.
  const types::Value* case_value = nullptr;
};

// Evaluates e. Fixed-width arithmetic and comparisons do not allocate.
// Throws the DbErrors of the operators involved (22003, 22012, ...).
types::Value Eval(const BoundExpr& e, EvalContext& ctx);

// WHERE/ON semantics: true only for a non-NULL true.
bool EvalPredicate(const BoundExpr& e, EvalContext& ctx);

}  // namespace hearth::executor
