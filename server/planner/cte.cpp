// server/planner/cte.cpp
//
// WITH queries (PostgreSQL 15 semantics). Principal entry points:
// QueryPlanner::EnterWith (a statement's WITH list comes into scope; the
// materialized queries are planned), QueryPlanner::PlanCteRef (a FROM name
// that is a WITH query), QueryPlanner::PlanRecursiveCte (WITH RECURSIVE's
// non-recursive UNION [ALL] recursive term) and WithScope::Anchor.
//
// Rules (as PostgreSQL 12+): a non-recursive SELECT referenced once, or
// written NOT MATERIALIZED, is inlined at its reference as a subquery;
// otherwise it is materialized: planned once as an init plan of kind kCte
// whose Execution-owned store (executor/cte_store.h) is filled lazily as
// CTE Scans read it. A recursive query's recursive term reads the working
// table through a WorkTable Scan (a kWorkTable store).
//
// Visibility: a WITH query sees the queries before it in its list (all of
// them under RECURSIVE) and the enclosing levels' lists; its body is
// planned in the scope where it is defined, whichever reference plans it.
#include <climits>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/cte_nodes.h"
#include "executor/nodes/scan_nodes.h"
#include "planner/cte.h"
#include "planner/cte_refs.h"
#include "planner/planner_internal.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

struct CteDef {
  const parser::CommonTableExpr* cte = nullptr;
  size_t index = 0;        // position in its WITH list
  bool recursive = false;  // refers to itself under WITH RECURSIVE
  bool inlined = false;    // planned at its reference as a subquery
  bool unreferenced = false;
  enum class State { kPending, kPlanning, kNonRecursiveTerm, kRecursiveTerm, kPlanned };
  State state = State::kPending;
  int slot = -1;       // materialized: the store's parameter slot
  int work_slot = -1;  // recursive: the working table's slot
  std::vector<OutputColumn> columns;
  const executor::ExecNode* plan = nullptr;  // materialized: for EXPLAIN
};

struct CteEnv {
  std::vector<std::unique_ptr<CteDef>> defs;
  bool recursive = false;
  size_t visible = SIZE_MAX;  // non-recursive list: defs [0, visible) are visible
  CteEnv* parent = nullptr;
  const Scope* outer = nullptr;  // the scope enclosing the statement with the list
};

WithScope::WithScope(PlannerState& st, std::unique_ptr<CteEnv> env)
    : st_(st), env_(std::move(env)), saved_(st.ctes) {
  env_->parent = saved_;
  st.ctes = env_.get();
}

WithScope::~WithScope() { st_.ctes = saved_; }

ExecNodePtr WithScope::Anchor(ExecNodePtr top) const {
  std::vector<std::pair<std::string, const executor::ExecNode*>> ctes;
  for (const auto& d : env_->defs) {
    if (d->plan != nullptr) ctes.emplace_back(d->cte->name, d->plan);
  }
  if (ctes.empty()) return top;
  return std::make_unique<executor::CteAnchorNode>(std::move(top), std::move(ctes));
}

namespace {

// While a WITH query's body is planned: its own list is the innermost in
// scope, showing only what the body may see.
class CteBodyScope {
 public:
  CteBodyScope(PlannerState& st, CteEnv& env, const CteDef& d)
      : st_(st), env_(env), saved_(st.ctes), saved_visible_(env.visible) {
    st.ctes = &env;
    if (!env.recursive) env.visible = d.index;
  }
  ~CteBodyScope() {
    st_.ctes = saved_;
    env_.visible = saved_visible_;
  }
  CteBodyScope(const CteBodyScope&) = delete;
  CteBodyScope& operator=(const CteBodyScope&) = delete;

