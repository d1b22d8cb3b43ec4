// server/executor/expr/eval_array.cpp
//
// Principal entry points: EvalArrayCtor, EvalSubscript, EvalAnyAll —
// PostgreSQL's ExecEvalArrayExpr, container subscripting and
// ExecEvalScalarArrayOp.
#include "executor/expr/eval_array.h"

#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/array_ops.h"
#include "utils/adt/type_catalog.h"

namespace hearth::executor {

using types::ArrayData;
using types::Value;

namespace {

// ARRAY[sub-array, ...]: one more dimension in front of the sub-arrays',
// which must all have the same shape. NULL and empty sub-arrays are
// skipped; if every one is, the result is '{}'.
Value StackSubArrays(const BoundExpr& e, EvalContext& ctx) {
  ArrayData out;
  out.elem_type = types::ElementTypeOf(e.type);
  int32_t nsub = 0;
  bool have_empty = false;
  for (const auto& c : e.children) {
    Value v = Eval(*c, ctx);
    if (v.is_null) {
      have_empty = true;
      continue;
    }
    ArrayData sub = types::DeconstructArray(v);
    if (sub.ndim() == 0) {
      have_empty = true;
      continue;
    }
    if (nsub == 0) {
      out.dims = sub.dims;
      out.lbounds = sub.lbounds;
    } else if (sub.dims != out.dims || sub.lbounds != out.lbounds) {
      throw DbError("2202E", "multidimensional arrays must have array expressions with matching dimensions");
    }
    ++nsub;
    out.elems.insert(out.elems.end(), std::make_move_iterator(sub.elems.begin()),
                     std::make_move_iterator(sub.elems.end()));
  }
  if (nsub == 0) return types::MakeArrayValue(e.type, ArrayData{out.elem_type, {}, {}, {}});
  if (have_empty) {
    throw DbError("2202E", "multidimensional arrays must have array expressions with matching dimensions");
  }
  out.dims.insert(out.dims.begin(), nsub);
  out.lbounds.insert(out.lbounds.begin(), 1);
  return types::MakeArrayValue(e.type, out);
}

}  // namespace

Value EvalArrayCtor(const BoundExpr& e, EvalContext& ctx) {
  if (!e.children.empty() && e.children[0]->type == e.type) return StackSubArrays(e, ctx);
  std::vector<Value> elems;
  elems.reserve(e.children.size());
  for (const auto& c : e.children) elems.push_back(Eval(*c, ctx));
  ArrayData a;
  a.elem_type = types::ElementTypeOf(e.type);
  if (!elems.empty()) {
    a.dims = {static_cast<int32_t>(elems.size())};
    a.lbounds = {1};
  }
  a.elems = std::move(elems);
  return types::MakeArrayValue(e.type, a);
}

namespace {

// The subscripts of a kSubscript/kArrayAssign node, whose bounds start at
// children[first]. False if a bound is NULL.
bool EvalSubscripts(const BoundExpr& e, size_t first, EvalContext& ctx, std::vector<types::Subscript>* subs) {
  subs->resize(e.subscript_flags.size());
  size_t child = first;
  bool null_bound = false;
  auto next_bound = [&](int32_t* out) {
    Value b = Eval(*e.children[child++], ctx);
    if (b.is_null) null_bound = true;
    else *out = static_cast<int32_t>(b.i);
  };
  for (size_t k = 0; k < subs->size(); ++k) {
    types::Subscript& s = (*subs)[k];
    const uint8_t f = e.subscript_flags[k];
    s.is_slice = (f & 1) != 0;
    s.has_lower = (f & 2) != 0;
    s.has_upper = (f & 4) != 0;
    if (s.has_lower) next_bound(&s.lower);
    if (s.has_upper) next_bound(&s.upper);
  }
  return !null_bound;
}

}  // namespace

Value EvalSubscript(const BoundExpr& e, EvalContext& ctx) {
  Value arr = Eval(*e.children[0], ctx);
  std::vector<types::Subscript> subs;
  if (!EvalSubscripts(e, 1, ctx, &subs) || arr.is_null) return Value::Null(e.type);
  return types::ArraySubscriptFetch(arr, subs, e.type);
}

// A NULL subscript in an assignment is an error, as in PostgreSQL.
Value EvalArrayAssign(const BoundExpr& e, EvalContext& ctx) {
  Value arr = Eval(*e.children[0], ctx);
  Value elem = Eval(*e.children[1], ctx);
  std::vector<types::Subscript> subs;
  if (!EvalSubscripts(e, 2, ctx, &subs)) {
    throw DbError(sqlstate::kNullValueNotAllowed, "array subscript in assignment must not be null");
  }
  return types::ArraySubscriptAssign(arr, e.type, subs, elem);
}

// ANY: true if some comparison is true, else NULL if some was NULL, else
// false. ALL: false if some comparison is false, else NULL if some was
// NULL, else true. An empty array gives false / true whatever the left side.
Value EvalAnyAll(const BoundExpr& e, EvalContext& ctx) {
  Value left = Eval(*e.children[0], ctx);
  Value arr = Eval(*e.children[1], ctx);
  if (arr.is_null) return Value::Null(types::kBoolOid);
  ArrayData a = types::DeconstructArray(arr);
  if (a.elems.empty()) return Value::Bool(e.is_all);
  if (left.is_null && e.func->strict) return Value::Null(types::kBoolOid);
  bool saw_null = false;
  Value args[2];
  for (const Value& elem : a.elems) {
    const types::Value* saved = ctx.case_value;
    ctx.case_value = &elem;
    try {
      args[1] = Eval(*e.children[2], ctx);
    } catch (...) {
      ctx.case_value = saved;
      throw;
    }
    ctx.case_value = saved;
    Value r;
    if (args[1].is_null && e.func->strict) {
      r = Value::Null(types::kBoolOid);
    } else {
      args[0] = left;
      r = e.func->fn(args, 2, ctx.func);
    }
    if (r.is_null) {
      saw_null = true;
    } else if (r.b != e.is_all) {
      return Value::Bool(!e.is_all);
    }
  }
  if (saw_null) return Value::Null(types::kBoolOid);
  return Value::Bool(e.is_all);
}

}  // namespace hearth::executor
