// server/executor/expr/eval.cpp
//
// Principal entry points: Eval, EvalPredicate. A recursive switch over the
// bound tree; function arguments live in a small on-stack array so the
// common one- and two-argument operators never touch the heap.
#include "executor/expr/eval.h"
#include "executor/domain_checks.h"

#include <vector>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "executor/expr/eval_array.h"
#include "executor/expr/in_list_set.h"
#include "utils/adt/compare.h"
#include "utils/adt/string_adt.h"

namespace hearth::executor {

using types::Value;

namespace {

constexpr int kInlineArgs = 4;

// Calls a registry function on the evaluated children.
Value CallFunc(const BoundExpr& e, const types::FuncSignature* fn, EvalContext& ctx) {
  size_t n = e.children.size();
  Value inline_args[kInlineArgs];
  std::vector<Value> heap_args;
  Value* args = inline_args;
  if (n > static_cast<size_t>(kInlineArgs)) {
    heap_args.resize(n);
    args = heap_args.data();
  }
  for (size_t i = 0; i < n; ++i) {
    args[i] = Eval(*e.children[i], ctx);
    if (fn->strict && args[i].is_null) return Value::Null(e.type);
  }
  Value r = fn->fn(args, static_cast<int>(n), ctx.func);
  return r;
}

// Applies the comparison function of a kIsDistinct/kInList/kNullIf node.
Value Compare(const types::FuncSignature* eq, const Value& a, const Value& b, EvalContext& ctx) {
  if (a.is_null || b.is_null) return Value::Null(types::kBoolOid);
  Value args[2] = {a, b};
  return eq->fn(args, 2, ctx.func);
}

Value EvalLike(const BoundExpr& e, EvalContext& ctx) {
  Value s = Eval(*e.children[0], ctx);
  if (s.is_null) return Value::Null(types::kBoolOid);
  Value p = Eval(*e.children[1], ctx);
  if (p.is_null) return Value::Null(types::kBoolOid);
  char32_t esc = U'\\';
  if (e.children.size() > 2) {
    Value ev = Eval(*e.children[2], ctx);
    if (ev.is_null) return Value::Null(types::kBoolOid);
    int64_t len = types::CharLength(ev.str);
    if (len > 1) {
      throw DbError("22019", "invalid escape string")
          .WithHint("Escape string must be empty or one character.");
    }
    // Single-byte escapes cover the ASCII characters used in practice.
    esc = len == 0 ? 0 : static_cast<unsigned char>(ev.str[0]);
  }
  bool m = types::LikeMatch(s.str, p.str, esc, e.case_insensitive);
  return Value::Bool(e.negated ? !m : m);
}

Value EvalInList(const BoundExpr& e, EvalContext& ctx) {
  Value x = Eval(*e.children[0], ctx);
  if (x.is_null) return Value::Null(types::kBoolOid);
  if (e.in_set) return InListSetLookup(*e.in_set, x, e.negated);
  bool saw_null = false;
  for (size_t i = 1; i < e.children.size(); ++i) {
    Value r = Compare(e.func, x, Eval(*e.children[i], ctx), ctx);
    if (r.is_null) {
      saw_null = true;
    } else if (r.b) {
      return Value::Bool(!e.negated);
    }
  }
  if (saw_null) return Value::Null(types::kBoolOid);
  return Value::Bool(e.negated);
}

// Restores EvalContext::case_value on scope exit, also when a condition throws.
class CaseValueScope {
 public:
  CaseValueScope(EvalContext& ctx, const Value* v) : ctx_(ctx), saved_(ctx.case_value) {
    ctx.case_value = v;
  }
  ~CaseValueScope() { ctx_.case_value = saved_; }
  CaseValueScope(const CaseValueScope&) = delete;
  CaseValueScope& operator=(const CaseValueScope&) = delete;

