// server/utils/adt/aggregates.h
//
// Running state of one built-in aggregate (count, sum, avg, min, max,
// bool_and, bool_or, every, array_agg, string_agg, bit_and/or/xor, the variance and
// standard deviation family, corr/covar_*/regr_*) with PostgreSQL's result
// types and NULL rules: NULL inputs are skipped (rows with any NULL for the
// two-argument statistics), and every aggregate except count and
// regr_count returns NULL over zero non-NULL inputs. Ordered-set
// aggregates (percentile_cont, mode, ...) have no running state: the
// executor finishes them from their sorted input (ordered_set_aggs.h). An AggregateState is owned by one executor
// node in one thread; it is not shared.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "utils/adt/func_registry.h"
#include "utils/adt/numeric.h"
#include "utils/adt/value.h"

namespace hearth::types {

// An exact 128-bit integer sum as numeric.
Numeric FromInt128(__int128 v);

class AggregateState {
 public:
  // REQUIRES: agg is a FuncKind::kAggregate row (from ResolveFunction with
  // kind kAggregate); arguments passed to Accumulate have agg->args types.
  // result_type is the resolved result of a polymorphic aggregate
  // (array_agg(int4) → int4[]); kInvalidOid means agg->result.
  explicit AggregateState(const FuncSignature* agg, Oid result_type = kInvalidOid);

  // Adds one input row. count(*) takes nargs == 0. Throws 22003 when an
  // integer sum leaves bigint's range.
  void Accumulate(const Value* args, int nargs);

  // The aggregate's result so far (may be called repeatedly).
  Value Finish() const;

  // Back to the state before the first row (for the next group).
  void Reset();

  // Heap bytes the state holds beyond sizeof(AggregateState) (long numeric
  // sums, long min/max strings), for the hash aggregate's memory limit.
  size_t HeapBytes() const;

 private:
  enum class Op : uint8_t {
    kCount, kSum, kAvg, kMin, kMax, kBoolAnd, kBoolOr, kArrayAgg, kStringAgg, kBitAnd, kBitOr, kBitXor,
    kVarPop, kVarSamp, kStddevPop, kStddevSamp,  // one variable (moments)
    kRegrCount, kRegrSxx, kRegrSyy, kRegrSxy, kRegrAvgX, kRegrAvgY, kRegrR2, kRegrSlope,
    kRegrIntercept, kCovarPop, kCovarSamp, kCorr,  // two variables (float8 Y, X)
    kJsonAgg, kJsonbAgg, kJsonObjectAgg, kJsonbObjectAgg,  // running text in best_.str (json_aggs.cpp)
    kOrderedSet,  // finished from sorted input by the executor
  };
  static Op OpOf(const char* name);
  void AccumulateMoments(const Value& v);
  void AccumulateRegression(double y, double x);
  Value FinishMoments() const;
  Value FinishRegression() const;

  const FuncSignature* agg_;
  Oid result_type_;
  Op op_;
  int64_t count_ = 0;       // non-NULL inputs (all rows for count(*))
  __int128 int_sum_ = 0;    // integer sums
  __int128 int_sum2_ = 0;   // sum of squares of int2/int4 inputs (variance)
  double float_sum_ = 0;    // float sums/averages
  double m_[5] = {};        // float moments: Sxx (one variable); Sx, Sxx, Sy, Syy, Sxy (two)
  Numeric numeric_sum_;     // numeric sums/averages
  Numeric numeric_sum2_;    // numeric/int8 sum of squares (variance)
  Value best_;              // min/max/bool_and/bool_or/bit_*/string_agg so far
  std::vector<Value> items_;  // array_agg: the inputs in arrival order, NULLs included
  size_t items_bytes_ = 0;    // their heap bytes
};

}  // namespace hearth::types