 private:
  PlannerState& st_;
  CteEnv& env_;
  CteEnv* saved_;
  size_t saved_visible_;
};

std::pair<CteEnv*, CteDef*> LookupCte(CteEnv* env, const std::string& name) {
  for (; env != nullptr; env = env->parent) {
    for (size_t i = 0; i < env->defs.size() && i < env->visible; ++i) {
      if (env->defs[i]->cte->name == name) return {env, env->defs[i].get()};
    }
  }
  return {nullptr, nullptr};
}

std::vector<OutputColumn> NameCteColumns(const CteDef& d, std::vector<OutputColumn> cols) {
  const std::vector<std::string>& names = d.cte->columns;
  if (names.size() > cols.size()) {
    ThrowAt(DbError(sqlstate::kInvalidColumnReference, "WITH query \"" + d.cte->name + "\" has " +
                                                           std::to_string(cols.size()) + " columns available but " +
                                                           std::to_string(names.size()) + " columns specified"),
            d.cte->location);
  }
  for (size_t i = 0; i < names.size(); ++i) cols[i].name = names[i];
  return cols;
}

// Where an expression starts in the text (PostgreSQL's exprLocation: a
// cast's location is its argument's).
int ExprStart(const parser::Expr& e) {
  if (e.kind == parser::ExprKind::kCast && e.As<parser::CastExpr>().arg) return ExprStart(*e.As<parser::CastExpr>().arg);
  return e.location;
}

DbError RecursionError(const std::string& name, const std::string& what) {
  return DbError("42P19", "recursive reference to query \"" + name + "\" must not appear " + what);
}

// PostgreSQL's checkWellFormedRecursion: the form, then where the
// recursive term refers to the query.
void CheckRecursiveForm(const CteDef& d) {
  const std::string& name = d.cte->name;
  if (d.cte->query->kind != parser::StmtKind::kSelect ||
      d.cte->query->As<parser::SelectStmt>().set_op != parser::SetOpKind::kUnion) {
    ThrowAt(DbError("42P19", "recursive query \"" + name +
                                 "\" does not have the form non-recursive-term UNION [ALL] recursive-term"),
            d.cte->location);
  }
  const auto& body = d.cte->query->As<parser::SelectStmt>();
  std::vector<CteRef> in_left = FindCteRefs(*body.larg, name);
  if (!in_left.empty()) ThrowAt(RecursionError(name, "within its non-recursive term"), in_left[0].ref->location);
  if (!body.order_by.empty()) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ORDER BY in a recursive query is not implemented"),
            body.order_by[0].expr->location);
  }
  if (body.offset) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "OFFSET in a recursive query is not implemented"),
            body.offset->location);
  }
  if (body.limit) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "LIMIT in a recursive query is not implemented"),
            body.limit->location);
  }
  if (!body.locking.empty()) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "FOR UPDATE/SHARE in a recursive query is not implemented"),
            d.cte->location);
  }
  std::vector<CteRef> refs = FindCteRefs(*body.rarg, name);
  for (size_t i = 0; i < refs.size(); ++i) {
    const CteRef& r = refs[i];
    if (r.context & kRefInSublink) ThrowAt(RecursionError(name, "within a subquery"), r.ref->location);
    if (r.context & kRefInOuterJoin) ThrowAt(RecursionError(name, "within an outer join"), r.ref->location);
    if (r.context & kRefInIntersect) ThrowAt(RecursionError(name, "within INTERSECT"), r.ref->location);
    if (r.context & kRefInExcept) ThrowAt(RecursionError(name, "within EXCEPT"), r.ref->location);
    if (i > 0) ThrowAt(RecursionError(name, "more than once"), r.ref->location);
  }
  if (const parser::Expr* agg = FindAggregate(*body.rarg)) {
    ThrowAt(DbError("42P19", "aggregate functions are not allowed in a recursive query's recursive term"),
            agg->location);
  }
}

