// server/planner/select_window_plan.cpp
//
// Principal entry point: QueryPlanner::AddWindowAggs — the WindowAgg nodes
// of a SELECT between HAVING and the final projection:
//   Project (rows + window inputs) → [Sort] → WindowAgg → [Sort] → WindowAgg …
// Windows are ordered as PostgreSQL does (a window whose sort keys are a
// prefix of another's follows it, so one Sort serves both), and the window
// references of the final projection become columns of the last node.
#include <algorithm>
#include <numeric>

#include "executor/nodes/basic_nodes.h"
#include "planner/select_window.h"

namespace hearth::planner {

namespace {

std::vector<executor::SortKey> SortKeysOf(const WindowGroup& g) {
  std::vector<executor::SortKey> keys = g.partition;
  keys.insert(keys.end(), g.order.begin(), g.order.end());
  return keys;
}

bool SameKey(const executor::SortKey& a, const executor::SortKey& b) {
  return a.column == b.column && a.descending == b.descending && a.nulls_first == b.nulls_first;
}

// `want` is satisfied by rows sorted on `have`.
bool IsPrefix(const std::vector<executor::SortKey>& want, const std::vector<executor::SortKey>& have) {
  if (want.size() > have.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SameKey(want[i], have[i])) return false;
  }
  return true;
}

// PostgreSQL's common_prefix_cmp: later-introduced keys first; a list
// before its own prefixes.
bool EvaluatedBefore(const std::vector<executor::SortKey>& a, const std::vector<executor::SortKey>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].column != b[i].column) return a[i].column > b[i].column;
    if (a[i].descending != b[i].descending) return a[i].descending;
    if (a[i].nulls_first != b[i].nulls_first) return a[i].nulls_first;
  }
  return a.size() > b.size();
}

void ShiftKeys(std::vector<executor::SortKey>& keys, int delta) {
  for (executor::SortKey& k : keys) k.column += delta;
}

// Window references (kAggRef ≥ kWindowRefBase) → the columns in `cols`.
void RewriteWindowRefs(BoundExpr& e, const std::vector<int>& cols, int agg_base) {
  if (e.kind == BoundKind::kAggRef && e.index >= kWindowRefBase) {
    const int col = cols[static_cast<size_t>(e.index - kWindowRefBase)];
    if (agg_base >= 0) {
      e.index = col - agg_base;  // above an aggregate kAggRef reads row[agg_base + index]
    } else {
      e.kind = BoundKind::kColumn;
      e.index = col;
    }
  }
  for (BoundExprPtr& c : e.children) RewriteWindowRefs(*c, cols, agg_base);
}

// For each final ORDER BY key, the window input it sorts by (-1: none).
std::vector<int> OrderByInputs(const SelectParts& p) {
  std::vector<int> out;
  for (const executor::SortKey& k : p.keys) {
    const BoundExpr& e = *p.exprs[static_cast<size_t>(k.column)].expr;
    int found = -1;
    for (size_t i = 0; i < p.win->inputs.size() && found < 0; ++i) {
      if (SameExpr(e, *p.win->inputs[i].expr)) found = static_cast<int>(i);
    }
    out.push_back(found);
  }
  return out;
}

// The rows leave the last WindowAgg sorted on `sorted_on`: a final ORDER BY
// that is a prefix of it needs no Sort (as PostgreSQL). DISTINCT may
// reorder rows, so it keeps its Sort.
void DropSatisfiedSort(SelectParts& p, const std::vector<int>& inputs, const std::vector<executor::SortKey>& sorted_on,
                       int base) {
  if (p.keys.empty() || p.s.distinct || p.keys.size() > sorted_on.size()) return;
  for (size_t k = 0; k < p.keys.size(); ++k) {
    const executor::SortKey& want = p.keys[k];
    const executor::SortKey& have = sorted_on[k];
    if (inputs[k] < 0 || have.column != base + inputs[k] || want.descending != have.descending ||
        want.nulls_first != have.nulls_first) {
      return;
    }
  }
  p.keys.clear();
  p.exprs.resize(p.columns.size() + static_cast<size_t>(p.lock_width));  // sort junk existed only for the Sort
}

}  // namespace

// The rows below the windows followed by every window input.
ExecNodePtr QueryPlanner::ProjectWindowInputs(ExecNodePtr node, SelectParts& p) {
  const std::vector<OutputColumn> in_cols = node->columns();
  std::vector<PlanExpr> exprs;
  std::vector<OutputColumn> cols = in_cols;
  for (size_t i = 0; i < in_cols.size(); ++i) {
    const OutputColumn& c = in_cols[i];
    const auto col = static_cast<int>(i);
    if (p.agg_base >= 0 && col >= p.agg_base) {
      auto ref = std::make_unique<BoundExpr>(BoundKind::kAggRef, c.type);
      ref->typmod = c.typmod;
      ref->index = col - p.agg_base;
      exprs.push_back(PlanExpr{std::move(ref), c.name});
    } else {
      exprs.push_back(PlanExpr{MakeColumn(col, c.type, c.typmod), c.name});
    }
  }
  for (PlanExpr& e : p.win->inputs) {
    cols.push_back(Describe(e.text, *e.expr));
    exprs.push_back(std::move(e));
  }
  return std::make_unique<executor::ProjectNode>(std::move(node), std::move(exprs), std::move(cols), p.agg_base);
}

ExecNodePtr QueryPlanner::AddWindowAggs(ExecNodePtr node, SelectParts& p) {
  if (!p.win || p.win->refs.empty()) return node;
  WindowParts& w = *p.win;
  const auto base = static_cast<int>(node->columns().size());
  const std::vector<int> order_by_inputs = OrderByInputs(p);
  node = ProjectWindowInputs(std::move(node), p);
  std::vector<size_t> order(w.groups.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return EvaluatedBefore(SortKeysOf(w.groups[a]), SortKeysOf(w.groups[b]));
  });
  std::vector<std::vector<int>> result_col(w.groups.size());
  std::vector<executor::SortKey> sorted_on;
  for (size_t g : order) {
    WindowGroup& grp = w.groups[g];
    ShiftKeys(grp.partition, base);
    ShiftKeys(grp.order, base);
    std::vector<executor::SortKey> keys = SortKeysOf(grp);
    const size_t width = node->columns().size();
    if (!IsPrefix(keys, sorted_on)) {
      node = std::make_unique<executor::SortNode>(std::move(node), keys, width);
      sorted_on = keys;
    }
    for (executor::WindowFunc& f : grp.funcs) {
      for (int& a : f.args) a += base;
      if (f.filter >= 0) f.filter += base;
      result_col[g].push_back(static_cast<int>(width + result_col[g].size()));
    }
    executor::WindowOrder wo{std::move(grp.partition), std::move(grp.order)};
    node = std::make_unique<executor::WindowAggNode>(std::move(node), std::move(wo), std::move(grp.frame),
                                                     std::move(grp.funcs));
  }
  std::vector<int> cols;
  for (const auto& [g, f] : w.refs) cols.push_back(result_col[g][f]);
  DropSatisfiedSort(p, order_by_inputs, sorted_on, base);
  for (PlanExpr& e : p.exprs) RewriteWindowRefs(*e.expr, cols, p.agg_base);
  return node;
}

}  // namespace hearth::planner
