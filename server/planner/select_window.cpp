// server/planner/select_window.cpp
//
// Window functions of a plain SELECT: where they may appear (42P20/42803),
// binding a call with its window (arguments, PARTITION BY, ORDER BY and
// frame become input columns; equal specifications share one window), and
// the WindowAgg nodes between HAVING and the final projection: one per
// distinct window, each over a Sort on PARTITION BY + ORDER BY unless the
// rows already arrive in that order.
#include "planner/select_window.h"

#include <algorithm>
#include <functional>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/basic_nodes.h"
#include "utils/adt/func_registry.h"

namespace hearth::planner {

namespace {

// Sets a flag for the lifetime of the guard (binding may throw).
class FlagGuard {
 public:
  explicit FlagGuard(bool& f) : f_(f) { f_ = true; }
  ~FlagGuard() { f_ = false; }
  FlagGuard(const FlagGuard&) = delete;
  FlagGuard& operator=(const FlagGuard&) = delete;

 private:
  bool& f_;
};

bool IsWindowCall(const parser::Expr& e) {
  return e.kind == parser::ExprKind::kFuncCall && e.As<parser::FuncCallExpr>().over != nullptr;
}

// The first window call in e (not inside subqueries), or null.
const parser::Expr* FindWindowCall(const parser::Expr& e) {
  if (IsWindowCall(e)) return &e;
  const parser::Expr* found = nullptr;
  ForEachChild(e, [&](const parser::Expr& c) {
    if (!found) found = FindWindowCall(c);
  });
  return found;
}

// Window calls inside aggregate arguments → 42803; returns whether e has any.
bool ScanWindowPlacement(const parser::Expr& e, bool in_agg) {
  if (IsWindowCall(e)) {
    if (in_agg) {
      ThrowAt(DbError(sqlstate::kGroupingError, "aggregate function calls cannot contain window function calls"),
              e.location);
    }
    return true;
  }
  if (e.kind == parser::ExprKind::kFuncCall && IsAggregateCall(e.As<parser::FuncCallExpr>())) in_agg = true;
  bool any = false;
  ForEachChild(e, [&](const parser::Expr& c) { any = ScanWindowPlacement(c, in_agg) || any; });
  return any;
}

// EXPLAIN text of a sort key: a computed key is parenthesized, as
// PostgreSQL shows "Sort Key: ((x + 1)), (count(*)), y".
std::string SortKeyText(const PlanExpr& input) {
  return input.expr->kind == BoundKind::kColumn ? input.text : "(" + input.text + ")";
}

bool SameKeys(const std::vector<executor::SortKey>& a, const std::vector<executor::SortKey>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].column != b[i].column || a[i].descending != b[i].descending || a[i].nulls_first != b[i].nulls_first) {
      return false;
    }
  }
  return true;
}

bool SameFunc(const executor::WindowFunc& a, const executor::WindowFunc& b) {
  return a.kind == b.kind && a.agg == b.agg && a.args == b.args && a.filter == b.filter &&
         a.result_type == b.result_type;
}

const char* FrameModeName(parser::FrameMode m) {
  switch (m) {
    case parser::FrameMode::kRows: return "ROWS";
    case parser::FrameMode::kGroups: return "GROUPS";
    case parser::FrameMode::kRange: break;
  }
  return "RANGE";
}

executor::WinBound ToBound(parser::FrameBoundKind k) {
  using K = parser::FrameBoundKind;
  switch (k) {
    case K::kUnboundedPreceding: return executor::WinBound::kUnboundedPreceding;
    case K::kPreceding: return executor::WinBound::kPreceding;
    case K::kCurrentRow: return executor::WinBound::kCurrentRow;
    case K::kFollowing: return executor::WinBound::kFollowing;
    case K::kUnboundedFollowing: break;
  }
  return executor::WinBound::kUnboundedFollowing;
}

