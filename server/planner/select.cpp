// server/planner/select.cpp
//
// Principal entry point: QueryPlanner::PlanSelect — FROM (tables,
// subqueries, joins), WHERE, GROUP BY/aggregates/HAVING, the select list,
// DISTINCT, ORDER BY, LIMIT/OFFSET, VALUES and set operations — plus
// subqueries in expressions (init plans).
#include <algorithm>
#include <climits>
#include <unordered_set>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "executor/expr/binder.h"
#include "executor/nodes/agg_nodes.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/join_nodes.h"
#include "executor/nodes/scan_nodes.h"
#include "executor/nodes/sort_node.h"
#include "executor/row_codec.h"
#include "planner/planner_internal.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

using executor::AggSpec;
using executor::SortKey;

namespace {

// ARRAY(subquery)'s type: the array of its single column's type (a column
// of an array type stays that type: the rows stack into one more dimension).
types::Oid ArraySublinkType(const PlannedQuery& q, int location) {
  if (q.columns.size() != 1) {
    ThrowAt(DbError(sqlstate::kSyntaxError, "subquery must return only one column"), location);
  }
  types::Oid t = q.columns[0].type;
  if (types::IsArrayType(t)) return t;
  if (t == types::kUnknownOid) t = types::kTextOid;
  const types::Oid arr = types::ArrayTypeOf(t);
  if (arr == types::kInvalidOid) {
    ThrowAt(DbError(sqlstate::kUndefinedObject, "could not find array type for data type " + types::FormatType(t)),
            location);
  }
  return arr;
}

}  // namespace

// ---------------------------------------------------------------------------
// Binding helpers
// ---------------------------------------------------------------------------

BindContext QueryPlanner::Context(const Scope* scope, const char* agg_clause) {
  BindContext ctx;
  if (scope) {
    ctx.resolve_column = [scope](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
      return scope->Resolve(c);
    };
  }
  ctx.bind_sublink = [this, scope](const parser::SubLinkExpr& s, BindContext& c) {
    return BindSublink(s, c, scope ? scope : outer_);
  };
  if (agg_clause) {
    ctx.window_clause = agg_clause;  // a string literal at every call
    std::string what = agg_clause;
    ctx.bind_srf = [what](const parser::FuncCallExpr& f, std::vector<BoundExprPtr>, const types::ResolvedFunc&,
                          BindContext&) -> BoundExprPtr {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "set-returning functions are not allowed in " + what),
              f.location);
    };
    ctx.bind_aggregate = [what](const parser::FuncCallExpr& f, std::vector<BoundExprPtr>, const types::ResolvedFunc&,
                                BindContext&) -> BoundExprPtr {
      ThrowAt(DbError(sqlstate::kGroupingError, "aggregate functions are not allowed in " + what), f.location);
    };
  }
  return ctx;
}

BoundExprPtr QueryPlanner::Bind(const parser::Expr& e, BindContext& ctx) {
  ctx.param_types = st_.params;
  BoundExprPtr r = executor::BindExpr(e, ctx);
  st_.params = ctx.param_types;
  ConvertOuterRefs(*r);
  return r;
}

BoundExprPtr QueryPlanner::BindCond(const parser::Expr& e, BindContext& ctx, const char* what) {
  ctx.param_types = st_.params;
  BoundExprPtr r = executor::BindCondition(e, ctx, what);
  st_.params = ctx.param_types;
  ConvertOuterRefs(*r);
  return r;
}

void QueryPlanner::ConvertOuterRefs(BoundExpr& e) {
  if (e.kind == BoundKind::kColumn && e.index >= kOuterRefBase) {
    if (corr_ == nullptr) throw DbError(sqlstate::kInternalError, "outer reference without a correlation");
    int slot = corr_->slots.at(static_cast<size_t>(e.index - kOuterRefBase));
    e.kind = BoundKind::kParam;
    e.index = executor::kHiddenParamBase + slot;
    return;
  }
  for (auto& c : e.children) ConvertOuterRefs(*c);
}

