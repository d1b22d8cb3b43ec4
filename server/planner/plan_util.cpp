// server/planner/plan_util.cpp
//
// Small helpers shared by the planner's files: positioned errors, filters
// and joins over planned inputs, sort keys, ordinals, structural
// comparison of bound expressions.
#include <climits>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/join_nodes.h"
#include "executor/nodes/scan_nodes.h"
#include "executor/row_codec.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

using executor::SortKey;

void ThrowAt(DbError e, int location) {
  if (location >= 0 && e.position() == 0) e.WithPosition(location + 1);
  throw e;
}

// Applies the conjunction of `conds` (if any) to node's rows: pushed into a
// plain table scan, else as a FilterNode.
ExecNodePtr AddFilter(ExecNodePtr node, std::vector<PlanExpr> conds, int agg_base) {
  if (conds.empty()) return node;
  PlanExpr all;
  for (PlanExpr& c : conds) {
    all.text = all.expr ? "(" + all.text + " AND " + c.text + ")" : c.text;
    all.expr = MakeAnd(std::move(all.expr), std::move(c.expr));
  }
  if (auto* scan = dynamic_cast<executor::SeqScanNode*>(node.get()); scan && !scan->has_filter() && agg_base < 0) {
    scan->SetFilter(std::move(all));
    return node;
  }
  return std::make_unique<executor::FilterNode>(std::move(node), std::move(all), agg_base);
}


// Builds a join of `left` (slots [0, split)) and `right` (slots [split, end))
// from `conds` (bound on the combined row): equalities across the sides with
// hash-compatible types become hash keys; the rest is a join filter.
ExecNodePtr MakeJoin(executor::JoinKind kind, ExecNodePtr left, ExecNodePtr right, int split,
                     std::vector<PlanExpr> conds, bool allow_hash) {
  std::vector<PlanExpr> lkeys, rkeys, rest;
  std::string cond_text;
  for (PlanExpr& c : conds) {
    BoundExpr& e = *c.expr;
    bool is_eq = e.kind == BoundKind::kFuncCall && e.func != nullptr && std::string(e.func->name) == "=" &&
                 e.children.size() == 2;
    if (is_eq) {
      int lmin = INT_MAX, lmax = -1, rmin = INT_MAX, rmax = -1;
      ColumnRange(*e.children[0], &lmin, &lmax);
      ColumnRange(*e.children[1], &rmin, &rmax);
      int hc0 = executor::HashClassOf(e.children[0]->type);
      bool hashable = hc0 != 0 && hc0 == executor::HashClassOf(e.children[1]->type);
      int li = -1;  // which child is on the left side
      if (lmax >= 0 && rmax >= 0 && lmax < split && rmin >= split) li = 0;
      if (lmax >= 0 && rmax >= 0 && rmax < split && lmin >= split) li = 1;
      if (allow_hash && hashable && li >= 0) {
        BoundExprPtr lk = std::move(e.children[static_cast<size_t>(li)]);
        BoundExprPtr rk = std::move(e.children[static_cast<size_t>(1 - li)]);
        ShiftColumns(*rk, -split);
        lkeys.push_back(PlanExpr{std::move(lk), ""});
        rkeys.push_back(PlanExpr{std::move(rk), ""});
        cond_text = cond_text.empty() ? c.text : "(" + cond_text + " AND " + c.text + ")";
        continue;
      }
    }
    rest.push_back(std::move(c));
  }
  PlanExpr filter;
  for (PlanExpr& c : rest) {
    filter.text = filter.expr ? "(" + filter.text + " AND " + c.text + ")" : c.text;
    filter.expr = MakeAnd(std::move(filter.expr), std::move(c.expr));
  }
  if (!lkeys.empty()) {
    return std::make_unique<executor::HashJoinNode>(kind, std::move(left), std::move(right), std::move(lkeys),
                                                    std::move(rkeys), std::move(filter), cond_text);
  }
  return std::make_unique<executor::NestedLoopJoinNode>(kind, std::move(left), std::move(right), std::move(filter));
}

SortKey MakeSortKey(int column, const parser::SortBy& sb, const std::string& text) {
  // USING < / > are the types' own orderings: ASC / DESC (with their NULLS defaults).
  const bool using_op = !sb.using_op.empty();
  if (using_op && !(sb.using_op.back() == "<" || sb.using_op.back() == ">")) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ORDER BY ... USING is not supported yet"), sb.location);
  }
  SortKey k;
  k.column = column;
  k.descending = using_op ? sb.using_op.back() == ">" : sb.dir == parser::SortDir::kDesc;
  k.nulls_first = sb.nulls == parser::NullsOrder::kDefault ? k.descending : sb.nulls == parser::NullsOrder::kFirst;
  k.text = text;
  if (k.descending) k.text += " DESC";
  if (k.nulls_first != k.descending) k.text += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  return k;
}

// ORDER BY/GROUP BY ordinal: the integer constant's value, or 0.
int Ordinal(const parser::Expr& e) {
  if (e.kind != parser::ExprKind::kConst) return 0;
  const auto& c = e.As<parser::ConstExpr>();
  if (c.const_kind != parser::ConstKind::kInteger) return 0;
  try {
    long v = std::stol(c.value);
    return v > 0 && v < INT_MAX ? static_cast<int>(v) : -1;
  } catch (...) {
    return -1;
  }
}

bool SameExpr(const BoundExpr& a, const BoundExpr& b) {
  if (a.kind != b.kind || a.type != b.type || a.typmod != b.typmod || a.index != b.index || a.func != b.func ||
      a.children.size() != b.children.size() || a.negated != b.negated || a.cast_context != b.cast_context ||
      a.case_insensitive != b.case_insensitive || a.has_operand != b.has_operand || a.has_else != b.has_else ||
      a.is_greatest != b.is_greatest || a.bool_test != b.bool_test || a.is_all != b.is_all ||
      a.subscript_flags != b.subscript_flags) {
    return false;
  }
  if (a.kind == BoundKind::kConst &&
      (a.value.type != b.value.type || a.value.is_null != b.value.is_null ||
       (!a.value.is_null && (a.value.i != b.value.i || a.value.str != b.value.str)))) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!SameExpr(*a.children[i], *b.children[i])) return false;
  }
  return true;
}

bool ContainsSublink(const parser::Expr& e) {
  if (e.kind == parser::ExprKind::kSubLink) return true;
  bool found = false;
  ForEachChild(e, [&found](const parser::Expr& c) { found = found || ContainsSublink(c); });
  return found;
}

bool ContainsSublinkOrAggregate(const parser::Expr& e) {
  if (e.kind == parser::ExprKind::kSubLink) return true;
  if (e.kind == parser::ExprKind::kFuncCall && IsAggregateCall(e.As<parser::FuncCallExpr>())) return true;
  bool found = false;
  ForEachChild(e, [&found](const parser::Expr& c) { found = found || ContainsSublinkOrAggregate(c); });
  return found;
}

bool IsOrdinalConst(const parser::Expr& e) {
  return e.kind == parser::ExprKind::kConst && e.As<parser::ConstExpr>().const_kind == parser::ConstKind::kInteger;
}


}  // namespace hearth::planner
