// server/planner/select_window_funcs.cpp
//
// Which function a window call is: one of the window functions
// (row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag,
// lead, first_value, last_value, nth_value) with PostgreSQL's signatures,
// or any aggregate used as a window aggregate; PostgreSQL's errors for the
// rest (42883, 42809, 0A000).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "planner/select_window.h"
#include "utils/adt/cast.h"

namespace hearth::planner {

namespace {

using executor::WindowFuncKind;

struct WindowFuncEntry {
  const char* name;
  WindowFuncKind kind;
  size_t min_args, max_args;
};

constexpr WindowFuncEntry kWindowFuncs[] = {
    {"row_number", WindowFuncKind::kRowNumber, 0, 0},   {"rank", WindowFuncKind::kRank, 0, 0},
    {"dense_rank", WindowFuncKind::kDenseRank, 0, 0},   {"percent_rank", WindowFuncKind::kPercentRank, 0, 0},
    {"cume_dist", WindowFuncKind::kCumeDist, 0, 0},     {"ntile", WindowFuncKind::kNtile, 1, 1},
    {"lag", WindowFuncKind::kLag, 1, 3},                {"lead", WindowFuncKind::kLead, 1, 3},
    {"first_value", WindowFuncKind::kFirstValue, 1, 1}, {"last_value", WindowFuncKind::kLastValue, 1, 1},
    {"nth_value", WindowFuncKind::kNthValue, 2, 2},
};

[[noreturn]] void NoSuchFunction(const parser::FuncCallExpr& f, const std::vector<BoundExprPtr>& args) {
  std::vector<types::Oid> ts;
  for (const BoundExprPtr& a : args) ts.push_back(a->type);
  try {
    types::ResolveFunction(f.name.back(), ts);
  } catch (DbError& e) {
    ThrowAt(std::move(e), f.location);
  }
  ThrowAt(DbError(sqlstate::kUndefinedFunction, "function " + f.name.back() + " does not exist"), f.location);
}

// Coerces args[i] to `to` implicitly; 42883 for the call when impossible.
void CoerceArg(std::vector<BoundExprPtr>& args, size_t i, types::Oid to, const parser::FuncCallExpr& f,
               BindContext& ctx) {
  if (args[i]->type != types::kUnknownOid && !types::CanCoerce(args[i]->type, to, types::CoercionContext::kImplicit)) {
    NoSuchFunction(f, args);
  }
  args[i] = executor::Coerce(std::move(args[i]), to, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
}

// The result type of lag/lead/first_value/...: the value's (unknown → text;
// lag/lead's default shares it: anycompatible).
types::Oid ValueType(std::vector<BoundExprPtr>& args, WindowFuncKind kind, const parser::FuncCallExpr& f,
                     BindContext& ctx) {
  std::vector<types::Oid> ts{args[0]->type};
  const bool has_default = (kind == WindowFuncKind::kLag || kind == WindowFuncKind::kLead) && args.size() == 3;
  if (has_default) ts.push_back(args[2]->type);
  if (args[0]->type == types::kUnknownOid && (!has_default || args[2]->type == types::kUnknownOid)) {
    throw DbError(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown");
  }
  types::Oid t;
  try {
    t = types::SelectCommonType(ts, f.name.back().c_str());
  } catch (DbError& e) {
    ThrowAt(std::move(e), f.location);
  }
  CoerceArg(args, 0, t, f, ctx);
  if (has_default) CoerceArg(args, 2, t, f, ctx);
  return t;
}

ResolvedWindowFunc ResolveBuiltinWindowFunc(const WindowFuncEntry& e, const parser::FuncCallExpr& f,
                                            std::vector<BoundExprPtr> args, BindContext& ctx) {
  if (f.distinct) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions"), f.location);
  }
  if (f.filter) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "FILTER is not implemented for non-aggregate window functions"),
            f.location);
  }
  if (f.star || args.size() < e.min_args || args.size() > e.max_args) NoSuchFunction(f, args);
  ResolvedWindowFunc r;
  r.fn.kind = e.kind;
  r.fn.name = e.name;
  switch (e.kind) {
    case WindowFuncKind::kRowNumber:
    case WindowFuncKind::kRank:
    case WindowFuncKind::kDenseRank:
      r.fn.result_type = types::kInt8Oid;
      break;
    case WindowFuncKind::kPercentRank:
    case WindowFuncKind::kCumeDist:
      r.fn.result_type = types::kFloat8Oid;
      break;
    case WindowFuncKind::kNtile:
      CoerceArg(args, 0, types::kInt4Oid, f, ctx);
      r.fn.result_type = types::kInt4Oid;
      break;
    default:
      r.fn.result_type = ValueType(args, e.kind, f, ctx);
      if (args.size() > 1) CoerceArg(args, 1, types::kInt4Oid, f, ctx);
      break;
  }
  r.args = std::move(args);
  return r;
}

}  // namespace

ResolvedWindowFunc ResolveWindowFunc(const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                     BindContext& ctx) {
  const std::string& name = f.name.back();
  for (const WindowFuncEntry& e : kWindowFuncs) {
    if (name == e.name) return ResolveBuiltinWindowFunc(e, f, std::move(args), ctx);
  }
  if (!types::FunctionNameExists(name, types::FuncKind::kAggregate)) {
    if (types::FunctionNameExists(name, types::FuncKind::kFunction)) {
      ThrowAt(DbError(sqlstate::kWrongObjectType,
                      "OVER specified, but " + name + " is not a window function nor an aggregate function"),
              f.location);
    }
    NoSuchFunction(f, args);
  }
  if (f.distinct) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions"), f.location);
  }
  if (!f.agg_order.empty()) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "aggregate ORDER BY is not implemented for window functions"),
            f.location);
  }
  if (name == "count" && args.empty() && !f.star) {
    ThrowAt(DbError(sqlstate::kWrongObjectType, "count(*) must be used to call a parameterless aggregate function"),
            f.location);
  }
  std::vector<types::Oid> ts;
  for (const BoundExprPtr& a : args) ts.push_back(a->type);
  types::ResolvedFunc rf;
  try {
    rf = types::ResolveFunction(name, ts, types::FuncKind::kAggregate);
  } catch (DbError& e) {
    ThrowAt(std::move(e), f.location);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = executor::Coerce(std::move(args[i]), rf.arg_types[i], -1, types::CoercionContext::kImplicit, ctx);
  }
  ResolvedWindowFunc r;
  r.fn.kind = WindowFuncKind::kAggregate;
  r.fn.agg = rf.sig;
  r.fn.result_type = rf.result_type;
  r.fn.name = name;
  r.args = std::move(args);
  return r;
}

}  // namespace hearth::planner
