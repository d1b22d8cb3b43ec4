// tcop/plan.h
//
// A statement made ready to run: what the extended protocol keeps per
// prepared statement (parse and plan once, execute many times), and what a
// simple Query builds and runs at once. Plan::Run streams result rows to a
// RowConsumer and returns the command tag.
//
// Plans: transaction control and SET/SHOW/RESET (utility_plans.cpp),
// queries through planner + executor (query_plan.cpp), DDL (ddl_plans.cpp)
// and COPY (copy_plan.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_context.h"
#include "parser/ast.h"
#include "tcop/dest.h"
#include "utils/adt/value.h"

namespace hearth::tcop {

class Session;

class RowConsumer {
 public:
  virtual ~RowConsumer() = default;
  virtual void Row(const std::vector<types::Value>& row) = 0;
};

// A started statement handing out its rows one at a time, so a portal can
// stop after max_rows and resume at the next Execute.
class Cursor {
 public:
  virtual ~Cursor() = default;
  // Next row into `row`; false when done (then Tag() is final).
  virtual bool Next(std::vector<types::Value>& row) = 0;
  // Command tag, e.g. "SELECT 3", "INSERT 0 1", "SET".
  virtual std::string Tag() const = 0;
};

class Plan {
 public:
  virtual ~Plan() = default;
  // Parameter types after inference (what ParameterDescription reports).
  virtual std::vector<types::Oid> ParamTypes() const { return {}; }
  // Result columns, or nullptr for statements that return no rows (NoData).
  virtual const std::vector<ColumnDesc>* Columns() const { return nullptr; }
  // True for BEGIN/COMMIT/ROLLBACK and friends, which run even in a failed
  // transaction block when they end it.
  virtual bool IsTransactionControl() const { return false; }
  virtual bool EndsFailedTransaction() const { return false; }
  // Runs the statement; throws DbError. Returns the command tag.
  virtual std::string Run(Session& session, const std::vector<types::Value>& params, RowConsumer& out) = 0;
  // Runs a statement that will never run again (simple query protocol);
  // plans may then hand their trees to the executor instead of copying them.
  virtual std::string RunOnce(Session& session, const std::vector<types::Value>& params, RowConsumer& out) {
    return Run(session, params, out);
  }
  // Starts the statement for incremental fetching. The default runs it to
  // completion and buffers the rows (fine for small results); plans over
  // tables return a streaming cursor.
  virtual std::unique_ptr<Cursor> Start(Session& session, const std::vector<types::Value>& params);
  // Start for a plan that will never run again (the extended protocol's
  // unnamed statement bound once); only worth calling when
  // CheaperToStartOnce().
  virtual bool CheaperToStartOnce() const { return false; }
  virtual std::unique_ptr<Cursor> StartOnce(Session& session, const std::vector<types::Value>& params) {
    return Start(session, params);
  }
};

// Builds the plan for one parsed statement. `param_types` holds the types the
// client declared (0 = infer); the plan reports the final ones.
// Throws DbError (e.g. 0A000 for statements not supported yet, 42703 ...).
std::unique_ptr<Plan> PlanStatement(Session& session, const parser::Statement& stmt,
                                    const std::vector<types::Oid>& param_types);

// Plans of the statement families, one file each.
std::unique_ptr<Plan> PlanTransactionStmt(const parser::TransactionStmt& stmt);
std::unique_ptr<Plan> PlanSetStmt(const parser::SetStmt& stmt);
std::unique_ptr<Plan> PlanShowStmt(Session& session, const parser::ShowStmt& stmt);
std::unique_ptr<Plan> PlanResetStmt(const parser::ResetStmt& stmt);
// SELECT/INSERT/UPDATE/DELETE/EXPLAIN through planner + executor over the
// session's tables.
std::unique_ptr<Plan> PlanQuery(Session& session, const parser::Statement& stmt,
                                const std::vector<types::Oid>& param_types);
// CREATE TABLE, DROP TABLE, TRUNCATE, VACUUM/ANALYZE, CHECKPOINT; nullptr
// for other statements (and DROP of other object kinds).
std::unique_ptr<Plan> PlanDdl(Session& session, const parser::Statement& stmt);
// CREATE [OR REPLACE] VIEW, DROP VIEW, ALTER VIEW RENAME (view_plans.cpp);
// nullptr for other statements.
std::unique_ptr<Plan> PlanViewDdl(const parser::Statement& stmt);
// pg_get_viewdef's callback (view_plans.cpp), installed at session start.
void InstallViewDefinitionCallback(Session& s);
// ALTER TABLE actions, ALTER INDEX / SEQUENCE ... RENAME TO (alter_table_plan.cpp).
std::unique_ptr<Plan> PlanAlterTable(Session& session, const parser::AlterTableStmt& stmt);
// CREATE EXTENSION / DROP EXTENSION; nullptr for other statements.
std::unique_ptr<Plan> PlanExtension(const parser::Statement& stmt);
// LOCK TABLE (lock_plans.cpp); nullptr for other statements.
std::unique_ptr<Plan> PlanLockStmt(const parser::Statement& stmt);
// COMMENT ON (comment_plans.cpp); nullptr for other statements.
std::unique_ptr<Plan> PlanCommentStmt(const parser::Statement& stmt);
// DISCARD (discard_plans.cpp); nullptr for other statements.
std::unique_ptr<Plan> PlanDiscard(const parser::Statement& stmt);
// ALTER DEFAULT PRIVILEGES (default_acl_plans.cpp).
std::unique_ptr<Plan> PlanDefaultPrivilegesStmt(const parser::Statement& stmt);
// CREATE / ALTER / DROP SEQUENCE; nullptr for other statements.
std::unique_ptr<Plan> PlanSequenceDdl(const parser::Statement& stmt);
// CREATE/ALTER/DROP ROLE and GRANT/REVOKE role (role_plans.cpp); nullptr for
// other statements.
std::unique_ptr<Plan> PlanRoleStmt(const parser::Statement& stmt);
// CREATE / DROP / ALTER DATABASE, GRANT / REVOKE ON DATABASE | SCHEMA
// (database_plans.cpp); nullptr for other statements.
std::unique_ptr<Plan> PlanDatabaseStmt(const parser::Statement& stmt);
// SET/RESET of role and session_authorization after PostgreSQL's checks
// (42704 unknown role, 42501 not allowed); `values` null means DEFAULT /
// RESET. False (nothing done) for other settings.
bool SetRoleSetting(Session& s, const std::string& name, const std::vector<std::string>* values, bool is_local);
// CREATE TABLE ... AS query: creates the table and loads it through the
// bulk-insert path.
std::unique_ptr<Plan> PlanCreateTableAs(Session& session, const parser::CreateTableAsStmt& stmt);
// SELECT ... INTO t: CREATE TABLE t AS the SELECT. REQUIRES: stmt.into.
std::unique_ptr<Plan> PlanSelectInto(Session& session, const parser::SelectStmt& stmt);
// DECLARE CURSOR / FETCH / MOVE / CLOSE (cursor_plans.cpp); nullptr for
// other statements.
std::unique_ptr<Plan> PlanCursorStmt(Session& session, const parser::Statement& stmt,
                                     const std::vector<types::Oid>& param_types);
// PREPARE / EXECUTE / DEALLOCATE; nullptr for other statements.
std::unique_ptr<Plan> PlanPrepared(Session& session, const parser::Statement& stmt);
// COPY FROM STDIN / TO STDOUT. The plan refers to `stmt`, which must
// outlive it (true for both the simple and the extended protocol).
std::unique_ptr<Plan> PlanCopy(Session& session, const parser::CopyStmt& stmt, std::string_view sql);

// The executor context of a statement run by `s` with `params` (tables,
// work_mem, temp directory, interrupts, session functions).
executor::ExecContext MakeExecContext(Session& s, const std::vector<types::Value>& params);


}  // namespace hearth::tcop
