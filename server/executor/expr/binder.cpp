// server/executor/expr/binder.cpp
//
// Principal entry points: BindExpr, BindCondition, Coerce,
// ResolveUnknownOutput, FinalParamTypes. Follows PostgreSQL's
// transformExpr: literals get their natural type, unknown literals and
// parameters wait for context, operators and functions go through the
// registry (utils/adt/func_registry.h), and every coercion is explicit in
// the bound tree.
#include "executor/expr/binder.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "executor/expr/bind_array.h"
#include "executor/expr/bind_helpers.h"
#include "executor/expr/in_list_set.h"
#include "executor/expr/row_compare.h"
#include "executor/expr/user_functions.h"
#include "utils/adt/numeric.h"
#include "utils/adt/ordered_set_aggs.h"
#include "utils/adt/text_io.h"
#include "utils/adt/user_types.h"

namespace hearth::executor {

using types::CoercionContext;
using types::Oid;
using bind::AtLocation;
using bind::Node;
using bind::ThrowAt;
using types::Value;

namespace {

BoundExprPtr MakeConst(Value v, int location) {
  auto e = Node(BoundKind::kConst, v.type, location);
  e->value = std::move(v);
  return e;
}

bool IsUnknownParamType(Oid t) { return t == types::kInvalidOid || t == types::kUnknownOid; }

// WITHIN GROUP exactly on ordered-set aggregates (42809 as PostgreSQL).
void CheckOrderedSetCall(const parser::FuncCallExpr& f) {
  const std::string& name = f.name.back();
  const bool ordered_set = types::IsOrderedSetAggregate(name);
  if (ordered_set && !f.within_group) {
    ThrowAt(DbError(sqlstate::kWrongObjectType, "WITHIN GROUP is required for ordered-set aggregate " + name),
            f.location);
  }
  if (!ordered_set && f.within_group) {
    ThrowAt(DbError(sqlstate::kWrongObjectType,
                    name + " is not an ordered-set aggregate, so it cannot have WITHIN GROUP"),
            f.location);
  }
}

// rank(args) WITHIN GROUP (ORDER BY keys): as many args as keys (42883
// with PostgreSQL's hint), each arg and its key in their common type.
void UnifyHypotheticalArgs(const parser::FuncCallExpr& f, std::vector<BoundExprPtr>& args, std::vector<Oid>& ts,
                           BindContext& ctx) {
  const std::string& name = f.name.back();
  const size_t nd = f.args.size(), no = f.agg_order.size();
  if (nd != no) {
    std::string sig;
    for (Oid t : ts) sig += (sig.empty() ? "" : ", ") + types::FormatType(t);
    DbError e(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist");
    e.WithHint("To use the hypothetical-set aggregate " + name + ", the number of hypothetical direct arguments (here " +
               std::to_string(nd) + ") must match the number of ordering columns (here " + std::to_string(no) + ").");
    ThrowAt(std::move(e), f.location);
  }
  for (size_t i = 0; i < nd; ++i) {
    const Oid common = AtLocation(f.location, [&] { return types::SelectCommonType({ts[i], ts[nd + i]}, "WITHIN GROUP"); });
    for (size_t k : {i, nd + i}) {
      args[k] = Coerce(std::move(args[k]), common, -1, CoercionContext::kImplicit, ctx);
      ts[k] = args[k]->type;
    }
  }
}

class Binder {
 public:
  explicit Binder(BindContext& ctx) : ctx_(ctx) {}

  BoundExprPtr Bind(const parser::Expr& x);
  BoundExprPtr Condition(const parser::Expr& x, const std::string& what);
  BoundExprPtr ConditionOf(BoundExprPtr e, int location, const std::string& what);
  BoundExprPtr OpCall(const std::string& op, BoundExprPtr l, BoundExprPtr r, int location);

 private:
  BoundExprPtr BindConst(const parser::ConstExpr& c);
  BoundExprPtr BindColumn(const parser::ColumnRefExpr& c);
  BoundExprPtr BindParam(const parser::ParamRefExpr& p);
  BoundExprPtr BindUnary(const parser::UnaryOpExpr& u);
  BoundExprPtr BindBinary(const parser::BinaryOpExpr& b);
  BoundExprPtr BindLike(const parser::LikeExpr& l);
  BoundExprPtr BindBetween(const parser::BetweenExpr& b);
  BoundExprPtr BindIn(const parser::InListExpr& in);
  BoundExprPtr BindCase(const parser::CaseExpr& c);
  BoundExprPtr BindCast(const parser::CastExpr& c);
  BoundExprPtr BindFunc(const parser::FuncCallExpr& f);
  BoundExprPtr BindSpecialFunc(const std::string& name, const parser::FuncCallExpr& f);
  BoundExprPtr BindSqlValue(const parser::SqlValueFunctionExpr& s);
  BoundExprPtr Bool2(BoundKind k, BoundExprPtr l, BoundExprPtr r, int location);
  // The array constructs (bind_array.h) bind through this binder.
  ArrayBindHooks ArrayHooks() {
    return {[this](const parser::Expr& x) { return Bind(x); },
            [this](const std::string& op, BoundExprPtr l, BoundExprPtr r, int loc) {
              return OpCall(op, std::move(l), std::move(r), loc);
            }};
  }
  // Coerces every expression in `v` to their common type; returns it.
  Oid CommonType(std::vector<BoundExprPtr>& v, const char* context, int location);

  BindContext& ctx_;
};

BoundExprPtr Binder::Bind(const parser::Expr& x) {
  using parser::ExprKind;
  CheckStackDepth();
  switch (x.kind) {
    case ExprKind::kConst:
      return BindConst(x.As<parser::ConstExpr>());
    case ExprKind::kColumnRef:
      return BindColumn(x.As<parser::ColumnRefExpr>());
    case ExprKind::kParamRef:
      return BindParam(x.As<parser::ParamRefExpr>());
    case ExprKind::kStar:
      ThrowAt(DbError(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid"),
              x.location);
    case ExprKind::kUnaryOp:
      return BindUnary(x.As<parser::UnaryOpExpr>());
    case ExprKind::kBinaryOp:
      return BindBinary(x.As<parser::BinaryOpExpr>());
    case ExprKind::kLike:
      return BindLike(x.As<parser::LikeExpr>());
    case ExprKind::kIsNull: {
      const auto& n = x.As<parser::IsNullExpr>();
      if (BoundExprPtr r = BindRowIsNull(n, ctx_)) return r;
      auto e = Node(BoundKind::kIsNull, types::kBoolOid, x.location);
      e->children.push_back(Bind(*n.arg));
      e->negated = n.negated;
      return e;
    }
    case ExprKind::kIsBool: {
      const auto& n = x.As<parser::IsBoolExpr>();
      static const char* kNames[] = {"TRUE", "FALSE", "UNKNOWN"};
      std::string what = std::string(n.negated ? "IS NOT " : "IS ") +
                         kNames[static_cast<int>(n.test)];
      auto e = Node(BoundKind::kIsBool, types::kBoolOid, x.location);
      e->children.push_back(Condition(*n.arg, what));
      e->negated = n.negated;
      e->bool_test = static_cast<BoolTest>(static_cast<int>(n.test));
      return e;
    }
    case ExprKind::kIsDistinct: {
      const auto& n = x.As<parser::IsDistinctExpr>();
      if (BoundExprPtr r = BindRowIsDistinct(n, ctx_)) return r;
      BoundExprPtr eq = OpCall("=", Bind(*n.left), Bind(*n.right), x.location);
      auto e = Node(BoundKind::kIsDistinct, types::kBoolOid, x.location);
      e->func = eq->func;
      e->children = std::move(eq->children);
      e->negated = n.negated;
      return e;
    }
    case ExprKind::kBetween:
      return BindBetween(x.As<parser::BetweenExpr>());
    case ExprKind::kInList:
      return BindIn(x.As<parser::InListExpr>());
    case ExprKind::kCase:
      return BindCase(x.As<parser::CaseExpr>());
    case ExprKind::kCast:
      return BindCast(x.As<parser::CastExpr>());
    case ExprKind::kFuncCall:
      return BindFunc(x.As<parser::FuncCallExpr>());
    case ExprKind::kSqlValueFunction:
      return BindSqlValue(x.As<parser::SqlValueFunctionExpr>());
    case ExprKind::kSubLink:
      if (ctx_.bind_sublink) return ctx_.bind_sublink(x.As<parser::SubLinkExpr>(), ctx_);
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "subqueries are not supported yet"),
              x.location);
    case ExprKind::kCollate:
      // Only the default (byte-wise) collation exists; COLLATE is accepted and ignored.
      return Bind(*x.As<parser::CollateExpr>().arg);
    case ExprKind::kArray:
      return BindArrayConstructor(x.As<parser::ArrayExpr>(), types::kInvalidOid, ctx_, ArrayHooks());
    case ExprKind::kRow:
      return BindRowValue(x.As<parser::RowExpr>(), ctx_);
    case ExprKind::kDefault:
      ThrowAt(DbError(sqlstate::kSyntaxError, "DEFAULT is not allowed in this context"),
              x.location);
    case ExprKind::kAnyAll:
      return BindAnyAllArray(x.As<parser::AnyAllExpr>(), ctx_, ArrayHooks());
    case ExprKind::kSubscript:
      return BindSubscripts(x.As<parser::SubscriptExpr>(), ctx_, ArrayHooks());
  }
  ThrowAt(DbError(sqlstate::kInternalError, "unrecognized expression node"), x.location);
}

BoundExprPtr Binder::BindConst(const parser::ConstExpr& c) {
  switch (c.const_kind) {
    case parser::ConstKind::kInteger: {
      int64_t v = 0;
      const char* b = c.value.data();
      const char* e = b + c.value.size();
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec == std::errc() && p == e) {
        if (v >= INT32_MIN && v <= INT32_MAX) return MakeConst(Value::Int4(static_cast<int32_t>(v)), c.location);
        return MakeConst(Value::Int8(v), c.location);
      }
      return AtLocation(c.location, [&] {
        return MakeConst(Value::Bytes(types::kNumericOid, types::Numeric::Parse(c.value).ToString()),
                         c.location);
      });
    }
    case parser::ConstKind::kNumeric:
      return AtLocation(c.location, [&] {
        return MakeConst(Value::Bytes(types::kNumericOid, types::Numeric::Parse(c.value).ToString()),
                         c.location);
      });
    case parser::ConstKind::kString:
      return MakeConst(Value::Bytes(types::kUnknownOid, c.value), c.location);
    case parser::ConstKind::kBool:
      return MakeConst(Value::Bool(c.bool_value), c.location);
    case parser::ConstKind::kNull:
      return MakeConst(Value::Null(types::kUnknownOid), c.location);
  }
  return MakeConst(Value::Null(types::kUnknownOid), c.location);
}

BoundExprPtr Binder::BindColumn(const parser::ColumnRefExpr& c) {
  std::string full;
  for (size_t i = 0; i < c.fields.size(); ++i) full += (i ? "." : "") + c.fields[i];
  if (c.star) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, full + ".* is not supported in this context"),
            c.location);
  }
  if (ctx_.resolve_column) {
    std::optional<ColumnBinding> b;
    try {
      b = AtLocation(c.location, [&] { return ctx_.resolve_column(c); });
    } catch (const DbError& e) {
      // Not a column: perhaps a parameter of the SQL function being planned.
      if (e.sqlstate() == sqlstate::kUndefinedColumn || e.sqlstate() == sqlstate::kUndefinedTable) {
        if (BoundExprPtr p = BindParamName(c)) return p;
      }
      throw;
    }
    if (b) {
      auto e = Node(BoundKind::kColumn, b->type, c.location);
      e->index = b->index;
      e->typmod = b->typmod;
      return e;
    }
  }
  // A parameter of the SQL function body being planned (user_functions.h).
  if (BoundExprPtr p = BindParamName(c)) return p;
  if (c.fields.size() == 1) {
    ThrowAt(DbError(sqlstate::kUndefinedColumn, "column \"" + full + "\" does not exist"),
            c.location);
  }
  if (!ctx_.resolve_column) {
    ThrowAt(DbError(sqlstate::kUndefinedTable, "missing FROM-clause entry for table \"" +
                                                   c.fields[c.fields.size() - 2] + "\""),
            c.location);
  }
  ThrowAt(DbError(sqlstate::kUndefinedColumn, "column " + full + " does not exist"), c.location);
}