// The type RANGE offsets are coerced to for an ORDER BY column type; 0 if none.
types::Oid RangeOffsetType(types::Oid column) {
  switch (column) {
    case types::kInt2Oid:
    case types::kInt4Oid:
    case types::kInt8Oid: return types::kInt8Oid;
    case types::kFloat4Oid:
    case types::kFloat8Oid: return types::kFloat8Oid;
    case types::kNumericOid: return types::kNumericOid;
    case types::kDateOid:
    case types::kTimestampOid:
    case types::kTimestampTzOid:
    case types::kIntervalOid: return types::kIntervalOid;
    default: return types::kInvalidOid;
  }
}

// RANGE over a datetime column: `cur op off` bound on the row [cur, off].
BoundExprPtr ShiftedValue(const char* op, types::Oid column) {
  BindContext ctx;
  types::ResolvedFunc f = types::ResolveOperator(op, column, types::kIntervalOid);
  auto e = std::make_unique<BoundExpr>(BoundKind::kFuncCall, f.result_type);
  e->func = f.sig;
  e->children.push_back(executor::Coerce(MakeColumn(0, column, types::kNoTypmod), f.arg_types[0], types::kNoTypmod,
                                         types::CoercionContext::kImplicit, ctx));
  e->children.push_back(executor::Coerce(MakeColumn(1, types::kIntervalOid, types::kNoTypmod), f.arg_types[1],
                                         types::kNoTypmod, types::CoercionContext::kImplicit, ctx));
  return e;
}

}  // namespace

void QueryPlanner::SetUpWindows(SelectParts& p) {
  CheckWindowClause(p.s);
  if (p.s.having) {
    if (const parser::Expr* w = FindWindowCall(*p.s.having)) {
      ThrowAt(DbError(sqlstate::kWindowingError, "window functions are not allowed in HAVING"), w->location);
    }
  }
  CheckWindowDefinitions(p);
  bool any = false;
  for (const TargetSpec& t : p.targets) any = ScanWindowPlacement(*t.expr, false) || any;
  for (const parser::SortBy& sb : p.s.order_by) any = ScanWindowPlacement(*sb.expr, false) || any;
  if (!any) return;
  if (!p.s.locking.empty()) {
    throw DbError(sqlstate::kFeatureNotSupported,
                  std::string(LockingClauseName(p.s.locking.front().strength)) + " is not allowed with window functions");
  }
  p.win = std::make_shared<WindowParts>();
  p.index_ordered = false;  // window sorts reorder the rows
  p.out_ctx.bind_window = [this, &p](const parser::FuncCallExpr& f, BindContext& ctx) {
    return BindWindowCall(f, ctx, p);
  };
}

// The WINDOW clause's expressions must bind even when no call uses them
// (42703 for an unknown column, as PostgreSQL); the results are dropped.
void QueryPlanner::CheckWindowDefinitions(SelectParts& p) {
  if (p.s.windows.empty()) return;
  const char* saved = p.out_ctx.window_clause;
  p.out_ctx.window_clause = "window definitions";
  p.out_ctx.param_types = st_.params;
  for (const auto& w : p.s.windows) {
    for (const parser::ExprPtr& e : w->partition_by) executor::BindExpr(*e, p.out_ctx);
    for (const parser::SortBy& sb : w->order_by) executor::BindExpr(*sb.expr, p.out_ctx);
  }
  st_.params = p.out_ctx.param_types;
  p.out_ctx.window_clause = saved;
}

// An input column (deduplicated structurally) for a bound expression.
int QueryPlanner::WindowInput(BoundExprPtr e, const parser::Expr& source, SelectParts& p) {
  std::vector<PlanExpr>& in = p.win->inputs;
  for (size_t i = 0; i < in.size(); ++i) {
    if (SameExpr(*in[i].expr, *e)) return static_cast<int>(i);
  }
  ConvertOuterRefs(*e);
  in.push_back(PlanExpr{std::move(e), Deparse(source, p.scope.Namer())});
  return static_cast<int>(in.size() - 1);
}