BoundExprPtr QueryPlanner::HiddenParam(types::Oid type, int32_t typmod, int slot) {
  auto e = std::make_unique<BoundExpr>(BoundKind::kParam, type);
  e->typmod = typmod;
  e->index = executor::kHiddenParamBase + slot;
  return e;
}

PlannedQuery QueryPlanner::PlanSubquery(const parser::SubLinkExpr& s, BindContext& ctx, const Scope* scope,
                                        Correlation* corr, HashProbe* probe) {
  st_.params = ctx.param_types;
  corr->nslots = &st_.nslots;
  QueryPlanner sub(st_, scope, corr);
  sub.probe_ = probe;
  RescannedPart rescanned(st_);
  PlannedQuery q = sub.PlanSelect(*s.subselect);
  ctx.param_types = st_.params;
  return q;
}

BoundExprPtr QueryPlanner::BindSublink(const parser::SubLinkExpr& s, BindContext& ctx, const Scope* scope) {
  Correlation corr;
  HashProbe probe;
  const bool may_hash = SublinkMayHash(s);
  if (may_hash && s.sublink_kind == parser::SubLinkKind::kExpr) probe.value_target = s.subselect->targets[0].expr.get();
  PlannedQuery q = PlanSubquery(s, ctx, scope, &corr, may_hash ? &probe : nullptr);
  if (probe.engaged) return BindHashedSublink(s, ctx, std::move(q), corr, std::move(probe));  // sublink_hashed.cpp
  if (IsQuantified(s) && (!corr.refs.empty() || !IsHashedIn(s, q))) return BindQuantified(s, ctx, std::move(q), corr);
  if (!corr.refs.empty()) return BindCorrelated(s, ctx, std::move(q), corr);
  executor::InitPlan ip;
  int slot = st_.nslots++;
  ip.param_index = slot;
  switch (s.sublink_kind) {
    case parser::SubLinkKind::kExists: {
      ip.kind = executor::InitPlan::Kind::kExists;
      ip.type = types::kBoolOid;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      return HiddenParam(types::kBoolOid, types::kNoTypmod, slot);
    }
    case parser::SubLinkKind::kExpr: {
      if (q.columns.size() != 1) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "subquery must return only one column"), s.location);
      }
      ip.kind = executor::InitPlan::Kind::kScalar;
      ip.type = q.columns[0].type;
      ip.typmod = q.columns[0].typmod;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      return HiddenParam(q.columns[0].type, q.columns[0].typmod, slot);
    }
    case parser::SubLinkKind::kAny: {  // x IN (subquery), uncorrelated: a hash set (IsHashedIn)
      BoundExprPtr test = executor::BindExpr(*s.test_expr, ctx);
      types::Oid common = types::kInvalidOid;
      try {
        common = types::SelectCommonType({test->type, q.columns[0].type}, "IN");
      } catch (DbError& e) {
        ThrowAt(DbError(sqlstate::kUndefinedFunction, "operator does not exist: " + types::FormatType(test->type) +
                                                           " = " + types::FormatType(q.columns[0].type)),
                s.location);
      }
      test = executor::Coerce(std::move(test), common, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
      ip.kind = executor::InitPlan::Kind::kInSet;
      ip.type = common;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kBoolOid);
      call->func = executor::InSetLookupSignature();
      call->location = s.location;
      call->children.push_back(std::move(test));
      call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, slot));
      return call;
    }
    case parser::SubLinkKind::kArray: {
      const types::Oid type = ArraySublinkType(q, s.location);
      ip.kind = executor::InitPlan::Kind::kArray;
      ip.type = type;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      return HiddenParam(type, types::kNoTypmod, slot);
    }
    case parser::SubLinkKind::kAll:
      break;
  }
  ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ALL (subquery) is not supported yet"),
          s.location);
}