// The protocol counts parameters in an int16 (Parse, Bind,
// ParameterDescription): a higher $n can never be bound, so it is refused
// before any array is sized by it.
constexpr int kMaxParamNumber = 65535;

BoundExprPtr Binder::BindParam(const parser::ParamRefExpr& p) {
  const int body_params = BodyParamCount();  // inside a SQL function body: its parameters only
  if (p.number < 1 || p.number > kMaxParamNumber || (body_params >= 0 && p.number > body_params) ||
      (static_cast<size_t>(p.number) > ctx_.param_types.size() && !ctx_.allow_new_params)) {
    ThrowAt(DbError(sqlstate::kUndefinedParameter,
                    "there is no parameter $" + std::to_string(p.number)),
            p.location);
  }
  if (static_cast<size_t>(p.number) > ctx_.param_types.size()) {
    ctx_.param_types.resize(static_cast<size_t>(p.number), types::kInvalidOid);
  }
  Oid t = ctx_.param_types[static_cast<size_t>(p.number - 1)];
  if (IsUnknownParamType(t)) t = types::kUnknownOid;
  auto e = Node(BoundKind::kParam, t, p.location);
  e->index = p.number - 1;
  return e;
}

BoundExprPtr Binder::OpCall(const std::string& op, BoundExprPtr l, BoundExprPtr r, int location) {
  Oid lt = l ? l->type : types::kInvalidOid;
  types::ResolvedFunc f = AtLocation(location, [&] { return types::ResolveOperator(op, lt, r->type); });
  auto e = Node(BoundKind::kFuncCall, f.result_type, location);
  e->func = f.sig;
  size_t i = 0;
  if (l) e->children.push_back(Coerce(std::move(l), f.arg_types[i++], -1, CoercionContext::kImplicit, ctx_));
  e->children.push_back(Coerce(std::move(r), f.arg_types[i], -1, CoercionContext::kImplicit, ctx_));
  return e;
}

