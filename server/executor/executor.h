// server/executor/executor.h
//
// Running a PlannedStatement: Execution evaluates the init plans, opens the
// plan and hands out result rows one at a time (so a portal can stop after
// n rows and resume); RunPlan runs to completion. The command tag follows
// PostgreSQL ("SELECT 3", "INSERT 0 2", "UPDATE 1", "DELETE 0", "EXPLAIN").
// Each Execution runs its own clone of the plan's trees (ExecNode::Clone),
// so several Executions of one PlannedStatement may be open at once (two
// portals of a prepared statement, cursors). Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "executor/exec_context.h"
#include "executor/planned_statement.h"

namespace hearth::executor {

class CteStore;

class Execution {
 public:
  // Starts `plan` (which must outlive this object) with `ctx` (copied, and
  // the parameter values too: ctx.params/nparams are the user's $1..$n, of
  // plan.param_types, and need not outlive the constructor call).
  // Runs init plans and opens the root; INSERT/UPDATE/DELETE do all their
  // work here. Throws DbError; nothing stays open after a throw.
  Execution(const PlannedStatement& plan, const ExecContext& ctx);
  // The same for a plan that runs exactly once (a simple-query statement):
  // this execution takes the plan's trees instead of cloning them, so
  // `plan` cannot be executed again (its root, init and sub plan trees are
  // left empty).
  struct ConsumePlan {};
  Execution(PlannedStatement& plan, const ExecContext& ctx, ConsumePlan);
  ~Execution();
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  // Next result row (RETURNING rows for DML); false when done. Throws
  // DbError (the caller then destroys the Execution).
  bool Next(Row& row);
  // Rows processed so far (the count in the command tag).
  uint64_t processed() const;
  // E.g. "SELECT 2"; complete once Next returned false.
  std::string CommandTag() const;
  // This execution's plan tree, with its run-time counters (EXPLAIN ANALYZE).
  const ExecNode& root() const { return *root_; }

  struct InSet;          // see planned_statement.h, InitPlan::Kind::kInSet
  struct SubPlanRunner;  // see planned_statement.h, SubPlan

 private:
  void Start(const ExecContext& ctx);
  void RunInitPlans();
  void CloseAll();

  const PlannedStatement& plan_;
  // This execution's copies of the plan trees (run-time state lives here).
  ExecNodePtr root_;
  std::vector<ExecNodePtr> init_roots_;  // parallel to plan_.init_plans
  std::vector<ExecNodePtr> sub_roots_;   // parallel to plan_.sub_plans
  ExecContext ctx_;
  std::vector<types::Value> params_;
  std::vector<std::unique_ptr<InSet>> sets_;
  std::vector<std::unique_ptr<SubPlanRunner>> runners_;
  std::vector<std::unique_ptr<CteStore>> cte_stores_;  // WITH queries' shared rows
  uint64_t rows_ = 0;
  bool open_ = false;
  bool done_ = false;  // Next returned false once
  bool closed_ = false;
};

// Runs `plan` to completion, calling `sink` for each result row. Returns
// the command tag.
std::string RunPlan(const PlannedStatement& plan, const ExecContext& ctx,
                    const std::function<void(const Row&)>& sink);

// The registry-style function behind "x IN (subquery)": args[0] = x,
// args[1] = int8 address of an Execution::InSet. Three-valued like IN.
types::Value InSetLookup(const types::Value* args, int nargs, types::FuncCallContext& ctx);
// Its signature row (not in the global registry).
const types::FuncSignature* InSetLookupSignature();

// The function behind a correlated subquery: args = [outer values...,
// (IN: tested value), int8 address of an Execution::SubPlanRunner]; runs
// the subplan with the outer values as parameters.
types::Value SubPlanCall(const types::Value* args, int nargs, types::FuncCallContext& ctx);
const types::FuncSignature* SubPlanSignature();

}  // namespace hearth::executor
