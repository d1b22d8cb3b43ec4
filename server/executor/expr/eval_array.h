// server/executor/expr/eval_array.h
//
// Evaluation of the array nodes (kArrayCtor, kSubscript, kAnyAll,
// kArrayAssign) for
// eval.cpp. Same contract as Eval.
#pragma once

#include "executor/expr/eval.h"

namespace hearth::executor {

types::Value EvalArrayCtor(const BoundExpr& e, EvalContext& ctx);
types::Value EvalSubscript(const BoundExpr& e, EvalContext& ctx);
types::Value EvalAnyAll(const BoundExpr& e, EvalContext& ctx);
types::Value EvalArrayAssign(const BoundExpr& e, EvalContext& ctx);

}  // namespace hearth::executor
