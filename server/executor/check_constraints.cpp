// server/executor/check_constraints.cpp
//
// Principal entry points: BindCheckCondition, CheckConstraints::Check.
#include "executor/check_constraints.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "executor/expr/binder.h"
#include "executor/expr/eval.h"
#include "executor/row_checks.h"
#include "executor/domain_checks.h"
#include "parser/parser.h"

namespace hearth::executor {

BoundExprPtr BindCheckCondition(const parser::Expr& expr, const TableInfo& table, std::vector<int>* columns) {
  BindContext ctx;
  ctx.allow_new_params = false;
  ctx.resolve_column = [&](const parser::ColumnRefExpr& ref) -> std::optional<ColumnBinding> {
    // t.a or a: the last field names the column (the table is the only one).
    if (ref.fields.empty() || ref.fields.size() > 2) return std::nullopt;
    if (ref.fields.size() == 2 && ref.fields[0] != table.name) return std::nullopt;
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].name != ref.fields.back()) continue;
      const int col = static_cast<int>(i);
      if (columns != nullptr && std::find(columns->begin(), columns->end(), col) == columns->end()) {
        columns->push_back(col);
      }
      return ColumnBinding{col, table.columns[i].type, table.columns[i].typmod};
    }
    return std::nullopt;
  };
  return BindCondition(expr, ctx, "CHECK");
}

CheckConstraints::CheckConstraints(const TableInfo& table) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].domain != types::kInvalidOid) domain_columns_.push_back(i);
  }
  for (const CheckConstraintInfo& c : table.checks) {
    std::vector<parser::StmtPtr> parsed = parser::ParseStatements("SELECT " + c.expr);
    const parser::Expr& e = *parsed.at(0)->As<parser::SelectStmt>().targets.at(0).expr;
    checks_.push_back(Bound{c.name, BindCheckCondition(e, table, nullptr)});
  }
}

CheckConstraints CheckConstraints::Clone() const {
  CheckConstraints out;
  for (const Bound& b : checks_) out.checks_.push_back(Bound{b.name, CloneBound(b.expr)});
  out.domain_columns_ = domain_columns_;
  return out;
}

void CheckConstraints::Check(const TableInfo& table, const Row& row, EvalContext& eval) const {
  for (size_t col : domain_columns_) CheckDomainValue(table.columns[col].domain, row[col], eval);
  if (checks_.empty()) return;
  eval.row = row.data();
  eval.nrow = row.size();
  for (const Bound& b : checks_) {
    const types::Value v = Eval(*b.expr, eval);
    if (v.is_null || v.b) continue;
    throw DbError("23514", "new row for relation \"" + table.name + "\" violates check constraint \"" + b.name + "\"")
        .WithDetail(FailingRowDetail(table, row));
  }
}

void CheckConstraints::ValidateExistingRows(ExecContext& ctx, const TableInfo& table, const std::string& name) {
  TableInfo only = table;
  only.checks.clear();
  for (const CheckConstraintInfo& c : table.checks) {
    if (c.name == name) only.checks.push_back(c);
  }
  const CheckConstraints checks(only);
  if (checks.checks_.empty()) return;
  const BoundExpr& cond = *checks.checks_[0].expr;
  EvalContext eval = ctx.MakeEval();
  ctx.tables->TakeLatestSnapshot();
  std::unique_ptr<TableScan> scan = ctx.tables->OpenLatestScan(table, nullptr, IndexScanRequest{});
  Row row;
  while (scan->Next(row, nullptr)) {
    ctx.CheckInterrupts();
    eval.row = row.data();
    eval.nrow = row.size();
    const types::Value v = Eval(cond, eval);
    if (v.is_null || v.b) continue;
    throw DbError("23514", "check constraint \"" + name + "\" of relation \"" + table.name + "\" is violated by some row");
  }
}

}  // namespace hearth::executor
