// server/utils/adt/builtins_time.cpp
//
// time and timetz operators and functions as PostgreSQL 15 defines them:
// time ± interval and timetz ± interval (wrapping around midnight),
// time − time → interval, date + time → timestamp, date + timetz →
// timestamptz, extract/date_part on both types, make_time, current_time
// and localtime. Comparisons and min/max come from the shared rows
// (builtins_math.cpp); AT TIME ZONE for timetz is in builtins_timezone.cpp.
#include <cmath>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/interval.h"
#include "utils/adt/time_adt.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr FuncKind kOp = FuncKind::kOperator;
constexpr Oid TM = kTimeOid;
constexpr Oid TTZ = kTimeTzOid;
constexpr Oid IV = kIntervalOid;
constexpr Oid D = kDateOid;
constexpr Oid T = kTextOid;
constexpr Oid I4 = kInt4Oid;
constexpr Oid F8 = kFloat8Oid;

int64_t IvTime(const Value& v) { return DecodeInterval(v.str).time; }

// time_pl_interval / timetz_pl_interval: only the interval's time part
// counts, and the result wraps around midnight.
Value TimePlus(const Value& t, int64_t delta) {
  if (t.type == TM) return Value::Int(TM, WrapTimeOfDay(t.i + delta % kUsecsPerDay));
  TimeTz tz = DecodeTimeTz(t.str);
  tz.time = WrapTimeOfDay(tz.time + delta % kUsecsPerDay);
  return TimeTzValue(tz);
}
Value TimePlusIv(const Value* a, int, FuncCallContext&) { return TimePlus(a[0], IvTime(a[1])); }
Value IvPlusTime(const Value* a, int, FuncCallContext&) { return TimePlus(a[1], IvTime(a[0])); }
Value TimeMinusIv(const Value* a, int, FuncCallContext&) { return TimePlus(a[0], -(IvTime(a[1]) % kUsecsPerDay)); }

Value TimeMinusTime(const Value* a, int, FuncCallContext&) {
  return Value::Bytes(IV, EncodeInterval(Interval{a[0].i - a[1].i, 0, 0}));
}

[[noreturn]] void TimestampOutOfRange() {
  throw DbError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
}

// date + time (datetime_timestamp): infinite dates stay infinite.
Value DatePlusTime(const Value& date, const Value& time) {
  int64_t ts = DateToTimestamp(date.i);
  if (ts == kTimestampNoBegin || ts == kTimestampNoEnd) return Value::Int(kTimestampOid, ts);
  ts += time.i;
  if (ts < kMinTimestampUsecs || ts >= kEndTimestampUsecs) TimestampOutOfRange();
  return Value::Int(kTimestampOid, ts);
}