BoundExprPtr Binder::Bool2(BoundKind k, BoundExprPtr l, BoundExprPtr r, int location) {
  auto e = Node(k, types::kBoolOid, location);
  e->children.push_back(std::move(l));
  e->children.push_back(std::move(r));
  return e;
}

BoundExprPtr Binder::ConditionOf(BoundExprPtr e, int location, const std::string& what) {
  if (e->type == types::kBoolOid) return e;
  if (!types::CanCoerce(e->type, types::kBoolOid, CoercionContext::kImplicit)) {
    ThrowAt(DbError(sqlstate::kDatatypeMismatch, "argument of " + what +
                                                     " must be type boolean, not type " +
                                                     types::FormatType(e->type)),
            location);
  }
  return Coerce(std::move(e), types::kBoolOid, -1, CoercionContext::kImplicit, ctx_);
}

BoundExprPtr Binder::Condition(const parser::Expr& x, const std::string& what) {
  return ConditionOf(Bind(x), x.location, what);
}

BoundExprPtr Binder::BindUnary(const parser::UnaryOpExpr& u) {
  if (u.op == "NOT") {
    auto e = Node(BoundKind::kNot, types::kBoolOid, u.location);
    e->children.push_back(Condition(*u.operand, "NOT"));
    return e;
  }
  return OpCall(u.op, nullptr, Bind(*u.operand), u.location);
}