BoundExprPtr QueryPlanner::BindCorrelated(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                                          const Correlation& corr) {
  executor::SubPlan sp;
  sp.plan = std::move(q.node);
  sp.arg_indexes = corr.slots;
  auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kBoolOid);
  call->func = executor::SubPlanSignature();
  call->location = s.location;
  AddOuterValues(*call, corr, ctx);
  switch (s.sublink_kind) {
    case parser::SubLinkKind::kExists:
      sp.kind = executor::SubPlan::Kind::kExists;
      break;
    case parser::SubLinkKind::kExpr:
      if (q.columns.size() != 1) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "subquery must return only one column"), s.location);
      }
      sp.kind = executor::SubPlan::Kind::kScalar;
      sp.type = q.columns[0].type;
      sp.typmod = q.columns[0].typmod;
      call->type = sp.type;
      call->typmod = sp.typmod;
      break;
    case parser::SubLinkKind::kArray:
      sp.kind = executor::SubPlan::Kind::kArray;
      sp.type = ArraySublinkType(q, s.location);
      call->type = sp.type;
      break;
    default:  // kAny/kAll go to BindQuantified
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ALL (subquery) is not supported yet"), s.location);
  }
  sp.handle_index = st_.nslots++;
  call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, sp.handle_index));
  st_.sub_plans.push_back(std::move(sp));
  return call;
}

std::vector<TargetSpec> QueryPlanner::ExpandTargets(const std::vector<parser::ResTarget>& targets,
                                                    const Scope& scope) {
  std::vector<TargetSpec> out;
  // '*' shows a USING column once (the left copy); 't.*' shows all of t.
  auto expand_entry = [&](const RangeEntry& e, int location, bool skip_hidden) {
    for (int i = 0; i < std::min(e.width(), e.system_from); ++i) {
      if ((skip_hidden && e.hidden[static_cast<size_t>(i)]) || e.names[static_cast<size_t>(i)] == kLockRowIdColumn) continue;
      auto ref = std::make_unique<parser::ColumnRefExpr>();
      if (!e.alias.empty()) ref->fields.push_back(e.alias);
      ref->fields.push_back(e.names[static_cast<size_t>(i)]);
      ref->star_column = i;
      ref->location = location;
      out.push_back(TargetSpec{ref.get(), e.names[static_cast<size_t>(i)]});
      st_.synthetic.push_back(std::move(ref));
    }
  };
  for (const parser::ResTarget& t : targets) {
    const parser::Expr& e = *t.expr;
    if (e.kind == parser::ExprKind::kStar) {
      if (scope.entries.empty()) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid"), e.location);
      }
      for (const RangeEntry& re : scope.entries) expand_entry(re, e.location, /*skip_hidden=*/true);
      continue;
    }
    if (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().star) {
      const auto& c = e.As<parser::ColumnRefExpr>();
      const std::string& qual = c.fields.back();
      const RangeEntry* found = nullptr;
      for (const RangeEntry& re : scope.entries) {
        if (re.alias == qual) found = &re;
      }
      // 'outer.*' in a correlated or LATERAL subquery: the enclosing entry's columns.
      for (size_t k = 0; found == nullptr && scope.corr != nullptr && scope.parent != nullptr &&
                         k < scope.parent->entries.size();
           ++k) {
        if (scope.parent->entries[k].alias == qual) found = &scope.parent->entries[k];
      }
      if (!found) {
        ThrowAt(DbError(sqlstate::kUndefinedTable, "missing FROM-clause entry for table \"" + qual + "\""),
                e.location);
      }
      expand_entry(*found, e.location, /*skip_hidden=*/false);
      continue;
    }
    out.push_back(TargetSpec{&e, t.alias.empty() ? executor::OutputColumnName(e) : t.alias});
  }
  return out;
}

// ---------------------------------------------------------------------------
// SELECT
// ---------------------------------------------------------------------------

PlannedQuery QueryPlanner::PlanSelect(const parser::SelectStmt& s) {
  CheckStackDepth();
  if (!s.with.empty() && with_planned_ != &s) return PlanWith(s);  // cte.cpp
  if (s.set_op != parser::SetOpKind::kNone || !s.values_lists.empty()) CheckSelectLocking(s, false);
  if (s.set_op != parser::SetOpKind::kNone) return PlanSetOp(s);
  if (!s.values_lists.empty()) {
    PlannedQuery q = PlanValues(s);
    ApplyOutputOrder(q, s);
    ApplyLimit(q, s);
    return q;
  }
  return PlanSimple(s);
}

