// server/executor/nodes/scan_nodes.h
//
// Leaf plan nodes: SeqScanNode (a table through TableProvider, optionally
// with a pushed-down filter and the RowId as a trailing int8 column for
// UPDATE/DELETE), ValuesScanNode (VALUES lists or fixed in-memory rows),
// ResultNode (one empty row: SELECT without FROM) and SubqueryScanNode
// (a FROM-clause subquery under an alias). Plan trees are immutable;
// per-execution state lives in members reset by Open. One execution at a
// time per tree.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

// The loop every table-reading node shares: the next row of `scan` that
// passes `filter` (if any), with its RowId appended as an int8 column when
// `emit_rid` (UPDATE/DELETE need it). Checks for interrupts per row.
bool NextFilteredRow(TableScan& scan, const PlanExpr& filter, bool emit_rid, size_t ncols, ExecContext& ctx,
                     EvalContext& eval, Row& row);

class SeqScanNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // `alias` empty or equal to the table name → "Seq Scan on t". `filter`
  // may have a null expr. With emit_rid the row gets one extra int8 column
  // holding the RowId.
  SeqScanNode(TableInfo table, std::string alias, PlanExpr filter, bool emit_rid);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;
  const TableInfo& table() const { return table_; }
  bool has_filter() const { return filter_.expr != nullptr; }
  // Planner only, before the first Open: pushes a filter into the scan.
  void SetFilter(PlanExpr filter) { filter_ = std::move(filter); }
  // Planner only: partition pruning of the scanned members.
  void PruneInheritors(TableProvider& tables, const std::vector<ColumnCondition>& conds) {
    tables.PruneInheritors(&table_, conds);
  }
  // A scan of an inheritance tree prints as PostgreSQL's Append of one
  // Seq Scan per member.
  void Explain(std::vector<std::string>* lines, int indent = 0, bool as_child = false,
               const std::vector<std::string>* extra = nullptr) const override;

 protected:
  std::string ExplainName() const override;
  void ExplainDetails(std::vector<std::string>* out) const override;

 private:
  TableInfo table_;
  std::string alias_;
  PlanExpr filter_;
  bool emit_rid_;
  ExecContext* ctx_ = nullptr;
  std::unique_ptr<TableScan> scan_;
  EvalContext eval_;
};

class ValuesScanNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // Rows of expressions evaluated at each execution (may use $n).
  ValuesScanNode(std::vector<std::vector<PlanExpr>> rows, std::vector<OutputColumn> columns);
  // Fixed rows (tests, materialized results).
  ValuesScanNode(std::vector<Row> rows, std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override {}
  // INSERT ... VALUES of one row: EXPLAIN calls it "Result" (PostgreSQL
  // plans a single VALUES row of INSERT that way).
  void ExplainAsResult() { as_result_ = true; }

 protected:
  std::string ExplainName() const override { return as_result_ ? "Result" : "Values Scan on \"*VALUES*\""; }

 private:
  bool as_result_ = false;
  std::vector<std::vector<PlanExpr>> exprs_;
  std::vector<Row> fixed_;
  size_t pos_ = 0;
  EvalContext eval_;
};

class ResultNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  ResultNode() = default;
  void Open(ExecContext&) override { done_ = false; }
  bool Next(Row& row) override;
  void Close() override {}

 protected:
  std::string ExplainName() const override { return "Result"; }

 private:
  bool done_ = false;
};

class SubqueryScanNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // Passes the child's rows through under `alias` with renamed columns.
  SubqueryScanNode(ExecNodePtr child, std::string alias, std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override { child_->Open(ctx); }
  bool Next(Row& row) override { return child_->Next(row); }
  void Close() override { child_->Close(); }

 protected:
  std::string ExplainName() const override { return "Subquery Scan on " + alias_; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  ExecNodePtr child_;
  std::string alias_;
};

}  // namespace hearth::executor
