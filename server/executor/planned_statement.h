// server/executor/planned_statement.h
//
// PlannedStatement: what the planner (planner/planner.h) hands to the
// executor (executor.h) — the plan tree, the result columns, the final
// parameter types, the init plans (uncorrelated subqueries evaluated
// once per execution before the main plan) and the subplans (correlated
// subqueries, run per evaluation). A PlannedStatement depends
// only on the statement text, the catalog and the parameter types, never
// on parameter values, so it can be cached and executed many times (one
// execution at a time). Not thread-safe.
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
//     `type` ('{}' on no rows).
struct InitPlan {
  enum class Kind : uint8_t { kScalar, kExists, kInSet, kArray };
  Kind kind = Kind::kScalar;
  ExecNodePtr plan;
  int param_index = 0;
  types::Oid type = types::kInvalidOid;  // kScalar/kArray: result type; kInSet: element type
  int32_t typmod = types::kNoTypmod;
};

// A correlated subquery, re-run for each evaluation. The expression that
// uses it is a call of SubPlanSignature() (executor.h) with arguments
// [outer values..., (kIn: tested value), handle]; the outer values are
// copied into parameter slots `arg_indexes` before the plan is opened, and
// `handle_index` holds the address of the Execution's runner for it.
struct SubPlan {
  enum class Kind : uint8_t { kScalar, kExists, kIn, kArray };
  Kind kind = Kind::kScalar;
  ExecNodePtr plan;
  int handle_index = 0;
  std::vector<int> arg_indexes;
  types::Oid type = types::kInvalidOid;  // kScalar/kArray: result type; kIn: comparison type
  int32_t typmod = types::kNoTypmod;
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
  // Set while an Execution runs this plan: plan nodes hold per-execution
  // state, so a second simultaneous Execution (two open portals of one
  // prepared statement) is refused — plan the statement again for it.
  bool executing = false;
};

}  // namespace hearth::executor
