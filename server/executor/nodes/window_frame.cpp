// server/executor/nodes/window_frame.cpp
//
// Principal entry points: FrameCalculator::StartPartition (peer groups) and
// FrameCalculator::Frame (the rows of one row's frame).
#include "executor/nodes/window_frame.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/eval.h"
#include "utils/adt/cast.h"
#include "utils/adt/compare.h"
#include "utils/adt/interval.h"
#include "utils/adt/numeric.h"

namespace hearth::executor {

using types::Value;

WindowFrameSpec WindowFrameSpec::CloneSpec() const {
  WindowFrameSpec s;
  s.mode = mode;
  s.start = start;
  s.end = end;
  s.start_offset = ClonePlanExpr(start_offset);
  s.end_offset = ClonePlanExpr(end_offset);
  s.exclude = exclude;
  s.range_add = CloneBound(range_add);
  s.range_sub = CloneBound(range_sub);
  return s;
}

size_t FrameSegments::Count() const {
  size_t c = 0;
  for (int k = 0; k < n; ++k) c += end[k] - begin[k];
  return c;
}

bool FrameSegments::operator==(const FrameSegments& o) const {
  if (n != o.n) return false;
  for (int k = 0; k < n; ++k) {
    if (begin[k] != o.begin[k] || end[k] != o.end[k]) return false;
  }
  return true;
}

namespace {

// An offset of n PRECEDING / FOLLOWING: non-NULL, not negative.
Value EvalFrameOffset(const PlanExpr& e, WinFrameMode mode, ExecContext& ctx, bool is_start) {
  if (!e.expr) return Value{};
  EvalContext ev = ctx.MakeEval();
  Value v = Eval(*e.expr, ev);
  const char* which = is_start ? "frame starting offset" : "frame ending offset";
  if (v.is_null) throw DbError(sqlstate::kNullValueNotAllowed, std::string(which) + " must not be null");
  bool negative = false;
  if (v.type == types::kNumericOid) {
    negative = types::Numeric::Compare(types::Numeric::Parse(v.str), types::Numeric::FromInt64(0)) < 0;
  } else if (v.type == types::kFloat8Oid || v.type == types::kFloat4Oid) {
    negative = v.f < 0;
  } else if (v.type == types::kIntervalOid) {
    negative = types::IntervalSpan(types::DecodeInterval(v.str)) < 0;
  } else {
    negative = v.i < 0;
  }
  if (negative && mode == WinFrameMode::kRange) {
    throw DbError(sqlstate::kInvalidPrecedingOrFollowingSize, "invalid preceding or following size in window function");
  }
  if (negative) throw DbError(sqlstate::kInvalidPrecedingOrFollowingSize, std::string(which) + " must not be negative");
  return v;
}

bool PeersEqual(const Row& a, const Row& b, const std::vector<SortKey>& keys) {
  for (const SortKey& k : keys) {
    const Value& x = a[static_cast<size_t>(k.column)];
    const Value& y = b[static_cast<size_t>(k.column)];
    if (x.is_null != y.is_null) return false;
    if (!x.is_null && types::CompareValues(x, y) != 0) return false;
  }
  return true;
}

}  // namespace

void FrameCalculator::Open(const WindowFrameSpec& spec, const SortKey* range_key, ExecContext& ctx) {
  spec_ = &spec;
  range_key_ = range_key;
  start_off_ = EvalFrameOffset(spec.start_offset, spec.mode, ctx, true);
  end_off_ = EvalFrameOffset(spec.end_offset, spec.mode, ctx, false);
  shift_ev_ = ctx.MakeEval();
}

void FrameCalculator::StartPartition(PartitionStore& store, const std::vector<SortKey>& order) {
  store_ = &store;
  rows_ = store.size();
  group_of_.resize(rows_);
  group_start_.clear();
  // Peers: equal on every ORDER BY key (all rows are peers without ORDER BY).
  Row prev;
  for (size_t i = 0; i < rows_; ++i) {
    const Row& r = store.Get(i);
    if (i == 0 || !PeersEqual(prev, r, order)) {
      group_start_.push_back(i);
      prev = r;
    }
    group_of_[i] = group_start_.size() - 1;
  }
}

size_t FrameCalculator::FrameEnd(size_t i) { return Bound(i, spec_->end, end_off_, false); }

FrameSegments FrameCalculator::Frame(size_t i) {
  size_t s = Bound(i, spec_->start, start_off_, true);
  size_t e = std::max(s, Bound(i, spec_->end, end_off_, false));
  FrameSegments f;
  auto add = [&f](size_t b, size_t en) {
    if (b < en) {
      f.begin[f.n] = b;
      f.end[f.n] = en;
      ++f.n;
    }
  };
  const size_t g = group_of_[i];
  switch (spec_->exclude) {
    case WinExclude::kNoOthers:
      add(s, e);
      break;
    case WinExclude::kCurrentRow:
      add(s, std::min(e, i));
      add(std::max(s, i + 1), e);
      break;
    case WinExclude::kGroup:
      add(s, std::min(e, GroupStart(g)));
      add(std::max(s, GroupEnd(g)), e);
      break;
    case WinExclude::kTies:
      add(s, std::min(e, GroupStart(g)));
      if (i >= s && i < e) add(i, i + 1);
      add(std::max(s, GroupEnd(g)), e);
      break;
  }
  return f;
}

// Start (is_start) or exclusive end of row i's frame before exclusion.
size_t FrameCalculator::Bound(size_t i, WinBound b, const Value& off, bool is_start) {
  const size_t g = group_of_[i];
  switch (b) {
    case WinBound::kUnboundedPreceding:
      return 0;
    case WinBound::kUnboundedFollowing:
      return rows_;
    case WinBound::kCurrentRow:
      if (spec_->mode == WinFrameMode::kRows) return is_start ? i : i + 1;
      return is_start ? GroupStart(g) : GroupEnd(g);
    case WinBound::kPreceding:
    case WinBound::kFollowing:
      break;
  }
  const bool following = b == WinBound::kFollowing;
  if (spec_->mode == WinFrameMode::kRange) return RangeBound(i, b, off, is_start);
  const auto n = static_cast<__int128>(off.i);
  const bool rows = spec_->mode == WinFrameMode::kRows;
  const __int128 at = static_cast<__int128>(rows ? i : g) + (following ? n : -n);
  const __int128 limit = static_cast<__int128>(rows ? rows_ : group_start_.size());
  if (at < 0) return 0;
  if (at >= limit) return rows_;
  const auto k = static_cast<size_t>(at);
  if (rows) return is_start ? k : k + 1;
  return is_start ? GroupStart(k) : GroupEnd(k);
}

int FrameCalculator::CompareShifted(const Value& v, const Value& cur, const Value& off, bool add) {
  if (spec_->range_add) {
    // Datetime types: date + interval is a timestamp, compared with v as one.
    const Value pair[2] = {cur, off};
    shift_ev_.row = pair;
    shift_ev_.nrow = 2;
    const Value target = Eval(add ? *spec_->range_add : *spec_->range_sub, shift_ev_);
    shift_ev_.row = nullptr;
    const Value x = v.type == target.type
                        ? v
                        : types::CastValue(v, target.type, types::kNoTypmod, types::CoercionContext::kImplicit);
    return types::CompareValues(x, target);
  }
  switch (v.type) {
    case types::kInt2Oid:
    case types::kInt4Oid:
    case types::kInt8Oid: {
      const __int128 target = static_cast<__int128>(cur.i) + (add ? off.i : -static_cast<__int128>(off.i));
      const __int128 x = v.i;
      return x < target ? -1 : (x > target ? 1 : 0);
    }
    case types::kFloat4Oid:
    case types::kFloat8Oid: {
      const double target = add ? cur.f + off.f : cur.f - off.f;
      return v.f < target ? -1 : (v.f > target ? 1 : 0);
    }
    default: {
      types::Numeric c = types::Numeric::Parse(cur.str);
      types::Numeric o = types::Numeric::Parse(off.str);
      types::Numeric target = add ? c.Add(o) : c.Sub(o);
      return types::Numeric::Compare(types::Numeric::Parse(v.str), target);
    }
  }
}

// RANGE n PRECEDING/FOLLOWING: rows whose ORDER BY value lies within n of
// the current row's (in the direction of the ordering). A NULL current
// value frames its NULL peers; NULL rows never lie within n of a value.
size_t FrameCalculator::RangeBound(size_t i, WinBound b, const Value& off, bool is_start) {
  const auto col = static_cast<size_t>(range_key_->column);
  const Value cur = store_->Get(i)[col];
  const size_t g = group_of_[i];
  if (cur.is_null) return is_start ? GroupStart(g) : GroupEnd(g);
  // The non-NULL rows [lo, hi): NULLs are one peer group at one end.
  size_t lo = 0, hi = rows_;
  if (range_key_->nulls_first) {
    if (store_->Get(0)[col].is_null) lo = GroupEnd(0);
  } else if (store_->Get(rows_ - 1)[col].is_null) {
    hi = GroupStart(group_of_[rows_ - 1]);
  }
  const bool desc = range_key_->descending;
  const bool add = (b == WinBound::kFollowing) != desc;
  // Rows in order: "before the bound" is value < target ascending, > descending.
  auto before = [&](size_t r) {
    int c = CompareShifted(store_->Get(r)[col], cur, off, add);
    if (desc) c = -c;
    return is_start ? c < 0 : c <= 0;
  };
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (before(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace hearth::executor
