// server/executor/nodes/lock_rows_node.h
//
// LockRowsNode: SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE
// (PostgreSQL's LockRows), above the Sort and below the Limit, so only rows
// the query actually returns are locked (the queue-worker pattern
// `ORDER BY ... LIMIT 1 FOR UPDATE SKIP LOCKED` locks one row).
//
// Input row: [visible outputs (nout)..., FROM row (from_width)...]; the FROM
// row holds every FROM table's columns and, for each locked table, a
// trailing RowId column. For each row and each locked table the node asks
// TableRowLocker::Lock: a SKIP LOCKED miss or a vanished row drops the row;
// a row replaced by a committed transaction (Read Committed) comes back as
// its newest locked version, which replaces that table's columns in the FROM
// row; the WHERE clause is then re-checked on it and the outputs recomputed
// (PostgreSQL's EvalPlanQual), both bound on the FROM row. Output: the first
// nout columns. Immutable plan, one execution at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

struct LockedTable {
  TableInfo table;
  RowLockStrength strength = RowLockStrength::kUpdate;
  RowLockPolicy policy = RowLockPolicy::kBlock;
  int first_column = 0;  // the table's first column in the FROM row
  int rid_column = 0;    // its RowId column in the FROM row
};

class LockRowsNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  LockRowsNode(ExecNodePtr child, std::vector<OutputColumn> columns, int from_width, std::vector<LockedTable> tables,
               PlanExpr recheck_where, std::vector<PlanExpr> recheck_outputs);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return "LockRows"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  // Locks the row's locked tables; false when the row is to be skipped.
  // *changed: some table's row was replaced by its newest version.
  bool LockAll(Row& row, bool* changed);

  ExecNodePtr child_;
  int from_width_;
  std::vector<LockedTable> tables_;
  PlanExpr recheck_where_;
  std::vector<PlanExpr> recheck_outputs_;
  ExecContext* ctx_ = nullptr;
  std::vector<std::unique_ptr<TableRowLocker>> lockers_;
  Row latest_;
};

}  // namespace hearth::executor
