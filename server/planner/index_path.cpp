// server/planner/index_path.cpp
//
// Principal entry point: PlanIndexScan — recognises index-usable WHERE
// conjuncts and ORDER BY on an index prefix, and builds IndexScanNode.
#include <algorithm>
#include <string>

#include "executor/nodes/index_scan_node.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

namespace {

using executor::IndexBoundExpr;
using executor::IndexScanOp;

bool IsInt(types::Oid t) { return t == types::kInt2Oid || t == types::kInt4Oid || t == types::kInt8Oid; }
bool IsFloat(types::Oid t) { return t == types::kFloat4Oid || t == types::kFloat8Oid; }
bool IsText(types::Oid t) { return t == types::kTextOid || t == types::kVarcharOid; }

// Can a value of type `v` be used as a B-tree bound on a column of type `c`
// (nbtree accepts the column's type family; integers also for float/numeric)?
bool Compatible(types::Oid c, types::Oid v) {
  if (c == v) return true;
  if (IsInt(c)) return IsInt(v);
  if (IsFloat(c)) return IsFloat(v) || IsInt(v);
  if (c == types::kNumericOid) return IsInt(v);
  if (IsText(c)) return IsText(v);
  return false;
}

// Constants and parameters (possibly under casts): evaluable before the scan.
bool IsValueExpr(const BoundExpr& e) {
  if (e.kind == BoundKind::kConst || e.kind == BoundKind::kParam) return true;
  if (e.kind == BoundKind::kCast && e.children.size() == 1) return IsValueExpr(*e.children[0]);
  return false;
}

// What one conjunct says about table column `col`.
struct ColumnConds {
  std::vector<IndexBoundExpr> bounds;
  std::vector<BoundExprPtr> in_values;
  bool has_in = false;
  bool has_eq = false;
};

bool IsColumn(const BoundExpr& e, int col, types::Oid col_type) {
  return e.kind == BoundKind::kColumn && e.index == col && e.type == col_type;
}

// Collects bounds on `col` from `e` (walking ANDs: BETWEEN binds as one).
// Returns true when it found any.
bool Collect(const BoundExpr& e, int col, types::Oid col_type, ColumnConds* out) {
  if (e.kind == BoundKind::kAnd) {
    bool a = Collect(*e.children[0], col, col_type, out);
    bool b = Collect(*e.children[1], col, col_type, out);
    return a || b;
  }
  if (e.kind == BoundKind::kFuncCall && e.func != nullptr && e.children.size() == 2) {
    IndexScanOp op;
    if (!OpFromName(e.func->name, &op)) return false;
    const BoundExpr& l = *e.children[0];
    const BoundExpr& r = *e.children[1];
    const BoundExpr* value = nullptr;
    if (IsColumn(l, col, col_type) && IsValueExpr(r)) {
      value = &r;
    } else if (IsColumn(r, col, col_type) && IsValueExpr(l)) {
      value = &l;
      op = Commute(op);
    }
    if (value == nullptr || !Compatible(col_type, value->type)) return false;
    if (op == IndexScanOp::kEq) out->has_eq = true;
    out->bounds.push_back(IndexBoundExpr{op, executor::CloneBound(*value)});
    return true;
  }
  if (e.kind == BoundKind::kInList && !e.negated && !e.children.empty() && IsColumn(*e.children[0], col, col_type)) {
    if (out->has_in) return false;  // one IN list is enough
    std::vector<BoundExprPtr> vals;
    for (size_t i = 1; i < e.children.size(); ++i) {
      const BoundExpr& v = *e.children[i];
      if (!IsValueExpr(v) || !Compatible(col_type, v.type)) return false;
      vals.push_back(executor::CloneBound(v));
    }
    out->in_values = std::move(vals);
    out->has_in = true;
    return true;
  }
  return false;
}

// +1: the index gives `order` forward, -1: backward, 0: neither.
int OrderDirection(const executor::IndexInfo& ix, const WantedOrder& order) {
  if (order.columns.empty() || order.columns.size() > ix.columns.size()) return 0;
  int dir = 0;
  for (size_t k = 0; k < order.columns.size(); ++k) {
    if (order.columns[k] != ix.columns[k]) return 0;
    const bool same = order.descending[k] == ix.descending[k] && order.nulls_first[k] == ix.nulls_first[k];
    const bool reversed = order.descending[k] != ix.descending[k] && order.nulls_first[k] != ix.nulls_first[k];
    const int d = same ? 1 : reversed ? -1 : 0;
    if (d == 0 || (dir != 0 && d != dir)) return 0;
    dir = d;
  }
  return dir;
}

std::string JoinTexts(const std::vector<std::string>& texts) {
  std::string all;
  for (const std::string& t : texts) all = all.empty() ? t : "(" + all + " AND " + t + ")";
  return all;
}

}  // namespace

bool OpFromName(const std::string& n, IndexScanOp* op) {
  if (n == "=") *op = IndexScanOp::kEq;
  else if (n == "<") *op = IndexScanOp::kLt;
  else if (n == "<=") *op = IndexScanOp::kLe;
  else if (n == ">") *op = IndexScanOp::kGt;
  else if (n == ">=") *op = IndexScanOp::kGe;
  else return false;
  return true;
}