// References to d's name that d is visible to: the statement's body and
// the other bodies of its list that may see it.
size_t CountReferences(const CteEnv& env, const CteDef& d, const parser::Statement& body) {
  size_t n = FindCteRefs(body, d.cte->name).size();
  for (const auto& other : env.defs) {
    if (other.get() == &d || (!env.recursive && other->index < d.index)) continue;
    n += FindCteRefsInBody(*other->cte, d.cte->name).size();
  }
  return n;
}

}  // namespace

std::unique_ptr<WithScope> QueryPlanner::EnterWith(const std::vector<parser::CommonTableExpr>& with, bool recursive,
                                                   const parser::Statement& body) {
  if (with.empty()) return nullptr;
  auto env = std::make_unique<CteEnv>();
  env->recursive = recursive;
  env->outer = outer_;
  for (size_t i = 0; i < with.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (with[j].name == with[i].name) {
        ThrowAt(DbError("42712", "WITH query name \"" + with[i].name + "\" specified more than once"),
                with[i].location);
      }
    }
    auto d = std::make_unique<CteDef>();
    d->cte = &with[i];
    d->index = i;
    d->recursive = recursive && !FindCteRefsInBody(with[i], with[i].name).empty();
    env->defs.push_back(std::move(d));
  }
  for (auto& d : env->defs) {
    const bool modifies = d->cte->query->kind != parser::StmtKind::kSelect;
    if (modifies && &body != st_.top) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported,
                      "WITH clause containing a data-modifying statement must be at the top level"),
              d->cte->location);
    }
    if (modifies && d->recursive) {
      ThrowAt(DbError("42P19", "recursive query \"" + d->cte->name + "\" must not contain data-modifying statements"),
              d->cte->location);
    }
    size_t refs = CountReferences(*env, *d, body);
    parser::CteMaterialize m = d->cte->materialized;
    // Inside a part re-run per execution (a recursive term, a subquery in
    // an expression, LATERAL) a store computed once would be stale: expand.
    d->inlined = !d->recursive && !modifies &&
                 (m == parser::CteMaterialize::kNever || st_.rescanned_depth > 0 ||
                  (m == parser::CteMaterialize::kDefault && refs == 1 && !CallsVolatileFunction(*d->cte)));
    if (d->recursive) CheckRecursiveForm(*d);
    d->unreferenced = refs == 0 && !modifies;  // a data-modifying one runs all the same
  }
  auto scope = std::make_unique<WithScope>(st_, std::move(env));
  // Plan in list order, so errors come as PostgreSQL reports them. An
  // unreferenced query is planned for its errors, then dropped.
  for (auto& d : scope->env().defs) {
    if (d->unreferenced) {
      size_t ninit = st_.init_plans.size(), nsub = st_.sub_plans.size();
      PlanCteQuery(scope->env(), *d);
      st_.init_plans.resize(ninit);
      st_.sub_plans.resize(nsub);
      continue;
    }
    if (!d->inlined && d->state == CteDef::State::kPending) MaterializeCte(scope->env(), *d);
  }
  return scope;
}

PlannedQuery QueryPlanner::PlanWith(const parser::SelectStmt& s) {
  std::unique_ptr<WithScope> with = EnterWith(s.with, s.with_recursive, s);
  const parser::SelectStmt* saved = with_planned_;
  with_planned_ = &s;
  PlannedQuery q = PlanSelect(s);
  with_planned_ = saved;
  q.node = with->Anchor(std::move(q.node));
  return q;
}

PlannedQuery QueryPlanner::PlanCteQuery(CteEnv& env, CteDef& d) {
  CteBodyScope body_scope(st_, env, d);
  CteDef::State saved = d.state;
  d.state = CteDef::State::kPlanning;
  PlannedQuery q;
  if (d.recursive) {
    q = PlanRecursiveCte(env, d);
  } else if (d.cte->query->kind != parser::StmtKind::kSelect) {
    executor::PlannedStatement dml = PlanDataModifyingCte(*d.cte->query, st_);
    q.node = std::move(dml.root);
    q.columns = NameCteColumns(d, std::move(dml.columns));
  } else {
    QueryPlanner sub(st_, env.outer);
    q = sub.PlanSelect(d.cte->query->As<parser::SelectStmt>());
    q.columns = NameCteColumns(d, std::move(q.columns));
  }
  d.columns = q.columns;
  d.state = saved;
  return q;
}

