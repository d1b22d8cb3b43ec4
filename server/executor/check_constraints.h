// server/executor/check_constraints.h
//
// CHECK constraints of one table, bound once per statement (or COPY) and
// evaluated against every new row: INSERT and UPDATE (ModifyTableNode),
// COPY FROM (tcop), cascaded updates (foreign_keys.cpp). A condition that
// yields false violates the constraint; NULL passes, as in PostgreSQL.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_context.h"
#include "executor/exec_node.h"
#include "executor/expr/bind_context.h"
#include "executor/table_access.h"

namespace hearth::executor {

// Binds a CHECK condition over `table`'s row (column i = slot i): 42703 for
// unknown columns, 42804 `argument of CHECK must be type boolean, ...`.
// `*columns` (if not null) receives the distinct 0-based columns it reads,
// in order of first use (PostgreSQL names an unnamed constraint after its
// only column).
BoundExprPtr BindCheckCondition(const parser::Expr& expr, const TableInfo& table, std::vector<int>* columns);

class CheckConstraints {
 public:
  CheckConstraints() = default;
  // Parses and binds every table.checks entry.
  explicit CheckConstraints(const TableInfo& table);
  CheckConstraints Clone() const;
  bool empty() const { return checks_.empty() && domain_columns_.empty(); }
  // Columns of a domain meet the domain's constraints first
  // (domain_checks.h). Throws 23514 `new row for relation "t" violates check constraint "c"`
  // with detail `Failing row contains (...).` for the first violated one
  // (name order). `row` holds at least the table's columns.
  void Check(const TableInfo& table, const Row& row, EvalContext& eval) const;

  // ALTER TABLE ... ADD CHECK: every row of `table` must pass its check
  // `name` (23514 `check constraint "c" of relation "t" is violated by some
  // row`).
  static void ValidateExistingRows(ExecContext& ctx, const TableInfo& table, const std::string& name);

 private:
  struct Bound {
    std::string name;
    BoundExprPtr expr;
  };
  std::vector<Bound> checks_;
  std::vector<size_t> domain_columns_;  // columns of a domain: its constraints first
};

}  // namespace hearth::executor
