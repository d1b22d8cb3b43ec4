// server/executor/nodes/unique_nodes.h
//
// Nodes over sorted input that keep rows by comparing neighbours on some
// key columns (equal = same value or both NULL): DistinctOnNode (SELECT
// DISTINCT ON: the first row of each run of equal keys, "Unique") and
// LimitTiesNode (FETCH FIRST n ROWS WITH TIES: n rows after the offset,
// then the rows that tie with the last of them on the ORDER BY keys). Both
// drop the columns from output_width on (hidden keys the planner added).
// Immutable plan, one execution at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

class DistinctOnNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  DistinctOnNode(ExecNodePtr child, std::vector<int> key_columns, size_t output_width);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override { child_->Close(); }

 protected:
  std::string ExplainName() const override { return "Unique"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  ExecNodePtr child_;
  std::vector<int> keys_;
  size_t output_width_;
  // Per execution.
  Row last_;  // the keys of the last row returned
  bool have_last_ = false;
};

class LimitTiesNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // limit: the row count (NULL → 2201W, negative → 2201W); offset may be null.
  LimitTiesNode(ExecNodePtr child, PlanExpr limit, PlanExpr offset, std::vector<int> key_columns,
                size_t output_width);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override { child_->Close(); }

 protected:
  std::string ExplainName() const override { return "Limit"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  ExecNodePtr child_;
  PlanExpr limit_, offset_;
  std::vector<int> keys_;
  size_t output_width_;
  // Per execution.
  int64_t remaining_ = 0;
  int64_t skip_ = 0;
  Row last_;  // the keys of the last counted row
  bool done_ = false;
};

}  // namespace hearth::executor
