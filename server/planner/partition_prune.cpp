// server/planner/partition_prune.cpp
//
// Principal entry point: PrunePartitions — plan-time partition pruning:
// the "column op constant" conjuncts of a partitioned table's scan go to
// the provider, which drops the partitions no such row can be in (EXPLAIN
// then lists only the others).
#include "executor/nodes/scan_nodes.h"
#include "planner/planner_internal.h"
#include "utils/adt/cast.h"

namespace hearth::planner {

namespace {

using executor::IndexScanOp;

// A constant, or a cast of one (folded here): its value.
bool ConstValue(const BoundExpr& e, types::Value* out) {
  if (e.kind == BoundKind::kConst) {
    *out = e.value;
    return true;
  }
  if (e.kind != BoundKind::kCast || e.children.size() != 1) return false;
  types::Value inner;
  if (!ConstValue(*e.children[0], &inner)) return false;
  try {
    *out = types::CastValue(inner, e.type, e.typmod, types::CoercionContext::kExplicit);
  } catch (const DbError&) {
    return false;  // the scan will raise it
  }
  return true;
}

void Collect(const BoundExpr& e, std::vector<executor::ColumnCondition>* out) {
  if (e.kind == BoundKind::kAnd) {
    for (const BoundExprPtr& c : e.children) Collect(*c, out);
    return;
  }
  if (e.kind != BoundKind::kFuncCall || e.func == nullptr || e.children.size() != 2) return;
  IndexScanOp op;
  if (!OpFromName(e.func->name, &op)) return;
  const BoundExpr* col = e.children[0].get();
  const BoundExpr* val = e.children[1].get();
  if (col->kind != BoundKind::kColumn) {
    std::swap(col, val);
    op = Commute(op);
  }
  executor::ColumnCondition c;
  if (col->kind != BoundKind::kColumn || !ConstValue(*val, &c.value)) return;
  c.column = col->index;
  c.op = op;
  out->push_back(std::move(c));
}

}  // namespace

void PrunePartitions(executor::TableProvider& tables, executor::SeqScanNode* scan, const std::vector<PlanExpr>& conds) {
  std::vector<executor::ColumnCondition> found;
  for (const PlanExpr& c : conds) {
    if (c.expr) Collect(*c.expr, &found);
  }
  if (!found.empty()) scan->PruneInheritors(tables, found);
}

}  // namespace hearth::planner