BoundExprPtr Binder::BindBinary(const parser::BinaryOpExpr& b) {
  if (b.op == "AND" || b.op == "OR") {
    BoundExprPtr l = Condition(*b.left, b.op);
    BoundExprPtr r = Condition(*b.right, b.op);
    return Bool2(b.op == "AND" ? BoundKind::kAnd : BoundKind::kOr, std::move(l), std::move(r),
                 b.location);
  }
  if (BoundExprPtr r = BindRowBinary(b, ctx_)) return r;
  return OpCall(b.op, Bind(*b.left), Bind(*b.right), b.location);
}

BoundExprPtr Binder::BindLike(const parser::LikeExpr& l) {
  BoundExprPtr arg = Bind(*l.arg);
  BoundExprPtr pat = Bind(*l.pattern);
  std::string op = std::string(l.negated ? "!" : "") + (l.case_insensitive ? "~~*" : "~~");
  types::ResolvedFunc f =
      AtLocation(l.location, [&] { return types::ResolveOperator(op, arg->type, pat->type); });
  auto e = Node(BoundKind::kLike, types::kBoolOid, l.location);
  e->negated = l.negated;
  e->case_insensitive = l.case_insensitive;
  e->children.push_back(Coerce(std::move(arg), f.arg_types[0], -1, CoercionContext::kImplicit, ctx_));
  e->children.push_back(Coerce(std::move(pat), f.arg_types[1], -1, CoercionContext::kImplicit, ctx_));
  if (l.escape) {
    BoundExprPtr esc = Bind(*l.escape);
    if (!types::CanCoerce(esc->type, types::kTextOid, CoercionContext::kImplicit)) {
      ThrowAt(DbError(sqlstate::kUndefinedFunction,
                      "function like_escape(text, " + types::FormatType(esc->type) +
                          ") does not exist"),
              l.escape->location);
    }
    e->children.push_back(Coerce(std::move(esc), types::kTextOid, -1, CoercionContext::kImplicit, ctx_));
  }
  return e;
}

BoundExprPtr Binder::BindBetween(const parser::BetweenExpr& b) {
  int loc = b.location;
  auto range = [&](const parser::Expr& lo, const parser::Expr& hi) {
    if (b.negated) {
      return Bool2(BoundKind::kOr, OpCall("<", Bind(*b.arg), Bind(lo), loc),
                   OpCall(">", Bind(*b.arg), Bind(hi), loc), loc);
    }
    return Bool2(BoundKind::kAnd, OpCall(">=", Bind(*b.arg), Bind(lo), loc),
                 OpCall("<=", Bind(*b.arg), Bind(hi), loc), loc);
  };
  if (!b.symmetric) return range(*b.low, *b.high);
  return Bool2(b.negated ? BoundKind::kAnd : BoundKind::kOr, range(*b.low, *b.high),
               range(*b.high, *b.low), loc);
}

Oid Binder::CommonType(std::vector<BoundExprPtr>& v, const char* context, int location) {
  std::vector<Oid> ts;
  for (const auto& e : v) ts.push_back(e->type);
  Oid common = AtLocation(location, [&] { return types::SelectCommonType(ts, context); });
  for (auto& e : v) e = Coerce(std::move(e), common, -1, CoercionContext::kImplicit, ctx_);
  return common;
}

