// server/executor/nodes/index_scan_node.h
//
// IndexScanNode: a table read through one of its B-tree indexes
// (TableProvider::OpenIndexScan). Conditions on the index's first key
// column narrow the scan; their values are expressions (constants or $n,
// possibly cast) evaluated at each Open. Rows come in index order (or
// reverse: "Index Scan Backward"), which lets the planner drop a Sort.
// The filter re-checks every WHERE conjunct on the fetched row, so index
// bounds only ever need to be a superset of the answer.
//
// Plan trees are immutable after planning; per-execution state is reset by
// Open. One execution at a time per tree.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

struct IndexBoundExpr {
  IndexScanOp op = IndexScanOp::kEq;
  BoundExprPtr value;  // constant / parameter expression of the column's type family
};

class IndexScanNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // `index` is one of table.indexes. `index_cond_text` is shown as "Index
  // Cond:" (empty: none), `filter.text` as "Filter:" (empty text: not
  // shown, the expression still runs). `filter.expr` may be null. With
  // emit_rid the row gets a trailing int8 RowId column (UPDATE/DELETE).
  IndexScanNode(TableInfo table, std::string alias, IndexInfo index, std::vector<IndexBoundExpr> bounds,
                std::vector<BoundExprPtr> in_values, bool has_in, bool backward, std::string index_cond_text,
                PlanExpr filter, bool emit_rid);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

  const TableInfo& table() const { return table_; }
  const IndexInfo& index() const { return index_; }
  bool backward() const { return backward_; }
  // Planner only, before the first Open.
  void SetBackward(bool b) { backward_ = b; }

 protected:
  std::string ExplainName() const override;
  void ExplainDetails(std::vector<std::string>* out) const override;

 private:
  TableInfo table_;
  std::string alias_;
  IndexInfo index_;
  std::vector<IndexBoundExpr> bounds_;
  std::vector<BoundExprPtr> in_values_;
  bool has_in_;
  bool backward_;
  std::string index_cond_text_;
  PlanExpr filter_;
  bool emit_rid_;
  ExecContext* ctx_ = nullptr;
  std::unique_ptr<TableScan> scan_;
  EvalContext eval_;
};

}  // namespace hearth::executor
