// tcop/plpgsql.h
//
// LANGUAGE plpgsql: routines and DO blocks. The body is parsed when the
// routine is created (42601 then, as PostgreSQL) and again when the backend
// first calls it (the compiled form is cached with the SQL functions'
// bodies, sql_functions.h). The interpreter (plpgsql_exec.cpp) walks the
// AST; every expression and SQL statement is planned through the ordinary
// statement path with the visible variables as named parameters
// (executor::ParamNameScope), and plans are kept per body text until a
// statement of the body changes the catalog.
//
// EXCEPTION clauses run their block in a subtransaction and roll it back
// before the handler runs, as PostgreSQL does.
//
// Process safety: per backend, one statement at a time.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/proc_catalog.h"
#include "common/error/db_error.h"
#include "executor/table_access.h"
#include "tcop/plpgsql_ast.h"
#include "utils/adt/value.h"

namespace hearth::tcop {

class Session;

namespace plpgsql {

// Parses a body; throws 42601 with the position inside `src`, or (errors
// without a position) with the context "near line N".
std::unique_ptr<Function> ParsePlpgsql(const std::string& src);

// Completes a compile error's context as PostgreSQL's: `compilation of
// PL/pgSQL function "f" near line N`.
void AddCompileContext(DbError& e, const std::string& function_name);

struct PlanCache;

// A body ready to run (shared by every call of the routine in this backend).
struct CompiledBody {
  catalog::ProcInfo info;
  std::unique_ptr<Function> ast;
  std::shared_ptr<PlanCache> plans;
};

std::shared_ptr<CompiledBody> CompileBody(const catalog::ProcInfo& p);
// A body of no routine (DO blocks, WHEN conditions): `src` parsed when
// non-empty, a fresh plan cache.
std::shared_ptr<CompiledBody> AnonymousBody(const std::string& name, const std::string& src);

// What a trigger function sees besides its arguments (NEW, OLD, TG_*).
struct TriggerCall {
  std::string name;
  std::string when;   // BEFORE, AFTER, INSTEAD OF
  std::string level;  // ROW, STATEMENT
  std::string op;     // INSERT, UPDATE, DELETE, TRUNCATE
  std::vector<std::string> args;
  const executor::TableInfo* table = nullptr;
  const executor::Row* new_row = nullptr;  // null: NEW is NULL
  const executor::Row* old_row = nullptr;
};

// The value of a trigger function: the row it returned, or none (NULL).
struct TriggerResult {
  bool is_null = true;
  executor::Row row;
};

// Runs a function's body with `args`; a set-returning one appends its rows
// to *set_rows (non-null exactly for SETOF functions).
types::Value CallFunction(Session& s, const CompiledBody& f, const types::Value* args, int nargs,
                          std::vector<types::Value>* set_rows);

// Runs a trigger function (RETURNS trigger) for one firing.
TriggerResult CallTrigger(Session& s, const CompiledBody& f, const TriggerCall& call);

// A trigger's WHEN condition (NEW./OLD. references) for one firing.
bool EvalTriggerCondition(Session& s, const TriggerCall& call, const std::string& condition);

// DO $$ ... $$ (LANGUAGE plpgsql).
void RunInlineBlock(Session& s, const std::string& src);

}  // namespace plpgsql
}  // namespace hearth::tcop
