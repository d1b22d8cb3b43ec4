// server/executor/cte_store.h
//
// Rows that several plan nodes of one execution share: a WITH query's
// result (computed once per execution, lazily, as its CTE Scans ask for
// rows) and a recursive WITH query's working table. They belong to the
// Execution, never to the plan: the plan only holds the hidden parameter
// slot whose value (int8) is the store's address, set when the Execution
// starts (InitPlan kinds kCte and kWorkTable, planned_statement.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "executor/exec_context.h"
#include "executor/exec_node.h"
#include "executor/planned_statement.h"

namespace hearth::executor {

// Append-only rows in one contiguous buffer (row_codec encoding), read by
// position: no allocation per stored row beyond the buffer's growth.
class RowStore {
 public:
  void Append(const Row& row);
  size_t size() const { return starts_.size(); }
  bool empty() const { return starts_.empty(); }
  // REQUIRES: i < size().
  void Read(size_t i, Row* row) const;
  void Clear();
  void Swap(RowStore& other);

 private:
  std::string data_;
  std::vector<size_t> starts_;
  size_t width_ = 0;
};

// One shared store. With a producer (a WITH query's plan, the Execution's
// clone), rows are pulled from it on demand, so a CTE read under a LIMIT
// is computed only as far as needed; without one (a working table) the
// recursive union fills it.
class CteStore {
 public:
  CteStore(ExecNode* producer, ExecContext* ctx) : producer_(producer), ctx_(ctx) {}
  // Row i of the result into *row, computing rows up to i first; false past the end.
  bool Fetch(size_t i, Row* row);
  // Computes every row.
  void FetchAll();
  RowStore& rows() { return rows_; }
  // The producer must not be left open (a cancel unwinds through here).
  void Close();

 private:
  ExecNode* producer_;
  ExecContext* ctx_;
  RowStore rows_;
  Row scratch_;
  bool opened_ = false;
  bool done_ = false;
};

// Creates the store of a kCte / kWorkTable init plan (`plan`: the
// Execution's clone of its plan, null for a working table), keeps it in
// *owned and returns the parameter value that points to it.
// With run_to_completion the plan is run to its end at once.
types::Value MakeCteStore(ExecNode* plan, ExecContext* ctx, bool run_to_completion,
                          std::vector<std::unique_ptr<CteStore>>* owned);

// The store a hidden parameter (bound expression of type int8) points to.
CteStore* CteStoreAt(const PlanExpr& ref, const ExecContext& ctx);

}  // namespace hearth::executor
