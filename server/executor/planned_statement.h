// server/executor/planned_statement.h
//
// PlannedStatement: what the planner (planner/planner.h) hands to the
// executor (executor.h) — the plan tree, the result columns, the final
// parameter types, the init plans (uncorrelated subqueries evaluated
// once per execution before the main plan) and the subplans (correlated
// subqueries, run per evaluation). A PlannedStatement depends
// only on the statement text, the catalog and the parameter types, never
// on parameter values, so it can be cached and executed many times; its
// trees are prototypes that each Execution clones, so executions may
// overlap. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

enum class CommandType : uint8_t { kSelect, kInsert, kUpdate, kDelete, kExplain };

// An uncorrelated subquery. Its result goes into parameter slot
// `param_index` (after the user's $1..$n) before the main plan opens:
//   kScalar: the single value (NULL on no rows; 21000 on more than one);
//   kExists: bool;
//   kInSet: an int8 holding the address of a hash set of the subquery's
//     values, owned by the Execution and read by the "x IN (subquery)"
//     function node (see executor.h, InSetLookup);
//   kArray: ARRAY(subquery), the first column of every row as an array of
//     `type` ('{}' on no rows);
//   kCte: a WITH query computed once per execution, lazily: the slot holds
//     the address of its Execution-owned CteStore (cte_store.h), read by
//     CTE Scan nodes; not run before the main plan.
//   kWorkTable: a recursive WITH query's working table (plan is null), a
//     CteStore shared by its Recursive Union and WorkTable Scan.
struct InitPlan {
  enum class Kind : uint8_t { kScalar, kExists, kInSet, kCte, kWorkTable, kArray };
  Kind kind = Kind::kScalar;
  ExecNodePtr plan;
  int param_index = 0;
  types::Oid type = types::kInvalidOid;  // kScalar/kArray: result type; kInSet: element type
  int32_t typmod = types::kNoTypmod;
  std::string cte_name;  // kCte
  // kCte: a data-modifying WITH query, run to completion when the
  // Execution starts (its RETURNING rows kept for the CTE Scans).
  bool run_to_completion = false;
};

// A subquery re-run for each evaluation: a correlated one, or
// `x op ANY|ALL (subquery)` that no hash set answers. The expression that
// uses it is a call of SubPlanSignature() (executor.h) with arguments
// [outer values..., (kAny/kAll: tested values...), handle]; the outer values
// are copied into parameter slots `arg_indexes` before the plan is opened,
// and `handle_index` holds the address of the Execution's runner for it.
//   kAny/kAll: `compare` is bound on the row [tested values..., subquery
//   row...]; ANY is true when some row compares true, ALL when none compares
//   false, else NULL if some comparison was NULL (PostgreSQL's semantics,
//   so `x NOT IN (...)` with a NULL is NULL).
//   kHashedExists: EXISTS whose subquery meets the outer query only in
//   `inner = outer` equalities and conditions on outer values alone. The
//   plan does not depend on the outer values: it runs once per execution,
//   the non-NULL `inner_keys` of its rows filling a hash set; each call
//   evaluates `outer_cond` and `outer_keys` (bound on the outer values'
//   parameter slots, no row) and looks the keys up (a NULL key: false).
//   kHashedScalar: the same for a scalar subquery, the table holding the
//   key's first row, `inner_value` evaluated on it when probed: NULL when
//   no row has the key, 21000 when several do.
struct SubPlan {
  enum class Kind : uint8_t { kScalar, kExists, kAny, kAll, kArray, kHashedExists, kHashedScalar };
  Kind kind = Kind::kScalar;
  ExecNodePtr plan;
  int handle_index = 0;
  std::vector<int> arg_indexes;
  types::Oid type = types::kInvalidOid;  // kScalar/kArray: result type
  int32_t typmod = types::kNoTypmod;
  int ntested = 0;                        // kAny/kAll
  BoundExprPtr compare;                   // kAny/kAll (read-only at run time)
  // kScalar of UPDATE SET (a, b) = (SELECT ...): the call returns column
  // result_column and stores the whole row into the parameter slots
  // result_slots (NULLs of result_types when there is no row).
  int result_column = 0;
  std::vector<int> result_slots;
  std::vector<types::Oid> result_types;
  std::vector<BoundExprPtr> inner_keys;  // kHashed*: on the plan's rows
  std::vector<BoundExprPtr> outer_keys;  // kHashed*: on the outer values
  BoundExprPtr outer_cond;               // kHashed*: null when none
  BoundExprPtr inner_value;              // kHashedScalar: on the plan's rows
};

struct PlannedStatement {
  CommandType command = CommandType::kSelect;
  ExecNodePtr root;
  // RowDescription: empty for INSERT/UPDATE/DELETE without RETURNING.
  std::vector<OutputColumn> columns;
  bool returns_rows() const { return !columns.empty(); }
  // Final $1..$n types (unknown ones inferred), for ParameterDescription
  // and for converting Bind values.
  std::vector<types::Oid> param_types;
  // Evaluated in order; a later one may use an earlier one's slot.
  std::vector<InitPlan> init_plans;
  std::vector<SubPlan> sub_plans;
  // Total parameter slots: user $n + init-plan results + subplan slots.
  int nslots = 0;
};

}  // namespace hearth::executor
