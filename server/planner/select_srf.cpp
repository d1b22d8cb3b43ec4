// server/planner/select_srf.cpp
//
// Set-returning functions in the select list (PostgreSQL 10+ ProjectSet
// semantics): every SRF call of the select list (and ORDER BY) becomes one
// call of a ProjectSetNode under the projection, all running in lockstep
// per input row; the projection reads each call's current value as a
// trailing column of the ProjectSet row. Identical calls share one slot
// (`SELECT generate_series(1,3) ... ORDER BY generate_series(1,3)`); an SRF
// in another's arguments runs in a ProjectSet one level up. As in
// PostgreSQL, an SRF inside CASE, COALESCE or an aggregate's arguments, and
// in HAVING, is rejected with 0A000.
#include <algorithm>
#include <functional>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/project_set_node.h"
#include "planner/planner_internal.h"
#include "utils/adt/srf_registry.h"

namespace hearth::planner {

namespace {

// Select-list placeholders for SRF values while the list is bound: index -
// kSrfRefBase is the call's position in SelectParts::srfs. AddProjectSet
// turns them into references to the ProjectSet row.
constexpr int kSrfRefBase = (1 << 23) + (1 << 22);
static_assert(kSrfRefBase < kOuterRefBase);

bool IsSrfCall(const parser::Expr& e) {
  if (e.kind != parser::ExprKind::kFuncCall) return false;
  const auto& f = e.As<parser::FuncCallExpr>();
  return !f.name.empty() && !f.over && types::IsSetReturningName(f.name.back());
}

constexpr const char* kMoveHint = "You might be able to move the set-returning function into a LATERAL FROM item.";

// 0A000 for an SRF where PostgreSQL rejects it: `inside` names the
// enclosing construct ("CASE", "COALESCE", "aggregate") or is null.
void CheckSrfPlacement(const parser::Expr& e, const char* inside) {
  if (IsSrfCall(e) && inside != nullptr) {
    const std::string what = inside;
    ThrowAt(DbError(sqlstate::kFeatureNotSupported,
                    what == "aggregate" ? "aggregate function calls cannot contain set-returning function calls"
                                        : "set-returning functions are not allowed in " + what)
                .WithHint(kMoveHint),
            e.location);
  }
  const char* next = inside;
  if (e.kind == parser::ExprKind::kCase) next = "CASE";
  if (e.kind == parser::ExprKind::kFuncCall) {
    const auto& f = e.As<parser::FuncCallExpr>();
    if (IsAggregateCall(f)) next = "aggregate";
    if (f.name.size() == 1 && f.name[0] == "coalesce") next = "COALESCE";
  }
  ForEachChild(e, [&](const parser::Expr& c) { CheckSrfPlacement(c, next); });
}

// Any SRF call in e (HAVING rejects them all).
const parser::Expr* FindSrf(const parser::Expr& e) {
  if (IsSrfCall(e)) return &e;
  const parser::Expr* found = nullptr;
  ForEachChild(e, [&](const parser::Expr& c) {
    if (found == nullptr) found = FindSrf(c);
  });
  return found;
}

// The deepest nesting level of the SRF placeholders in e; -1 if none.
int MaxSrfLevel(const BoundExpr& e, const std::vector<executor::SrfSpec>& srfs) {
  if (e.kind == BoundKind::kColumn && e.index >= kSrfRefBase && e.index < kOuterRefBase) {
    return srfs[static_cast<size_t>(e.index - kSrfRefBase)].level;
  }
  int level = -1;
  for (const BoundExprPtr& c : e.children) level = std::max(level, MaxSrfLevel(*c, srfs));
  return level;
}

// Placeholder k → its column of the ProjectSet rows, pos[k]: a plain row's
// slot, or, above an aggregate, a value after the group keys (kAggRef).
void ResolveSrfRefs(BoundExpr& e, const std::vector<int>& pos, int agg_base) {
  if (e.kind == BoundKind::kColumn && e.index >= kSrfRefBase && e.index < kOuterRefBase) {
    const int at = pos[static_cast<size_t>(e.index - kSrfRefBase)];
    if (agg_base >= 0) {
      e.kind = BoundKind::kAggRef;
      e.index = at - agg_base;
    } else {
      e.index = at;
    }
    return;
  }
  for (BoundExprPtr& c : e.children) ResolveSrfRefs(*c, pos, agg_base);
}

}  // namespace

void QueryPlanner::SetUpSrfTargets(SelectParts& p) {
  for (const TargetSpec& t : p.targets) CheckSrfPlacement(*t.expr, nullptr);
  for (const parser::SortBy& sb : p.s.order_by) CheckSrfPlacement(*sb.expr, nullptr);
  if (p.s.having) {
    if (const parser::Expr* srf = FindSrf(*p.s.having)) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "set-returning functions are not allowed in HAVING"),
              srf->location);
    }
  }
  p.out_ctx.bind_srf = [this, &p](const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                  const types::ResolvedFunc& r, BindContext&) -> BoundExprPtr {
    executor::SrfSpec spec;
    spec.srf = &types::LookupSrf(r.sig);
    spec.type = r.result_type;
    for (BoundExprPtr& a : args) {
      spec.level = std::max(spec.level, MaxSrfLevel(*a, p.srfs) + 1);
      spec.args.push_back(PlanExpr{std::move(a), ""});
    }
    size_t k = 0;
    for (; k < p.srfs.size(); ++k) {
      const executor::SrfSpec& o = p.srfs[k];
      bool same = o.srf == spec.srf && o.args.size() == spec.args.size();
      for (size_t i = 0; same && i < o.args.size(); ++i) same = SameExpr(*o.args[i].expr, *spec.args[i].expr);
      if (same) break;
    }
    if (k == p.srfs.size()) {
      for (PlanExpr& a : spec.args) ConvertOuterRefs(*a.expr);
      p.srfs.push_back(std::move(spec));
    }
    auto ref = MakeColumn(kSrfRefBase + static_cast<int>(k), r.result_type, types::kNoTypmod);
    ref->location = f.location;
    return ref;
  };
}

ExecNodePtr QueryPlanner::AddProjectSet(ExecNodePtr node, SelectParts& p) {
  if (p.srfs.empty()) return node;
  // Level by level, each ProjectSet appends its SRFs' columns to the row.
  int top = 0;
  for (const executor::SrfSpec& s : p.srfs) top = std::max(top, s.level);
  std::vector<int> pos(p.srfs.size());
  int next = static_cast<int>(node->columns().size());
  for (int level = 0; level <= top; ++level) {
    for (size_t k = 0; k < p.srfs.size(); ++k) {
      if (p.srfs[k].level == level) pos[k] = next++;
    }
  }
  for (executor::SrfSpec& s : p.srfs) {
    for (PlanExpr& a : s.args) ResolveSrfRefs(*a.expr, pos, p.agg_base);
  }
  for (PlanExpr& e : p.exprs) ResolveSrfRefs(*e.expr, pos, p.agg_base);
  for (int level = 0; level <= top; ++level) {
    std::vector<executor::SrfSpec> at_level;
    for (executor::SrfSpec& s : p.srfs) {
      if (s.level == level) at_level.push_back(std::move(s));
    }
    node = std::make_unique<executor::ProjectSetNode>(std::move(node), std::move(at_level), p.agg_base);
  }
  return node;
}

}  // namespace hearth::planner
