// server/executor/expr/bind_array.h
//
// Binding of the array constructs (internal to the binder): ARRAY[...],
// subscripts a[i][j] / slices a[lo:hi], `x op ANY|ALL (array)`, and array
// type names (int[], _int4, integer[3]). The binder passes itself in as
// hooks so these functions bind sub-expressions and resolve operators
// exactly as the rest of the binder does.
#pragma once

#include <functional>
#include <string>

#include "executor/expr/bind_context.h"
#include "executor/expr/bound_expr.h"
#include "parser/ast.h"

namespace hearth::executor {

struct ArrayBindHooks {
  std::function<BoundExprPtr(const parser::Expr&)> bind;
  std::function<BoundExprPtr(const std::string& op, BoundExprPtr l, BoundExprPtr r, int location)> op_call;
};

// ARRAY[...]. `target` is the array type of an enclosing cast
// (ARRAY[]::int[]) or kInvalidOid. Throws 42P18 `cannot determine type of
// empty array` for a bare ARRAY[].
BoundExprPtr BindArrayConstructor(const parser::ArrayExpr& a, types::Oid target, BindContext& ctx,
                                  const ArrayBindHooks& h);
// expr[...][...]: consecutive subscripts form one node. Throws 42804 for a
// non-integer subscript and `cannot subscript type X because it does not
// support subscripting` for non-arrays.
BoundExprPtr BindSubscripts(const parser::SubscriptExpr& s, BindContext& ctx, const ArrayBindHooks& h);
// x op ANY|ALL (array). Throws 42809 when the right side is not an array or
// the operator does not yield boolean.
BoundExprPtr BindAnyAllArray(const parser::AnyAllExpr& a, BindContext& ctx, const ArrayBindHooks& h);

// UPDATE ... SET col[i][j] = value (also used by the planner): `current`
// is the column's value, `subs` the SubscriptExpr nodes of the target,
// `location` the target column's (where type errors point).
// Throws 42804 `subscripted assignment to "col" requires type integer but
// expression is of type text` (integer[] for a slice).
BoundExprPtr BindSubscriptAssignment(BoundExprPtr current, const std::vector<parser::ExprPtr>& subs,
                                     const parser::Expr& value, const std::string& column, int location,
                                     BindContext& ctx,
                                     const std::function<BoundExprPtr(const parser::Expr&)>& bind);

// The array type of `tn` (tn.is_array) given its element type; throws 42704
// `type "x[]" does not exist` when the element type has no array type.
types::Oid ArrayTypeForName(const parser::TypeName& tn, types::Oid elem);

}  // namespace hearth::executor
