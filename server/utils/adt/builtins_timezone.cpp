// server/utils/adt/builtins_timezone.cpp
//
// Functions that take a time zone as an argument, as PostgreSQL 15 defines
// them: timezone(zone, x) (what `x AT TIME ZONE zone` calls) for text and
// interval zones in both directions, and make_timestamptz.
#include <cmath>
#include <cstdio>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/interval.h"
#include "utils/adt/time_adt.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr Oid T = kTextOid;
constexpr Oid TS = kTimestampOid;
constexpr Oid TSZ = kTimestampTzOid;
constexpr Oid I4 = kInt4Oid;
constexpr Oid IV = kIntervalOid;

bool Infinite(int64_t usecs) { return usecs == kTimestampNoBegin || usecs == kTimestampNoEnd; }

// timestamptz AT TIME ZONE zone → the wall clock there (timestamp).
Value TzAtTextZone(const Value* a, int, FuncCallContext&) {
  if (Infinite(a[1].i)) return Value::Int(TS, a[1].i);
  return Value::Int(TS, TimestampTzToLocal(a[1].i, *LookupZoneArgument(a[0].str)));
}

// timestamp AT TIME ZONE zone → the instant that wall clock names there.
Value TsAtTextZone(const Value* a, int, FuncCallContext&) {
  if (Infinite(a[1].i)) return Value::Int(TSZ, a[1].i);
  return Value::Int(TSZ, LocalToTimestampTz(a[1].i, *LookupZoneArgument(a[0].str)));
}

// An interval zone is a fixed offset east of UTC; months and days make no
// sense there.
int64_t IntervalOffsetUsecs(const Value& zone) {
  Interval iv = DecodeInterval(zone.str);
  if (iv.month != 0 || iv.day != 0) {
    std::string text;
    AppendInterval(iv, &text);
    throw DbError(sqlstate::kInvalidParameterValue,
                  "interval time zone \"" + text + "\" must not include months or days");
  }
  return iv.time;
}

Value TzAtIntervalZone(const Value* a, int, FuncCallContext&) {
  if (Infinite(a[1].i)) return Value::Int(TS, a[1].i);
  return Value::Int(TS, a[1].i + IntervalOffsetUsecs(a[0]));
}

Value TsAtIntervalZone(const Value* a, int, FuncCallContext&) {
  if (Infinite(a[1].i)) return Value::Int(TSZ, a[1].i);
  return Value::Int(TSZ, a[1].i - IntervalOffsetUsecs(a[0]));
}

// timetz AT TIME ZONE: the same instant's wall clock at offset `utoff`
// (east), wrapped to a day (timetz_zone / timetz_izone).
Value TimeTzAtOffset(const Value& v, int64_t utoff) {
  TimeTz t = DecodeTimeTz(v.str);
  t.time = WrapTimeOfDay(t.time + (t.zone + utoff) * kUsecsPerSec);
  t.zone = static_cast<int32_t>(-utoff);
  return TimeTzValue(t);
}

// A named zone's offset is the one in effect at the transaction's start.
Value TimeTzAtTextZone(const Value* a, int, FuncCallContext&) {
  int32_t utoff = 0;
  TimestampTzToLocal(TransactionClockUsecs(), *LookupZoneArgument(a[0].str), &utoff);
  return TimeTzAtOffset(a[1], utoff);
}

Value TimeTzAtIntervalZone(const Value* a, int, FuncCallContext&) {
  return TimeTzAtOffset(a[1], IntervalOffsetUsecs(a[0]) / kUsecsPerSec);
}

// make_timestamptz(y, m, d, h, mi, s [, zone]): make_timestamp's wall
// clock read in `zone` (default: the session zone).
Value MakeTimestampTz(const Value* a, int nargs, FuncCallContext& c) {
  Value local = MakeTimestampValue(a, 6, c);
  if (nargs < 7) return Value::Int(TSZ, LocalToTimestampTz(local.i, SessionZone()));
  return Value::Int(TSZ, LocalToTimestampTz(local.i, *LookupZoneArgument(a[6].str)));
}

}  // namespace

void AddTimezoneBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("timezone", kFn, {T, TSZ}, TS, TzAtTextZone));
  t->push_back(Row("timezone", kFn, {T, TS}, TSZ, TsAtTextZone));
  t->push_back(Row("timezone", kFn, {IV, TSZ}, TS, TzAtIntervalZone));
  t->push_back(Row("timezone", kFn, {IV, TS}, TSZ, TsAtIntervalZone));
  t->push_back(Row("timezone", kFn, {T, kTimeTzOid}, kTimeTzOid, TimeTzAtTextZone));
  t->push_back(Row("timezone", kFn, {IV, kTimeTzOid}, kTimeTzOid, TimeTzAtIntervalZone));
  t->push_back(Row("make_timestamptz", kFn, {I4, I4, I4, I4, I4, kFloat8Oid}, TSZ, MakeTimestampTz));
  t->push_back(Row("make_timestamptz", kFn, {I4, I4, I4, I4, I4, kFloat8Oid, T}, TSZ, MakeTimestampTz));
}

}  // namespace hearth::types::internal
