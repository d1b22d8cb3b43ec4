// server/utils/adt/ordered_set_aggs.h
//
// The ordered-set aggregates percentile_cont, percentile_disc and mode
// (`f(direct args) WITHIN GROUP (ORDER BY x)`), finished from the group's
// non-NULL x values already sorted in the requested order, and the
// hypothetical-set aggregates (rank(args) WITHIN GROUP (ORDER BY keys)),
// with PostgreSQL 15's results and errors. Pure functions; no state.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "utils/adt/func_registry.h"
#include "utils/adt/value.h"

namespace hearth::types {

// True for the aggregates that take WITHIN GROUP (and require it).
bool IsOrderedSetAggregate(std::string_view name);
// rank, dense_rank, percent_rank, cume_dist (a subset of the above).
bool IsHypotheticalSetAggregate(std::string_view name);

// agg is one of the above; direct holds its direct arguments (the
// fraction of percentile_*); sorted the group's non-NULL input values in
// order. Throws 22003 `percentile value 2 is not between 0 and 1`.
// Zero values or a NULL fraction → NULL of result_type.
// A fraction array gives an array of the same shape (NULL elements stay NULL).
Value FinishOrderedSet(const FuncSignature* agg, Oid result_type, const std::vector<Value>& direct,
                       const std::vector<const Value*>& sorted);

// A hypothetical-set aggregate from `before` (group rows sorting strictly
// before the hypothetical row), `peers` (rows equal to it), `distinct_before`
// (peer groups before it) and `total` rows: rank = before + 1, dense_rank =
// distinct_before + 1, percent_rank = before / total (0 without rows),
// cume_dist = (before + peers + 1) / (total + 1).
Value FinishHypothetical(const FuncSignature* agg, uint64_t before, uint64_t peers, uint64_t distinct_before,
                         uint64_t total);

}  // namespace hearth::types