 private:
  EvalContext& ctx_;
  const Value* saved_;
};

// Returns the index of the result child to evaluate, or -1 for NULL.
int PickCaseBranch(const BoundExpr& e, EvalContext& ctx) {
  size_t i = e.has_operand ? 1 : 0;
  size_t end = e.children.size() - (e.has_else ? 1 : 0);
  for (; i + 1 < end; i += 2) {  // (condition, result) pairs
    Value c = Eval(*e.children[i], ctx);
    if (!c.is_null && c.b) return static_cast<int>(i + 1);
  }
  return e.has_else ? static_cast<int>(e.children.size() - 1) : -1;
}

Value EvalCase(const BoundExpr& e, EvalContext& ctx) {
  int branch;
  if (e.has_operand) {
    Value operand = Eval(*e.children[0], ctx);
    CaseValueScope scope(ctx, &operand);
    branch = PickCaseBranch(e, ctx);
  } else {
    branch = PickCaseBranch(e, ctx);
  }
  if (branch < 0) return Value::Null(e.type);
  return Eval(*e.children[static_cast<size_t>(branch)], ctx);
}

}  // namespace

Value Eval(const BoundExpr& e, EvalContext& ctx) {
  CheckStackDepth();
  switch (e.kind) {
    case BoundKind::kConst:
      return e.value;
    case BoundKind::kParam: {
      size_t i = static_cast<size_t>(e.index);
      if (e.index >= kHiddenParamBase) i = ctx.nuser + static_cast<size_t>(e.index - kHiddenParamBase);
      if (i >= ctx.nparams) {
        throw DbError(sqlstate::kUndefinedParameter, "no value found for parameter " + std::to_string(i + 1));
      }
      return ctx.params[i];
    }
    case BoundKind::kColumn:
      if (static_cast<size_t>(e.index) >= ctx.nrow) {
        throw DbError(sqlstate::kInternalError, "column reference outside the current row");
      }
      return ctx.row[e.index];
    case BoundKind::kAggRef:
      if (static_cast<size_t>(e.index) >= ctx.naggregates) {
        throw DbError(sqlstate::kInternalError, "aggregate reference outside the current group");
      }
      return ctx.aggregates[e.index];
    case BoundKind::kCaseTest:
      if (ctx.case_value == nullptr) {
        throw DbError(sqlstate::kInternalError, "CASE operand used outside CASE");
      }
      return *ctx.case_value;
    case BoundKind::kFuncCall:
      return CallFunc(e, e.func, ctx);
    case BoundKind::kCast:
      return types::CastValue(Eval(*e.children[0], ctx), e.type, e.typmod, e.cast_context);
    case BoundKind::kAnd: {
      Value l = Eval(*e.children[0], ctx);
      if (!l.is_null && !l.b) return Value::Bool(false);
      Value r = Eval(*e.children[1], ctx);
      if (!r.is_null && !r.b) return Value::Bool(false);
      if (l.is_null || r.is_null) return Value::Null(types::kBoolOid);
      return Value::Bool(true);
    }
    case BoundKind::kOr: {
      Value l = Eval(*e.children[0], ctx);
      if (!l.is_null && l.b) return Value::Bool(true);
      Value r = Eval(*e.children[1], ctx);
      if (!r.is_null && r.b) return Value::Bool(true);
      if (l.is_null || r.is_null) return Value::Null(types::kBoolOid);
      return Value::Bool(false);
    }
    case BoundKind::kNot: {
      Value v = Eval(*e.children[0], ctx);
      if (v.is_null) return v;
      return Value::Bool(!v.b);
    }
    case BoundKind::kIsNull: {
      bool n = Eval(*e.children[0], ctx).is_null;
      return Value::Bool(e.negated ? !n : n);
    }
    case BoundKind::kIsBool: {
      Value v = Eval(*e.children[0], ctx);
      bool r;
      switch (e.bool_test) {
        case BoolTest::kTrue: r = !v.is_null && v.b; break;
        case BoolTest::kFalse: r = !v.is_null && !v.b; break;
        default: r = v.is_null; break;
      }
      return Value::Bool(e.negated ? !r : r);
    }
    case BoundKind::kIsDistinct: {
      Value a = Eval(*e.children[0], ctx);
      Value b = Eval(*e.children[1], ctx);
      bool distinct;
      if (a.is_null || b.is_null) {
        distinct = a.is_null != b.is_null;
      } else {
        distinct = !Compare(e.func, a, b, ctx).b;
      }
      return Value::Bool(e.negated ? !distinct : distinct);
    }
    case BoundKind::kLike:
      return EvalLike(e, ctx);
    case BoundKind::kInList:
      return EvalInList(e, ctx);
    case BoundKind::kCase:
      return EvalCase(e, ctx);
    case BoundKind::kCoalesce:
      for (const auto& c : e.children) {
        Value v = Eval(*c, ctx);
        if (!v.is_null) return v;
      }
      return Value::Null(e.type);
    case BoundKind::kNullIf: {
      Value a = Eval(*e.children[0], ctx);
      Value b = Eval(*e.children[1], ctx);
      Value eq = Compare(e.func, a, b, ctx);
      if (!eq.is_null && eq.b) return Value::Null(e.type);
      return a;
    }
    case BoundKind::kMinMax: {
      Value best = Value::Null(e.type);
      for (const auto& c : e.children) {
        Value v = Eval(*c, ctx);
        if (v.is_null) continue;
        if (best.is_null) {
          best = std::move(v);
          continue;
        }
        int cmp = types::CompareValues(v, best);
        if (e.is_greatest ? cmp > 0 : cmp < 0) best = std::move(v);
      }
      return best;
    }
    case BoundKind::kArrayCtor:
      return EvalArrayCtor(e, ctx);
    case BoundKind::kSubscript:
      return EvalSubscript(e, ctx);
    case BoundKind::kAnyAll:
      return EvalAnyAll(e, ctx);
    case BoundKind::kArrayAssign:
      return EvalArrayAssign(e, ctx);
    case BoundKind::kCoerceToDomain: {
      Value v = Eval(*e.children[0], ctx);
      CheckDomainValue(static_cast<types::Oid>(e.value.i), v, ctx);
      return v;
    }
  }
  throw DbError(sqlstate::kInternalError, "unrecognized bound expression");
}

bool EvalPredicate(const BoundExpr& e, EvalContext& ctx) {
  Value v = Eval(e, ctx);
  return !v.is_null && v.b;
}

}  // namespace hearth::executor
