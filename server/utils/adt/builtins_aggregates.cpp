// server/utils/adt/builtins_aggregates.cpp
//
// Signatures of the aggregates beyond count/sum/avg/min/max/bool_* (those
// are in builtins_math.cpp): string_agg, bit_and/bit_or/bit_xor, the
// statistics family, the ordered-set aggregates (percentile_cont,
// percentile_disc, mode) and the hypothetical-set ones (rank, dense_rank,
// percent_rank, cume_dist WITHIN GROUP). Result types as PostgreSQL 15. Aggregates have no
// BuiltinFn: AggregateState (aggregates.h) and the executor run them.
// Ordered-set signatures list the direct arguments first, then the
// WITHIN GROUP (ORDER BY ...) ones, as pg_proc does.
#include "utils/adt/builtins.h"

namespace hearth::types::internal {

void AddAggregateBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kAgg = FuncKind::kAggregate;
  const Oid I2 = kInt2Oid, I4 = kInt4Oid, I8 = kInt8Oid, F4 = kFloat4Oid, F8 = kFloat8Oid, NUM = kNumericOid;
  t->push_back(Row("string_agg", kAgg, {kTextOid, kTextOid}, kTextOid, nullptr, false));
  t->push_back(Row("string_agg", kAgg, {kByteaOid, kByteaOid}, kByteaOid, nullptr, false));
  for (const char* name : {"bit_and", "bit_or", "bit_xor"}) {
    for (Oid T : {I2, I4, I8}) t->push_back(Row(name, kAgg, {T}, T, nullptr));
  }
  for (const char* name : {"var_pop", "var_samp", "variance", "stddev_pop", "stddev_samp", "stddev"}) {
    for (Oid T : {I2, I4, I8, NUM}) t->push_back(Row(name, kAgg, {T}, NUM, nullptr));
    for (Oid T : {F4, F8}) t->push_back(Row(name, kAgg, {T}, F8, nullptr));
  }
  t->push_back(Row("regr_count", kAgg, {F8, F8}, I8, nullptr, false));
  for (const char* name : {"regr_sxx", "regr_syy", "regr_sxy", "regr_avgx", "regr_avgy", "regr_r2", "regr_slope",
                           "regr_intercept", "covar_pop", "covar_samp", "corr"}) {
    t->push_back(Row(name, kAgg, {F8, F8}, F8, nullptr));
  }
  t->push_back(Row("min", kAgg, {kPgLsnOid}, kPgLsnOid, nullptr));
  t->push_back(Row("max", kAgg, {kPgLsnOid}, kPgLsnOid, nullptr));
  // GROUPING(a, b, ...): planned per grouping set (a bit mask of the
  // arguments a set does not group), never accumulated.
  t->push_back(Row("grouping", kAgg, {kAnyOid}, I4, nullptr, false, /*variadic=*/true));
  // Ordered-set aggregates.
  t->push_back(Row("percentile_cont", kAgg, {F8, F8}, F8, nullptr, false));
  t->push_back(Row("percentile_disc", kAgg, {F8, kAnyNonArrayOid}, kAnyNonArrayOid, nullptr, false));
  t->push_back(Row("mode", kAgg, {kAnyNonArrayOid}, kAnyNonArrayOid, nullptr, false));
  // Several fractions at once: an array of results shaped like the fractions.
  constexpr Oid kFloat8Array = 1022;
  t->push_back(Row("percentile_cont", kAgg, {kFloat8Array, F8}, kFloat8Array, nullptr, false));
  t->push_back(Row("percentile_disc", kAgg, {kFloat8Array, kAnyNonArrayOid}, kAnyArrayOid, nullptr, false));
  // Hypothetical-set aggregates: rank(args) WITHIN GROUP (ORDER BY keys),
  // as many args as keys, each pair in its common type (the binder checks).
  t->push_back(Row("rank", kAgg, {kAnyOid}, I8, nullptr, false, /*variadic=*/true));
  t->push_back(Row("dense_rank", kAgg, {kAnyOid}, I8, nullptr, false, /*variadic=*/true));
  t->push_back(Row("percent_rank", kAgg, {kAnyOid}, F8, nullptr, false, /*variadic=*/true));
  t->push_back(Row("cume_dist", kAgg, {kAnyOid}, F8, nullptr, false, /*variadic=*/true));
}

}  // namespace hearth::types::internal