// date + timetz (datetimetz_timestamptz): the wall clock in the value's zone.
Value DatePlusTimeTz(const Value& date, const Value& time) {
  if (date.i == kDateNoBegin || date.i == kDateNoEnd) {
    return Value::Int(kTimestampTzOid, date.i == kDateNoEnd ? kTimestampNoEnd : kTimestampNoBegin);
  }
  TimeTz t = DecodeTimeTz(time.str);
  auto out_of_range = [] { throw DbError(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp"); };
  if (date.i >= kEndTimestampUsecs / kUsecsPerDay) out_of_range();
  int64_t ts = date.i * kUsecsPerDay + t.time + t.zone * kUsecsPerSec;
  if (ts < kMinTimestampUsecs || ts >= kEndTimestampUsecs) out_of_range();
  return Value::Int(kTimestampTzOid, ts);
}

// extract/date_part: the field as an integer scaled by 10^scale.
struct TimeField {
  int64_t value;
  int scale;
};

TimeField TimeFieldOf(const std::string& unit, const Value& v) {
  bool tz = v.type == TTZ;
  TimeTz t = tz ? DecodeTimeTz(v.str) : TimeTz{v.i, 0};
  int64_t usec_in_min = t.time % (60 * kUsecsPerSec);
  if (unit == "microseconds") return {usec_in_min, 0};
  if (unit == "milliseconds") return {usec_in_min, 3};
  if (unit == "second") return {usec_in_min, 6};
  if (unit == "minute") return {t.time / (60 * kUsecsPerSec) % 60, 0};
  if (unit == "hour") return {t.time / (3600 * kUsecsPerSec), 0};
  if (unit == "epoch") return {t.time + t.zone * kUsecsPerSec, 6};
  if (tz && unit == "timezone") return {-t.zone, 0};
  if (tz && unit == "timezone_hour") return {-t.zone / 3600, 0};
  if (tz && unit == "timezone_minute") return {-t.zone / 60 % 60, 0};
  throw DbError(IsKnownDateUnit(unit) ? sqlstate::kFeatureNotSupported : sqlstate::kInvalidParameterValue,
                "unit \"" + unit + "\" " + (IsKnownDateUnit(unit) ? "not supported" : "not recognized") +
                    " for type " + FormatType(v.type));
}

Value ExtractTime(const Value* a, int, FuncCallContext&) {
  TimeField f = TimeFieldOf(CanonicalDateUnit(a[0].str), a[1]);
  return Value::Bytes(kNumericOid, ScaledDecimalText(f.value, f.scale));
}

Value DatePartTime(const Value* a, int, FuncCallContext&) {
  TimeField f = TimeFieldOf(CanonicalDateUnit(a[0].str), a[1]);
  return Value::Float8(static_cast<double>(f.value) / std::pow(10.0, f.scale));
}

Value MakeTime(const Value* a, int, FuncCallContext&) { return Value::Int(TM, TimeOfDayUsecs(a[0].i, a[1].i, a[2].f)); }

}  // namespace

void AddTimeBuiltins(std::vector<FuncSignature>* t) {
  for (Oid x : {TM, TTZ}) {
    t->push_back(Row("+", kOp, {x, IV}, x, TimePlusIv));
    t->push_back(Row("+", kOp, {IV, x}, x, IvPlusTime));
    t->push_back(Row("-", kOp, {x, IV}, x, TimeMinusIv));
    t->push_back(Row("extract", kFn, {T, x}, kNumericOid, ExtractTime));
    t->push_back(Row("date_part", kFn, {T, x}, F8, DatePartTime));
  }
  t->push_back(Row("-", kOp, {TM, TM}, IV, TimeMinusTime));
  t->push_back(Row("+", kOp, {D, TM}, kTimestampOid,
                   [](const Value* a, int, FuncCallContext&) { return DatePlusTime(a[0], a[1]); }));
  t->push_back(Row("+", kOp, {TM, D}, kTimestampOid,
                   [](const Value* a, int, FuncCallContext&) { return DatePlusTime(a[1], a[0]); }));
  t->push_back(Row("+", kOp, {D, TTZ}, kTimestampTzOid,
                   [](const Value* a, int, FuncCallContext&) { return DatePlusTimeTz(a[0], a[1]); }));
  t->push_back(Row("+", kOp, {TTZ, D}, kTimestampTzOid,
                   [](const Value* a, int, FuncCallContext&) { return DatePlusTimeTz(a[1], a[0]); }));
  t->push_back(Row("make_time", kFn, {I4, I4, F8}, TM, MakeTime));
  // timestamp(date, time), timestamptz(date, time|timetz): the same sums,
  // the plain time read in the session zone.
  t->push_back(Row("timestamp", kFn, {D, TM}, kTimestampOid,
                   [](const Value* a, int, FuncCallContext&) { return DatePlusTime(a[0], a[1]); }));
  t->push_back(Row("timestamptz", kFn, {D, TTZ}, kTimestampTzOid,
                   [](const Value* a, int, FuncCallContext&) { return DatePlusTimeTz(a[0], a[1]); }));
  t->push_back(Row("timestamptz", kFn, {D, TM}, kTimestampTzOid, [](const Value* a, int, FuncCallContext&) {
    return Value::Int(kTimestampTzOid, TimestampToTimestampTz(DatePlusTime(a[0], a[1]).i));
  }));
}

}  // namespace hearth::types::internal
