// server/planner/select_grouping.cpp
//
// Aggregation of a plain SELECT: finding aggregate calls, GROUP BY keys,
// the select-list binding context above an aggregate (42803 for columns
// neither grouped nor aggregated), and matching whole expressions to
// GROUP BY keys structurally (`GROUP BY a + 1 ... SELECT a + 1`).
#include <functional>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

namespace {

bool HasOuterRef(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn && e.index >= kOuterRefBase) return true;
  for (const BoundExprPtr& c : e.children) {
    if (HasOuterRef(*c)) return true;
  }
  return false;
}

// An aggregate of `aggs` computing the same thing as `spec` (PostgreSQL
// shares one transition state between identical aggregate calls); -1 if none.
int FindSameAggregate(const std::vector<executor::AggSpec>& aggs, const executor::AggSpec& spec) {
  for (size_t i = 0; i < aggs.size(); ++i) {
    const executor::AggSpec& a = aggs[i];
    if (a.sig != spec.sig || a.distinct != spec.distinct || a.args.size() != spec.args.size() || a.ordered() ||
        spec.ordered() ||
        (a.filter.expr == nullptr) != (spec.filter.expr == nullptr)) {
      continue;
    }
    bool same = a.filter.expr == nullptr || SameExpr(*a.filter.expr, *spec.filter.expr);
    for (size_t k = 0; k < a.args.size() && same; ++k) same = SameExpr(*a.args[k].expr, *spec.args[k].expr);
    if (same) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

void QueryPlanner::FindAggregates(SelectParts& p) {
  p.targets = ExpandTargets(p.s.targets, p.scope);
  p.has_agg = !p.s.group_by.empty() || p.s.has_grouping_sets || p.s.having != nullptr;
  std::function<void(const parser::Expr&, bool)> scan = [&](const parser::Expr& e, bool inside) {
    if (e.kind == parser::ExprKind::kFuncCall && IsAggregateCall(e.As<parser::FuncCallExpr>())) {
      if (inside) ThrowAt(DbError(sqlstate::kGroupingError, "aggregate function calls cannot be nested"), e.location);
      p.has_agg = true;
      inside = true;
    }
    if (inside && e.kind == parser::ExprKind::kColumnRef) p.in_agg.insert(&e);
    ForEachChild(e, [&](const parser::Expr& c) { scan(c, inside); });
    if (e.kind == parser::ExprKind::kFuncCall) {
      for (const parser::SortBy& sb : e.As<parser::FuncCallExpr>().agg_order) scan(*sb.expr, inside);
    }
  };
  for (const TargetSpec& t : p.targets) scan(*t.expr, false);
  if (p.s.having) scan(*p.s.having, false);
  for (const parser::SortBy& sb : p.s.order_by) scan(*sb.expr, false);
  CheckSelectLocking(p.s, p.has_agg);
}

// GROUP BY item → the expression it groups by: ordinals and output names
// refer to the select list; other names are input columns.
const parser::Expr* QueryPlanner::GroupByExpr(const parser::ExprPtr& g, const SelectParts& p) {
  if (IsOrdinalConst(*g)) {
    int n = Ordinal(*g);
    if (n < 1 || n > static_cast<int>(p.targets.size())) {
      ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                      "GROUP BY position " + g->As<parser::ConstExpr>().value + " is not in select list"),
              g->location);
    }
    return p.targets[static_cast<size_t>(n - 1)].expr;
  }
  if (g->kind == parser::ExprKind::kColumnRef && g->As<parser::ColumnRefExpr>().fields.size() == 1) {
    const auto& c = g->As<parser::ColumnRefExpr>();
    bool is_input = false;
    try {
      p.scope.Find(c);
      is_input = true;
    } catch (const DbError&) {
    }
    if (!is_input) {
      for (const TargetSpec& t : p.targets) {
        if (t.name == c.fields[0]) return t.expr;
      }
    }
  }
  return g.get();
}

