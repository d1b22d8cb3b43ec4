// server/planner/select_simple.cpp
//
// Principal entry point: QueryPlanner::PlanSimple — a SELECT without set
// operations or VALUES, planned in phases over one SelectParts: FROM and
// WHERE (select_from.cpp), aggregates and GROUP BY (select_grouping.cpp),
// then here the select list, HAVING, ORDER BY and the assembly of
// [Aggregate → HAVING] → Project → [Distinct] → [Sort] → [LockRows] → [Limit].
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/agg_nodes.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/sort_node.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

PlannedQuery QueryPlanner::PlanSimple(const parser::SelectStmt& s) {
  SetUpLocking(s);
  SelectParts p(s);
  std::vector<ExecNodePtr> items;
  std::vector<std::pair<int, int>> ranges;
  PlanFromClause(p, &items, &ranges);
  JoinFromItems(p, std::move(items), ranges);
  if (probe_ != nullptr && probe_->engaged) return PlannedQuery{std::move(p.node), {}, {}};  // sublink_hashed.cpp
  probe_ = nullptr;
  FindAggregates(p);
  BindGrouping(p);
  SetUpWindows(p);
  SetUpSrfTargets(p);
  BindSelectList(p);
  BindOrderBy(p);
  BindDistinctOn(p);
  UseIndexOrder(p);
  return AssembleSelect(p);
}

BoundExprPtr QueryPlanner::BindOutputTrial(const parser::Expr& e, SelectParts& p) {
  if (BoundExprPtr m = MatchGroupKey(e, p)) return m;
  p.out_ctx.param_types = st_.params;
  BoundExprPtr b = executor::BindExpr(e, p.out_ctx);
  st_.params = p.out_ctx.param_types;
  return b;
}

BoundExprPtr QueryPlanner::KeepBound(BoundExprPtr e) {
  ConvertOuterRefs(*e);
  return e;
}

void QueryPlanner::BindSelectList(SelectParts& p) {
  for (const TargetSpec& t : p.targets) {
    BoundExprPtr b = KeepBound(BindOutputTrial(*t.expr, p));
    if (!set_op_arm_) {
      // A set operation's arms keep unknown outputs ('1' UNION SELECT 2 is
      // int4); PlanSetOp resolves the column types across the arms.
      p.out_ctx.param_types = st_.params;
      b = executor::ResolveUnknownOutput(std::move(b), p.out_ctx);
      st_.params = p.out_ctx.param_types;
    }
    p.columns.push_back(Describe(t.name, *b));
    p.exprs.push_back(PlanExpr{std::move(b), Deparse(*t.expr, p.scope.Namer())});
  }
  // FOR UPDATE/SHARE: the FROM row rides along after the outputs up to LockRows.
  p.lock_width = AddLockColumns(p.s, p.scope, &p.exprs);
  if (p.s.having) {
    if (BoundExprPtr m = MatchGroupKey(*p.s.having, p)) {
      p.having.expr = std::move(m);
    } else {
      p.having.expr = BindCond(*p.s.having, p.out_ctx, "HAVING");
    }
    p.having.text = Deparse(*p.s.having, p.scope.Namer());
  }
}

// ORDER BY item → its column in the projection: an ordinal or output name,
// else a select-list entry structurally equal to it, else a new hidden
// ("junk") column the Sort drops.
int QueryPlanner::OrderByColumn(const parser::Expr& e, SelectParts& p, const char* clause) {
  const auto ntargets = static_cast<int>(p.targets.size());
  if (IsOrdinalConst(e)) {
    int n = Ordinal(e);
    if (n < 1 || n > ntargets) {
      ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                      std::string(clause) + " position " + e.As<parser::ConstExpr>().value + " is not in select list"),
              e.location);
    }
    return n - 1;
  }
  int col = -1;
  if (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().fields.size() == 1) {
    const std::string& name = e.As<parser::ColumnRefExpr>().fields[0];
    for (int i = 0; i < ntargets; ++i) {
      if (p.targets[static_cast<size_t>(i)].name != name) continue;
      if (col >= 0 && !SameExpr(*p.exprs[static_cast<size_t>(col)].expr, *p.exprs[static_cast<size_t>(i)].expr)) {
        ThrowAt(DbError(sqlstate::kAmbiguousColumn, std::string(clause) + " \"" + name + "\" is ambiguous"), e.location);
      }
      if (col < 0) col = i;
    }
    if (col >= 0) return col;
  }
  // A subquery is planned while it is bound, so it is never bound twice.
  const bool comparable = !ContainsSublink(e);
  BoundExprPtr b = comparable ? BindOutputTrial(e, p) : nullptr;
  for (int i = 0; b && i < ntargets; ++i) {
    if (SameExpr(*b, *p.exprs[static_cast<size_t>(i)].expr)) return i;
  }
  if (p.s.distinct && p.s.distinct_on.empty()) {
    ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                    "for SELECT DISTINCT, ORDER BY expressions must appear in select list"),
            e.location);
  }
  b = b ? KeepBound(std::move(b)) : KeepBound(BindOutputTrial(e, p));
  p.exprs.push_back(PlanExpr{std::move(b), Deparse(e, p.scope.Namer())});
  return static_cast<int>(p.exprs.size() - 1);
}

