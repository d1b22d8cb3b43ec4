// server/executor/exec_context.h
//
// ExecContext: everything a plan needs from its environment while it runs —
// the table provider, parameter values, work_mem and the temp directory for
// spilling sorts, the interrupt hook, and the session callbacks for
// now()/current_user. The plan itself (ExecNode tree) is immutable between
// executions; all run-time variation comes through here, so one plan can be
// executed many times with different parameters (prepared statements).
// One ExecContext per running statement; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "executor/expr/eval.h"
#include "executor/table_access.h"
#include "utils/adt/func_context.h"
#include "utils/adt/value.h"

namespace hearth::executor {

struct ExecContext {
  // Where scans and modifications go. Required for plans that touch tables.
  TableProvider* tables = nullptr;

  // $1..$n, already of the statement's parameter types (FinalParamTypes).
  // RunPlan (executor.h) extends these with the statement's init-plan
  // (uncorrelated subquery) results; nodes read whatever is set here.
  const types::Value* params = nullptr;
  size_t nparams = 0;
  // How many of params are the user's (hidden parameters follow them).
  size_t nuser = 0;

  // Memory a Sort may use before it spills sorted runs to disk (bytes;
  // PostgreSQL's work_mem, default 4 MB).
  int64_t work_mem = 4 * 1024 * 1024;
  // Memory a hash table (hash aggregate, hash join) may use before it
  // spills partitions to disk: work_mem × hash_mem_multiplier (bytes).
  int64_t hash_mem = 8 * 1024 * 1024;
  // Directory for spill files, e.g. <datadir>/base/pgsql_tmp (created on
  // first use). Empty → the system temp directory.
  std::string temp_dir;

  // Called at least once per row by scans, sorts and joins. The server
  // installs CheckForInterrupts, which throws DbError 57014 on cancel or
  // statement_timeout; every node releases its resources (temp files
  // included) when the exception unwinds through it.
  std::function<void()> check_interrupts;

  // now(), current_user, current_setting() ... (may be null: defaults).
  const types::SessionCallbacks* session = nullptr;

  void CheckInterrupts() const {
    if (check_interrupts) check_interrupts();
  }

  // A fresh EvalContext with params and session set (row/aggregates unset).
  EvalContext MakeEval() const {
    EvalContext e;
    e.params = params;
    e.nparams = nparams;
    e.nuser = nuser;
    e.func.session = session;
    return e;
  }
};

}  // namespace hearth::executor
