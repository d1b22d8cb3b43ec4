// server/executor/expr/bound_expr.h
//
// BoundExpr: a scalar expression after binding — every node has a resolved
// result type, operators and functions point at their registry entry, and
// implicit coercions are explicit kCast nodes. Produced by BindExpr
// (binder.h), evaluated by Eval (eval.h). A bound tree is immutable after
// binding and may be evaluated concurrently by several threads, each with
// its own EvalContext.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "utils/adt/cast.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/value.h"

namespace hearth::executor {

enum class BoundKind : uint8_t {
  kConst,        // value
  kParam,        // index = 0-based parameter number, or kHiddenParamBase + slot
  kColumn,       // index = slot in EvalContext::row (resolver-defined)
  kAggRef,       // index = slot in EvalContext::aggregates (aggregate callback)
  kCaseTest,     // the operand of the enclosing CASE x WHEN ...
  kFuncCall,     // func(children...), operators included
  kCast,         // children[0] converted to type/typmod in cast_context
  kAnd,          // children[0] AND children[1] (three-valued)
  kOr,           // children[0] OR children[1]
  kNot,          // NOT children[0]
  kIsNull,       // children[0] IS [NOT] NULL (negated)
  kIsBool,       // children[0] IS [NOT] TRUE/FALSE/UNKNOWN (bool_test, negated)
  kIsDistinct,   // children[0] IS [NOT] DISTINCT FROM children[1]; func is "="
  kLike,         // children: text, pattern[, escape]; negated, case_insensitive
  kInList,       // children[0] [NOT] IN (children[1..]); func is "="
  kCase,         // [operand] (when, then)* else — see has_operand
  kCoalesce,     // first non-NULL child
  kNullIf,       // NULLIF(children[0], children[1]); func is "="
  kMinMax,       // GREATEST (is_greatest) / LEAST over children
  // Arrays (bind_array.cpp, eval_array.cpp):
  kArrayCtor,    // ARRAY[children...]; children of the array type itself make a sub-array each
  kSubscript,    // children[0][...]: the bounds present in subscripts, in order
  kAnyAll,       // children[0] func ANY/ALL (is_all) (children[1]); children[2] is each
                 // element (a kCaseTest, possibly cast) as func's right argument
  kArrayAssign,  // UPDATE SET a[...] = x: children[0] (the array) with children[1] stored
                 // at the subscripts (subscript_flags; bounds are children[2..])
  kCoerceToDomain,  // children[0] (of the domain's base type) checked against the domain
                    // whose oid is value.i (domain_checks.h); type is the base type
};

enum class BoolTest : uint8_t { kTrue, kFalse, kUnknown };

// Parameters the planner adds (init-plan results, correlated outer values,
// subplan handles) are numbered from here: hidden slot s is read from
// EvalContext::params[nuser + s]. The number of user parameters is known
// only when planning ends, and bound trees may be copied before that (index
// bounds), so the index itself never needs fixing up.
inline constexpr int kHiddenParamBase = 1 << 20;

struct BoundExpr;
struct InListSet;  // in_list_set.h
using BoundExprPtr = std::unique_ptr<BoundExpr>;

// Adding a field: copy it in CloneBound (bound_clone.cpp) and compare it in
// the planner's SameExpr (planner/plan_util.cpp).
struct BoundExpr {
  explicit BoundExpr(BoundKind k, types::Oid t) : kind(k), type(t) {}
  BoundExpr(const BoundExpr&) = delete;
  BoundExpr& operator=(const BoundExpr&) = delete;

  BoundKind kind;
  types::Oid type;                     // result type
  int32_t typmod = types::kNoTypmod;   // result typmod (casts, columns)
  int location = -1;                   // 0-based source offset, -1 if none

  types::Value value;                  // kConst
  int index = -1;                      // kParam, kColumn, kAggRef
  const types::FuncSignature* func = nullptr;  // kFuncCall, kIsDistinct, kInList, kNullIf
  std::vector<BoundExprPtr> children;
  types::CoercionContext cast_context = types::CoercionContext::kImplicit;  // kCast
  bool negated = false;                // kIsNull, kIsBool, kIsDistinct, kLike, kInList
  bool case_insensitive = false;       // kLike (ILIKE)
  bool has_operand = false;            // kCase: children[0] is the operand
  bool has_else = false;               // kCase: last child is the ELSE result
  bool is_greatest = false;            // kMinMax
  BoolTest bool_test = BoolTest::kTrue;  // kIsBool
  bool is_all = false;                 // kAnyAll: ALL rather than ANY
  // kSubscript/kArrayAssign: one entry per [] (bit 0 slice, bit 1 lower
  // bound present, bit 2 upper bound present); the present bounds follow
  // the array (and the assigned value) in children.
  std::vector<uint8_t> subscript_flags;
  // kInList of >= 9 constants: the items hashed once (in_list_set.h); the
  // children stay as they are (the planner reads them for index scans).
  std::shared_ptr<const InListSet> in_set;
};

// RowDescription facts for a bound expression's result.
struct ResultColumn {
  types::Oid type;
  int16_t typlen;
  int32_t typmod;
};
ResultColumn DescribeResult(const BoundExpr& e);

// A deep copy of `e` (children copied, the hashed IN-list set shared: it is
// immutable). Plans are prototypes that each execution clones.
BoundExprPtr CloneBound(const BoundExpr& e);
// CloneBound of a possibly null pointer.
inline BoundExprPtr CloneBound(const BoundExprPtr& e) { return e ? CloneBound(*e) : nullptr; }

}  // namespace hearth::executor
