// server/executor/nodes/agg_ordered.h
//
// Input of an aggregate that needs it sorted: `agg(x ORDER BY y)` and the
// ordered-set aggregates `f(d) WITHIN GROUP (ORDER BY x)`. The hash
// aggregate buffers each group's rows of such an aggregate ([args...,
// extra ORDER BY values...], after FILTER and DISTINCT) and finishes the
// group by sorting them stably and feeding them in order. The buffers count
// toward the hash table's memory, so once they fill hash_mem no new group
// is admitted and the rows of the others spill by partition as usual;
// only one group's own input is held whole.
#pragma once

#include <vector>

#include "executor/exec_node.h"
#include "utils/adt/aggregates.h"
#include "utils/adt/value.h"

namespace hearth::executor {

struct AggSpec;

// One group's buffered rows for one ordered aggregate. Rows are stored flat
// (no allocation per row beyond the values' own strings).
struct OrderedAggInput {
  std::vector<types::Value> values;  // rows of AggSpec::OrderedWidth() values, in arrival order

  // Heap bytes held (the array and long strings).
  size_t HeapBytes() const;
};

// Appends one row; returns the growth in heap bytes.
size_t AppendOrderedRow(OrderedAggInput& in, const std::vector<types::Value>& args,
                        const std::vector<types::Value>& extra);

// The aggregate's result over `in` sorted by spec.order: a normal aggregate
// is fed to a copy of `fresh` row by row; an ordered-set one is finished
// from its sorted non-NULL values (direct arguments from the first row, or
// evaluated without a row when the group has none).
types::Value FinishOrderedAggregate(const AggSpec& spec, const types::AggregateState& fresh, const OrderedAggInput& in,
                                    EvalContext& eval);

}  // namespace hearth::executor
