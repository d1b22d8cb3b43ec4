// tcop/sql_functions.h
//
// User-defined SQL functions in the backend: compiling a body (parse +
// plan each statement with the function's parameter types, checking the
// result against the declared return type, PostgreSQL's 42P13 messages),
// the per-backend cache of compiled bodies (dropped when hearth_proc or any
// relation changes), running a call (EXECUTE check, SECURITY DEFINER,
// recursion bounded by max_stack_depth: 54001), and the plans of CREATE /
// DROP FUNCTION, DO, CALL and GRANT/REVOKE ON FUNCTION.
//
// Process safety: per backend, one statement at a time.
#pragma once

#include <memory>
#include <vector>

#include "catalog/proc_catalog.h"
#include "executor/planned_statement.h"
#include "parser/ast.h"
#include "tcop/plan.h"
#include "tcop/plpgsql.h"
#include "tcop/privilege_checks.h"

namespace hearth::tcop {

// A function body ready to run: its statements and their plans.
struct CompiledFunction {
  catalog::ProcInfo info;
  std::vector<parser::StmtPtr> statements;
  std::vector<executor::PlannedStatement> plans;
  std::vector<RequiredPrivileges> required;  // per plan, checked at every call
  // The final statement's result column type, cast to info.rettype when different.
  types::Oid result_column_type = types::kInvalidOid;
  // LANGUAGE plpgsql: the parsed body (statements/plans stay empty).
  std::shared_ptr<plpgsql::CompiledBody> pl;
};

// Parses and plans `p`'s body; throws the body's errors and 42P13 when the
// final statement does not fit the declared result.
std::unique_ptr<CompiledFunction> CompileFunction(Session& s, const catalog::ProcInfo& p);

// The cached compiled body of function `oid` (42883 when it is gone).
std::shared_ptr<CompiledFunction> CompiledFunctionByOid(Session& s, types::Oid oid);

// Runs the trigger function `oid` (RETURNS trigger, LANGUAGE plpgsql) for
// one firing, with the EXECUTE check and SECURITY DEFINER of any call.
plpgsql::TriggerResult CallTriggerFunction(Session& s, types::Oid oid, const plpgsql::TriggerCall& call);

// Installs call_sql_function / call_sql_set_function and the binder's
// source of user functions for session `s`.
void InstallSqlFunctionCallbacks(Session& s);

// CREATE FUNCTION, DROP FUNCTION, DO, CALL, GRANT/REVOKE ON FUNCTION;
// nullptr for other statements.
std::unique_ptr<Plan> PlanFunctionStmt(Session& s, const parser::Statement& stmt);
// The function a DROP/GRANT/COMMENT names; nullopt when there is none
// (PostgreSQL's message in *missing). 42725 when a name without arguments
// is ambiguous.
std::optional<catalog::ProcInfo> FindFunctionForDdl(const parser::FunctionRefSpec& ref, std::string* missing);

}  // namespace hearth::tcop
