// server/planner/on_conflict.cpp
//
// Principal entry point: PlanOnConflict (see on_conflict.h). Errors as
// PostgreSQL 15: 42601 DO UPDATE without a target, 42P10 no matching
// unique index, 42704 unknown constraint.
#include "planner/on_conflict.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::planner {

namespace {

using executor::IndexInfo;
using executor::TableInfo;

// The table column an inference element names, or -1 for an expression
// (no index here has expression keys, so none can match it). Binding it
// raises PostgreSQL's errors for unknown columns.
int InferenceColumn(QueryPlanner& q, const Scope& scope, const parser::Expr& elem) {
  const parser::Expr* e = &elem;
  while (e->kind == parser::ExprKind::kCollate) e = e->As<parser::CollateExpr>().arg.get();
  BindContext ctx = q.Context(&scope, "index expressions");
  BoundExprPtr b = q.Bind(*e, ctx);
  return b->kind == BoundKind::kColumn ? b->index : -1;
}

[[noreturn]] void ThrowNoMatch() {
  throw DbError(sqlstate::kInvalidColumnReference,
                "there is no unique or exclusion constraint matching the ON CONFLICT specification");
}

// The arbiters of `ON CONFLICT (elem, ...)`: every unique index whose key
// columns are exactly the set the elements name (repeats allowed).
void InferArbiters(QueryPlanner& q, const TableInfo& t, const std::string& alias, const parser::OnConflictClause& oc,
                   executor::OnConflictPlan* plan) {
  Scope scope;
  scope.entries.push_back(TableRangeEntry(t, alias));
  std::vector<int> cols;
  bool has_expression = false;
  for (const parser::ExprPtr& elem : oc.target) {
    const int c = InferenceColumn(q, scope, *elem);
    if (c < 0) has_expression = true;
    cols.push_back(c);
  }
  if (oc.target_where) {  // no partial indexes: any predicate is implied; bound for its errors only
    BindContext ctx = q.Context(&scope, "WHERE");
    q.BindCond(*oc.target_where, ctx, "WHERE");
  }
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  if (!has_expression) {
    for (const IndexInfo& ix : t.indexes) {
      if (!ix.unique) continue;
      std::vector<int> key = ix.columns;
      std::sort(key.begin(), key.end());
      key.erase(std::unique(key.begin(), key.end()), key.end());
      if (key != cols) continue;
      plan->arbiters.push_back(ix.oid);
      plan->arbiter_names.push_back(ix.name);
    }
  }
  if (plan->arbiters.empty()) ThrowNoMatch();
}

void NamedArbiter(const TableInfo& t, const parser::OnConflictClause& oc, executor::OnConflictPlan* plan) {
  for (const IndexInfo& ix : t.indexes) {
    if (ix.name != oc.constraint) continue;
    if (!ix.unique) ThrowNoMatch();
    plan->arbiters.push_back(ix.oid);
    plan->arbiter_names.push_back(ix.name);
    return;
  }
  throw DbError(sqlstate::kUndefinedObject,
                "constraint \"" + oc.constraint + "\" for table \"" + t.name + "\" does not exist");
}

}  // namespace

executor::OnConflictPlan PlanOnConflict(QueryPlanner& q, const TableInfo& t, const std::string& alias,
                                        const parser::OnConflictClause& oc,
                                        const std::function<std::vector<BoundExprPtr>(const Scope&)>& bind_set) {
  executor::OnConflictPlan plan;
  plan.do_update = oc.action == parser::OnConflictAction::kUpdate;
  if (!oc.constraint.empty()) {
    NamedArbiter(t, oc, &plan);
  } else if (!oc.target.empty()) {
    InferArbiters(q, t, alias, oc, &plan);
  } else if (plan.do_update) {
    ThrowAt(DbError(sqlstate::kSyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name")
                .WithHint("For example, ON CONFLICT (column_name)."),
            oc.location);
  } else {
    // DO NOTHING without a target: every unique index arbitrates (EXPLAIN
    // lists none, as PostgreSQL's plan does not name them).
    for (const IndexInfo& ix : t.indexes) {
      if (ix.unique) plan.arbiters.push_back(ix.oid);
    }
  }
  if (!plan.do_update) return plan;
  // DO UPDATE: [target row, EXCLUDED row].
  Scope scope;
  RangeEntry target = TableRangeEntry(t, alias);
  target.origin = OriginsOf(NoteRelationUse(t.oid, /*target=*/true), t.columns.size());
  RangeEntry excluded = TableRangeEntry(t, "excluded");
  excluded.origin = target.origin;  // reading EXCLUDED.x needs SELECT on x, as PostgreSQL
  scope.entries.push_back(std::move(target));
  excluded.offset = static_cast<int>(t.columns.size());
  scope.entries.push_back(std::move(excluded));
  std::vector<BoundExprPtr> row = bind_set(scope);
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (!row[c]) row[c] = MakeColumn(static_cast<int>(c), t.columns[c].type, t.columns[c].typmod);
    plan.set_row.push_back(PlanExpr{std::move(row[c]), ""});
  }
  if (oc.where) {
    BindContext ctx = q.Context(&scope, "WHERE");
    plan.where.expr = q.BindCond(*oc.where, ctx, "WHERE");
    plan.where.text = Deparse(*oc.where, scope.Namer());
  }
  return plan;
}

}  // namespace hearth::planner