BoundExprPtr Binder::BindIn(const parser::InListExpr& in) {
  if (BoundExprPtr r = BindRowInList(in, ctx_)) return r;
  std::vector<BoundExprPtr> all;
  all.push_back(Bind(*in.arg));
  for (const auto& item : in.items) all.push_back(Bind(*item));
  std::vector<Oid> ts;
  for (const auto& e : all) ts.push_back(e->type);
  bool common_ok = true;
  try {
    types::SelectCommonType(ts, "IN");
  } catch (const DbError&) {
    common_ok = false;
  }
  if (common_ok) {
    Oid common = CommonType(all, "IN", in.location);
    types::ResolvedFunc f =
        AtLocation(in.location, [&] { return types::ResolveOperator("=", common, common); });
    auto e = Node(BoundKind::kInList, types::kBoolOid, in.location);
    e->func = f.sig;
    e->negated = in.negated;
    for (size_t i = 0; i < all.size(); ++i) {
      e->children.push_back(Coerce(std::move(all[i]), f.arg_types[i == 0 ? 0 : 1], -1,
                                   CoercionContext::kImplicit, ctx_));
    }
    e->in_set = BuildInListSet(*e);
    return e;
  }
  // No common type: a chain of separate comparisons, as PostgreSQL does.
  BoundExprPtr acc;
  for (const auto& item : in.items) {
    BoundExprPtr cmp = OpCall(in.negated ? "<>" : "=", Bind(*in.arg), Bind(*item), in.location);
    acc = acc ? Bool2(in.negated ? BoundKind::kAnd : BoundKind::kOr, std::move(acc), std::move(cmp),
                      in.location)
              : std::move(cmp);
  }
  return acc;
}

BoundExprPtr Binder::BindCase(const parser::CaseExpr& c) {
  auto e = Node(BoundKind::kCase, types::kUnknownOid, c.location);
  Oid operand_type = types::kInvalidOid;
  if (c.operand) {
    BoundExprPtr op = Bind(*c.operand);
    if (op->type == types::kUnknownOid) {
      op = Coerce(std::move(op), types::kTextOid, -1, CoercionContext::kImplicit, ctx_);
    }
    operand_type = op->type;
    e->has_operand = true;
    e->children.push_back(std::move(op));
  }
  std::vector<BoundExprPtr> conds;
  std::vector<BoundExprPtr> results;
  // The ELSE result goes first so it leads type resolution, as in PostgreSQL.
  results.push_back(c.else_result ? Bind(*c.else_result)
                                  : MakeConst(Value::Null(types::kUnknownOid), c.location));
  for (const parser::CaseWhen& w : c.whens) {
    if (c.operand) {
      auto test = Node(BoundKind::kCaseTest, operand_type, w.location);
      BoundExprPtr cmp = OpCall("=", std::move(test), Bind(*w.condition), w.condition->location);
      conds.push_back(ConditionOf(std::move(cmp), w.condition->location, "CASE/WHEN"));
    } else {
      conds.push_back(Condition(*w.condition, "CASE/WHEN"));
    }
    results.push_back(Bind(*w.result));
  }
  e->type = CommonType(results, "CASE", c.location);
  for (size_t i = 0; i < conds.size(); ++i) {
    e->children.push_back(std::move(conds[i]));
    e->children.push_back(std::move(results[i + 1]));
  }
  e->children.push_back(std::move(results[0]));
  e->has_else = true;
  return e;
}

BoundExprPtr Binder::BindCast(const parser::CastExpr& c) {
  const parser::TypeName& tn = c.type;
  int tloc = tn.location >= 0 ? tn.location : c.location;
  const types::TypeInfo* ti = nullptr;
  ti = types::LookupTypeByQualifiedName(tn.schema, tn.name);
  if (ti == nullptr || ti->category == types::TypeCategory::kPseudo) {
    std::string full = tn.schema.empty() ? tn.name : tn.schema + "." + tn.name;
    ThrowAt(DbError(sqlstate::kUndefinedObject, "type \"" + full + "\" does not exist"), tloc);
  }
  const Oid target = tn.is_array ? AtLocation(tloc, [&] { return ArrayTypeForName(tn, ti->oid); }) : ti->oid;
  int32_t typmod = AtLocation(tloc, [&] {
    return types::TypmodFromModifiers(ti->oid, tn.typmods.data(), static_cast<int>(tn.typmods.size()));
  });
  // ARRAY[...]::int[] types its elements from the cast (and may be empty).
  BoundExprPtr arg = c.arg->kind == parser::ExprKind::kArray && types::IsArrayType(target)
                         ? BindArrayConstructor(c.arg->As<parser::ArrayExpr>(), target, ctx_, ArrayHooks())
                         : Bind(*c.arg);
  return AtLocation(c.location, [&] {
    return Coerce(std::move(arg), target, typmod, CoercionContext::kExplicit, ctx_);
  });
}

