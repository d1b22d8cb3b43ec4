// server/utils/adt/aggregates.cpp
//
// Principal entry points: AggregateState::Accumulate / Finish. Integer
// sums accumulate in 128 bits so sum(int8) is exact (PostgreSQL returns it
// as numeric); averages divide as numeric_div does (avg(1, 2) = 1.5000000000000000).
#include "utils/adt/aggregates.h"

#include <cstring>

#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/compare.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/interval.h"
#include "utils/adt/json_funcs.h"

namespace hearth::types {

Numeric FromInt128(__int128 v) {
  bool neg = v < 0;
  unsigned __int128 mag = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (mag > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  }
  return Numeric::FromParts(neg, digits, 0);
}

namespace {

bool IsIntType(Oid t) { return t == kInt2Oid || t == kInt4Oid || t == kInt8Oid; }
bool IsFloatType(Oid t) { return t == kFloat4Oid || t == kFloat8Oid; }

}  // namespace

AggregateState::AggregateState(const FuncSignature* agg, Oid result_type)
    : agg_(agg), result_type_(result_type != kInvalidOid ? result_type : agg->result) {
  op_ = OpOf(agg->name);
  Reset();
}

AggregateState::Op AggregateState::OpOf(const char* name) {
  static const struct {
    const char* name;
    Op op;
  } kOps[] = {
      {"count", Op::kCount}, {"array_agg", Op::kArrayAgg}, {"sum", Op::kSum}, {"avg", Op::kAvg}, {"min", Op::kMin}, {"max", Op::kMax},
      {"bool_or", Op::kBoolOr}, {"bool_and", Op::kBoolAnd}, {"every", Op::kBoolAnd},
      {"string_agg", Op::kStringAgg}, {"bit_and", Op::kBitAnd}, {"bit_or", Op::kBitOr}, {"bit_xor", Op::kBitXor},
      {"var_pop", Op::kVarPop}, {"var_samp", Op::kVarSamp}, {"variance", Op::kVarSamp},
      {"stddev_pop", Op::kStddevPop}, {"stddev_samp", Op::kStddevSamp}, {"stddev", Op::kStddevSamp},
      {"regr_count", Op::kRegrCount}, {"regr_sxx", Op::kRegrSxx}, {"regr_syy", Op::kRegrSyy},
      {"regr_sxy", Op::kRegrSxy}, {"regr_avgx", Op::kRegrAvgX}, {"regr_avgy", Op::kRegrAvgY},
      {"regr_r2", Op::kRegrR2}, {"regr_slope", Op::kRegrSlope}, {"regr_intercept", Op::kRegrIntercept},
      {"covar_pop", Op::kCovarPop}, {"covar_samp", Op::kCovarSamp}, {"corr", Op::kCorr},
      {"json_agg", Op::kJsonAgg}, {"jsonb_agg", Op::kJsonbAgg}, {"json_object_agg", Op::kJsonObjectAgg},
      {"jsonb_object_agg", Op::kJsonbObjectAgg},
  };
  for (const auto& o : kOps) {
    if (std::strcmp(name, o.name) == 0) return o.op;
  }
  return Op::kOrderedSet;  // percentile_cont, percentile_disc, mode, hypothetical rank...
}


void AggregateState::Reset() {
  count_ = 0;
  int_sum_ = 0;
  int_sum2_ = 0;
  float_sum_ = 0;
  for (double& m : m_) m = 0;
  numeric_sum_ = Numeric();
  numeric_sum2_ = Numeric();
  best_ = Value::Null(agg_->result);
  items_.clear();
  items_bytes_ = 0;
}

size_t AggregateState::HeapBytes() const {
  // Short strings live inside std::string itself (small-string buffer).
  auto heap = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
  return heap(numeric_sum_.digits()) + heap(numeric_sum2_.digits()) + heap(best_.str) +
         items_.capacity() * sizeof(Value) + items_bytes_;
}

void AggregateState::Accumulate(const Value* args, int nargs) {
  if (op_ == Op::kCount) {
    if (nargs == 0 || !args[0].is_null) ++count_;
    return;
  }
  if (op_ >= Op::kRegrCount && op_ <= Op::kCorr) {
    if (!args[0].is_null && !args[1].is_null) AccumulateRegression(args[0].f, args[1].f);
    return;
  }
  if (op_ >= Op::kJsonAgg && op_ <= Op::kJsonbObjectAgg) {
    // NULL values are kept (as JSON null); best_ holds the running text.
    JsonAggAdd(op_ == Op::kJsonbAgg || op_ == Op::kJsonbObjectAgg, args, nargs, count_, &best_.str);
    ++count_;
    return;
  }
  const Value& v = args[0];
  if (op_ == Op::kArrayAgg) {
    ArrayAggCheckInput(agg_->args[0] == kAnyArrayOid, v, items_.empty() ? nullptr : &items_[0]);
    items_.push_back(v);
    if (v.str.capacity() > 15) items_bytes_ += v.str.capacity() + 1;
    return;
  }
  if (v.is_null) return;
  ++count_;
  Oid in = agg_->args[0];
  switch (op_) {
    case Op::kSum:
    case Op::kAvg:
      if (in == kIntervalOid) {  // the running interval sum in best_
        best_ = count_ == 1 ? v : Value::Bytes(kIntervalOid, EncodeInterval(IntervalAdd(DecodeInterval(best_.str),
                                                                                      DecodeInterval(v.str))));
      } else if (IsIntType(in)) {
        int_sum_ += v.i;
        // sum(int2/int4) returns bigint; PostgreSQL raises once it overflows.
        if (op_ == Op::kSum && agg_->result == kInt8Oid &&
            (int_sum_ > INT64_MAX || int_sum_ < INT64_MIN)) {
          ThrowIntegerOutOfRange(kInt8Oid);
        }
      } else if (IsFloatType(in)) {
        float_sum_ += v.f;
      } else {
        numeric_sum_ = numeric_sum_.Add(Numeric::Parse(v.str));
      }
      return;
    case Op::kMin:
    case Op::kMax:
      // Equal but distinct values (intervals '1 mon' and '30 days'): the
      // later one wins, as with PostgreSQL's interval_smaller/_larger.
      if (best_.is_null || (op_ == Op::kMin ? CompareValues(v, best_) <= 0 : CompareValues(v, best_) >= 0)) {
        best_ = v;
      }
      return;
    case Op::kBoolAnd:
      best_ = Value::Bool(best_.is_null ? v.b : (best_.b && v.b));
      return;
    case Op::kBoolOr:
      best_ = Value::Bool(best_.is_null ? v.b : (best_.b || v.b));
      return;
    case Op::kStringAgg:
      // The delimiter goes before every value but the first; a NULL one is empty.
      if (count_ == 1) {
        best_ = v;
      } else if (!args[1].is_null) {
        best_.str += args[1].str;
      }
      if (count_ > 1) best_.str += v.str;
      return;
    case Op::kBitAnd:
      best_ = count_ == 1 ? v : Value::Int(in, best_.i & v.i);
      return;
    case Op::kBitOr:
      best_ = count_ == 1 ? v : Value::Int(in, best_.i | v.i);
      return;
    case Op::kBitXor:
      best_ = count_ == 1 ? v : Value::Int(in, best_.i ^ v.i);
      return;
    case Op::kVarPop:
    case Op::kVarSamp:
    case Op::kStddevPop:
    case Op::kStddevSamp:
      AccumulateMoments(v);
      return;
    default:
      return;
  }
}

Value AggregateState::Finish() const {
  if (op_ == Op::kCount || op_ == Op::kRegrCount) return Value::Int8(count_);
  if (op_ == Op::kArrayAgg) {
    if (items_.empty()) return Value::Null(result_type_);
    return ArrayAggResult(result_type_, agg_->args[0] == kAnyArrayOid, items_);
  }
  if (count_ == 0) return Value::Null(agg_->result);
  if (op_ >= Op::kJsonAgg && op_ <= Op::kJsonbObjectAgg)
    return JsonAggFinish(op_ == Op::kJsonbAgg || op_ == Op::kJsonbObjectAgg,
                         op_ == Op::kJsonObjectAgg || op_ == Op::kJsonbObjectAgg, best_.str);
  if (op_ >= Op::kVarPop && op_ <= Op::kStddevSamp) return FinishMoments();
  if (op_ >= Op::kRegrSxx && op_ <= Op::kCorr) return FinishRegression();
  Oid in = agg_->args[0];
  if (in == kIntervalOid && (op_ == Op::kSum || op_ == Op::kAvg)) {
    if (op_ == Op::kSum) return best_;
    return Value::Bytes(kIntervalOid,
                        EncodeInterval(IntervalDivide(DecodeInterval(best_.str), static_cast<double>(count_))));
  }
  switch (op_) {
    case Op::kSum:
      if (IsIntType(in)) {
        if (agg_->result == kInt8Oid) return Value::Int8(static_cast<int64_t>(int_sum_));
        return Value::Bytes(kNumericOid, FromInt128(int_sum_).ToString());
      }
      if (IsFloatType(in)) return Value::Float(agg_->result, float_sum_);
      return Value::Bytes(kNumericOid, numeric_sum_.ToString());
    case Op::kAvg: {
      if (IsFloatType(in)) return Value::Float8(float_sum_ / static_cast<double>(count_));
      Numeric sum = IsIntType(in) ? FromInt128(int_sum_) : numeric_sum_;
      return Value::Bytes(kNumericOid, sum.Div(Numeric::FromInt64(count_)).ToString());
    }
    default:
      return best_;
  }
}

}  // namespace hearth::types
