// tcop/copy_plan.cpp
//
// Principal entry point: PlanCopy. COPY t [(cols)] FROM STDIN, COPY t
// [(cols)] TO STDOUT and COPY (query) TO STDOUT, in text, CSV or binary,
// over the session's tables. The formats and the sub-protocol live in commands/;
// this file connects them to the table interface:
//   FROM: every parsed row is completed with the defaults of the columns
//         not copied, checked for NOT NULL and inserted;
//   TO:   rows come from a table scan (projected to the copied columns) or
//         from the planner for a query.
// FREEZE loads through the frozen bulk path, which refuses (55000) a table
// the transaction did not create or truncate. PostgreSQL checks the current
// subtransaction; we check the whole transaction (a file made before a
// savepoint still counts).
// The bytes come from or go to the client (STDIN/STDOUT) or a server file
// or program (tcop/copy_endpoint.h: who may, where relative names go).
#include <algorithm>

#include "commands/copy_options.h"
#include "commands/copy_protocol.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "executor/expr/binder.h"
#include "executor/expr/eval.h"
#include "executor/check_constraints.h"
#include "executor/domain_checks.h"
#include "utils/adt/text_io.h"
#include "executor/foreign_keys.h"
#include "executor/row_checks.h"
#include "executor/triggers.h"
#include "parser/parser.h"
#include "planner/planner.h"
#include "storage/ipc/interrupts.h"
#include "tcop/copy_endpoint.h"
#include "executor/domain_checks.h"
#include "tcop/copy_progress.h"
#include "tcop/privilege_checks.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

executor::TableInfo LookupTable(Session& s, const parser::RangeVar& rv) {
  if (s.tables == nullptr) throw DbError(sqlstate::kFeatureNotSupported, "COPY is not supported yet");
  auto info = s.tables->Lookup(rv.schema, rv.name);
  if (!info) throw DbError(sqlstate::kUndefinedTable, "relation \"" + rv.name + "\" does not exist");
  info->DropInheritors();  // COPY t reads and writes t alone, as PostgreSQL
  return *info;
}

// Index of each copied column in the table (all columns when none named).
std::vector<size_t> CopiedColumns(const executor::TableInfo& t, const std::vector<std::string>& names) {
  std::vector<size_t> idx;
  if (names.empty()) {
    for (size_t i = 0; i < t.columns.size(); i++) {
      if (!t.columns[i].system_column) idx.push_back(i);  // tableoid only when named
    }
    return idx;
  }
  for (const std::string& n : names) {
    auto it = std::find_if(t.columns.begin(), t.columns.end(), [&](const auto& c) { return c.name == n; });
    if (it == t.columns.end()) {
      throw DbError(sqlstate::kUndefinedColumn, "column \"" + n + "\" of relation \"" + t.name + "\" does not exist");
    }
    size_t i = static_cast<size_t>(it - t.columns.begin());
    if (std::find(idx.begin(), idx.end(), i) != idx.end()) {
      throw DbError(sqlstate::kDuplicateColumn, "column \"" + n + "\" specified more than once");
    }
    idx.push_back(i);
  }
  return idx;
}

std::vector<std::string> AllNames(const executor::TableInfo& t) {
  std::vector<std::string> names;
  for (const auto& c : t.columns) names.push_back(c.name);
  return names;
}

// Default values for the columns a COPY FROM does not fill: each DEFAULT
// expression is bound once and evaluated per row (now() and friends are
// volatile); columns without one get NULL.
class DefaultFiller {
 public:
  DefaultFiller(const executor::TableInfo& t, const std::vector<size_t>& copied) {
    for (size_t i = 0; i < t.columns.size(); i++) {
      if (std::find(copied.begin(), copied.end(), i) != copied.end()) continue;
      const executor::ColumnInfo& c = t.columns[i];
      Missing m{i, c.type, nullptr};
      if (c.has_default()) {
        stmts_.push_back(parser::ParseStatements("SELECT " + c.default_expr));
        const auto& sel = stmts_.back().at(0)->As<parser::SelectStmt>();
        m.expr = executor::Coerce(executor::BindExpr(*sel.targets.at(0).expr, ctx_), c.type, c.typmod,
                                  types::CoercionContext::kAssignment, ctx_);
      }
      missing_.push_back(std::move(m));
    }
  }

  void Fill(executor::Row& row, executor::EvalContext& eval) const {
    for (const Missing& m : missing_) {
      row[m.column] = m.expr ? executor::Eval(*m.expr, eval) : types::Value::Null(m.type);
    }
  }

