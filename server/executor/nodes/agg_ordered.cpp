// server/executor/nodes/agg_ordered.cpp
//
// Principal entry point: FinishOrderedAggregate (see agg_ordered.h).
#include "executor/nodes/agg_ordered.h"

#include <algorithm>
#include <numeric>

#include "executor/hash_memory.h"
#include "executor/nodes/agg_nodes.h"
#include "utils/adt/compare.h"
#include "utils/adt/ordered_set_aggs.h"

namespace hearth::executor {
namespace {

bool HasColumnRef(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn) return true;
  for (const BoundExprPtr& c : e.children) {
    if (HasColumnRef(*c)) return true;
  }
  return false;
}

// Order of the key tuples a and b (key k at a[column of k]; b_keys: key k
// at b[k] instead, for a hypothetical row) under spec.order: -1, 0, 1.
int CompareKeys(const AggSpec& spec, const types::Value* a, const types::Value* b, bool b_keys) {
  for (size_t i = 0; i < spec.order.size(); ++i) {
    const SortKey& k = spec.order[i];
    const types::Value& x = a[static_cast<size_t>(k.column)];
    const types::Value& y = b[b_keys ? i : static_cast<size_t>(k.column)];
    if (x.is_null || y.is_null) {
      if (x.is_null && y.is_null) continue;
      return x.is_null == k.nulls_first ? -1 : 1;  // NULL first iff nulls_first
    }
    const int c = types::CompareValues(x, y);
    if (c != 0) return (k.descending ? -c : c) < 0 ? -1 : 1;
  }
  return 0;
}

// Row indexes of `in` in spec.order (stable: ties keep arrival order).
std::vector<size_t> SortedRows(const AggSpec& spec, const OrderedAggInput& in) {
  const size_t width = spec.OrderedWidth();
  std::vector<size_t> order(width == 0 ? 0 : in.values.size() / width);
  std::iota(order.begin(), order.end(), size_t{0});
  const types::Value* v = in.values.data();
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return CompareKeys(spec, v + a * width, v + b * width, false) < 0;
  });
  return order;
}

// rank(args) WITHIN GROUP (ORDER BY keys): where the hypothetical row
// `args` (the direct arguments) falls among the group's sorted rows,
// NULL keys included.
types::Value FinishHypotheticalAggregate(const AggSpec& spec, const OrderedAggInput& in,
                                         const std::vector<size_t>& rows, const std::vector<types::Value>& hyp) {
  const size_t width = spec.OrderedWidth();
  const types::Value* v = in.values.data();
  uint64_t before = 0, peers = 0, distinct_before = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const types::Value* row = v + rows[i] * width;
    const int c = CompareKeys(spec, row, hyp.data(), true);
    if (c < 0) {
      ++before;
      if (i == 0 || CompareKeys(spec, v + rows[i - 1] * width, row, false) != 0) ++distinct_before;
    } else if (c == 0) {
      ++peers;
    } else {
      break;
    }
  }
  return types::FinishHypothetical(spec.sig, before, peers, distinct_before, rows.size());
}

types::Value FinishOrderedSetAggregate(const AggSpec& spec, const OrderedAggInput& in,
                                       const std::vector<size_t>& rows, EvalContext& eval) {
  const size_t width = spec.OrderedWidth();
  const auto ndirect = static_cast<size_t>(spec.direct_args);
  std::vector<types::Value> direct;
  if (!rows.empty()) {
    direct.assign(in.values.begin(), in.values.begin() + static_cast<std::ptrdiff_t>(ndirect));
  } else {
    // No input row: direct arguments that need none are still evaluated.
    for (size_t i = 0; i < ndirect; ++i) {
      const BoundExpr& d = *spec.args[i].expr;
      direct.push_back(HasColumnRef(d) ? types::Value::Null(d.type) : Eval(d, eval));
    }
  }
  if (types::IsHypotheticalSetAggregate(spec.sig->name)) return FinishHypotheticalAggregate(spec, in, rows, direct);
  // Ordered-set aggregates of one sort column skip NULL inputs.
  const size_t col = static_cast<size_t>(spec.order.front().column);
  std::vector<const types::Value*> sorted;
  sorted.reserve(rows.size());
  for (size_t r : rows) {
    const types::Value& x = in.values[r * width + col];
    if (!x.is_null) sorted.push_back(&x);
  }
  return types::FinishOrderedSet(spec.sig, spec.result_type, direct, sorted);
}

}  // namespace

size_t OrderedAggInput::HeapBytes() const {
  size_t n = CapacityBytes(values);
  for (const types::Value& v : values) n += StringHeapBytes(v.str);
  return n;
}

size_t AppendOrderedRow(OrderedAggInput& in, const std::vector<types::Value>& args,
                        const std::vector<types::Value>& extra) {
  const size_t before = CapacityBytes(in.values);
  size_t strings = 0;
  for (const types::Value& v : args) {
    in.values.push_back(v);
    strings += StringHeapBytes(v.str);
  }
  for (const types::Value& v : extra) {
    in.values.push_back(v);
    strings += StringHeapBytes(v.str);
  }
  return CapacityBytes(in.values) - before + strings;
}

types::Value FinishOrderedAggregate(const AggSpec& spec, const types::AggregateState& fresh, const OrderedAggInput& in,
                                    EvalContext& eval) {
  const std::vector<size_t> rows = SortedRows(spec, in);
  if (spec.direct_args >= 0) return FinishOrderedSetAggregate(spec, in, rows, eval);
  types::AggregateState st = fresh;
  const size_t width = spec.OrderedWidth();
  const int nargs = static_cast<int>(spec.args.size());
  for (size_t r : rows) st.Accumulate(in.values.data() + r * width, nargs);
  return st.Finish();
}

}  // namespace hearth::executor