BoundExprPtr QueryPlanner::BindWindowCall(const parser::FuncCallExpr& f, BindContext& ctx, SelectParts& p) {
  WindowParts& w = *p.win;
  if (w.in_definition) {
    ThrowAt(DbError(sqlstate::kWindowingError, "window functions are not allowed in window definitions"), f.location);
  }
  if (w.in_call) ThrowAt(DbError(sqlstate::kWindowingError, "window function calls cannot be nested"), f.location);
  const ResolvedWindow rw = ResolveWindow(*f.over, p.s);
  std::vector<BoundExprPtr> args;
  BoundExprPtr filter;
  {
    FlagGuard guard(w.in_call);
    for (const parser::ExprPtr& a : f.args) args.push_back(executor::BindExpr(*a, ctx));
    if (f.filter && types::FunctionNameExists(f.name.back(), types::FuncKind::kAggregate)) {
      filter = executor::BindCondition(*f.filter, ctx, "FILTER");
    }
  }
  ResolvedWindowFunc call = ResolveWindowFunc(f, std::move(args), ctx);
  WindowGroup spec;
  {
    FlagGuard guard(w.in_definition);
    for (const parser::ExprPtr& e : *rw.partition) {
      int col = WindowInput(executor::BindExpr(*e, ctx), *e, p);
      spec.partition.push_back(executor::SortKey{col, false, false, SortKeyText(p.win->inputs[static_cast<size_t>(col)])});
    }
    for (const parser::SortBy& sb : *rw.order) {
      int col = WindowInput(executor::BindExpr(*sb.expr, ctx), *sb.expr, p);
      spec.order.push_back(MakeSortKey(col, sb, SortKeyText(p.win->inputs[static_cast<size_t>(col)])));
    }
  }
  // Frame offsets bind in a context of their own: the parameter types
  // in flight in `ctx` go through the statement-wide list and back.
  st_.params = ctx.param_types;
  spec.frame = BindFrame(rw, spec.order, p);
  ctx.param_types = st_.params;
  for (size_t k = 0; k < call.args.size(); ++k) {
    call.fn.args.push_back(WindowInput(std::move(call.args[k]), *f.args[k], p));
  }
  if (filter) call.fn.filter = WindowInput(std::move(filter), *f.filter, p);
  return WindowRef(std::move(spec), std::move(call.fn), f.location, p);
}

// The result of `fn` over window `spec`, sharing equal windows and calls.
BoundExprPtr QueryPlanner::WindowRef(WindowGroup spec, executor::WindowFunc fn, int location, SelectParts& p) {
  WindowParts& w = *p.win;
  size_t g = 0;
  while (g < w.groups.size() &&
         !(SameKeys(w.groups[g].partition, spec.partition) && SameKeys(w.groups[g].order, spec.order) &&
           SameFrame(w.groups[g].frame, spec.frame))) {
    ++g;
  }
  if (g == w.groups.size()) w.groups.push_back(std::move(spec));
  std::vector<executor::WindowFunc>& funcs = w.groups[g].funcs;
  size_t f = 0;
  while (f < funcs.size() && !SameFunc(funcs[f], fn)) ++f;
  const types::Oid type = fn.result_type;
  if (f == funcs.size()) funcs.push_back(std::move(fn));
  size_t n = 0;
  while (n < w.refs.size() && w.refs[n] != std::make_pair(g, f)) ++n;
  if (n == w.refs.size()) w.refs.emplace_back(g, f);
  auto ref = std::make_unique<BoundExpr>(BoundKind::kAggRef, type);
  ref->index = kWindowRefBase + static_cast<int>(n);
  ref->location = location;
  return ref;
}