BoundExprPtr Binder::BindSpecialFunc(const std::string& name, const parser::FuncCallExpr& f) {
  std::vector<BoundExprPtr> args;
  for (const auto& a : f.args) args.push_back(Bind(*a));
  if (name == "nullif") {
    if (args.size() != 2) {
      ThrowAt(DbError(sqlstate::kUndefinedFunction, "function nullif() does not exist"), f.location);
    }
    BoundExprPtr eq = OpCall("=", std::move(args[0]), std::move(args[1]), f.location);
    auto e = Node(BoundKind::kNullIf, eq->children[0]->type, f.location);
    e->func = eq->func;
    e->children = std::move(eq->children);
    return e;
  }
  const char* ctxname = name == "coalesce" ? "COALESCE" : (name == "greatest" ? "GREATEST" : "LEAST");
  if (args.empty()) {
    ThrowAt(DbError(sqlstate::kSyntaxError, std::string("syntax error at or near \")\"")), f.location);
  }
  Oid common = CommonType(args, ctxname, f.location);
  auto e = Node(name == "coalesce" ? BoundKind::kCoalesce : BoundKind::kMinMax, common, f.location);
  e->is_greatest = name == "greatest";
  e->children = std::move(args);
  return e;
}

BoundExprPtr Binder::BindFunc(const parser::FuncCallExpr& f) {
  const std::string& name = f.name.back();
  if (f.name.size() > 1 && f.name[f.name.size() - 2] != "pg_catalog" && f.name[f.name.size() - 2] != "public") {
    ThrowAt(DbError(sqlstate::kInvalidSchemaName,
                    "schema \"" + f.name[f.name.size() - 2] + "\" does not exist"),
            f.location);
  }
  if (f.over) {
    if (ctx_.bind_window) return ctx_.bind_window(f, ctx_);
    ThrowAt(DbError(sqlstate::kWindowingError, ctx_.window_clause
                                                   ? std::string("window functions are not allowed in ") + ctx_.window_clause
                                                   : std::string("window functions are not allowed here")),
            f.location);
  }
  if (name == "coalesce" || name == "nullif" || name == "greatest" || name == "least") {
    return BindSpecialFunc(name, f);
  }
  if (name == "pg_typeof" && f.args.size() == 1 && !f.star && !f.distinct && !f.filter) {
    // The argument's type is known once bound: the call is a constant.
    BoundExprPtr arg = Bind(*f.args[0]);
    return MakeConst(Value::Int(types::kRegtypeOid, arg->type), f.location);
  }
  // A set-returning function's call is the context's to place (ProjectSet,
  // FunctionScan) or reject.
  const bool is_srf = types::FunctionNameExists(name, types::FuncKind::kSetReturning);
  bool is_agg = !is_srf && types::FunctionNameExists(name, types::FuncKind::kAggregate);
  if (!is_agg && (f.star || f.distinct || f.filter || !f.agg_order.empty())) {
    std::string what = f.star ? name + "(*)" : (f.distinct ? "DISTINCT" : (f.filter ? "FILTER" : "ORDER BY"));
    ThrowAt(DbError(sqlstate::kWrongObjectType,
                    what + " specified, but " + name + " is not an aggregate function"),
            f.location);
  }
  std::vector<BoundExprPtr> args;
  std::vector<Oid> ts;
  for (const auto& a : f.args) {
    args.push_back(Bind(*a));
    ts.push_back(args.back()->type);
  }
  if (f.within_group) {
    // Ordered-set aggregates resolve over direct + WITHIN GROUP arguments.
    for (const auto& sb : f.agg_order) {
      args.push_back(Bind(*sb.expr));
      ts.push_back(args.back()->type);
    }
    if (is_agg && types::IsHypotheticalSetAggregate(name)) UnifyHypotheticalArgs(f, args, ts, ctx_);
  }
  // User-defined functions: for names no built-in has, or when no built-in
  // signature matches (user_functions.h).
  const bool builtin_name = is_srf || is_agg || types::FunctionNameExists(name, types::FuncKind::kFunction);
  if (!builtin_name || (f.name.size() > 1 && f.name[f.name.size() - 2] == "public")) {
    if (BoundExprPtr u = BindUserFunction(f, args, ctx_)) return u;
  }
  types::ResolvedFunc r;
  try {
    // f(..., VARIADIC arr) binds to the function's array form when it has one.
    const bool variadic_form = f.variadic && types::FunctionNameExists(types::VariadicArrayForm(name),
                                                                       types::FuncKind::kFunction);
    r = AtLocation(f.location, [&] {
      return types::ResolveFunction(variadic_form ? std::string_view(types::VariadicArrayForm(name)) : name, ts,
                                    is_srf   ? types::FuncKind::kSetReturning
                                    : is_agg ? types::FuncKind::kAggregate
                                             : types::FuncKind::kFunction);
    });
  } catch (const DbError& e) {
    if (e.sqlstate() != sqlstate::kUndefinedFunction || !builtin_name) throw;
    if (BoundExprPtr u = BindUserFunction(f, args, ctx_)) return u;
    throw;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = Coerce(std::move(args[i]), r.arg_types[i], -1, CoercionContext::kImplicit, ctx_);
  }
  if (is_srf) {
    if (ctx_.bind_srf) return ctx_.bind_srf(f, std::move(args), r, ctx_);
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "set-returning functions are not allowed in this context"),
            f.location);
  }
  if (is_agg) {
    CheckOrderedSetCall(f);
    if (ctx_.bind_aggregate) return ctx_.bind_aggregate(f, std::move(args), r, ctx_);
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "aggregate functions are not supported yet"),
            f.location);
  }
  auto e = Node(BoundKind::kFuncCall, r.result_type, f.location);
  e->func = r.sig;
  e->children = std::move(args);
  return e;
}

