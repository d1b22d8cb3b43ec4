// server/planner/cte_refs.cpp
//
// Principal entry points: FindCteRefs (where a WITH query is referenced,
// with the context of each reference) and FindAggregate.
#include "planner/cte_refs.h"

#include <functional>

#include "common/error/stack_depth.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

namespace {

class RefFinder {
 public:
  RefFinder(const std::string& name, std::vector<CteRef>* out) : name_(name), out_(out) {}
  // Called for every expression node met (subqueries included).
  std::function<void(const parser::Expr&)> on_expr;

  void Select(const parser::SelectStmt& s, unsigned ctx, bool own_with_searched) {
    CheckStackDepth();
    if (own_with_searched && WithList(s.with, s.with_recursive, ctx)) return;  // name redefined here
    for (const parser::ResTarget& t : s.targets) Expr(t.expr.get(), ctx);
    for (const parser::FromItemPtr& f : s.from) From(*f, ctx);
    Expr(s.where.get(), ctx);
    for (const parser::ExprPtr& g : s.group_by) Expr(g.get(), ctx);
    Expr(s.having.get(), ctx);
    for (const auto& list : s.values_lists) {
      for (const parser::ExprPtr& e : list) Expr(e.get(), ctx);
    }
    for (const parser::ExprPtr& e : s.distinct_on) Expr(e.get(), ctx);
    for (const parser::SortBy& o : s.order_by) Expr(o.expr.get(), ctx);
    Expr(s.limit.get(), ctx);
    Expr(s.offset.get(), ctx);
    // As PostgreSQL: INTERSECT ALL and EXCEPT ALL taint both arms, EXCEPT its right one.
    unsigned left = ctx, right = ctx;
    if (s.set_op == parser::SetOpKind::kIntersect && s.set_all) left = right = ctx | kRefInIntersect;
    if (s.set_op == parser::SetOpKind::kExcept) {
      right = ctx | kRefInExcept;
      if (s.set_all) left = right;
    }
    if (s.larg) Select(*s.larg, left, true);
    if (s.rarg) Select(*s.rarg, right, true);
  }

  void Statement(const parser::Statement& st, unsigned ctx) {
    switch (st.kind) {
      case parser::StmtKind::kSelect:
        Select(st.As<parser::SelectStmt>(), ctx, false);
        break;
      case parser::StmtKind::kInsert: {
        const auto& i = st.As<parser::InsertStmt>();
        if (i.source) Select(*i.source, ctx, true);
        Targets(i.returning, ctx);
        break;
      }
      case parser::StmtKind::kUpdate: {
        const auto& u = st.As<parser::UpdateStmt>();
        for (const parser::SetClause& c : u.set) Expr(c.value.get(), ctx);
        for (const parser::FromItemPtr& f : u.from) From(*f, ctx);
        Expr(u.where.get(), ctx);
        Targets(u.returning, ctx);
        break;
      }
      case parser::StmtKind::kDelete: {
        const auto& d = st.As<parser::DeleteStmt>();
        for (const parser::FromItemPtr& f : d.using_items) From(*f, ctx);
        Expr(d.where.get(), ctx);
        Targets(d.returning, ctx);
        break;
      }
      default:
        break;
    }
  }

  // Searches the bodies of a nested WITH list; true if it redefines the name
  // (then nothing below it refers to ours, except bodies before it in a
  // non-recursive list).
  bool WithList(const std::vector<parser::CommonTableExpr>& with, bool recursive, unsigned ctx) {
    for (const parser::CommonTableExpr& c : with) {
      if (c.name == name_) return true;
      if (!recursive && c.query) Statement(*c.query, ctx);
    }
    if (recursive) {
      for (const parser::CommonTableExpr& c : with) {
        if (c.query) Statement(*c.query, ctx);
      }
    }
    return false;
  }

 private:
  void Targets(const std::vector<parser::ResTarget>& ts, unsigned ctx) {
    for (const parser::ResTarget& t : ts) Expr(t.expr.get(), ctx);
  }

