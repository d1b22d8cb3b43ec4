// server/executor/nodes/window_frame.h
//
// Window frames: the plan-time frame clause (WindowFrameSpec) and, per
// execution, FrameCalculator, which knows the peer groups of the buffered
// partition and turns a row position into the rows of its frame
// (ROWS / RANGE / GROUPS, offsets, EXCLUDE) as at most three contiguous
// segments. Offsets are evaluated once per execution (PostgreSQL's 22004 /
// 22013 errors). RANGE with an offset compares the single ORDER BY
// column's value against current value ∓ offset (integers, floats, numeric;
// date/timestamp[tz]/interval columns with an interval offset through
// the planner's bound `cur + off` / `cur - off`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "executor/exec_node.h"
#include "executor/nodes/sort_node.h"
#include "executor/nodes/window_store.h"

namespace hearth::executor {

enum class WinFrameMode { kRange, kRows, kGroups };
enum class WinBound { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
enum class WinExclude { kNoOthers, kCurrentRow, kGroup, kTies };

struct WindowFrameSpec {
  WinFrameMode mode = WinFrameMode::kRange;
  WinBound start = WinBound::kUnboundedPreceding;
  WinBound end = WinBound::kCurrentRow;
  PlanExpr start_offset, end_offset;  // bound expressions without columns
  WinExclude exclude = WinExclude::kNoOthers;
  // RANGE offsets of datetime columns: cur + off / cur - off bound on the
  // row [cur, off] (null for the numeric types, computed directly).
  BoundExprPtr range_add, range_sub;

  WindowFrameSpec CloneSpec() const;
  // The frame starts at the partition start and excludes nothing, so an
  // aggregate can run forward over the partition.
  bool RunsFromStart() const { return start == WinBound::kUnboundedPreceding && exclude == WinExclude::kNoOthers; }
};

// Rows [begin[k], end[k]) for k < n, in order, disjoint.
struct FrameSegments {
  size_t begin[3] = {0, 0, 0};
  size_t end[3] = {0, 0, 0};
  int n = 0;
  size_t Count() const;
  bool operator==(const FrameSegments& o) const;
};

class FrameCalculator {
 public:
  // Evaluates the offsets (once per execution).
  void Open(const WindowFrameSpec& spec, const SortKey* range_key, ExecContext& ctx);
  // Computes the peer groups of the partition now in `store`.
  void StartPartition(PartitionStore& store, const std::vector<SortKey>& order);

  size_t GroupOf(size_t i) const { return group_of_[i]; }
  size_t GroupStart(size_t g) const { return group_start_[g]; }
  size_t GroupEnd(size_t g) const { return g + 1 < group_start_.size() ? group_start_[g + 1] : rows_; }
  size_t NumGroups() const { return group_start_.size(); }
  size_t Rows() const { return rows_; }

  // The frame of row i (exclusion applied).
  FrameSegments Frame(size_t i);
  // The frame end of row i before exclusion (running aggregates).
  size_t FrameEnd(size_t i);

 private:
  size_t Bound(size_t i, WinBound b, const types::Value& off, bool is_start);
  size_t RangeBound(size_t i, WinBound b, const types::Value& off, bool is_start);
  // Sign of (value - (cur + delta)) where delta = ±off.
  int CompareShifted(const types::Value& v, const types::Value& cur, const types::Value& off, bool add);

  const WindowFrameSpec* spec_ = nullptr;
  const SortKey* range_key_ = nullptr;
  types::Value start_off_, end_off_;
  EvalContext shift_ev_;  // evaluates range_add / range_sub
  PartitionStore* store_ = nullptr;
  size_t rows_ = 0;
  std::vector<size_t> group_of_;
  std::vector<size_t> group_start_;
};

}  // namespace hearth::executor