BoundExprPtr Binder::BindSqlValue(const parser::SqlValueFunctionExpr& s) {
  using Op = parser::SqlValueFunctionOp;
  const char* fn = nullptr;
  switch (s.op) {
    case Op::kCurrentDate: fn = "current_date"; break;
    case Op::kCurrentTimestamp: fn = "now"; break;
    case Op::kLocalTimestamp: fn = "localtimestamp"; break;
    case Op::kCurrentRole:
    case Op::kCurrentUser:
    case Op::kUser: fn = "current_user"; break;
    case Op::kSessionUser: fn = "session_user"; break;
    case Op::kCurrentCatalog: fn = "current_database"; break;
    case Op::kCurrentSchema: fn = "current_schema"; break;
    case Op::kCurrentTime: fn = "current_time"; break;
    case Op::kLocalTime: fn = "localtime"; break;
  }
  types::ResolvedFunc r = types::ResolveFunction(fn, {});
  auto e = Node(BoundKind::kFuncCall, r.result_type, s.location);
  e->func = r.sig;
  // current_time(p) / localtime(p): the value rounded to p digits.
  bool is_time = s.op == Op::kCurrentTime || s.op == Op::kLocalTime;
  if (is_time && s.typmod >= 0) {
    return Coerce(std::move(e), r.result_type, std::min(s.typmod, 6), types::CoercionContext::kExplicit, ctx_);
  }
  return e;
}

// Strength of a derived column name, as PostgreSQL's FigureColnameInternal:
// 2 = a real name, 1 = a fallback like "case"/type name, 0 = none.
int FigureName(const parser::Expr& x, std::string* name) {
  using parser::ExprKind;
  switch (x.kind) {
    case ExprKind::kColumnRef: {
      const auto& c = x.As<parser::ColumnRefExpr>();
      if (c.star || c.fields.empty()) return 0;
      *name = c.fields.back();
      return 2;
    }
    case ExprKind::kFuncCall:
      *name = x.As<parser::FuncCallExpr>().name.back();
      return 2;
    case ExprKind::kCast: {
      const auto& c = x.As<parser::CastExpr>();
      int s = FigureName(*c.arg, name);
      if (s < 2) {
        *name = c.type.name;
        s = 1;
      }
      return s;
    }
    case ExprKind::kCase: {
      const auto& c = x.As<parser::CaseExpr>();
      int s = c.else_result ? FigureName(*c.else_result, name) : 0;
      if (s <= 1) {
        *name = "case";
        s = 1;
      }
      return s;
    }
    case ExprKind::kCollate:
      return FigureName(*x.As<parser::CollateExpr>().arg, name);
    case ExprKind::kSubscript:  // a[1] is named after a, as in PostgreSQL
      return FigureName(*x.As<parser::SubscriptExpr>().arg, name);
    case ExprKind::kConst:
      // PostgreSQL 15 keeps TRUE/FALSE as plain constants: "?column?".
      return 0;
    case ExprKind::kSqlValueFunction: {
      using Op = parser::SqlValueFunctionOp;
      switch (x.As<parser::SqlValueFunctionExpr>().op) {
        case Op::kCurrentDate: *name = "current_date"; break;
        case Op::kCurrentTime: *name = "current_time"; break;
        case Op::kCurrentTimestamp: *name = "current_timestamp"; break;
        case Op::kLocalTime: *name = "localtime"; break;
        case Op::kLocalTimestamp: *name = "localtimestamp"; break;
        case Op::kCurrentRole: *name = "current_role"; break;
        case Op::kCurrentUser: *name = "current_user"; break;
        case Op::kSessionUser: *name = "session_user"; break;
        case Op::kUser: *name = "user"; break;
        case Op::kCurrentCatalog: *name = "current_catalog"; break;
        case Op::kCurrentSchema: *name = "current_schema"; break;
      }
      return 2;
    }
    case ExprKind::kSubLink: {
      const auto& s = x.As<parser::SubLinkExpr>();
      if (s.sublink_kind == parser::SubLinkKind::kExists) {
        *name = "exists";
        return 2;
      }
      if (s.sublink_kind == parser::SubLinkKind::kArray) {
        *name = "array";
        return 2;
      }
      if (s.sublink_kind != parser::SubLinkKind::kExpr || !s.subselect) return 0;
      // The subquery's single column's name (its first arm's for a set operation).
      const parser::SelectStmt* q = s.subselect.get();
      while (q->set_op != parser::SetOpKind::kNone && q->larg) q = q->larg.get();
      if (!q->values_lists.empty()) {
        *name = "column1";
        return 2;
      }
      if (q->targets.empty() || !q->targets[0].expr || q->targets[0].expr->kind == ExprKind::kStar) return 0;
      if (!q->targets[0].alias.empty()) {
        *name = q->targets[0].alias;
      } else if (FigureName(*q->targets[0].expr, name) == 0) {
        *name = "?column?";
      }
      return 2;
    }
    case ExprKind::kArray:
      *name = "array";
      return 2;
    case ExprKind::kRow:
      *name = "row";
      return 2;
    default:
      return 0;
  }
}

}  // namespace

