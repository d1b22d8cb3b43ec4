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

namespace hearth::types {
namespace {

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

bool IsIntType(Oid t) { return t == kInt2Oid || t == kInt4Oid || t == kInt8Oid; }
bool IsFloatType(Oid t) { return t == kFloat4Oid || t == kFloat8Oid; }

}  // namespace

AggregateState::AggregateState(const FuncSignature* agg, Oid result_type)
    : agg_(agg), result_type_(result_type != kInvalidOid ? result_type : agg->result) {
  const char* n = agg->name;
  if (std::strcmp(n, "count") == 0) op_ = Op::kCount;
  else if (std::strcmp(n, "sum") == 0) op_ = Op::kSum;
  else if (std::strcmp(n, "avg") == 0) op_ = Op::kAvg;
  else if (std::strcmp(n, "min") == 0) op_ = Op::kMin;
  else if (std::strcmp(n, "max") == 0) op_ = Op::kMax;
  else if (std::strcmp(n, "bool_or") == 0) op_ = Op::kBoolOr;
  else if (std::strcmp(n, "array_agg") == 0) op_ = Op::kArrayAgg;
  else op_ = Op::kBoolAnd;  // bool_and, every
  Reset();
}

void AggregateState::Reset() {
  count_ = 0;
  int_sum_ = 0;
  float_sum_ = 0;
  numeric_sum_ = Numeric();
  best_ = Value::Null(agg_->result);
  items_.clear();
  items_bytes_ = 0;
}

size_t AggregateState::HeapBytes() const {
  // Short strings live inside std::string itself (small-string buffer).
  auto heap = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
  return heap(numeric_sum_.digits()) + heap(best_.str) + items_.capacity() * sizeof(Value) + items_bytes_;
}

void AggregateState::Accumulate(const Value* args, int nargs) {
  if (op_ == Op::kCount) {
    if (nargs == 0 || !args[0].is_null) ++count_;
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
      if (IsIntType(in)) {
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
    default:
      return;
  }
}

Value AggregateState::Finish() const {
  if (op_ == Op::kCount) return Value::Int8(count_);
  if (op_ == Op::kArrayAgg) {
    if (items_.empty()) return Value::Null(result_type_);
    return ArrayAggResult(result_type_, agg_->args[0] == kAnyArrayOid, items_);
  }
  if (count_ == 0) return Value::Null(agg_->result);
  Oid in = agg_->args[0];
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
