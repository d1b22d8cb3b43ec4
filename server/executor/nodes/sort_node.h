// server/executor/nodes/sort_node.h
//
// SortNode: ORDER BY over any number of keys (ASC/DESC, NULLS FIRST/LAST).
// Sorts in memory while the buffered rows fit in ExecContext::work_mem;
// beyond that it becomes an external merge sort: each full buffer is
// sorted and written as a run to a SpillFile in ExecContext::temp_dir,
// and the runs are merged with a binary heap (fan-in up to kMaxFanIn; more
// runs are first merged into longer runs). Ties keep input order (stable).
// Spill files are owned by the node and deleted on Close or destruction,
// so a cancel mid-sort leaves nothing behind. Immutable plan, one
// execution at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"
#include "executor/spill_file.h"

namespace hearth::executor {

struct SortKey {
  int column = 0;            // index in the child's row
  bool descending = false;
  bool nulls_first = false;  // PostgreSQL default: NULLS LAST for ASC, FIRST for DESC
  std::string text;          // EXPLAIN text, e.g. "x DESC"
};

class SortNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  static constexpr size_t kMaxFanIn = 64;

  // Output rows are the child's first `output_width` columns (the planner
  // appends "junk" sort-key columns that are dropped here).
  SortNode(ExecNodePtr child, std::vector<SortKey> keys, size_t output_width);
  ~SortNode() override;
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

  // For tests/EXPLAIN ANALYZE: runs written by the last execution.
  size_t runs_spilled() const { return runs_spilled_; }

 protected:
  std::string ExplainName() const override { return "Sort"; }
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  struct RunReader;
  bool Less(const Row& a, const Row& b) const;
  void SpillBuffer();
  std::unique_ptr<SpillFile> MergeRuns(std::vector<std::unique_ptr<SpillFile>> runs);
  void StartMerge();
  bool NextMerged(Row& row);

  ExecNodePtr child_;
  std::vector<SortKey> keys_;
  size_t output_width_;

  // Per execution.
  ExecContext* ctx_ = nullptr;
  std::vector<Row> buffer_;
  size_t buffer_bytes_ = 0;
  size_t pos_ = 0;
  std::vector<std::unique_ptr<SpillFile>> runs_;
  std::vector<std::unique_ptr<RunReader>> readers_;
  std::vector<size_t> heap_;  // indexes into readers_
  size_t runs_spilled_ = 0;
  std::string scratch_;
};

}  // namespace hearth::executor