BoundExprPtr Coerce(BoundExprPtr e, Oid target, int32_t typmod, CoercionContext cc,
                    BindContext& ctx) {
  if (types::FindDomainType(target) != nullptr) {
    // A domain: the value becomes its (innermost) base type, then meets the
    // constraints of the whole stack of domains in one node.
    int32_t base_typmod = typmod;
    const Oid base_type = types::DomainBaseType(target, &base_typmod);
    BoundExprPtr base = Coerce(std::move(e), base_type, base_typmod, cc, ctx);
    auto c = Node(BoundKind::kCoerceToDomain, base->type, base->location);
    c->typmod = base->typmod;
    c->value = types::Value::Int(types::kOidOid, target);
    c->children.push_back(std::move(base));
    return c;
  }
  if (target == types::kAnyOid || target == types::kAnyNonArrayOid || types::IsArrayPolyType(target)) return e;
  if (e->type == target && (typmod < 0 || typmod == e->typmod)) return e;
  if (e->kind == BoundKind::kParam && e->type == types::kUnknownOid) {
    // PostgreSQL's variable parameters: the first context fixes the type.
    ctx.param_types[static_cast<size_t>(e->index)] = target;
    e->type = target;
    if (typmod < 0) return e;
  }
  if (e->kind == BoundKind::kConst && e->type == types::kUnknownOid) {
    const Value& v = e->value;
    // Bad input (22P02) points at the literal; the length/precision check
    // of the typmod (22001/22003) carries no position, as in PostgreSQL,
    // where it runs as a separate coercion step.
    Value out = v.is_null ? Value::Null(target) : AtLocation(e->location, [&] {
      return types::InputValue(target, types::kNoTypmod, v.str);
    });
    if (!out.is_null && typmod >= 0) out = types::CastValue(out, target, typmod, cc);
    BoundExprPtr c = MakeConst(std::move(out), e->location);
    c->typmod = typmod;
    return c;
  }
  if (!types::CanCoerce(e->type, target, cc)) {
    ThrowAt(DbError(sqlstate::kCannotCoerce, "cannot cast type " + types::FormatType(e->type) +
                                                 " to " + types::FormatType(target, typmod)),
            e->location);
  }
  auto c = Node(BoundKind::kCast, target, e->location);
  c->typmod = typmod;
  c->cast_context = cc;
  c->children.push_back(std::move(e));
  return c;
}

BoundExprPtr BindOperator(const std::string& op, BoundExprPtr l, BoundExprPtr r, int location, BindContext& ctx) {
  Binder b(ctx);
  return b.OpCall(op, std::move(l), std::move(r), location);
}

BoundExprPtr BindExpr(const parser::Expr& expr, BindContext& ctx) {
  Binder b(ctx);
  return b.Bind(expr);
}

BoundExprPtr BindCondition(const parser::Expr& expr, BindContext& ctx, const char* what) {
  Binder b(ctx);
  return b.Condition(expr, what);
}

BoundExprPtr ResolveUnknownOutput(BoundExprPtr e, BindContext& ctx) {
  if (e->type != types::kUnknownOid) return e;
  return Coerce(std::move(e), types::kTextOid, types::kNoTypmod, CoercionContext::kImplicit, ctx);
}

std::vector<Oid> FinalParamTypes(const BindContext& ctx) {
  for (size_t i = 0; i < ctx.param_types.size(); ++i) {
    if (IsUnknownParamType(ctx.param_types[i])) {
      throw DbError(sqlstate::kIndeterminateDatatype,
                    "could not determine data type of parameter $" + std::to_string(i + 1));
    }
  }
  return ctx.param_types;
}

std::string OutputColumnName(const parser::Expr& expr) {
  std::string name;
  if (FigureName(expr, &name) > 0) return name;
  return "?column?";
}

ResultColumn DescribeResult(const BoundExpr& e) {
  return ResultColumn{e.type, types::TypeLength(e.type), e.typmod};
}

}  // namespace hearth::executor
