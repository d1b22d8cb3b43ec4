// server/planner/sublink_multiassign.cpp
//
// Principal entry point: QueryPlanner::BindMultiAssign — UPDATE's
// `SET (a, b, ...) = (SELECT x, y, ...)`. The subquery runs once per
// updated row (a subplan, correlated or not, as PostgreSQL's MULTIEXPR):
// the call sits in the value of the list's column that ModifyTable computes
// first (the lowest table position), returns that column's value and stores
// the whole row into hidden parameters the other columns' values read.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

std::vector<BoundExprPtr> QueryPlanner::BindMultiAssign(const parser::SubLinkExpr& s, BindContext& ctx,
                                                        const Scope* scope, const std::vector<int>& table_cols) {
  Correlation corr;
  PlannedQuery q = PlanSubquery(s, ctx, scope, &corr);
  if (q.columns.size() != table_cols.size()) {
    ThrowAt(DbError(sqlstate::kSyntaxError, "number of columns does not match number of values"), s.location);
  }
  size_t first = 0;
  for (size_t j = 1; j < table_cols.size(); ++j) {
    if (table_cols[j] < table_cols[first]) first = j;
  }
  executor::SubPlan sp;
  sp.kind = executor::SubPlan::Kind::kScalar;
  sp.plan = std::move(q.node);
  sp.arg_indexes = corr.slots;
  sp.type = q.columns[first].type;
  sp.typmod = q.columns[first].typmod;
  sp.result_column = static_cast<int>(first);
  for (const OutputColumn& c : q.columns) {
    sp.result_slots.push_back(st_.nslots++);
    sp.result_types.push_back(c.type);
  }
  auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, sp.type);
  call->typmod = sp.typmod;
  call->func = executor::SubPlanSignature();
  call->location = s.location;
  AddOuterValues(*call, corr, ctx);
  std::vector<BoundExprPtr> values;
  for (size_t j = 0; j < q.columns.size(); ++j) {
    values.push_back(j == first ? nullptr
                                : HiddenParam(q.columns[j].type, q.columns[j].typmod, sp.result_slots[j]));
  }
  sp.handle_index = st_.nslots++;
  call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, sp.handle_index));
  values[first] = std::move(call);
  st_.sub_plans.push_back(std::move(sp));
  return values;
}

}  // namespace hearth::planner
