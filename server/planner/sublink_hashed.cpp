// server/planner/sublink_hashed.cpp
//
// EXISTS and scalar subqueries that meet their outer query only through WHERE
// conjuncts of two shapes — `inner_expr = outer_expr` with hash-compatible
// sides, or a condition on outer values alone — need not run once per
// outer row:
//  - a top-level WHERE [NOT] EXISTS becomes a Hash Semi / Anti Join of the
//    FROM row with the subquery's FROM (`outer = inner` as hash keys), as
//    PostgreSQL pulls such sublinks up;
//  - anywhere else (under OR, in the select list, in an ON clause, or with
//    conditions on outer values) it becomes a hashed subplan: the subquery
//    without those conjuncts runs once per execution into a hash set of its
//    inner keys, and each evaluation looks the outer keys up; a scalar
//    subquery (one plain value, no LIMIT/DISTINCT) the same way, the table
//    holding each key's value (NULL for no row, 21000 for several).
// The subquery's planner (`probe_`) splits the conjuncts after binding its
// WHERE (ExtractHashProbe) and stops at the FROM row: an EXISTS does not
// look at its select list (a scalar subquery's value is bound there on
// that row). Anything else keeps the per-row subplan.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "executor/expr/binder.h"
#include "executor/nodes/join_nodes.h"
#include "executor/row_codec.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

namespace {

bool ContainsFuncCall(const parser::Expr& e) {
  if (e.kind == parser::ExprKind::kFuncCall || e.kind == parser::ExprKind::kSubLink) return true;
  bool found = false;
  ForEachChild(e, [&found](const parser::Expr& c) { found = found || ContainsFuncCall(c); });
  return found;
}

bool IsStar(const parser::Expr& e) {
  return e.kind == parser::ExprKind::kStar ||
         (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().star);
}

// A LIMIT that cannot change whether a row exists: NULL or a positive constant.
bool HarmlessLimit(const parser::Expr* e) {
  if (e == nullptr) return true;
  if (e->kind != parser::ExprKind::kConst) return false;
  const auto& c = e->As<parser::ConstExpr>();
  if (c.const_kind == parser::ConstKind::kNull) return true;
  return c.const_kind == parser::ConstKind::kInteger && !c.value.empty() && c.value != "0" && c.value[0] != '-';
}

bool UsesSlots(const BoundExpr& e, const std::vector<int>& slots) {
  if (e.kind == BoundKind::kParam && e.index >= executor::kHiddenParamBase) {
    for (int s : slots) {
      if (e.index == executor::kHiddenParamBase + s) return true;
    }
  }
  for (const auto& c : e.children) {
    if (UsesSlots(*c, slots)) return true;
  }
  return false;
}

bool HasColumns(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn) return true;
  for (const auto& c : e.children) {
    if (HasColumns(*c)) return true;
  }
  return false;
}

// Replaces the parameters of the outer values (slots[k]) by values[k].
void SubstituteOuterValues(BoundExprPtr& e, const std::vector<int>& slots, const std::vector<BoundExprPtr>& values) {
  if (e->kind == BoundKind::kParam) {
    for (size_t k = 0; k < slots.size(); ++k) {
      if (e->index == executor::kHiddenParamBase + slots[k]) {
        e = executor::CloneBound(*values[k]);
        return;
      }
    }
  }
  for (auto& c : e->children) SubstituteOuterValues(c, slots, values);
}

// "alias.column" wherever the reference resolves (as PostgreSQL qualifies
// the columns of a join condition); as written when nowhere.
std::string QualifiedName(const Scope* scope, const parser::ColumnRefExpr& c) {
  for (const Scope* s = scope; s != nullptr; s = s->parent) {
    try {
      auto [e, i] = s->Find(c);
      const std::string& name = e->names[static_cast<size_t>(i)];
      return e->alias.empty() ? name : e->alias + "." + name;
    } catch (const DbError&) {
    }
  }
  return Deparse(c);
}

BoundExprPtr BoolConst(bool v) {
  auto e = std::make_unique<BoundExpr>(BoundKind::kConst, types::kBoolOid);
  e->value = types::Value::Bool(v);
  return e;
}

}  // namespace

