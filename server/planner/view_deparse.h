// server/planner/view_deparse.h
//
// pg_get_viewdef's text of a view, in PostgreSQL 15's layout: " SELECT
// t.a,\n    t.b\n   FROM t\n  WHERE (t.a > 1);" — column references
// qualified by their relation, one target per line, AS for targets whose
// name is not their column's. `pretty` drops the outermost parentheses of
// each expression (PostgreSQL's pretty mode does so for the simple cases).
// Queries beyond a plain SELECT over tables and joins with ON (set
// operations, WITH, subqueries in FROM, USING / NATURAL, windows) print as
// their stored text.
#pragma once

#include <string>

#include "executor/table_access.h"

namespace hearth::planner {

std::string ViewDefinitionText(const executor::TableInfo& view, executor::TableProvider& tables, bool pretty);

}  // namespace hearth::planner
