// tcop/plpgsql_internal.h
//
// The interpreter's run-time state for one call of a PL/pgSQL body:
// variables (a stack; blocks push and pop), the visible ones exposed to
// embedded SQL as named parameters, and the plan cache shared with later
// calls. plpgsql_exec.cpp runs statements, plpgsql_sql.cpp runs SQL.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "tcop/plan.h"
#include "tcop/plpgsql.h"

namespace hearth::tcop::plpgsql {

// One variable. A record (NEW, OLD, FOR's row, `record`, `%ROWTYPE`) has
// fields instead of a value; embedded SQL sees them as "name.field".
struct Var {
  std::string name;
  types::Oid type = types::kInvalidOid;
  int32_t typmod = -1;
  types::Value value;
  bool constant = false;
  bool not_null = false;
  bool is_record = false;
  bool record_null = true;  // a record not assigned yet / NULL
  std::vector<std::string> field_names;
  std::vector<types::Oid> field_types;
  std::vector<int32_t> field_typmods;
  executor::Row fields;
};

// A query's result as the interpreter needs it.
struct QueryResult {
  std::vector<ColumnDesc> columns;
  std::vector<executor::Row> rows;
  uint64_t processed = 0;  // rows returned or changed
};

// How a statement list ended.
enum class Flow { kNormal, kExit, kContinue, kReturn };

class Interpreter {
 public:
  Interpreter(Session& s, const CompiledBody& f, std::string signature);

  // Binds the arguments to the parameters' variables (and OUT parameters).
  void BindArguments(const types::Value* args, int nargs);
  void BindTrigger(const TriggerCall& call);
  // Runs the body; the value of RETURN (NULL without one).
  types::Value Run(std::vector<types::Value>* set_rows);
  const TriggerResult& trigger_result() const { return trigger_result_; }

  // --- SQL (plpgsql_sql.cpp) ---
  // Runs `sql` (a whole statement) with the visible variables as
  // parameters; keeps at most `max_rows` rows (all when 0).
  // `as_statement`: an error names the statement (CONTEXT `SQL statement "..."`).
  QueryResult RunQuery(const SqlText& sql, size_t max_rows, const std::vector<types::Value>* using_args = nullptr,
                       bool as_statement = false);
  // Runs a dynamic statement (EXECUTE): no variables, $n from `using_args`.
  QueryResult RunDynamic(const std::string& sql, const std::vector<types::Value>& using_args, size_t max_rows);
  // SELECT <expr>: one value (NULL without a row); 21000 for several rows.
  types::Value Eval(const SqlText& expr);
  // SELECT <text>, its plan cached under `key` (an AST node of this body).
  types::Value EvalText(const void* key, const std::string& text);
  bool EvalCondition(const SqlText& expr);
  // Assigns `v` to a variable or record field, cast to its type.
  void Assign(const std::string& target, types::Value v);
  // Assigns a row to a record variable (its fields become `columns`) or
  // to a list of scalar targets.
  void AssignRow(const std::vector<std::string>& targets, const std::vector<ColumnDesc>& columns,
                 const executor::Row* row);
  Var* FindVar(const std::string& name);
  Var& Declare(Var v);

 private:
  // --- statements (plpgsql_exec.cpp) ---
  Flow RunBlock(const Block& b);
  Flow RunBlockBody(const Block& b);
  Flow RunHandledBlock(const Block& b);
  Flow RunList(const StmtList& list);
  Flow RunStmt(const Stmt& st);
  Flow RunStmtInner(const Stmt& st);
  Flow RunIf(const Stmt& st);
  Flow RunCase(const Stmt& st);
  Flow RunLoop(const Stmt& st);
  Flow RunForInt(const Stmt& st);
  Flow RunForQuery(const Stmt& st);
  Flow RunForEach(const Stmt& st);
  // The body of a loop once: kNormal to go on, else how the loop ends.
  bool LoopStep(const Stmt& st, Flow* out);
  Flow RunReturn(const Stmt& st);
  Flow RunReturnQuery(const Stmt& st);
  void RunSql(const Stmt& st);
  void RunExecute(const Stmt& st);
  void FinishInto(const Stmt& st, const QueryResult& r);
  // EXECUTE's string (st.expr) with its USING values (st.using_args).
  QueryResult RunExecuteText(const Stmt& st, size_t max_rows);
  void RunRaise(const Stmt& st);
  void RunGetDiagnostics(const Stmt& st);
  void DeclareOne(const Declaration& d);
  void SetFound(bool found);
  std::vector<types::Value> EvalAll(const std::vector<SqlText>& exprs);
  void AddContext(DbError& e, const Stmt& st);

  // --- SQL helpers (plpgsql_sql.cpp) ---
  void ResolveDeclaredType(const Declaration& d, Var* v);
  QueryResult Execute(const void* cache_key, const std::string& sql, bool with_vars,
                      const std::vector<types::Value>& extra, size_t max_rows, bool as_statement = false);
  QueryResult ExecuteInner(const void* cache_key, const std::string& sql, bool with_vars,
                           const std::vector<types::Value>& extra, size_t max_rows);
  types::Value CastTo(types::Value v, types::Oid type, int32_t typmod);

 public:
  Session& s_;
  const CompiledBody& f_;
  std::string signature_;  // "f(integer)" for CONTEXT lines
  std::vector<Var> vars_;
  std::string flow_label_;   // EXIT/CONTINUE's label ("" = innermost loop)
  types::Value return_value_;
  bool returned_record_ = false;
  TriggerResult trigger_result_;
  std::vector<types::Value>* set_rows_ = nullptr;
  std::vector<DbError> caught_;  // errors being handled (bare RAISE re-throws the last)
  uint64_t row_count_ = 0;
  const void* annotated_ = nullptr;  // the error object whose CONTEXT this call already extended
  bool is_trigger_ = false;
};

}  // namespace hearth::tcop::plpgsql
