// server/planner/view_dml.h
//
// INSERT / UPDATE / DELETE through a view, as PostgreSQL's automatically
// updatable views: a view over one table (or such a view) whose query has
// no DISTINCT, GROUP BY, HAVING, set operation, WITH, LIMIT / OFFSET,
// aggregate or window function. The statement is parsed again from its
// text and rewritten onto the base relation: view columns become the base
// columns they name (a column that is an expression is not updatable:
// 0A000), the view's WHERE is ANDed to UPDATE's and DELETE's. Other views:
// 55000 `cannot insert into view "v"` with PostgreSQL's detail and hint.
// Privileges: the view is the statement's target for the acting role; the
// base relation is checked as the view's owner (column_use.h).
#pragma once

#include <optional>

#include "planner/column_use.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

struct ViewDmlTarget {
  const parser::Statement* rewritten = nullptr;  // owned by PlannerState::parsed_views
  types::Oid view = 0;
  types::Oid base = 0;
  types::Oid owner = 0;
};

// nullopt when `stmt`'s target is not a view; else the statement on the
// view's base relation. Throws 55000 / 0A000 for views it cannot change.
std::optional<ViewDmlTarget> RewriteViewDml(const parser::Statement& stmt, PlannerState& st);

}  // namespace hearth::planner
