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
#include "executor/spill_file.h"

namespace hearth::executor {

// Append-only rows, read by position: one byte stream of encoded rows
// (row_codec), no allocation per stored row. Once the bytes held in memory
// reach the spill limit (work_mem) they move to a temp file (SpillFile, in
// ExecContext::temp_dir, counted against temp_file_limit); rows there are
// read through a reader's Cursor, a window of the file, so sequential
// readers cost one pread per window, several readers each their own.
class RowStore {
 public:
  struct Cursor {
    std::string window;
    uint64_t start = 0;  // stream offset of window[0]
  };

  // 0: never spill.
  void SetSpill(int64_t memory_limit, std::string temp_dir);
  void Append(const Row& row);
  size_t size() const { return starts_.size(); }
  bool empty() const { return starts_.empty(); }
  bool spilled() const { return file_ != nullptr; }
  // REQUIRES: i < size(). `cursor` may be null (a scratch one is used).
  void Read(size_t i, Row* row, Cursor* cursor = nullptr);
  void Clear();
  void Swap(RowStore& other);

 private:
  void SpillMemory();

  std::string data_;             // stream bytes [spilled_, end)
  std::vector<uint64_t> starts_;  // stream offset of each row
  uint64_t spilled_ = 0;         // stream bytes in file_
  std::unique_ptr<SpillFile> file_;
  Cursor scratch_;
  size_t width_ = 0;
  int64_t memory_limit_ = 0;
  std::string temp_dir_;
};

// One shared store. With a producer (a WITH query's plan, the Execution's
// clone), rows are pulled from it on demand, so a CTE read under a LIMIT
// is computed only as far as needed; without one (a working table) the
// recursive union fills it.
class CteStore {
 public:
  CteStore(ExecNode* producer, ExecContext* ctx);
  // Row i of the result into *row, computing rows up to i first; false past
  // the end. `cursor`: the reader's window for rows on disk (may be null).
  bool Fetch(size_t i, Row* row, RowStore::Cursor* cursor = nullptr);
  // Computes every row.
  void FetchAll();
  RowStore& rows() { return rows_; }
  // The producer must not be left open (a cancel unwinds through here).
  void Close();

 private:
  // Computes rows until row i exists or the producer ends; whether it exists.
  bool FillTo(size_t i);

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