void QueryPlanner::BindGrouping(SelectParts& p) {
  if (p.has_agg) {
    for (const parser::ExprPtr& g : p.s.group_by) {
      const parser::Expr* ge = GroupByExpr(g, p);
      BindContext ctx = Context(&p.scope, "GROUP BY");
      BoundExprPtr b = Bind(*ge, ctx);
      p.group_keys.push_back(PlanExpr{std::move(b), Deparse(*ge, p.scope.Namer())});
    }
    MergeGroupingKeys(p);
    p.agg_base = static_cast<int>(p.group_keys.size());
    SetUpGroupedContext(p);
  } else {
    const Scope* scope = &p.scope;
    p.out_ctx.resolve_column = [scope](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
      return scope->Resolve(c);
    };
  }
  const Scope* scope = &p.scope;
  p.out_ctx.bind_sublink = [this, scope](const parser::SubLinkExpr& sl, BindContext& c) {
    return BindSublink(sl, c, scope);
  };
}

void QueryPlanner::SetUpGroupedContext(SelectParts& p) {
  p.out_ctx.resolve_column = [&p](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
    ColumnBinding in = p.scope.Resolve(c);
    if (p.in_agg.count(&c) || in.index >= kOuterRefBase) return in;
    for (size_t k = 0; k < p.group_keys.size(); ++k) {
      const BoundExpr& ke = *p.group_keys[k].expr;
      if (ke.kind == BoundKind::kColumn && ke.index == in.index) {
        return ColumnBinding{static_cast<int>(k), ke.type, ke.typmod};
      }
    }
    auto [entry, i] = p.scope.Find(c);
    throw DbError(sqlstate::kGroupingError, "column \"" + entry->alias + "." + entry->names[static_cast<size_t>(i)] +
                                                "\" must appear in the GROUP BY clause or be used in an aggregate function");
  };
  p.out_ctx.bind_aggregate = [this, &p](const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                        const types::ResolvedFunc& rf, BindContext& ctx) -> BoundExprPtr {
    if (std::string_view(rf.sig->name) == "grouping") return BindGroupingCall(f, std::move(args), rf, p);
    executor::AggSpec spec;
    spec.sig = rf.sig;
    spec.distinct = f.distinct;
    spec.result_type = rf.result_type;
    bool outer = false;
    for (auto& a : args) {
      outer = outer || HasOuterRef(*a);
      spec.args.push_back(PlanExpr{std::move(a), ""});
    }
    if (f.filter) {
      BindContext fctx = Context(&p.scope, "FILTER");
      fctx.param_types = st_.params;
      spec.filter = PlanExpr{executor::BindCondition(*f.filter, fctx, "FILTER"), Deparse(*f.filter, p.scope.Namer())};
      st_.params = fctx.param_types;
      outer = outer || HasOuterRef(*spec.filter.expr);
    }
    BindAggregateOrder(f, spec, ctx, p);
    for (const PlanExpr& o : spec.order_exprs) outer = outer || HasOuterRef(*o.expr);
    // Outer references become hidden parameters registered by address, so
    // only a spec that is kept may have them converted.
    int index = outer ? -1 : FindSameAggregate(p.aggs, spec);
    if (index < 0) {
      for (PlanExpr& a : spec.args) ConvertOuterRefs(*a.expr);
      if (spec.filter.expr) ConvertOuterRefs(*spec.filter.expr);
      for (PlanExpr& o : spec.order_exprs) ConvertOuterRefs(*o.expr);
      p.aggs.push_back(std::move(spec));
      index = static_cast<int>(p.aggs.size() - 1);
    }
    auto ref = std::make_unique<BoundExpr>(BoundKind::kAggRef, rf.result_type);
    ref->index = index;
    ref->location = f.location;
    return ref;
  };
}

BoundExprPtr QueryPlanner::MatchGroupKey(const parser::Expr& e, SelectParts& p) {
  if (p.group_keys.empty() || ContainsSublinkOrAggregate(e)) return nullptr;
  // Bound on the input row like the keys; a failure just means no match.
  BindContext ctx;
  const Scope* scope = &p.scope;
  ctx.resolve_column = [scope](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
    return scope->Resolve(c);
  };
  ctx.param_types = st_.params;
  BoundExprPtr b;
  try {
    b = executor::BindExpr(e, ctx);
  } catch (const DbError&) {
    return nullptr;
  }
  for (size_t k = 0; k < p.group_keys.size(); ++k) {
    const BoundExpr& key = *p.group_keys[k].expr;
    if (SameExpr(*b, key)) return MakeColumn(static_cast<int>(k), key.type, key.typmod);
  }
  return nullptr;
}

}  // namespace hearth::planner
