// server/planner/cte.h
//
// WithScope: while it lives, one statement level's WITH queries are in
// scope for the planner (PlannerState::ctes). Made by
// QueryPlanner::EnterWith (cte.cpp), which also plans the materialized ones.
#pragma once

#include <memory>
#include <string>

#include "common/error/db_error.h"

#include "planner/planner_internal.h"

namespace hearth::planner {

class WithScope {
 public:
  WithScope(PlannerState& st, std::unique_ptr<CteEnv> env);
  ~WithScope();
  WithScope(const WithScope&) = delete;
  WithScope& operator=(const WithScope&) = delete;
  CteEnv& env() { return *env_; }

  // `top` (the level's plan) under an anchor whose EXPLAIN shows the
  // level's materialized WITH queries as "CTE x" sub-plans.
  ExecNodePtr Anchor(ExecNodePtr top) const;

 private:
  PlannerState& st_;
  std::unique_ptr<CteEnv> env_;
  CteEnv* saved_;
};

// INSERT/UPDATE/DELETE [RETURNING] of a WITH query (planner.cpp).
executor::PlannedStatement PlanDataModifyingCte(const parser::Statement& stmt, PlannerState& st);

// PostgreSQL's DETAIL/HINT for a FROM name that is a WITH query of a list
// in scope but not visible where it is used (a forward reference).
void AddInvisibleCteHint(const PlannerState& st, const std::string& name, DbError* e);

}  // namespace hearth::planner