 private:
  struct Missing {
    size_t column;
    types::Oid type;
    executor::BoundExprPtr expr;
  };
  executor::BindContext ctx_;
  std::vector<std::vector<parser::StmtPtr>> stmts_;
  std::vector<Missing> missing_;
};

// Receives parsed rows and loads them as full table rows through the
// table's bulk-insert path; every row is tagged with its input line, so an
// error found when its batch is written (23505) names the right line.
class InsertSink : public commands::CopyRowSink {
 public:
  // `freeze`: COPY FREEZE (55000 unless the transaction created or
  // truncated the table).
  InsertSink(Session& s, const executor::TableInfo& t, const std::vector<size_t>& copied,
             const commands::CopyFromParser& parser, bool freeze)
      : table_(t),
        copied_(copied),
        parser_(parser),
        defaults_(t, copied),
        checks_(t),
        fks_(t),
        triggers_(t, executor::TriggerEvent::kInsert),
        exec_(MakeExecContext(s, {})),
        loader_(freeze ? s.tables->OpenFrozenBulkInserter(t) : s.tables->OpenBulkInserter(t)) {
    row_.resize(t.columns.size());
    eval_.func.session = &s.callbacks;
    triggers_.BeforeStatement();
  }

  // A domain's constraints are part of its input in PostgreSQL, so a
  // violation names the field: `COPY t, line 1, column c: "x"`.
  void CheckDomainFields() {
    for (size_t i = 0; i < copied_.size(); i++) {
      const executor::ColumnInfo& col = table_.columns[copied_[i]];
      if (col.domain == types::kInvalidOid) continue;
      const types::Value& v = row_[copied_[i]];
      try {
        executor::CheckDomainValue(col.domain, v, eval_);
      } catch (DbError& e) {
        e.WithContext(parser_.ColumnContext(i, v.is_null ? std::nullopt
                                                         : std::optional<std::string_view>(types::OutputValue(v))));
        throw;
      }
    }
  }

  // Rows a BEFORE ROW trigger skipped (not counted in COPY's tag).
  uint64_t skipped() const { return skipped_; }

  void Row(std::vector<types::Value>& parsed) override {
    uint64_t line = parser_.line_number();
    try {
      // Scalars copied, strings swapped: each side keeps a string buffer
      // for the next row (no allocation per field).
      for (size_t i = 0; i < copied_.size(); i++) {
        types::Value& dst = row_[copied_[i]];
        types::Value& src = parsed[i];
        dst.type = src.type;
        dst.is_null = src.is_null;
        dst.i = src.i;
        dst.str.swap(src.str);
      }
      CheckDomainFields();
      defaults_.Fill(row_, eval_);
      if (!triggers_.BeforeRow(nullptr, &row_)) {
        ++skipped_;
        return;
      }
      executor::CheckNotNull(table_, row_);
      checks_.Check(table_, row_, eval_);
      line = 0;  // from here on the failing row is the loader's
      loader_->Insert(row_, parser_.line_number());
      triggers_.AfterRow(nullptr, &row_);
      if (fks_.active()) fks_.NoteNewRow(row_, nullptr);
    } catch (DbError& e) {
      NameLine(e, line);
      throw;
    }
  }

  // Writes the rows still queued. REQUIRES: the input ended without error.
  void Finish() {
    try {
      loader_->Finish();
    } catch (DbError& e) {
      NameLine(e, 0);
      throw;
    }
    // Foreign keys are checked after the last row, as PostgreSQL's
    // triggers (no line to name); then the AFTER triggers fire.
    fks_.Finish(exec_);
    triggers_.Finish();
  }

 private:
  // Constraint violations name the input line, as PostgreSQL's do
  // (`line` 0: the row the loader was writing).
  void NameLine(DbError& e, uint64_t line) {
    if (line == 0) line = loader_->failing_tag();
    if (e.context().empty()) e.WithContext("COPY " + table_.name + ", line " + std::to_string(line));
  }

  const executor::TableInfo& table_;
  const std::vector<size_t>& copied_;
  const commands::CopyFromParser& parser_;
  DefaultFiller defaults_;
  executor::CheckConstraints checks_;
  executor::ForeignKeyChecker fks_;
  executor::TableTriggers triggers_;
  uint64_t skipped_ = 0;
  executor::ExecContext exec_;
  std::unique_ptr<executor::TableBulkInserter> loader_;
  executor::Row row_;
  executor::EvalContext eval_;
};