void QueryPlanner::BindOrderBy(SelectParts& p) {
  for (const parser::SortBy& sb : p.s.order_by) {
    int col = OrderByColumn(*sb.expr, p, "ORDER BY");
    p.keys.push_back(MakeSortKey(col, sb, p.exprs[static_cast<size_t>(col)].text));
  }
}

// An index scan already delivers this order: no Sort (only when every key
// is the plain table column the index order was chosen for).
void QueryPlanner::UseIndexOrder(SelectParts& p) {
  if (!p.index_ordered || p.has_agg || p.s.distinct || p.s.limit_with_ties || p.keys.size() != p.wanted_order.columns.size()) return;
  for (size_t k = 0; k < p.keys.size(); ++k) {
    const BoundExpr& e = *p.exprs[static_cast<size_t>(p.keys[k].column)].expr;
    if (e.kind != BoundKind::kColumn || e.index != p.wanted_order.columns[k] ||
        p.keys[k].descending != p.wanted_order.descending[k] || p.keys[k].nulls_first != p.wanted_order.nulls_first[k]) {
      return;
    }
  }
  p.keys.clear();
  p.exprs.resize(p.columns.size() + static_cast<size_t>(p.lock_width));  // sort junk existed only for the Sort
}

PlannedQuery QueryPlanner::AssembleSelect(SelectParts& p) {
  ExecNodePtr node = std::move(p.node);
  if (p.has_agg) {
    std::vector<OutputColumn> agg_cols;
    for (const PlanExpr& k : p.group_keys) agg_cols.push_back(Describe(k.text, *k.expr));
    for (const executor::AggSpec& a : p.aggs) agg_cols.push_back(OutputColumn{a.sig->name, a.result_type, types::kNoTypmod});
    if (p.s.has_grouping_sets || p.uses_grouping_func) {
      node = PlanGroupingSets(std::move(node), p, std::move(agg_cols));
    } else {
      auto agg = std::make_unique<executor::AggregateNode>(std::move(node), std::move(p.group_keys),
                                                           std::move(p.aggs), std::move(agg_cols));
      node = SortGroupsIfOrdered(std::move(agg));
    }
    if (p.having.expr) {
      std::vector<PlanExpr> h;
      h.push_back(std::move(p.having));
      node = AddFilter(std::move(node), std::move(h), p.agg_base);
    }
  }
  node = AddWindowAggs(std::move(node), p);
  std::vector<OutputColumn> proj_cols = p.columns;
  for (size_t i = p.columns.size(); i < p.exprs.size(); ++i) proj_cols.push_back(Describe("?sort?", *p.exprs[i].expr));
  node = AddProjectSet(std::move(node), p);
  node = std::make_unique<executor::ProjectNode>(std::move(node), std::move(p.exprs), proj_cols, p.agg_base);
  if (p.s.distinct && p.s.distinct_on.empty()) node = std::make_unique<executor::DistinctNode>(std::move(node));
  PlannedQuery q;
  node = AddSortAndDistinctOn(std::move(node), p, &q);
  node = AddLockRows(std::move(node), p.s, p.scope, p.targets, p.columns, p.lock_width);
  q.node = std::move(node);
  q.columns = std::move(p.columns);
  ApplyLimit(q, p.s);
  return q;
}

}  // namespace hearth::planner