  void From(const parser::FromItem& f, unsigned ctx) {
    CheckStackDepth();
    switch (f.kind) {
      case parser::FromKind::kTable: {
        const auto& t = f.As<parser::TableRef>();
        if (t.table.schema.empty() && t.table.name == name_) out_->push_back(CteRef{&t, ctx});
        break;
      }
      case parser::FromKind::kSubquery:
        Select(*f.As<parser::SubqueryRef>().subquery, ctx, true);
        break;
      case parser::FromKind::kJoin: {
        const auto& j = f.As<parser::JoinRef>();
        bool left_nullable = j.join_type == parser::JoinType::kRight || j.join_type == parser::JoinType::kFull;
        bool right_nullable = j.join_type == parser::JoinType::kLeft || j.join_type == parser::JoinType::kFull;
        From(*j.left, ctx | (left_nullable ? kRefInOuterJoin : 0u));
        From(*j.right, ctx | (right_nullable ? kRefInOuterJoin : 0u));
        Expr(j.on.get(), ctx);
        break;
      }
      case parser::FromKind::kFunction:
        Expr(f.As<parser::FunctionRef>().call.get(), ctx);
        break;
    }
  }

  void Expr(const parser::Expr* e, unsigned ctx) {
    if (e == nullptr) return;
    if (on_expr) on_expr(*e);
    if (e->kind == parser::ExprKind::kSubLink) {
      const auto& sl = e->As<parser::SubLinkExpr>();
      if (sl.subselect) Select(*sl.subselect, ctx | kRefInSublink, true);
    }
    ForEachChild(*e, [&](const parser::Expr& c) { Expr(&c, ctx); });
  }

  const std::string& name_;
  std::vector<CteRef>* out_;
};

const parser::Expr* FindAggregateIn(const parser::Expr* e) {
  if (e == nullptr) return nullptr;
  if (e->kind == parser::ExprKind::kFuncCall && IsAggregateCall(e->As<parser::FuncCallExpr>())) return e;
  const parser::Expr* found = nullptr;
  ForEachChild(*e, [&](const parser::Expr& c) {
    if (!found) found = FindAggregateIn(&c);
  });
  return found;
}

}  // namespace

std::vector<CteRef> FindCteRefs(const parser::Statement& stmt, const std::string& name) {
  std::vector<CteRef> out;
  RefFinder(name, &out).Statement(stmt, 0);
  return out;
}

std::vector<CteRef> FindCteRefsInBody(const parser::CommonTableExpr& cte, const std::string& name) {
  std::vector<CteRef> out;
  if (!cte.query) return out;
  RefFinder f(name, &out);
  if (cte.query->kind == parser::StmtKind::kSelect) {
    f.Select(cte.query->As<parser::SelectStmt>(), 0, true);
  } else {
    f.Statement(*cte.query, 0);
  }
  return out;
}

bool CallsVolatileFunction(const parser::CommonTableExpr& cte) {
  // PostgreSQL's volatile built-ins (now() and friends are only stable there).
  static const char* const kVolatile[] = {"random", "setseed", "nextval", "setval", "lastval",
                                          "gen_random_uuid", "clock_timestamp", "timeofday", "pg_sleep"};
  if (!cte.query) return false;
  std::vector<CteRef> unused;
  bool found = false;
  RefFinder f("", &unused);
  f.on_expr = [&found](const parser::Expr& e) {
    if (found || e.kind != parser::ExprKind::kFuncCall) return;
    const auto& name = e.As<parser::FuncCallExpr>().name;
    for (const char* v : kVolatile) found = found || (!name.empty() && name.back() == v);
  };
  f.Statement(*cte.query, 0);
  return found;
}

const parser::Expr* FindAggregate(const parser::SelectStmt& s) {
  for (const parser::ResTarget& t : s.targets) {
    if (const parser::Expr* a = FindAggregateIn(t.expr.get())) return a;
  }
  return FindAggregateIn(s.having.get());
}

}  // namespace hearth::planner
