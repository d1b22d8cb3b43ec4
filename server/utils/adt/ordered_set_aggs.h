// server/utils/adt/ordered_set_aggs.h
//
// The ordered-set aggregates percentile_cont, percentile_disc and mode
// (`f(direct args) WITHIN GROUP (ORDER BY x)`), finished from the group's
// non-NULL x values already sorted in the requested order, with
// PostgreSQL 15's results and errors. Pure functions; no state.
#pragma once

#include <string_view>
#include <vector>

#include "utils/adt/func_registry.h"
#include "utils/adt/value.h"

namespace hearth::types {

// True for the aggregates that take WITHIN GROUP (and require it).
bool IsOrderedSetAggregate(std::string_view name);

// agg is one of the above; direct holds its direct arguments (the
// fraction of percentile_*); sorted the group's non-NULL input values in
// order. Throws 22003 `percentile value 2 is not between 0 and 1`.
// Zero values or a NULL fraction → NULL of result_type.
Value FinishOrderedSet(const FuncSignature* agg, Oid result_type, const std::vector<Value>& direct,
                       const std::vector<const Value*>& sorted);

}  // namespace hearth::types
