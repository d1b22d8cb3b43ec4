// server/executor/nodes/window_node.cpp
//
// Principal entry points: WindowAggNode::Next (partition by partition) and
// WindowAggNode::Evaluate (one window function at one row).
#include "executor/nodes/window_node.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/compare.h"

namespace hearth::executor {

using types::Value;

WindowAggNode::WindowAggNode(ExecNodePtr child, WindowOrder order, WindowFrameSpec frame,
                             std::vector<WindowFunc> funcs)
    : child_(std::move(child)), order_(std::move(order)), frame_(std::move(frame)), funcs_(std::move(funcs)) {
  columns_ = child_->columns();
  for (const WindowFunc& f : funcs_) columns_.push_back(OutputColumn{f.name, f.result_type, types::kNoTypmod});
}

WindowAggNode::~WindowAggNode() { Close(); }

ExecNodePtr WindowAggNode::Clone() const {
  return std::make_unique<WindowAggNode>(child_->Clone(), order_, frame_.CloneSpec(), funcs_);
}

void WindowAggNode::Open(ExecContext& ctx) {
  ctx_ = &ctx;
  store_.Open(ctx);
  store_.Clear();
  calc_.Open(frame_, order_.order.empty() ? nullptr : &order_.order[0], ctx);
  state_.clear();
  state_.resize(funcs_.size());
  for (size_t f = 0; f < funcs_.size(); ++f) {
    if (funcs_[f].kind == WindowFuncKind::kAggregate) {
      state_[f].agg = std::make_unique<types::AggregateState>(funcs_[f].agg, funcs_[f].result_type);
    }
  }
  has_pending_ = false;
  input_done_ = false;
  next_ = 0;
  spilled_ = false;
  child_->Open(ctx);
}

void WindowAggNode::Close() {
  if (child_) child_->Close();
  store_.Release();
  state_.clear();
}

bool WindowAggNode::SamePartition(const Row& a, const Row& b) const {
  for (const SortKey& k : order_.partition) {
    const Value& x = a[static_cast<size_t>(k.column)];
    const Value& y = b[static_cast<size_t>(k.column)];
    if (x.is_null != y.is_null) return false;
    if (!x.is_null && types::CompareValues(x, y) != 0) return false;
  }
  return true;
}

// Reads the next partition into the store; false at the end of the input.
bool WindowAggNode::LoadPartition() {
  if (!has_pending_) {
    if (input_done_ || !child_->Next(pending_)) {
      input_done_ = true;
      return false;
    }
  }
  store_.Clear();
  store_.Append(pending_);
  first_ = pending_;
  has_pending_ = false;
  while (child_->Next(pending_)) {
    ctx_->CheckInterrupts();
    if (!SamePartition(first_, pending_)) {
      has_pending_ = true;
      break;
    }
    store_.Append(pending_);
  }
  if (!has_pending_) input_done_ = true;
  store_.Finish();
  spilled_ = spilled_ || store_.spilled();
  calc_.StartPartition(store_, order_.order);
  for (FuncState& s : state_) {
    if (s.agg) s.agg->Reset();
    s.running_end = 0;
    s.has_last = false;
    s.ntile_buckets = 0;
  }
  next_ = 0;
  return true;
}

bool WindowAggNode::Next(Row& row) {
  while (next_ >= store_.size()) {
    if (!LoadPartition()) return false;
  }
  // Re-aggregating a long frame may take a while per row: stay cancelable.
  ctx_->CheckInterrupts();
  const size_t i = next_++;
  const Row& in = store_.Get(i);
  const size_t width = in.size();
  row.resize(width + funcs_.size());
  for (size_t c = 0; c < width; ++c) row[c] = in[c];
  // Evaluating may read other rows (and so invalidate `in`).
  for (size_t f = 0; f < funcs_.size(); ++f) row[width + f] = Evaluate(f, i);
  return true;
}

Value WindowAggNode::Evaluate(size_t f, size_t i) {
  const WindowFunc& fn = funcs_[f];
  const size_t g = calc_.GroupOf(i);
  const auto n = static_cast<double>(calc_.Rows());
  switch (fn.kind) {
    case WindowFuncKind::kRowNumber:
      return Value::Int8(static_cast<int64_t>(i + 1));
    case WindowFuncKind::kRank:
      return Value::Int8(static_cast<int64_t>(calc_.GroupStart(g) + 1));
    case WindowFuncKind::kDenseRank:
      return Value::Int8(static_cast<int64_t>(g + 1));
    case WindowFuncKind::kPercentRank:
      return Value::Float8(calc_.Rows() <= 1 ? 0.0 : static_cast<double>(calc_.GroupStart(g)) / (n - 1));
    case WindowFuncKind::kCumeDist:
      return Value::Float8(static_cast<double>(calc_.GroupEnd(g)) / n);
    case WindowFuncKind::kNtile:
      return EvalNtile(fn, i);
    case WindowFuncKind::kLag:
    case WindowFuncKind::kLead:
      return EvalOffset(fn, i, fn.kind == WindowFuncKind::kLead);
    case WindowFuncKind::kFirstValue:
    case WindowFuncKind::kLastValue:
    case WindowFuncKind::kNthValue:
      return EvalFrameValue(fn, i);
    case WindowFuncKind::kAggregate:
      return EvalAggregate(f, i);
  }
  return Value::Null(fn.result_type);
}

// ntile(k): the argument is read at the partition's first row.
Value WindowAggNode::EvalNtile(const WindowFunc& fn, size_t i) {
  FuncState& s = state_[static_cast<size_t>(&fn - funcs_.data())];
  if (i == 0) {
    const Value& k = store_.Get(0)[static_cast<size_t>(fn.args[0])];
    s.ntile_null = k.is_null;
    if (!k.is_null && k.i <= 0) {
      throw DbError(sqlstate::kInvalidArgumentForNtile, "argument of ntile must be greater than zero");
    }
    s.ntile_buckets = k.is_null ? 0 : k.i;
  }
  if (s.ntile_null) return Value::Null(types::kInt4Oid);
  // The first (rows % k) buckets hold one row more than the others.
  const auto rows = static_cast<int64_t>(calc_.Rows());
  const int64_t per = rows / s.ntile_buckets;
  const int64_t extra = rows % s.ntile_buckets;
  const auto pos = static_cast<int64_t>(i);
  const int64_t big = extra * (per + 1);
  const int64_t bucket = pos < big ? pos / (per + 1) : extra + (pos - big) / per;
  return Value::Int4(static_cast<int32_t>(bucket + 1));
}

// lag/lead(value [, offset [, default]]): offset and default are read at
// the current row; outside the partition the result is the default.
Value WindowAggNode::EvalOffset(const WindowFunc& fn, size_t i, bool lead) {
  int64_t off = 1;
  Value fallback = Value::Null(fn.result_type);
  {
    const Row& cur = store_.Get(i);
    if (fn.args.size() > 1) {
      const Value& o = cur[static_cast<size_t>(fn.args[1])];
      if (o.is_null) return Value::Null(fn.result_type);
      off = o.i;
    }
    if (fn.args.size() > 2) fallback = cur[static_cast<size_t>(fn.args[2])];
  }
  const __int128 target = static_cast<__int128>(i) + (lead ? off : -static_cast<__int128>(off));
  if (target < 0 || target >= static_cast<__int128>(calc_.Rows())) return fallback;
  return store_.Get(static_cast<size_t>(target))[static_cast<size_t>(fn.args[0])];
}

// first_value / last_value / nth_value over the frame.
Value WindowAggNode::EvalFrameValue(const WindowFunc& fn, size_t i) {
  const FrameSegments fr = calc_.Frame(i);
  int64_t nth = 1;
  if (fn.kind == WindowFuncKind::kNthValue) {
    const Value& v = store_.Get(i)[static_cast<size_t>(fn.args[1])];
    if (v.is_null) return Value::Null(fn.result_type);
    if (v.i <= 0) throw DbError(sqlstate::kInvalidArgumentForNthValue, "argument of nth_value must be greater than zero");
    nth = v.i;
  }
  if (fr.n == 0) return Value::Null(fn.result_type);
  const auto col = static_cast<size_t>(fn.args[0]);
  if (fn.kind == WindowFuncKind::kLastValue) return store_.Get(fr.end[fr.n - 1] - 1)[col];
  auto left = static_cast<size_t>(nth - 1);
  for (int k = 0; k < fr.n; ++k) {
    const size_t len = fr.end[k] - fr.begin[k];
    if (left < len) return store_.Get(fr.begin[k] + left)[col];
    left -= len;
  }
  return Value::Null(fn.result_type);
}

void WindowAggNode::AccumulateRange(size_t f, size_t begin, size_t end) {
  const WindowFunc& fn = funcs_[f];
  types::AggregateState& agg = *state_[f].agg;
  args_.resize(fn.args.size());
  for (size_t r = begin; r < end; ++r) {
    const Row& row = store_.Get(r);
    if (fn.filter >= 0) {
      const Value& c = row[static_cast<size_t>(fn.filter)];
      if (c.is_null || !c.b) continue;
    }
    for (size_t k = 0; k < fn.args.size(); ++k) args_[k] = row[static_cast<size_t>(fn.args[k])];
    agg.Accumulate(args_.data(), static_cast<int>(args_.size()));
  }
}

// Frames from the partition start run one state forward (the default
// frame: a running aggregate); other frames are aggregated anew unless the
// frame is the previous row's.
Value WindowAggNode::EvalAggregate(size_t f, size_t i) {
  FuncState& s = state_[f];
  if (frame_.RunsFromStart()) {
    const size_t end = calc_.FrameEnd(i);
    if (end >= s.running_end) {
      AccumulateRange(f, s.running_end, end);
      s.running_end = end;
      return s.agg->Finish();
    }
  }
  const FrameSegments fr = calc_.Frame(i);
  if (s.has_last && fr == s.last_frame) return s.last;
  s.agg->Reset();
  s.running_end = 0;
  for (int k = 0; k < fr.n; ++k) AccumulateRange(f, fr.begin[k], fr.end[k]);
  s.last = s.agg->Finish();
  s.last_frame = fr;
  s.has_last = true;
  return s.last;
}

}  // namespace hearth::executor
