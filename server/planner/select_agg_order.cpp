// server/planner/select_agg_order.cpp
//
// Sorted aggregate input: `agg(x ORDER BY y)` and the ordered-set
// aggregates `f(d) WITHIN GROUP (ORDER BY x)` (see executor AggSpec). ORDER
// BY items of an aggregate are expressions (an integer constant is a
// constant, not an ordinal) bound on the input row; one structurally equal
// to an argument sorts by that argument, others become extra values the
// aggregate buffers. With DISTINCT every ORDER BY item must be an argument
// (42P10), as PostgreSQL requires.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/agg_nodes.h"
#include "executor/nodes/sort_node.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

int LeftmostLocation(const parser::Expr& e) {
  int loc = e.location;
  ForEachChild(e, [&loc](const parser::Expr& c) {
    int l = LeftmostLocation(c);
    if (l >= 0 && (loc < 0 || l < loc)) loc = l;
  });
  return loc;
}

void QueryPlanner::BindAggregateOrder(const parser::FuncCallExpr& f, executor::AggSpec& spec, BindContext& ctx,
                                      SelectParts& p) {
  if (f.agg_order.empty()) return;
  if (f.within_group) {
    // The binder appended the WITHIN GROUP expressions to the arguments.
    spec.direct_args = static_cast<int>(f.args.size());
    for (size_t i = 0; i < f.agg_order.size(); ++i) {
      const parser::SortBy& sb = f.agg_order[i];
      spec.order.push_back(MakeSortKey(spec.direct_args + static_cast<int>(i), sb, Deparse(*sb.expr, p.scope.Namer())));
    }
    return;
  }
  for (const parser::SortBy& sb : f.agg_order) {
    ctx.param_types = st_.params;
    BoundExprPtr b = executor::BindExpr(*sb.expr, ctx);
    st_.params = ctx.param_types;
    int col = -1;
    for (size_t i = 0; i < spec.args.size() && col < 0; ++i) {
      if (SameExpr(*b, *spec.args[i].expr)) col = static_cast<int>(i);
    }
    if (col < 0 && spec.distinct) {
      ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                      "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"),
              LeftmostLocation(*sb.expr));
    }
    std::string text = Deparse(*sb.expr, p.scope.Namer());
    if (col < 0) {
      col = static_cast<int>(spec.args.size() + spec.order_exprs.size());
      spec.order_exprs.push_back(PlanExpr{std::move(b), text});
    }
    spec.order.push_back(MakeSortKey(col, sb, text));
  }
}

ExecNodePtr QueryPlanner::SortGroupsIfOrdered(std::unique_ptr<executor::AggregateNode> agg) {
  const size_t nkeys = agg->columns().size() - agg->aggregate_count();
  if (nkeys == 0 || !agg->NeedsSortedGroups()) return agg;
  std::vector<executor::SortKey> keys;
  for (size_t k = 0; k < nkeys; ++k) {
    executor::SortKey key;
    key.column = static_cast<int>(k);
    key.text = agg->columns()[k].name;
    keys.push_back(std::move(key));
  }
  const size_t width = agg->columns().size();
  return std::make_unique<executor::SortNode>(std::move(agg), std::move(keys), width);
}

}  // namespace hearth::planner