bool SublinkMayHash(const parser::SubLinkExpr& s) {
  const bool exists = s.sublink_kind == parser::SubLinkKind::kExists;
  if ((!exists && s.sublink_kind != parser::SubLinkKind::kExpr) || !s.subselect) return false;
  const parser::SelectStmt& q = *s.subselect;
  if (!q.with.empty() || q.set_op != parser::SetOpKind::kNone || !q.values_lists.empty() || q.from.empty() ||
      !q.group_by.empty() || q.has_grouping_sets || q.having || !q.windows.empty() || q.offset ||
      q.limit_with_ties || !q.locking.empty() || q.into) {
    return false;
  }
  // EXISTS: a LIMIT that keeps a row changes nothing. A scalar subquery:
  // one plain value, every row counted (more than one is an error).
  if (exists ? !HarmlessLimit(q.limit.get()) : (q.limit || q.distinct || q.targets.size() != 1)) return false;
  // Aggregates (one row whatever the WHERE) and set-returning functions
  // (zero rows possible) in the select list decide existence.
  for (const parser::ResTarget& t : q.targets) {
    if (t.expr && (ContainsFuncCall(*t.expr) || (!exists && IsStar(*t.expr)))) return false;
  }
  return true;
}

const parser::SubLinkExpr* PullUpCandidate(const parser::Expr& e, bool* anti) {
  const parser::Expr* x = &e;
  *anti = false;
  if (x->kind == parser::ExprKind::kUnaryOp && x->As<parser::UnaryOpExpr>().op == "NOT") {
    x = x->As<parser::UnaryOpExpr>().operand.get();
    *anti = true;
  }
  if (x->kind != parser::ExprKind::kSubLink) return nullptr;
  const auto& s = x->As<parser::SubLinkExpr>();
  return s.sublink_kind == parser::SubLinkKind::kExists ? &s : nullptr;
}

void QueryPlanner::ExtractHashProbe(SelectParts& p, std::vector<Conjunct>* conjs, bool from_correlated) {
  HashProbe& hp = *probe_;
  if (from_correlated || corr_ == nullptr || corr_->refs.empty() || p.where == nullptr) return;
  if (hp.value_target != nullptr) {
    // A scalar subquery's value must come from its own rows alone.
    BindContext ctx = Context(&p.scope, "SELECT");
    BoundExprPtr v = Bind(*hp.value_target, ctx);
    if (UsesSlots(*v, corr_->slots)) return;
    ctx.param_types = st_.params;
    hp.inner_value = executor::ResolveUnknownOutput(std::move(v), ctx);
    st_.params = ctx.param_types;
  }
  // A semi join pulled up here that reads outer values would make the
  // subquery's rows depend on them.
  for (const SemiJoin& sj : semi_joins_) {
    for (const PlanExpr& k : sj.outer_keys) {
      if (UsesSlots(*k.expr, corr_->slots)) return;
    }
  }
  enum Use { kKeep, kKey0, kKey1, kOuterCond };
  std::vector<Use> use(conjs->size(), kKeep);
  for (size_t i = 0; i < conjs->size(); ++i) {
    const BoundExpr& e = *(*conjs)[i].e.expr;
    if (!UsesSlots(e, corr_->slots)) continue;
    if (!HasColumns(e)) {
      use[i] = kOuterCond;
      continue;
    }
    const bool eq = e.kind == BoundKind::kFuncCall && e.func != nullptr && std::string(e.func->name) == "=" &&
                    e.children.size() == 2 && (*conjs)[i].source != nullptr &&
                    (*conjs)[i].source->kind == parser::ExprKind::kBinaryOp;
    if (!eq) return;
    const int hc = executor::HashClassOf(e.children[0]->type);
    if (hc == 0 || hc != executor::HashClassOf(e.children[1]->type)) return;
    auto inner_only = [&](const BoundExpr& x) { return HasColumns(x) && !UsesSlots(x, corr_->slots); };
    auto outer_only = [&](const BoundExpr& x) { return !HasColumns(x); };
    if (inner_only(*e.children[0]) && outer_only(*e.children[1])) {
      use[i] = kKey0;
    } else if (inner_only(*e.children[1]) && outer_only(*e.children[0])) {
      use[i] = kKey1;
    } else {
      return;
    }
  }
  hp.engaged = true;
  auto namer = [&p](const parser::ColumnRefExpr& c) { return QualifiedName(&p.scope, c); };
  std::vector<Conjunct> kept;
  for (size_t i = 0; i < conjs->size(); ++i) {
    Conjunct& c = (*conjs)[i];
    if (use[i] == kKeep) {
      kept.push_back(std::move(c));
      continue;
    }
    if (use[i] == kOuterCond) {
      hp.outer_conds.push_back(std::move(c.e));
      continue;
    }
    const size_t in = use[i] == kKey0 ? 0 : 1;
    const auto& b = c.source->As<parser::BinaryOpExpr>();
    const parser::Expr& in_src = in == 0 ? *b.left : *b.right;
    const parser::Expr& out_src = in == 0 ? *b.right : *b.left;
    hp.inner_keys.push_back(std::move(c.e.expr->children[in]));
    hp.outer_keys.push_back(std::move(c.e.expr->children[1 - in]));
    const std::string text = "(" + Deparse(out_src, namer) + " = " + Deparse(in_src, namer) + ")";
    hp.cond_text = hp.cond_text.empty() ? text : "(" + hp.cond_text + " AND " + text + ")";
  }
  *conjs = std::move(kept);
}

