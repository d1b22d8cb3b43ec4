// server/executor/nodes/window_node.h
//
// WindowAggNode: evaluates the window functions of ONE window specification
// (PARTITION BY, ORDER BY, frame). Its input is already sorted on the
// partition keys then the order keys (the planner puts a Sort below unless
// an earlier WindowAgg left the rows in that order); every argument,
// partition and order key is a column of the input row. Output rows are the
// input row followed by one column per window function.
//
// One partition is buffered at a time (`PartitionStore`, spilling to a temp
// file beyond work_mem). Ranking functions come from peer groups; lag/lead
// read rows of the partition; aggregates use one running state while the
// frame starts at the partition start (the default frame: a running sum),
// and are re-aggregated over the frame otherwise (a result is reused while
// the frame stays the same). Plan fields are immutable; the run-time state
// is per execution (see exec_node.h on Clone).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"
#include "executor/nodes/sort_node.h"
#include "executor/nodes/window_frame.h"
#include "executor/nodes/window_store.h"
#include "utils/adt/aggregates.h"

namespace hearth::executor {

enum class WindowFuncKind {
  kAggregate,
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
};

// One window function call: its input columns and result type.
struct WindowFunc {
  WindowFuncKind kind = WindowFuncKind::kRowNumber;
  const types::FuncSignature* agg = nullptr;  // kAggregate: the aggregate
  std::vector<int> args;                      // input columns of the arguments
  int filter = -1;                            // FILTER (WHERE ...) column, -1: none
  types::Oid result_type = types::kInvalidOid;
  std::string name;  // column name ("sum", "rank", ...)
};

// The partition and order of one window, as input columns.
struct WindowOrder {
  std::vector<SortKey> partition;  // ascending keys; only equality matters
  std::vector<SortKey> order;
};

class WindowAggNode : public ExecNode {
 public:
  WindowAggNode(ExecNodePtr child, WindowOrder order, WindowFrameSpec frame, std::vector<WindowFunc> funcs);
  ~WindowAggNode() override;
  ExecNodePtr Clone() const override;
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

  // For tests: whether the last execution spilled a partition to disk.
  bool spilled() const { return spilled_; }

 protected:
  std::string ExplainName() const override { return "WindowAgg"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  bool LoadPartition();
  bool SamePartition(const Row& a, const Row& b) const;
  types::Value Evaluate(size_t f, size_t i);
  types::Value EvalAggregate(size_t f, size_t i);
  types::Value EvalOffset(const WindowFunc& fn, size_t i, bool lead);
  types::Value EvalFrameValue(const WindowFunc& fn, size_t i);
  types::Value EvalNtile(const WindowFunc& fn, size_t i);
  void AccumulateRange(size_t f, size_t begin, size_t end);

  ExecNodePtr child_;
  WindowOrder order_;
  WindowFrameSpec frame_;
  std::vector<WindowFunc> funcs_;

  // Per execution.
  ExecContext* ctx_ = nullptr;
  PartitionStore store_;
  FrameCalculator calc_;
  Row pending_;  // first row of the next partition, when has_pending_
  Row first_;    // first row of the current partition (its keys)
  bool has_pending_ = false;
  bool input_done_ = false;
  size_t next_ = 0;  // next row of the partition to emit
  bool spilled_ = false;
  // Per function: a running or frame-wide aggregate state, the frame it
  // covers, and the last result (reused while the frame is unchanged).
  struct FuncState {
    std::unique_ptr<types::AggregateState> agg;
    size_t running_end = 0;  // running mode: rows [0, running_end) accumulated
    FrameSegments last_frame;
    bool has_last = false;
    types::Value last;
    int64_t ntile_buckets = 0;  // ntile: evaluated at the partition's first row
    bool ntile_null = false;
  };
  std::vector<FuncState> state_;
  std::vector<types::Value> args_;  // scratch for Accumulate
};

}  // namespace hearth::executor
