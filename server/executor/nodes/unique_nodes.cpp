// server/executor/nodes/unique_nodes.cpp
//
// Principal entry points: DistinctOnNode::Next, LimitTiesNode::Next.
#include "executor/nodes/unique_nodes.h"

#include "common/error/db_error.h"
#include "executor/nodes/basic_nodes.h"
#include "utils/adt/compare.h"

namespace hearth::executor {
namespace {

bool SameKeys(const Row& row, const std::vector<int>& keys, const Row& last) {
  for (size_t i = 0; i < keys.size(); ++i) {
    const types::Value& a = row[static_cast<size_t>(keys[i])];
    const types::Value& b = last[i];
    if (a.is_null != b.is_null) return false;
    if (!a.is_null && types::CompareValues(a, b) != 0) return false;
  }
  return true;
}

void KeepKeys(const Row& row, const std::vector<int>& keys, Row* last) {
  last->resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) (*last)[i] = row[static_cast<size_t>(keys[i])];
}

}  // namespace

DistinctOnNode::DistinctOnNode(ExecNodePtr child, std::vector<int> key_columns, size_t output_width)
    : child_(std::move(child)), keys_(std::move(key_columns)), output_width_(output_width) {
  columns_.assign(child_->columns().begin(), child_->columns().begin() + static_cast<std::ptrdiff_t>(output_width_));
}

void DistinctOnNode::Open(ExecContext& ctx) {
  have_last_ = false;
  child_->Open(ctx);
}

bool DistinctOnNode::Next(Row& row) {
  while (child_->Next(row)) {
    if (have_last_ && SameKeys(row, keys_, last_)) continue;
    KeepKeys(row, keys_, &last_);
    have_last_ = true;
    row.resize(output_width_);
    return true;
  }
  return false;
}

ExecNodePtr DistinctOnNode::Clone() const {
  return std::make_unique<DistinctOnNode>(CloneNode(child_), keys_, output_width_);
}

LimitTiesNode::LimitTiesNode(ExecNodePtr child, PlanExpr limit, PlanExpr offset, std::vector<int> key_columns,
                             size_t output_width)
    : child_(std::move(child)),
      limit_(std::move(limit)),
      offset_(std::move(offset)),
      keys_(std::move(key_columns)),
      output_width_(output_width) {
  columns_.assign(child_->columns().begin(), child_->columns().begin() + static_cast<std::ptrdiff_t>(output_width_));
}

void LimitTiesNode::Open(ExecContext& ctx) {
  std::optional<int64_t> limit = EvalCount(limit_, ctx);
  if (!limit) throw DbError("2201W", "row count cannot be null in FETCH FIRST ... WITH TIES clause");
  if (*limit < 0) throw DbError("2201W", "LIMIT must not be negative");
  remaining_ = *limit;
  skip_ = EvalCount(offset_, ctx).value_or(0);
  if (skip_ < 0) throw DbError("2201X", "OFFSET must not be negative");
  done_ = remaining_ == 0;
  child_->Open(ctx);
}

bool LimitTiesNode::Next(Row& row) {
  if (done_) return false;
  while (skip_ > 0) {
    if (!child_->Next(row)) return false;
    --skip_;
  }
  if (!child_->Next(row)) return false;
  if (remaining_ > 0) {
    if (--remaining_ == 0) KeepKeys(row, keys_, &last_);
  } else if (!SameKeys(row, keys_, last_)) {
    done_ = true;  // the first row that does not tie ends the output
    return false;
  }
  row.resize(output_width_);
  return true;
}

ExecNodePtr LimitTiesNode::Clone() const {
  return std::make_unique<LimitTiesNode>(CloneNode(child_), ClonePlanExpr(limit_), ClonePlanExpr(offset_), keys_,
                                         output_width_);
}

}  // namespace hearth::executor
