// server/planner/on_conflict.h
//
// INSERT ... ON CONFLICT: which unique indexes arbitrate (PostgreSQL's
// inference: the target's columns must equal an index's key columns as a
// set; ON CONSTRAINT names one), and DO UPDATE's SET list and WHERE bound
// on [target row, EXCLUDED row] for executor::OnConflictPlan.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "executor/nodes/modify_node.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

// `bind_set` binds the SET list on the scope it is given (one expression
// per table column, null where the column keeps its value).
executor::OnConflictPlan PlanOnConflict(QueryPlanner& q, const executor::TableInfo& t, const std::string& alias,
                                        const parser::OnConflictClause& oc,
                                        const std::function<std::vector<BoundExprPtr>(const Scope&)>& bind_set);

}  // namespace hearth::planner
