// server/planner/select_distinct_on.cpp
//
// SELECT DISTINCT ON (exprs) and FETCH FIRST n ROWS WITH TIES. DISTINCT ON
// items name projection columns the way ORDER BY items do; as PostgreSQL
// requires, the leading ORDER BY items must all be DISTINCT ON items until
// every DISTINCT ON item has appeared (42P10 `SELECT DISTINCT ON
// expressions must match initial ORDER BY expressions`), and DISTINCT ON
// items missing from ORDER BY are sorted on after it. The plan is Sort →
// Unique (first row of each run of equal DISTINCT ON values). WITH TIES
// keeps the ORDER BY values, hidden ones included, up to the Limit that
// compares them.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/sort_node.h"
#include "executor/nodes/unique_nodes.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

void QueryPlanner::BindDistinctOn(SelectParts& p) {
  const auto& items = p.s.distinct_on;
  if (items.empty()) return;
  for (const parser::ExprPtr& e : items) p.distinct_on.push_back(OrderByColumn(*e, p, "DISTINCT ON"));
  auto same = [&p](int a, int b) {
    return a == b || SameExpr(*p.exprs[static_cast<size_t>(a)].expr, *p.exprs[static_cast<size_t>(b)].expr);
  };
  auto item_of = [&](int col) {
    for (size_t i = 0; i < p.distinct_on.size(); ++i) {
      if (same(p.distinct_on[i], col)) return static_cast<int>(i);
    }
    return -1;
  };
  auto mismatch = [&](size_t item) {
    ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                    "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"),
            LeftmostLocation(*items[item]));
  };
  bool skipped = false;
  std::vector<bool> in_order(items.size(), false);
  for (const executor::SortKey& k : p.keys) {
    int item = item_of(k.column);
    if (item < 0) {
      skipped = true;
      continue;
    }
    if (skipped) mismatch(static_cast<size_t>(item));
    in_order[static_cast<size_t>(item)] = true;
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (in_order[i]) continue;
    if (skipped) mismatch(i);
    bool dup = false;  // DISTINCT ON (a, a)
    for (const executor::SortKey& k : p.keys) dup = dup || same(k.column, p.distinct_on[i]);
    if (dup) continue;
    executor::SortKey key;
    key.column = p.distinct_on[i];
    key.text = p.exprs[static_cast<size_t>(key.column)].text;
    p.keys.push_back(std::move(key));
  }
}

ExecNodePtr QueryPlanner::AddSortAndDistinctOn(ExecNodePtr node, SelectParts& p, PlannedQuery* q) {
  const size_t visible = p.columns.size() + static_cast<size_t>(p.lock_width);
  const size_t all = node->columns().size();  // with hidden sort columns
  // WITH TIES compares ORDER BY values after the Sort; with row locks the
  // Limit sits above LockRows, which passes only the visible columns.
  const bool ties_keep = p.s.limit_with_ties && p.lock_width == 0;
  const bool keep_hidden = ties_keep || !p.distinct_on.empty();
  for (const executor::SortKey& k : p.keys) q->sort_columns.push_back(k.column);
  if (!p.keys.empty()) {
    node = std::make_unique<executor::SortNode>(std::move(node), std::move(p.keys),
                                                keep_hidden ? all : visible);
  }
  if (!p.distinct_on.empty()) {
    node = std::make_unique<executor::DistinctOnNode>(std::move(node), p.distinct_on,
                                                      ties_keep ? all : visible);
  }
  return node;
}

ExecNodePtr QueryPlanner::MakeLimitWithTies(ExecNodePtr node, PlanExpr limit, PlanExpr offset, const PlannedQuery& q,
                                            const parser::SelectStmt& s) {
  for (int c : q.sort_columns) {
    if (!s.locking.empty() && static_cast<size_t>(c) >= q.columns.size()) {
      throw DbError(sqlstate::kFeatureNotSupported,
                    "FETCH ... WITH TIES with FOR UPDATE/SHARE ordered by columns outside the select list is not "
                    "supported yet");
    }
  }
  return std::make_unique<executor::LimitTiesNode>(std::move(node), std::move(limit), std::move(offset),
                                                   q.sort_columns, q.columns.size());
}

}  // namespace hearth::planner
