// server/utils/adt/srf_series.cpp
//
// generate_series(start, stop [, step]) for int4, int8 and numeric, as
// PostgreSQL: the empty set when start is already past stop in the step's
// direction, 22023 for a zero (or NaN) step, and an integer series ends
// quietly instead of overflowing past the type's range. Each call keeps
// only its current value, so a series of any length streams.
// timestamp and timestamptz series step by an interval (months, days and
// microseconds added as timestamp + interval does).
#include <memory>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/builtins.h"
#include "utils/adt/interval.h"
#include "utils/adt/numeric.h"
#include "utils/adt/srf_registry.h"

namespace hearth::types {
namespace {

// int4 and int8 (`limit_type` says which; values are carried as int64 and
// overflow ends the series).
class IntSeries : public SrfCall {
 public:
  IntSeries(Oid type, int64_t start, int64_t stop, int64_t step)
      : type_(type), cur_(start), stop_(stop), step_(step) {}
  bool Next(Value* out) override {
    if (done_ || (step_ > 0 ? cur_ > stop_ : cur_ < stop_)) return false;
    *out = Value::Int(type_, cur_);
    int64_t next = 0;
    bool overflow = __builtin_add_overflow(cur_, step_, &next);
    if (!overflow && type_ == kInt4Oid) overflow = next > INT32_MAX || next < INT32_MIN;
    if (overflow) done_ = true;
    cur_ = next;
    return true;
  }

 private:
  Oid type_;
  int64_t cur_, stop_, step_;
  bool done_ = false;
};

void CheckStep(int64_t step) {
  if (step == 0) throw DbError(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
}

template <Oid kType>
std::unique_ptr<SrfCall> StartIntSeries(const Value* args, int nargs, FuncCallContext&) {
  int64_t step = nargs > 2 ? args[2].i : 1;
  CheckStep(step);
  return std::make_unique<IntSeries>(kType, args[0].i, args[1].i, step);
}

class NumericSeries : public SrfCall {
 public:
  NumericSeries(Numeric start, Numeric stop, Numeric step)
      : cur_(std::move(start)), stop_(std::move(stop)), step_(std::move(step)), up_(!step_.is_negative()) {}
  bool Next(Value* out) override {
    const int c = Numeric::Compare(cur_, stop_);
    if (up_ ? c > 0 : c < 0) return false;
    *out = Value::Bytes(kNumericOid, cur_.ToString());
    cur_ = cur_.Add(step_);
    return true;
  }

 private:
  Numeric cur_, stop_, step_;
  bool up_;
};

std::unique_ptr<SrfCall> StartNumericSeries(const Value* args, int nargs, FuncCallContext&) {
  Numeric start = Numeric::Parse(args[0].str);
  Numeric stop = Numeric::Parse(args[1].str);
  Numeric step = nargs > 2 ? Numeric::Parse(args[2].str) : Numeric::FromInt64(1);
  if (start.is_nan()) throw DbError(sqlstate::kInvalidParameterValue, "start value cannot be NaN");
  if (stop.is_nan()) throw DbError(sqlstate::kInvalidParameterValue, "stop value cannot be NaN");
  if (step.is_nan()) throw DbError(sqlstate::kInvalidParameterValue, "step size cannot be NaN");
  if (step.is_zero()) throw DbError(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
  return std::make_unique<NumericSeries>(std::move(start), std::move(stop), std::move(step));
}

class TimestampSeries : public SrfCall {
 public:
  TimestampSeries(Oid type, int64_t start, int64_t stop, Interval step, bool up)
      : type_(type), cur_(start), stop_(stop), step_(step), up_(up) {}
  bool Next(Value* out) override {
    if (done_ || (up_ ? cur_ > stop_ : cur_ < stop_)) return false;
    *out = Value::Int(type_, cur_);
    const int64_t next =
        type_ == kTimestampTzOid ? TimestampTzPlusInterval(cur_, step_) : TimestampPlusInterval(cur_, step_);
    if (next == cur_) done_ = true;  // an infinite bound: one row, as PostgreSQL ends
    cur_ = next;
    return true;
  }

 private:
  Oid type_;
  int64_t cur_, stop_;
  Interval step_;
  bool up_;
  bool done_ = false;
};

template <Oid kType>
std::unique_ptr<SrfCall> StartTimestampSeries(const Value* args, int, FuncCallContext&) {
  const Interval step = DecodeInterval(args[2].str);
  const __int128 span = IntervalSpan(step);
  if (span == 0) throw DbError(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
  return std::make_unique<TimestampSeries>(kType, args[0].i, args[1].i, step, span > 0);
}

SrfDef Def(const char* name, std::initializer_list<Oid> args, Oid result, SrfStartFn start) {
  return SrfDef{internal::Row(name, FuncKind::kSetReturning, args, result, nullptr), start};
}

}  // namespace

namespace internal {

void AddSeriesSrfs(std::vector<SrfDef>* defs) {
  defs->push_back(Def("generate_series", {kInt4Oid, kInt4Oid}, kInt4Oid, &StartIntSeries<kInt4Oid>));
  defs->push_back(Def("generate_series", {kInt4Oid, kInt4Oid, kInt4Oid}, kInt4Oid, &StartIntSeries<kInt4Oid>));
  defs->push_back(Def("generate_series", {kInt8Oid, kInt8Oid}, kInt8Oid, &StartIntSeries<kInt8Oid>));
  defs->push_back(Def("generate_series", {kInt8Oid, kInt8Oid, kInt8Oid}, kInt8Oid, &StartIntSeries<kInt8Oid>));
  defs->push_back(Def("generate_series", {kNumericOid, kNumericOid}, kNumericOid, &StartNumericSeries));
  defs->push_back(
      Def("generate_series", {kNumericOid, kNumericOid, kNumericOid}, kNumericOid, &StartNumericSeries));
  defs->push_back(Def("generate_series", {kTimestampOid, kTimestampOid, kIntervalOid}, kTimestampOid,
                      &StartTimestampSeries<kTimestampOid>));
  defs->push_back(Def("generate_series", {kTimestampTzOid, kTimestampTzOid, kIntervalOid}, kTimestampTzOid,
                      &StartTimestampSeries<kTimestampTzOid>));
}

}  // namespace internal
}  // namespace hearth::types
