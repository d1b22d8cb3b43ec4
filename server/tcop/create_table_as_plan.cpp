// tcop/create_table_as_plan.cpp
//
// Principal entry point: PlanCreateTableAs. CREATE TABLE t [(names)] AS
// query [WITH [NO] DATA]: the query is planned first, the table is created
// with its output columns' names and types (through the same catalog path
// as CREATE TABLE), and the rows are loaded through the table's bulk-insert
// path (TableProvider::OpenBulkInserter): a page per WAL record, and under
// wal_level = minimal no heap WAL at all, since the file is new in this
// transaction. Tag "SELECT n" as PostgreSQL (WITH NO DATA / skipped by IF
// NOT EXISTS: "CREATE TABLE AS").
#include <string>

#include "access/transam/xact.h"
#include "catalog/index_ddl.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "planner/deparse.h"
#include "planner/planner.h"
#include "storage/ipc/interrupts.h"
#include "tcop/session.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

std::string QuoteIdent(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// CREATE TABLE text for `stmt`'s table with the query's output columns
// (unknown-typed literals become text, as in PostgreSQL).
std::string CreateTableText(const parser::CreateTableAsStmt& stmt, const std::vector<executor::OutputColumn>& cols) {
  if (stmt.column_names.size() > cols.size()) {
    throw DbError(sqlstate::kSyntaxError, "too many column names were specified");
  }
  std::string sql = std::string("CREATE ") + (stmt.temp ? "TEMP " : "") + (stmt.unlogged ? "UNLOGGED " : "") +
                    "TABLE " + (stmt.if_not_exists ? "IF NOT EXISTS " : "");
  if (!stmt.table.schema.empty()) sql += QuoteIdent(stmt.table.schema) + ".";
  sql += QuoteIdent(stmt.table.name) + " (";
  for (size_t i = 0; i < cols.size(); ++i) {
    const std::string& name = i < stmt.column_names.size() ? stmt.column_names[i] : cols[i].name;
    const types::Oid type = cols[i].type == types::kUnknownOid ? types::kTextOid : cols[i].type;
    sql += (i > 0 ? ", " : "") + QuoteIdent(name) + " " + types::FormatType(type, cols[i].typmod);
  }
  sql += ")";
  if (!stmt.with_options.empty()) {
    sql += " WITH (";
    for (size_t i = 0; i < stmt.with_options.size(); ++i) {
      const parser::GenericOption& o = stmt.with_options[i];
      sql += (i > 0 ? ", " : "") + o.name + (o.has_value ? " = '" + o.value + "'" : "");
    }
    sql += ")";
  }
  return sql;
}

class CreateTableAsPlan : public Plan {
 public:
  explicit CreateTableAsPlan(const parser::CreateTableAsStmt& stmt) : stmt_(stmt) {}

  std::string Run(Session& s, const std::vector<types::Value>& params, RowConsumer&) override {
    if (s.tables == nullptr) throw DbError(sqlstate::kFeatureNotSupported, "CREATE TABLE AS is not supported yet");
    executor::PlannedStatement plan = planner::PlanStatement(*stmt_.query, *s.tables);
    auto create = parser::ParseStatements(CreateTableText(stmt_, plan.columns));
    catalog::DdlContext ddl;
    ddl.deparse = [](const parser::Expr& e) { return planner::Deparse(e); };
    catalog::DdlResult made = catalog::CreateTableWithConstraints(create.at(0)->As<parser::CreateTableStmt>(), ddl);
    for (const auto& n : made.notices) s.Notice(Severity::kNotice, n.sqlstate, n.message);
    if (made.oid == 0 || !stmt_.with_data) return "CREATE TABLE AS";
    // The new table becomes visible to this transaction's next command.
    access::CommandCounterIncrement();
    auto info = s.tables->Lookup(stmt_.table.schema, stmt_.table.name);
    if (!info) throw DbError(sqlstate::kInternalError, "table created by CREATE TABLE AS is missing");
    std::unique_ptr<executor::TableBulkInserter> loader = s.tables->OpenBulkInserter(*info);
    executor::Execution exec(plan, MakeExecContext(s, params));
    executor::Row row;
    uint64_t n = 0;
    while (exec.Next(row)) {
      CheckForInterrupts();
      loader->Insert(row, n++);
    }
    loader->Finish();
    return "SELECT " + std::to_string(n);
  }

 private:
  const parser::CreateTableAsStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanCreateTableAs(Session&, const parser::CreateTableAsStmt& stmt) {
  return std::make_unique<CreateTableAsPlan>(stmt);
}

}  // namespace hearth::tcop