IndexScanOp Commute(IndexScanOp op) {
  switch (op) {
    case IndexScanOp::kLt: return IndexScanOp::kGt;
    case IndexScanOp::kLe: return IndexScanOp::kGe;
    case IndexScanOp::kGt: return IndexScanOp::kLt;
    case IndexScanOp::kGe: return IndexScanOp::kLe;
    default: return op;
  }
}

ExecNodePtr PlanIndexScan(const executor::TableInfo& table, const std::string& alias, std::vector<PlanExpr>* conds,
                          const WantedOrder* order, bool emit_rid, bool* ordered, bool keep_conds) {
  *ordered = false;
  // An inheritance tree is scanned member by member (one table's index
  // covers only its own rows).
  if (table.indexes.empty() || !table.inheritors.empty()) return nullptr;
  // Score each index by what its first column gets: = 3, IN 2, range 1.
  int best = -1, best_score = 0;
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    const executor::IndexInfo& ix = table.indexes[i];
    if (ix.columns.empty()) continue;
    const int col = ix.columns[0];
    const types::Oid col_type = table.columns[static_cast<size_t>(col)].type;
    ColumnConds cc;
    for (const PlanExpr& c : *conds) Collect(*c.expr, col, col_type, &cc);
    int score = cc.has_eq ? 3 : cc.has_in ? 2 : cc.bounds.empty() ? 0 : 1;
    // Among equals, prefer the one that also delivers the wanted order.
    if (score > 0 && order != nullptr && OrderDirection(ix, *order) != 0) score = score * 2 + 1;
    else score *= 2;
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  if (best < 0 && order != nullptr && order->has_limit) {
    for (size_t i = 0; i < table.indexes.size() && best < 0; ++i) {
      if (OrderDirection(table.indexes[i], *order) != 0) best = static_cast<int>(i);
    }
  }
  if (best < 0) return nullptr;

  const executor::IndexInfo& ix = table.indexes[static_cast<size_t>(best)];
  const int col = ix.columns[0];
  const types::Oid col_type = table.columns[static_cast<size_t>(col)].type;
  ColumnConds cc;
  std::vector<std::string> index_texts, filter_texts;
  PlanExpr filter;
  for (PlanExpr& c : *conds) {
    ColumnConds one;
    if (Collect(*c.expr, col, col_type, &one)) {
      // Equality makes IN lists redundant for the scan (the filter checks them).
      for (IndexBoundExpr& b : one.bounds) cc.bounds.push_back(std::move(b));
      if (one.has_in && !cc.has_in) {
        cc.has_in = true;
        cc.in_values = std::move(one.in_values);
      }
      cc.has_eq = cc.has_eq || one.has_eq;
      index_texts.push_back(c.text);
    } else {
      filter_texts.push_back(c.text);
    }
    if (!keep_conds) filter.expr = filter.expr ? MakeAnd(std::move(filter.expr), std::move(c.expr)) : std::move(c.expr);
  }
  if (!keep_conds) {
    conds->clear();
    filter.text = JoinTexts(filter_texts);
  }
  if (cc.has_eq && cc.has_in) {
    cc.has_in = false;
    cc.in_values.clear();
  }
  int dir = order != nullptr ? OrderDirection(ix, *order) : 0;
  *ordered = dir != 0;
  return std::make_unique<executor::IndexScanNode>(table, alias, ix, std::move(cc.bounds), std::move(cc.in_values),
                                                   cc.has_in, dir < 0, JoinTexts(index_texts), std::move(filter),
                                                   emit_rid);
}

bool WantedOrderOf(const parser::SelectStmt& s, const RangeEntry& entry, WantedOrder* out) {
  if (s.order_by.empty() || s.distinct || !s.group_by.empty() || s.having) return false;
  *out = WantedOrder{};
  for (const parser::SortBy& sb : s.order_by) {
    if (!sb.using_op.empty() || sb.expr == nullptr || sb.expr->kind != parser::ExprKind::kColumnRef) return false;
    const auto& ref = sb.expr->As<parser::ColumnRefExpr>();
    if (ref.star || ref.fields.empty() || ref.fields.size() > 2) return false;
    if (ref.fields.size() == 2 && ref.fields[0] != entry.alias) return false;
    const std::string& name = ref.fields.back();
    // An output column of that name wins in ORDER BY: it must be this column.
    if (ref.fields.size() == 1) {
      for (const parser::ResTarget& t : s.targets) {
        if (t.alias != name) continue;
        if (!t.expr || t.expr->kind != parser::ExprKind::kColumnRef) return false;
        const auto& tr = t.expr->As<parser::ColumnRefExpr>();
        if (tr.star || tr.fields.empty() || tr.fields.back() != name) return false;
      }
    }
    int col = -1;
    for (size_t i = 0; i < entry.names.size(); ++i) {
      if (entry.names[i] == name && !entry.hidden[i]) col = static_cast<int>(i);
    }
    if (col < 0) return false;
    const bool desc = sb.dir == parser::SortDir::kDesc;
    out->columns.push_back(col);
    out->descending.push_back(desc);
    out->nulls_first.push_back(sb.nulls == parser::NullsOrder::kDefault ? desc : sb.nulls == parser::NullsOrder::kFirst);
  }
  out->has_limit = s.limit != nullptr;
  return true;
}

}  // namespace hearth::planner
