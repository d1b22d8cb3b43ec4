// tcop/create_table_as_plan.cpp
//
// Principal entry points: PlanCreateTableAs, PlanSelectInto. CREATE TABLE
// t [(names)] AS query [WITH [NO] DATA] and SELECT ... INTO t (the same with
// the SELECT as the query): the query is planned first, the table is created
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
#include "tcop/privilege_checks.h"
#include "tcop/session.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

// `s` between `q` quotes, a `q` inside doubled (identifiers and literals).
std::string Quoted(const std::string& s, char q) {
  std::string out(1, q);
  for (char c : s) {
    if (c == q) out += q;
    out += c;
  }
  return out + q;
}
std::string QuoteIdent(const std::string& name) { return Quoted(name, '"'); }

// What to create and load: CREATE TABLE AS's clauses, or SELECT INTO's.
struct Target {
  const parser::RangeVar& table;
  bool temp = false;
  bool unlogged = false;
  bool if_not_exists = false;
  const std::vector<std::string>* column_names = nullptr;
  const std::vector<parser::GenericOption>* with_options = nullptr;
  const parser::SelectStmt& query;
  bool with_data = true;
};

// CREATE TABLE text for the target with the query's output columns
// (unknown-typed literals become text, as in PostgreSQL).
std::string CreateTableText(const Target& stmt, const std::vector<executor::OutputColumn>& cols) {
  static const std::vector<std::string> kNoNames;
  static const std::vector<parser::GenericOption> kNoOptions;
  const std::vector<std::string>& names = stmt.column_names != nullptr ? *stmt.column_names : kNoNames;
  const std::vector<parser::GenericOption>& options = stmt.with_options != nullptr ? *stmt.with_options : kNoOptions;
  if (names.size() > cols.size()) {
    throw DbError(sqlstate::kSyntaxError, "too many column names were specified");
  }
  std::string sql = std::string("CREATE ") + (stmt.temp ? "TEMP " : "") + (stmt.unlogged ? "UNLOGGED " : "") +
                    "TABLE " + (stmt.if_not_exists ? "IF NOT EXISTS " : "");
  if (!stmt.table.schema.empty()) sql += QuoteIdent(stmt.table.schema) + ".";
  sql += QuoteIdent(stmt.table.name) + " (";
  for (size_t i = 0; i < cols.size(); ++i) {
    const std::string& name = i < names.size() ? names[i] : cols[i].name;
    const types::Oid type = cols[i].type == types::kUnknownOid ? types::kTextOid : cols[i].type;
    sql += (i > 0 ? ", " : "") + QuoteIdent(name) + " " + types::FormatType(type, cols[i].typmod);
  }
  sql += ")";
  if (!options.empty()) {
    sql += " WITH (";
    for (size_t i = 0; i < options.size(); ++i) {
      const parser::GenericOption& o = options[i];
      sql += (i > 0 ? ", " : "") + o.name + (o.has_value ? " = " + Quoted(o.value, '\'') : "");
    }
    sql += ")";
  }
  return sql;
}

class CreateTableAsPlan : public Plan {
 public:
  explicit CreateTableAsPlan(Target target) : stmt_(target) {}

  std::string Run(Session& s, const std::vector<types::Value>& params, RowConsumer&) override {
    if (s.tables == nullptr) throw DbError(sqlstate::kFeatureNotSupported, "CREATE TABLE AS is not supported yet");
    executor::PlannedStatement plan = PlanAndCheck(s, stmt_.query);
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
  Target stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanCreateTableAs(Session&, const parser::CreateTableAsStmt& stmt) {
  return std::make_unique<CreateTableAsPlan>(Target{stmt.table, stmt.temp, stmt.unlogged, stmt.if_not_exists,
                                                    &stmt.column_names, &stmt.with_options, *stmt.query,
                                                    stmt.with_data});
}

std::unique_ptr<Plan> PlanSelectInto(Session&, const parser::SelectStmt& stmt) {
  // The planner ignores `into`: the rest of the statement is the query.
  return std::make_unique<CreateTableAsPlan>(
      Target{stmt.into->table, stmt.into->temp, stmt.into->unlogged, false, nullptr, nullptr, stmt, true});
}

}  // namespace hearth::tcop
