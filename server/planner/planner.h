// server/planner/planner.h
//
// The analyzer + planner: turns a parsed SELECT / INSERT / UPDATE / DELETE
// / EXPLAIN into an executable PlannedStatement (executor/planned_statement.h),
// resolving names against a TableProvider and typing expressions with the
// expr binder. Errors are DbErrors with PostgreSQL's SQLSTATEs, messages
// and 1-based positions (42P01, 42703, 42702, 42803, 42P10, 42601, 42804,
// 23502 at run time, ...).
//
// Planning rules (deliberately simple; see README.md): FROM items are
// joined left-deep in the order written; WHERE conjuncts are applied as
// low as possible; an equality between the two sides of a join with
// hashable, compatible types becomes a Hash Join key, anything else a
// Nested Loop condition. GROUP BY / aggregates → hash aggregation.
//
// The result depends on the statement, the catalog and the parameter types
// only (never on parameter values), so it can be prepared once and executed
// many times. Pure function of its inputs; call from one thread.
#pragma once

#include <string>
#include <vector>

#include "executor/planned_statement.h"
#include "executor/table_access.h"
#include "parser/ast.h"

namespace hearth::planner {

// Plans one statement. `param_types[i]` is the declared type of $i+1, 0 or
// unknown (705) when it should be inferred; more $n than given are allowed
// and inferred. The returned plan's param_types are final (42P18 if one
// cannot be inferred). Supported: SELECT (incl. VALUES, UNION/INTERSECT/
// EXCEPT), INSERT, UPDATE, DELETE, EXPLAIN of these; anything else → 0A000.
// `stmt` may be destroyed after planning (the plan keeps no pointers into it).
// The enable_* planner settings the planner honours: a disabled hash join
// becomes a nested loop; with index scans disabled tables are read
// sequentially. (The other enable_* settings are accepted and have no
// effect: Hearth has no alternative plan shape for them.)
struct PlannerOptions {
  bool enable_hashjoin = true;
  bool enable_indexscan = true;
};

executor::PlannedStatement PlanStatement(const parser::Statement& stmt, executor::TableProvider& tables,
                                         const std::vector<types::Oid>& param_types = {},
                                         const PlannerOptions& options = {});

// EXPLAIN text of a planned statement, one line per element (what
// PlanStatement returns as rows for EXPLAIN). InitPlans are listed after
// the main tree.
std::vector<std::string> ExplainLines(const executor::PlannedStatement& plan);

}  // namespace hearth::planner