class CopyPlan : public Plan {
 public:
  CopyPlan(const parser::CopyStmt& stmt, std::string_view sql)
      : stmt_(stmt), options_(commands::ParseCopyOptions(stmt.options, stmt.is_from, sql)) {
    if (stmt.where) throw DbError(sqlstate::kFeatureNotSupported, "COPY FROM ... WHERE is not supported yet");
  }

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    // Checked when run: the acting role may differ from the planning one.
    CheckCopyEndpointPrivilege(stmt_);
    return stmt_.is_from ? CopyFrom(s) : CopyTo(s);
  }

 private:
  std::string CopyFrom(Session& s) {
    executor::TableInfo t = LookupTable(s, stmt_.table);
    if (t.is_view()) {
      throw DbError("42809", "cannot copy to view \"" + t.name + "\"")
          .WithHint("To enable copying to a view, provide an INSTEAD OF INSERT trigger.");
    }
    CheckTablePrivilege(t, catalog::kAclInsert);
    std::vector<size_t> copied = CopiedColumns(t, stmt_.columns);
    std::vector<commands::CopyColumn> cols;
    for (size_t i : copied) cols.push_back({t.columns[i].name, t.columns[i].type, t.columns[i].typmod});
    commands::CopyRowConverter converter(std::move(cols));
    commands::CopyColumnFlags flags = commands::ResolveCopyColumnFlags(options_, converter.Names(), AllNames(t), t.name);
    commands::CopyFromParser parser(options_, t.name, converter.Names(), flags);
    InsertSink sink(s, t, copied, parser, options_.freeze);
    CopyEndpoint endpoint(s, stmt_);
    std::unique_ptr<commands::CopyRowInput> input = endpoint.Input(parser, converter);
    CopyProgressReport progress(s, t.oid, /*is_from=*/true, endpoint.progress_type(), endpoint.bytes_total());
    input->SetProgress(&progress);
    const uint64_t rows = input->Run(sink);
    sink.Finish();
    return "COPY " + std::to_string(rows - sink.skipped());
  }

  std::string CopyTo(Session& s) {
    if (stmt_.query) return CopyQueryTo(s);
    executor::TableInfo t = LookupTable(s, stmt_.table);
    if (t.is_view()) {
      throw DbError("42809", "cannot copy from view \"" + t.name + "\"")
          .WithHint("Try the COPY (SELECT ...) TO variant.");
    }
    CheckTablePrivilege(t, catalog::kAclSelect);
    std::vector<size_t> copied = CopiedColumns(t, stmt_.columns);
    std::vector<std::string> names;
    for (size_t i : copied) names.push_back(t.columns[i].name);
    commands::CopyColumnFlags flags = commands::ResolveCopyColumnFlags(options_, names, AllNames(t), t.name);
    commands::CopyToFormatter formatter(options_, flags.force_quote);
    CopyEndpoint endpoint(s, stmt_);
    std::unique_ptr<commands::CopyRowOutput> out = endpoint.Output(formatter, names);
    CopyProgressReport progress(s, t.oid, /*is_from=*/false, endpoint.progress_type(), 0);
    out->SetProgress(&progress);
    out->Begin();
    auto scan = s.tables->OpenScan(t, /*bulk=*/true);
    executor::Row row, projected(copied.size());
    while (scan->Next(row, nullptr)) {
      CheckForInterrupts();
      for (size_t i = 0; i < copied.size(); i++) projected[i] = row[copied[i]];
      out->Row(projected);
    }
    out->End();
    return "COPY " + std::to_string(out->rows());
  }

  std::string CopyQueryTo(Session& s) {
    if (s.tables == nullptr) throw DbError(sqlstate::kFeatureNotSupported, "COPY is not supported yet");
    executor::PlannedStatement plan = PlanAndCheck(s, *stmt_.query);
    std::vector<std::string> names;
    for (const auto& c : plan.columns) names.push_back(c.name);
    commands::CopyColumnFlags flags = commands::ResolveCopyColumnFlags(options_, names, names, "");
    commands::CopyToFormatter formatter(options_, flags.force_quote);
    CopyEndpoint endpoint(s, stmt_);
    std::unique_ptr<commands::CopyRowOutput> out = endpoint.Output(formatter, names);
    const std::vector<types::Value> no_params;
    executor::Execution exec(plan, MakeExecContext(s, no_params));
    CopyProgressReport progress(s, 0, /*is_from=*/false, endpoint.progress_type(), 0);
    out->SetProgress(&progress);
    out->Begin();
    executor::Row row;
    while (exec.Next(row)) out->Row(row);
    out->End();
    return "COPY " + std::to_string(out->rows());
  }

  const parser::CopyStmt& stmt_;
  commands::CopyOptions options_;
};

}  // namespace

std::unique_ptr<Plan> PlanCopy(Session&, const parser::CopyStmt& stmt, std::string_view sql) {
  return std::make_unique<CopyPlan>(stmt, sql);
}

}  // namespace hearth::tcop