// The frame clause: offsets must be constants (42P10) of type bigint for
// ROWS/GROUPS, of the ORDER BY column's offset type for RANGE.
executor::WindowFrameSpec QueryPlanner::BindFrame(const ResolvedWindow& rw, const std::vector<executor::SortKey>& order,
                                                  SelectParts& p) {
  executor::WindowFrameSpec spec;
  const parser::WindowFrame* fr = rw.frame;
  if (fr == nullptr) return spec;  // RANGE UNBOUNDED PRECEDING AND CURRENT ROW
  spec.mode = fr->mode == parser::FrameMode::kRows
                  ? executor::WinFrameMode::kRows
                  : (fr->mode == parser::FrameMode::kGroups ? executor::WinFrameMode::kGroups : executor::WinFrameMode::kRange);
  spec.start = ToBound(fr->start.kind);
  spec.end = ToBound(fr->end.kind);
  spec.exclude = static_cast<executor::WinExclude>(static_cast<int>(fr->exclusion));
  if (fr->mode == parser::FrameMode::kGroups && order.empty()) {
    ThrowAt(DbError(sqlstate::kWindowingError, "GROUPS mode requires an ORDER BY clause"), rw.location);
  }
  const bool has_offset = fr->start.offset || fr->end.offset;
  if (fr->mode == parser::FrameMode::kRange && has_offset && order.size() != 1) {
    ThrowAt(DbError(sqlstate::kWindowingError,
                    "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column"),
            rw.location);
  }
  types::Oid order_type = types::kInvalidOid;
  if (fr->mode == parser::FrameMode::kRange && has_offset) {
    order_type = p.win->inputs[static_cast<size_t>(order[0].column)].expr->type;
  }
  spec.start_offset = BindFrameOffset(fr->start.offset.get(), fr->mode, order_type);
  spec.end_offset = BindFrameOffset(fr->end.offset.get(), fr->mode, order_type);
  if (order_type != types::kInvalidOid && RangeOffsetType(order_type) == types::kIntervalOid) {
    spec.range_add = ShiftedValue("+", order_type);
    spec.range_sub = ShiftedValue("-", order_type);
  }
  return spec;
}

PlanExpr QueryPlanner::BindFrameOffset(const parser::Expr* e, parser::FrameMode mode, types::Oid order_type) {
  PlanExpr out;
  if (e == nullptr) return out;
  const std::string mode_name = FrameModeName(mode);
  std::function<void(const parser::Expr&)> no_vars = [&](const parser::Expr& x) {
    if (x.kind == parser::ExprKind::kColumnRef) {
      ThrowAt(DbError(sqlstate::kInvalidColumnReference, "argument of " + mode_name + " must not contain variables"),
              x.location);
    }
    ForEachChild(x, no_vars);
  };
  no_vars(*e);
  static const char* const kClause[] = {"window RANGE", "window ROWS", "window GROUPS"};
  BindContext ctx = Context(nullptr, kClause[static_cast<int>(mode)]);
  BoundExprPtr b = Bind(*e, ctx);
  types::Oid target = types::kInt8Oid;
  const bool range = mode == parser::FrameMode::kRange;
  if (range) {
    target = RangeOffsetType(order_type);
    if (target == types::kInvalidOid) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type " +
                                                          types::FormatType(order_type)),
              LeftmostLocation(*e));
    }
  }
  const auto cc = range ? types::CoercionContext::kImplicit : types::CoercionContext::kAssignment;
  if (b->type != types::kUnknownOid && !types::CanCoerce(b->type, target, cc)) {
    if (range) {
      DbError err(sqlstate::kFeatureNotSupported,
                  "RANGE with offset PRECEDING/FOLLOWING is not supported for column type " +
                      types::FormatType(order_type) + " and offset type " + types::FormatType(b->type));
      err.WithHint("Cast the offset value to an appropriate type.");
      ThrowAt(std::move(err), LeftmostLocation(*e));
    }
    ThrowAt(DbError(sqlstate::kDatatypeMismatch,
                    "argument of " + mode_name + " must be type bigint, not type " + types::FormatType(b->type)),
            e->location);
  }
  ctx.param_types = st_.params;
  try {
    // ROWS 1.5 PRECEDING is 2 rows: an assignment cast, as PostgreSQL.
    out.expr = executor::Coerce(std::move(b), target, types::kNoTypmod,
                                range ? types::CoercionContext::kImplicit : types::CoercionContext::kAssignment, ctx);
  } catch (DbError& err) {
    ThrowAt(std::move(err), e->location);
  }
  st_.params = ctx.param_types;
  out.text = Deparse(*e);
  return out;
}

}  // namespace hearth::planner
