// server/planner/view_ref.cpp
//
// Principal entry point: QueryPlanner::PlanViewRef — a view named in FROM
// is planned in its place as a subquery of its stored query (parsed again
// from the catalog text), as PostgreSQL's rewriter expands it: the query
// sees none of the referencing statement's names (no outer columns, no WITH
// queries), its relations are noted as used through the view (checked with
// the view owner's privileges), and its rows carry the view's column names.
#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/scan_nodes.h"
#include "parser/parser.h"
#include "planner/column_use.h"
#include "planner/planner_internal.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

namespace {

// Restores what the view's query must not see of the referencing statement.
class ViewPlanningGuard {
 public:
  ViewPlanningGuard(PlannerState& st, types::Oid view) : st_(st), ctes_(st.ctes) {
    st_.ctes = nullptr;
    st_.view_stack.push_back(view);
  }
  ~ViewPlanningGuard() {
    st_.ctes = ctes_;
    st_.view_stack.pop_back();
  }
  ViewPlanningGuard(const ViewPlanningGuard&) = delete;
  ViewPlanningGuard& operator=(const ViewPlanningGuard&) = delete;

 private:
  PlannerState& st_;
  CteEnv* ctes_;
};

const parser::SelectStmt& ParseViewQuery(PlannerState& st, const executor::TableInfo& view) {
  std::vector<parser::StmtPtr> parsed = parser::ParseStatements(view.view_query);
  if (parsed.size() != 1 || parsed[0]->kind != parser::StmtKind::kSelect) {
    throw DbError(sqlstate::kInternalError, "stored query of view \"" + view.name + "\" is not a SELECT");
  }
  st.parsed_views.push_back(std::move(parsed));
  return st.parsed_views.back()[0]->As<parser::SelectStmt>();
}

// An unknown-typed literal column was stored as text (PostgreSQL does so too).
bool SameType(types::Oid planned, types::Oid stored) {
  return planned == stored || (planned == types::kUnknownOid && stored == types::kTextOid);
}

}  // namespace

QueryPlanner::FromResult QueryPlanner::PlanViewRef(const parser::TableRef& t, const executor::TableInfo& view) {
  const int loc = t.table.location >= 0 ? t.table.location : t.location;
  const std::string alias = t.alias.name.empty() ? view.name : t.alias.name;
  if (std::find(st_.view_stack.begin(), st_.view_stack.end(), view.oid) != st_.view_stack.end()) {
    ThrowAt(DbError("42P17", "infinite recursion detected in rules for relation \"" + view.name + "\""), loc);
  }
  const bool locked = lock_all_.has_value() || std::any_of(lock_named_.begin(), lock_named_.end(),
                                                           [&](const NamedLock& n) { return n.name == alias; });
  if (locked) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "FOR UPDATE/SHARE of a view is not supported yet"), loc);
  }
  RangeEntry e;
  e.alias = alias;
  e.origin = OriginsOf(NoteRelationUse(view.oid, /*target=*/false), view.columns.size());
  PlannedQuery q;
  {
    ViewPlanningGuard guard(st_, view.oid);
    ViewExpansionScope owner(view.oid, view.view_owner);
    const parser::SelectStmt& query = ParseViewQuery(st_, view);
    QueryPlanner sub(st_, nullptr, nullptr);
    q = sub.PlanSelect(query);
  }
  // The query's columns as the view's (a view keeps the columns it was
  // created with even if `*` would now expand to more).
  const size_t n = view.columns.size();
  bool same = q.columns.size() == n;
  for (size_t i = 0; i < std::min(n, q.columns.size()); ++i) same = same && SameType(q.columns[i].type, view.columns[i].type);
  if (q.columns.size() < n || !same) {
    for (size_t i = 0; i < n; ++i) {
      if (i >= q.columns.size() || !SameType(q.columns[i].type, view.columns[i].type)) {
        ThrowAt(DbError(sqlstate::kInternalError, "column \"" + view.columns[i].name + "\" of view \"" + view.name +
                                                      "\" no longer matches its query"),
                loc);
      }
    }
  }
  std::vector<OutputColumn> cols;
  for (size_t i = 0; i < n; ++i) {
    const executor::ColumnInfo& c = view.columns[i];
    e.names.push_back(i < t.alias.columns.size() ? t.alias.columns[i] : c.name);
    e.types.push_back(c.type);
    e.typmods.push_back(c.typmod);
    e.hidden.push_back(false);
    cols.push_back(OutputColumn{c.name, c.type, c.typmod});
  }
  if (t.alias.columns.size() > n) {
    ThrowAt(DbError(sqlstate::kInvalidColumnReference, "table \"" + alias + "\" has " + std::to_string(n) +
                                                           " columns available but " +
                                                           std::to_string(t.alias.columns.size()) +
                                                           " columns specified"),
            loc);
  }
  FromResult r;
  if (q.columns.size() > n) {
    std::vector<PlanExpr> keep;
    for (size_t i = 0; i < n; ++i) keep.push_back(PlanExpr{MakeColumn(static_cast<int>(i), cols[i].type, cols[i].typmod), cols[i].name});
    q.node = std::make_unique<executor::ProjectNode>(std::move(q.node), std::move(keep), cols);
  }
  r.node = std::make_unique<executor::SubqueryScanNode>(std::move(q.node), alias, cols);
  r.entries.push_back(std::move(e));
  return r;
}

}  // namespace hearth::planner