void QueryPlanner::MaterializeCte(CteEnv& env, CteDef& d) {
  PlannedQuery q = PlanCteQuery(env, d);
  executor::InitPlan ip;
  ip.kind = executor::InitPlan::Kind::kCte;
  ip.param_index = d.slot = st_.nslots++;
  ip.cte_name = d.cte->name;
  ip.run_to_completion = d.cte->query->kind != parser::StmtKind::kSelect;
  ip.plan = std::move(q.node);
  d.plan = ip.plan.get();
  d.state = CteDef::State::kPlanned;
  st_.init_plans.push_back(std::move(ip));
}

PlannedQuery QueryPlanner::PlanRecursiveCte(CteEnv& env, CteDef& d) {
  const auto& body = d.cte->query->As<parser::SelectStmt>();
  d.state = CteDef::State::kNonRecursiveTerm;
  PlannedQuery non = QueryPlanner(st_, env.outer).PlanSelect(*body.larg);
  d.columns = NameCteColumns(d, non.columns);
  d.work_slot = st_.nslots++;
  executor::InitPlan wt;
  wt.kind = executor::InitPlan::Kind::kWorkTable;
  wt.param_index = d.work_slot;
  st_.init_plans.push_back(std::move(wt));
  d.state = CteDef::State::kRecursiveTerm;
  QueryPlanner rp(st_, env.outer);
  rp.set_op_arm_ = true;  // unknown outputs take the non-recursive term's types
  PlannedQuery rec;
  {
    RescannedPart rescanned(st_);
    rec = rp.PlanSelect(*body.rarg);
  }
  d.state = CteDef::State::kPlanning;
  if (rec.columns.size() != non.columns.size()) {
    int where = !body.rarg->targets.empty() ? body.rarg->targets[0].expr->location : body.rarg->location;
    ThrowAt(DbError(sqlstate::kSyntaxError, "each UNION query must have the same number of columns"), where);
  }
  std::vector<PlanExpr> conform;
  bool cast = false;
  for (size_t i = 0; i < d.columns.size(); ++i) {
    types::Oid want = d.columns[i].type;
    types::Oid common = types::kInvalidOid;
    try {
      common = types::SelectCommonType({want, rec.columns[i].type}, "UNION");
    } catch (DbError& e) {
      ThrowAt(std::move(e), i < body.rarg->targets.size() ? ExprStart(*body.rarg->targets[i].expr) : body.rarg->location);
    }
    // As PostgreSQL, typmods count too: a differing one makes the column's overall typmod -1.
    const int32_t want_typmod = d.columns[i].typmod;
    const int32_t common_typmod = rec.columns[i].typmod == want_typmod ? want_typmod : types::kNoTypmod;
    if (common != want || common_typmod != want_typmod) {
      int where = i < body.larg->targets.size() ? body.larg->targets[i].expr->location : d.cte->location;
      ThrowAt(DbError(sqlstate::kDatatypeMismatch, "recursive query \"" + d.cte->name + "\" column " +
                                                       std::to_string(i + 1) + " has type " +
                                                       types::FormatType(want, d.columns[i].typmod) +
                                                       " in non-recursive term but type " +
                                                       types::FormatType(common, common_typmod) + " overall")
                  .WithHint("Cast the output of the non-recursive term to the correct type."),
              where);
    }
    BindContext ctx;
    ctx.param_types = st_.params;
    BoundExprPtr c = MakeColumn(static_cast<int>(i), rec.columns[i].type, rec.columns[i].typmod);
    cast |= rec.columns[i].type != want;
    conform.push_back(PlanExpr{executor::Coerce(std::move(c), want, d.columns[i].typmod,
                                                types::CoercionContext::kImplicit, ctx),
                               ""});
    st_.params = ctx.param_types;
  }
  if (cast) rec.node = std::make_unique<executor::ProjectNode>(std::move(rec.node), std::move(conform), d.columns);
  PlannedQuery q;
  q.columns = d.columns;
  q.node = std::make_unique<executor::RecursiveUnionNode>(
      std::move(non.node), std::move(rec.node), PlanExpr{HiddenParam(types::kInt8Oid, types::kNoTypmod, d.work_slot), ""},
      !body.set_all, d.columns);
  return q;
}