PlannedQuery QueryPlanner::PlanValues(const parser::SelectStmt& s) {
  size_t ncols = s.values_lists[0].size();
  std::vector<std::vector<BoundExprPtr>> rows;
  for (const auto& list : s.values_lists) {
    if (list.size() != ncols) {
      ThrowAt(DbError(sqlstate::kSyntaxError, "VALUES lists must all be the same length"),
              list.empty() ? s.location : list[0]->location);
    }
    std::vector<BoundExprPtr> row;
    // No columns of its own; names of an enclosing (e.g. LATERAL) query are
    // correlated references.
    Scope none;
    none.parent = outer_;
    none.corr = corr_;
    for (const auto& e : list) {
      BindContext ctx = Context(&none, "VALUES");
      row.push_back(Bind(*e, ctx));
    }
    rows.push_back(std::move(row));
  }
  PlannedQuery q;
  for (size_t c = 0; c < ncols; ++c) {
    std::vector<types::Oid> ts;
    for (const auto& row : rows) ts.push_back(row[c]->type);
    types::Oid common;
    try {
      common = types::SelectCommonType(ts, "VALUES");
    } catch (DbError& e) {
      ThrowAt(std::move(e), s.values_lists[0][c]->location);
    }
    int32_t typmod = rows[0][c]->typmod;
    for (auto& row : rows) {
      if (row[c]->typmod != typmod) typmod = types::kNoTypmod;
    }
    for (auto& row : rows) {
      BindContext ctx;
      ctx.param_types = st_.params;
      row[c] = executor::Coerce(std::move(row[c]), common, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
      st_.params = ctx.param_types;
    }
    q.columns.push_back(OutputColumn{"column" + std::to_string(c + 1), common, typmod});
  }
  std::vector<std::vector<PlanExpr>> exprs;
  for (auto& row : rows) {
    std::vector<PlanExpr> r;
    for (auto& e : row) r.push_back(PlanExpr{std::move(e), ""});
    exprs.push_back(std::move(r));
  }
  q.node = std::make_unique<executor::ValuesScanNode>(std::move(exprs), q.columns);
  return q;
}

PlannedQuery QueryPlanner::PlanSetOp(const parser::SelectStmt& s) {
  // Both arms see the enclosing query as this level does (correlated or
  // LATERAL references are recorded in the same Correlation).
  QueryPlanner lp(st_, outer_, corr_), rp(st_, outer_, corr_);
  lp.set_op_arm_ = rp.set_op_arm_ = true;
  PlannedQuery l = lp.PlanSelect(*s.larg);
  PlannedQuery r = rp.PlanSelect(*s.rarg);
  const char* opname = s.set_op == parser::SetOpKind::kUnion       ? "UNION"
                       : s.set_op == parser::SetOpKind::kIntersect ? "INTERSECT"
                                                                   : "EXCEPT";
  if (l.columns.size() != r.columns.size()) {
    // As PostgreSQL (checked on 15.18): point at the right query's first column.
    int where = !s.rarg->targets.empty() && s.rarg->targets[0].expr ? s.rarg->targets[0].expr->location
                                                                     : s.rarg->location;
    ThrowAt(DbError(sqlstate::kSyntaxError, std::string("each ") + opname + " query must have the same number of columns"),
            where);
  }
  std::vector<OutputColumn> cols = l.columns;
  bool lcast = false, rcast = false;
  for (size_t i = 0; i < cols.size(); ++i) {
    types::Oid t;
    try {
      t = types::SelectCommonType({l.columns[i].type, r.columns[i].type}, opname);
    } catch (DbError& e) {
      ThrowAt(std::move(e), s.rarg->location);
    }
    lcast |= t != l.columns[i].type;
    rcast |= t != r.columns[i].type;
    if (l.columns[i].typmod != r.columns[i].typmod) cols[i].typmod = types::kNoTypmod;
    cols[i].type = t;
  }
  auto conform = [&](PlannedQuery& q) {
    std::vector<PlanExpr> exprs;
    for (size_t i = 0; i < cols.size(); ++i) {
      BindContext ctx;
      ctx.param_types = st_.params;
      BoundExprPtr c = MakeColumn(static_cast<int>(i), q.columns[i].type, q.columns[i].typmod);
      exprs.push_back(PlanExpr{executor::Coerce(std::move(c), cols[i].type, types::kNoTypmod,
                                                types::CoercionContext::kImplicit, ctx),
                               ""});
    }
    q.node = std::make_unique<executor::ProjectNode>(std::move(q.node), std::move(exprs), cols);
  };
  if (lcast) conform(l);
  if (rcast) conform(r);
  PlannedQuery q;
  q.columns = cols;
  if (s.set_op == parser::SetOpKind::kUnion) {
    std::vector<ExecNodePtr> kids;
    kids.push_back(std::move(l.node));
    kids.push_back(std::move(r.node));
    q.node = std::make_unique<executor::AppendNode>(std::move(kids), cols);
    if (!s.set_all) q.node = std::make_unique<executor::DistinctNode>(std::move(q.node));
  } else {
    q.node = std::make_unique<executor::SetOpNode>(
        s.set_op == parser::SetOpKind::kIntersect ? executor::SetOpKind::kIntersect : executor::SetOpKind::kExcept,
        s.set_all, std::move(l.node), std::move(r.node));
  }
  ApplyOutputOrder(q, s);
  ApplyLimit(q, s);
  return q;
}

void QueryPlanner::ApplyOutputOrder(PlannedQuery& q, const parser::SelectStmt& s) {
  if (s.order_by.empty()) return;
  std::vector<SortKey> keys;
  for (const parser::SortBy& sb : s.order_by) {
    int col = -1;
    if (IsOrdinalConst(*sb.expr)) {
      int n = Ordinal(*sb.expr);
      if (n < 1 || n > static_cast<int>(q.columns.size())) {
        ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                        "ORDER BY position " + sb.expr->As<parser::ConstExpr>().value + " is not in select list"),
                sb.expr->location);
      }
      col = n - 1;
    } else if (sb.expr->kind == parser::ExprKind::kColumnRef &&
               sb.expr->As<parser::ColumnRefExpr>().fields.size() == 1) {
      const std::string& name = sb.expr->As<parser::ColumnRefExpr>().fields[0];
      for (size_t i = 0; i < q.columns.size(); ++i) {
        if (q.columns[i].name == name) {
          col = static_cast<int>(i);
          break;
        }
      }
      if (col < 0) {
        ThrowAt(DbError(sqlstate::kUndefinedColumn, "column \"" + name + "\" does not exist"), sb.expr->location);
      }
    } else {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported,
                      "invalid UNION/INTERSECT/EXCEPT ORDER BY clause")
                  .WithDetail("Only result column names can be used, not expressions or functions."),
              sb.expr->location);
    }
    keys.push_back(MakeSortKey(col, sb, q.columns[static_cast<size_t>(col)].name));
    q.sort_columns.push_back(col);
  }
  q.node = std::make_unique<executor::SortNode>(std::move(q.node), std::move(keys), q.columns.size());
}

void QueryPlanner::ApplyLimit(PlannedQuery& q, const parser::SelectStmt& s) {
  if (!s.limit && !s.offset) return;
  auto bind_count = [&](const parser::ExprPtr& e, const char* what) {
    PlanExpr p;
    if (!e) return p;
    BindContext ctx = Context(nullptr, what);
    BoundExprPtr b = Bind(*e, ctx);
    ctx.param_types = st_.params;
    p.expr = executor::Coerce(std::move(b), types::kInt8Oid, types::kNoTypmod, types::CoercionContext::kAssignment, ctx);
    st_.params = ctx.param_types;
    p.text = Deparse(*e);
    return p;
  };
  PlanExpr limit = bind_count(s.limit, "LIMIT");
  PlanExpr offset = bind_count(s.offset, "OFFSET");
  if (s.limit_with_ties) {
    q.node = MakeLimitWithTies(std::move(q.node), std::move(limit), std::move(offset), q, s);
    return;
  }
  q.node = std::make_unique<executor::LimitNode>(std::move(q.node), std::move(limit), std::move(offset));
}

}  // namespace hearth::planner
