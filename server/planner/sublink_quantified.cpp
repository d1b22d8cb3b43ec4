// server/planner/sublink_quantified.cpp
//
// Principal entry points: QueryPlanner::BindQuantified — `x op ANY|SOME|ALL
// (subquery)`, `x [NOT] IN (subquery)` that no hash set answers (correlated,
// another operator, ALL, or a row `(a, b) IN (SELECT x, y ...)`) — and
// AddOuterValues, the outer-column arguments of every subplan call.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "executor/expr/binder.h"
#include "executor/expr/row_compare.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

bool IsQuantified(const parser::SubLinkExpr& s) {
  return s.sublink_kind == parser::SubLinkKind::kAny || s.sublink_kind == parser::SubLinkKind::kAll;
}

bool IsHashedIn(const parser::SubLinkExpr& s, const PlannedQuery& q) {
  return s.sublink_kind == parser::SubLinkKind::kAny && s.op == "=" && q.columns.size() == 1 &&
         s.test_expr->kind != parser::ExprKind::kRow;
}

void QueryPlanner::AddOuterValues(BoundExpr& call, const Correlation& corr, BindContext& ctx) {
  // The outer values, bound in the context where the subquery appears.
  for (const parser::ColumnRefExpr* ref : corr.refs) {
    std::optional<ColumnBinding> b;
    try {
      if (ctx.resolve_column) {
        b = ctx.resolve_column(*ref);
      } else {
        // A context without columns (VALUES, LIMIT): the value comes from
        // the queries enclosing this one.
        Scope none;
        none.parent = outer_;
        none.corr = corr_;
        b = none.Resolve(*ref);
      }
    } catch (DbError& e) {
      ThrowAt(std::move(e), ref->location);
    }
    if (!b) ThrowAt(DbError(sqlstate::kUndefinedColumn, "column \"" + ref->fields.back() + "\" does not exist"), ref->location);
    call.children.push_back(MakeColumn(b->index, b->type, b->typmod));
  }
}

BoundExprPtr QueryPlanner::BindQuantified(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                                          const Correlation& corr) {
  const bool row = s.test_expr->kind == parser::ExprKind::kRow;
  std::vector<BoundExprPtr> tested;
  if (row) {
    for (const parser::ExprPtr& item : s.test_expr->As<parser::RowExpr>().items) {
      tested.push_back(executor::BindExpr(*item, ctx));
    }
  } else {
    tested.push_back(executor::BindExpr(*s.test_expr, ctx));
  }
  if (tested.size() != q.columns.size()) {
    ThrowAt(DbError(sqlstate::kSyntaxError, q.columns.size() > tested.size() ? "subquery has too many columns"
                                                                            : "subquery has too few columns"),
            s.location);
  }
  // The comparison reads the row [tested values..., subquery row...].
  const auto ntested = static_cast<int>(tested.size());
  std::vector<BoundExprPtr> l, r;
  for (int i = 0; i < ntested; ++i) {
    BoundExprPtr& t = tested[static_cast<size_t>(i)];
    const OutputColumn& c = q.columns[static_cast<size_t>(i)];
    if (t->type == types::kUnknownOid) {
      t = executor::Coerce(std::move(t), c.type, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
    }
    l.push_back(MakeColumn(i, t->type, t->typmod));
    r.push_back(MakeColumn(ntested + i, c.type, c.typmod));
  }
  BoundExprPtr compare = row ? executor::BindRowCompare(s.op, std::move(l), std::move(r), s.location, ctx)
                             : executor::BindOperator(s.op, std::move(l[0]), std::move(r[0]), s.location, ctx);
  if (compare->type != types::kBoolOid) {
    ThrowAt(DbError(sqlstate::kDatatypeMismatch, "op ANY/ALL (array) requires operator to yield boolean"), s.location);
  }
  executor::SubPlan sp;
  sp.kind = s.sublink_kind == parser::SubLinkKind::kAny ? executor::SubPlan::Kind::kAny : executor::SubPlan::Kind::kAll;
  sp.plan = std::move(q.node);
  sp.arg_indexes = corr.slots;
  sp.ntested = ntested;
  sp.compare = std::move(compare);
  auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kBoolOid);
  call->func = executor::SubPlanSignature();
  call->location = s.location;
  AddOuterValues(*call, corr, ctx);
  for (BoundExprPtr& t : tested) call->children.push_back(std::move(t));
  sp.handle_index = st_.nslots++;
  call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, sp.handle_index));
  st_.sub_plans.push_back(std::move(sp));
  return call;
}

}  // namespace hearth::planner