std::optional<QueryPlanner::FromResult> QueryPlanner::PlanCteRef(const parser::TableRef& t) {
  if (!t.table.schema.empty() || st_.ctes == nullptr) return std::nullopt;
  auto [env, d] = LookupCte(st_.ctes, t.table.name);
  if (d == nullptr) return std::nullopt;
  const std::string& name = d->cte->name;
  const int loc = t.table.location >= 0 ? t.table.location : t.location;
  if (d->state == CteDef::State::kNonRecursiveTerm) {
    ThrowAt(RecursionError(name, "within its non-recursive term"), loc);
  }
  if (d->state == CteDef::State::kPlanning) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "mutual recursion between WITH items is not implemented"),
            loc);
  }
  FromResult r;
  std::string alias = t.alias.name.empty() ? name : t.alias.name;
  for (const NamedLock& n : lock_named_) {  // FOR UPDATE OF names it (without OF: not locked, as PostgreSQL)
    if (n.name == alias) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, std::string(n.clause) + " cannot be applied to a WITH query"),
              n.location);
    }
  }
  std::vector<OutputColumn> cols;
  if (d->state == CteDef::State::kRecursiveTerm) {
    cols = d->columns;
    // EXPLAIN names it apart from the CTE Scan of the same name, as PostgreSQL's unique aliases do.
    r.node = std::make_unique<executor::CteScanNode>(
        PlanExpr{HiddenParam(types::kInt8Oid, types::kNoTypmod, d->work_slot), ""}, name,
        t.alias.name.empty() ? name + "_1" : t.alias.name, cols, /*work_table=*/true);
  } else if (d->inlined) {
    PlannedQuery q = PlanCteQuery(*env, *d);
    cols = q.columns;
    r.node = std::make_unique<executor::SubqueryScanNode>(std::move(q.node), alias, cols);
  } else {
    if (d->state == CteDef::State::kPending) MaterializeCte(*env, *d);
    if (d->cte->query->kind != parser::StmtKind::kSelect && d->columns.empty()) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "WITH query \"" + name + "\" does not have a RETURNING clause"),
              loc);
    }
    cols = d->columns;
    r.node = std::make_unique<executor::CteScanNode>(
        PlanExpr{HiddenParam(types::kInt8Oid, types::kNoTypmod, d->slot), ""}, name, t.alias.name, cols);
  }
  RangeEntry e;
  e.alias = alias;
  for (size_t i = 0; i < cols.size(); ++i) {
    e.names.push_back(i < t.alias.columns.size() ? t.alias.columns[i] : cols[i].name);
    e.types.push_back(cols[i].type);
    e.typmods.push_back(cols[i].typmod);
    e.hidden.push_back(false);
  }
  r.entries.push_back(std::move(e));
  return r;
}

void AddInvisibleCteHint(const PlannerState& st, const std::string& name, DbError* e) {
  for (const CteEnv* env = st.ctes; env != nullptr; env = env->parent) {
    for (const auto& d : env->defs) {
      if (d->cte->name != name) continue;
      e->WithDetail("There is a WITH item named \"" + name + "\", but it cannot be referenced from this part of the query.");
      e->WithHint("Use WITH RECURSIVE, or re-order the WITH items to remove forward references.");
      return;
    }
  }
}

}  // namespace hearth::planner