BoundExprPtr QueryPlanner::BindHashedSublink(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                                             const Correlation& corr, HashProbe probe) {
  if (&s == pullup_target_ && probe.outer_conds.empty() && st_.options.enable_hashjoin) {
    // The outer keys on this level's row: the outer values' parameters
    // replaced by the columns (or this level's own outer values) they are.
    executor::BoundExpr values(BoundKind::kFuncCall, types::kBoolOid);
    AddOuterValues(values, corr, ctx);
    std::vector<PlanExpr> outer_keys;
    bool keys_on_row = true;
    for (const BoundExprPtr& k : probe.outer_keys) {
      BoundExprPtr x = executor::CloneBound(*k);
      SubstituteOuterValues(x, corr.slots, values.children);
      ConvertOuterRefs(*x);
      keys_on_row = keys_on_row && HasColumns(*x);
      outer_keys.push_back(PlanExpr{std::move(x), ""});
    }
    // Keys on values from further out only are no join: the hashed
    // subplan below answers them as a condition on outer values.
    if (keys_on_row) {
      SemiJoin sj;
      sj.outer_keys = std::move(outer_keys);
      for (BoundExprPtr& k : probe.inner_keys) sj.inner_keys.push_back(PlanExpr{std::move(k), ""});
      sj.anti = pullup_anti_;
      sj.inner = std::move(q.node);
      sj.cond_text = probe.cond_text;
      semi_joins_.push_back(std::move(sj));
      pullup_done_ = true;
      return BoolConst(true);  // the conjunct is dropped (pullup_done_)
    }
  }
  executor::SubPlan sp;
  sp.kind = executor::SubPlan::Kind::kHashedExists;
  auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kBoolOid);
  if (probe.inner_value) {
    sp.kind = executor::SubPlan::Kind::kHashedScalar;
    sp.type = call->type = probe.inner_value->type;
    sp.typmod = call->typmod = probe.inner_value->typmod;
    sp.inner_value = std::move(probe.inner_value);
  }
  sp.plan = std::move(q.node);
  sp.arg_indexes = corr.slots;
  sp.inner_keys = std::move(probe.inner_keys);
  sp.outer_keys = std::move(probe.outer_keys);
  for (PlanExpr& c : probe.outer_conds) sp.outer_cond = MakeAnd(std::move(sp.outer_cond), std::move(c.expr));
  call->func = executor::SubPlanSignature();
  call->location = s.location;
  AddOuterValues(*call, corr, ctx);
  sp.handle_index = st_.nslots++;
  call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, sp.handle_index));
  st_.sub_plans.push_back(std::move(sp));
  return call;
}

ExecNodePtr QueryPlanner::AddSemiJoins(ExecNodePtr node) {
  for (SemiJoin& sj : semi_joins_) {
    const executor::JoinKind kind = sj.anti ? executor::JoinKind::kAnti : executor::JoinKind::kSemi;
    if (sj.outer_keys.empty()) {
      node = std::make_unique<executor::NestedLoopJoinNode>(kind, std::move(node), std::move(sj.inner), PlanExpr{});
    } else {
      node = std::make_unique<executor::HashJoinNode>(kind, std::move(node), std::move(sj.inner),
                                                      std::move(sj.outer_keys), std::move(sj.inner_keys), PlanExpr{},
                                                      sj.cond_text);
    }
  }
  semi_joins_.clear();
  return node;
}

}  // namespace hearth::planner
