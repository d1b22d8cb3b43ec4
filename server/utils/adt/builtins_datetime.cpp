// server/utils/adt/builtins_datetime.cpp
//
// Date/time field functions as PostgreSQL 15 defines them:
// extract(field from x) → numeric, date_part(field, x) → double precision,
// date_trunc(field, timestamp[tz]), make_date, make_timestamp. Timestamps
// are UTC (see datetime_adt.h), so timestamptz fields equal timestamp ones
// and the timezone fields are 0.
#include <cmath>
#include <cstdio>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/interval.h"
#include "utils/adt/numeric.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr Oid T = kTextOid;
constexpr Oid TS = kTimestampOid;
constexpr Oid TSZ = kTimestampTzOid;
constexpr Oid D = kDateOid;
constexpr Oid I4 = kInt4Oid;
constexpr int64_t kUnixEpochSecs = 946684800;  // 2000-01-01 in Unix time

// A field's value as an integer scaled by 10^scale (seconds carry 6 decimals).
struct Scaled {
  int64_t value;
  int scale;
};

std::string Lower(std::string_view s) { return AsciiLower(s); }

[[noreturn]] void UnitError(const std::string& unit, Oid type, bool recognized) {
  throw DbError(recognized ? sqlstate::kFeatureNotSupported : sqlstate::kInvalidParameterValue,
                "unit \"" + unit + "\" " + (recognized ? "not supported" : "not recognized") +
                    " for type " + FormatType(type));
}

bool IsKnownUnit(const std::string& u) {
  for (const char* k : {"microseconds", "milliseconds", "second", "minute", "hour", "day", "month",
                        "year", "dow", "isodow", "doy", "quarter", "week", "isoyear", "decade",
                        "century", "millennium", "epoch", "timezone", "timezone_hour",
                        "timezone_minute", "julian"}) {
    if (u == k) return true;
  }
  return false;
}

// Canonical unit name: PostgreSQL's plurals and abbreviations.
std::string Canonical(std::string_view raw) {
  std::string u = Lower(raw);
  static const std::pair<const char*, const char*> kAliases[] = {
      {"microsecond", "microseconds"}, {"us", "microseconds"}, {"usec", "microseconds"},
      {"usecs", "microseconds"}, {"millisecond", "milliseconds"}, {"ms", "milliseconds"},
      {"msec", "milliseconds"}, {"msecs", "milliseconds"}, {"seconds", "second"}, {"sec", "second"},
      {"secs", "second"}, {"s", "second"}, {"minutes", "minute"}, {"min", "minute"}, {"mins", "minute"},
      {"m", "minute"}, {"hours", "hour"}, {"h", "hour"}, {"hr", "hour"}, {"hrs", "hour"},
      {"days", "day"}, {"d", "day"}, {"months", "month"}, {"mon", "month"}, {"mons", "month"},
      {"years", "year"}, {"y", "year"}, {"yr", "year"}, {"yrs", "year"}, {"weeks", "week"},
      {"w", "week"}, {"decades", "decade"}, {"dec", "decade"}, {"centuries", "century"},
      {"c", "century"}, {"cent", "century"}, {"millennia", "millennium"}, {"mil", "millennium"},
      {"millenniums", "millennium"}, {"quarters", "quarter"}, {"qtr", "quarter"}, {"j", "julian"},
      {"timezone_m", "timezone_minute"}, {"timezone_h", "timezone_hour"}};
  for (const auto& [alias, name] : kAliases) {
    if (u == alias) return name;
  }
  return u;
}

// The value of `unit` for a finite timestamp; `type` names errors. For
// timestamptz `usecs` is the session-local wall clock, `utoff` its offset.
Scaled FieldOf(const std::string& unit, int64_t usecs, Oid type, int32_t utoff = 0) {
  CalendarFields f = SplitTimestamp(usecs);
  int64_t y = f.year;
  int64_t usec_in_min = f.usec_of_day % (60 * kUsecsPerSec);
  if (unit == "microseconds") return {usec_in_min, 0};
  if (unit == "milliseconds") return {usec_in_min, 6};  // shown with 3 decimals, see Extract
  if (unit == "second") return {usec_in_min, 6};
  if (unit == "minute") return {f.usec_of_day / (60 * kUsecsPerSec) % 60, 0};
  if (unit == "hour") return {f.usec_of_day / (3600 * kUsecsPerSec), 0};
  if (unit == "day") return {f.day, 0};
  if (unit == "month") return {f.month, 0};
  if (unit == "year") return {y > 0 ? y : y - 1, 0};
  if (unit == "quarter") return {(f.month - 1) / 3 + 1, 0};
  if (unit == "dow") return {IsoDow(f.days) % 7, 0};
  if (unit == "isodow") return {IsoDow(f.days), 0};
  if (unit == "doy") return {f.days - DaysFromCivil(y, 1, 1) + 1, 0};
  if (unit == "week" || unit == "isoyear") {
    int64_t iy, wk;
    IsoWeek(f.days, &iy, &wk);
    return {unit == "week" ? wk : (iy > 0 ? iy : iy - 1), 0};
  }
  // PostgreSQL's formulas over the astronomical year (0 = 1 BC): decade 0
  // is 1 BC..9 AD, century -1 is 100 BC..1 BC.
  if (unit == "decade") return {y >= 0 ? y / 10 : -((8 - (y - 1)) / 10), 0};
  if (unit == "century") return {y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100), 0};
  if (unit == "millennium") return {y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000), 0};
  if (unit == "epoch") return {usecs - utoff * kUsecsPerSec + kUnixEpochSecs * kUsecsPerSec, 6};
  if (type == TSZ && unit == "timezone") return {utoff, 0};
  if (type == TSZ && unit == "timezone_hour") return {utoff / 3600, 0};
  if (type == TSZ && unit == "timezone_minute") return {utoff / 60 % 60, 0};
  UnitError(unit, type, IsKnownUnit(unit));
}

std::string ScaledText(Scaled s) { return ScaledDecimalText(s.value, s.scale); }

// Monotonic fields of an infinite timestamp are ±Infinity, the others NULL.
bool InfiniteResult(const std::string& unit, int64_t usecs, Oid type, int* sign) {
  if (usecs != kTimestampNoBegin && usecs != kTimestampNoEnd) return false;
  *sign = 0;
  for (const char* k : {"year", "isoyear", "decade", "century", "millennium", "epoch", "julian"}) {
    if (unit == k) *sign = usecs == kTimestampNoEnd ? 1 : -1;
  }
  if (*sign == 0) FieldOf(unit, 0, type);  // still reject unknown units
  return true;
}

int64_t AsTimestamp(const Value& v) {
  if (v.type != D) return v.i;
  if (v.i == kDateNoBegin) return kTimestampNoBegin;
  if (v.i == kDateNoEnd) return kTimestampNoEnd;
  return v.i * kUsecsPerDay;  // fields only: no range check (dates reach past timestamps)
}

Value Extract(const Value* a, int, FuncCallContext&) {
  std::string unit = Canonical(a[0].str);
  Oid type = a[1].type;
  if (type == D) {
    for (const char* k : {"microseconds", "milliseconds", "second", "minute", "hour", "timezone",
                          "timezone_hour", "timezone_minute"}) {
      if (unit == k) UnitError(unit, D, true);
    }
  }
  int64_t usecs = AsTimestamp(a[1]);
  int sign = 0;
  if (InfiniteResult(unit, usecs, type, &sign)) {
    if (sign == 0) return Value::Null(kNumericOid);
    return Value::Bytes(kNumericOid, sign > 0 ? "Infinity" : "-Infinity");
  }
  int32_t utoff = 0;
  if (type == TSZ) usecs = TimestampTzToLocal(usecs, SessionZone(), &utoff);
  if (type == D && unit == "julian") return Value::Bytes(kNumericOid, std::to_string(a[1].i + 2451545));
  Scaled s = FieldOf(unit, usecs, type, utoff);
  if (unit == "milliseconds") s.scale = 3;                // µs read as ms with 3 decimals
  if (type == D && unit == "epoch") s = {s.value / kUsecsPerSec, 0};
  return Value::Bytes(kNumericOid, ScaledText(s));
}

Value DatePart(const Value* a, int, FuncCallContext&) {
  std::string unit = Canonical(a[0].str);
  int64_t usecs = AsTimestamp(a[1]);
  Oid type = a[1].type == D ? TS : a[1].type;
  int sign = 0;
  if (InfiniteResult(unit, usecs, type, &sign)) {
    if (sign == 0) return Value::Null(kFloat8Oid);
    return Value::Float8(sign * INFINITY);
  }
  int32_t utoff = 0;
  if (type == TSZ) usecs = TimestampTzToLocal(usecs, SessionZone(), &utoff);
  if (unit == "julian") {  // Julian day with the time of day as a fraction
    CalendarFields f = SplitTimestamp(usecs);
    return Value::Float8(static_cast<double>(f.days + 2451545) +
                         static_cast<double>(f.usec_of_day) / static_cast<double>(kUsecsPerDay));
  }
  Scaled s = FieldOf(unit, usecs, type, utoff);
  if (unit == "milliseconds") s.scale = 3;
  return Value::Float8(static_cast<double>(s.value) / std::pow(10.0, s.scale));
}

// Truncates a wall-clock timestamp to `unit`.
int64_t TruncLocal(const std::string& unit, int64_t usecs, Oid type) {
  CalendarFields f = SplitTimestamp(usecs);
  int64_t day_start = f.days * kUsecsPerDay;
  int64_t y = f.year;
  auto year_start = [&](int64_t year) { return DaysFromCivil(year, 1, 1) * kUsecsPerDay; };
  if (unit == "microseconds") return usecs;
  if (unit == "milliseconds") return usecs - (f.usec_of_day % 1000);
  if (unit == "second") return usecs - (f.usec_of_day % kUsecsPerSec);
  if (unit == "minute") return usecs - (f.usec_of_day % (60 * kUsecsPerSec));
  if (unit == "hour") return usecs - (f.usec_of_day % (3600 * kUsecsPerSec));
  if (unit == "day") return day_start;
  if (unit == "week") return (f.days - (IsoDow(f.days) - 1)) * kUsecsPerDay;
  if (unit == "month") return DaysFromCivil(y, f.month, 1) * kUsecsPerDay;
  if (unit == "quarter") return DaysFromCivil(y, (f.month - 1) / 3 * 3 + 1, 1) * kUsecsPerDay;
  if (unit == "year") return year_start(y);
  if (unit == "decade") return year_start(y > 0 ? y / 10 * 10 : -((8 - (y - 1)) / 10) * 10);
  if (unit == "century") return year_start(y > 0 ? ((y + 99) / 100 - 1) * 100 + 1 : -((99 - (y - 1)) / 100) * 100 + 1);
  if (unit == "millennium") {
    return year_start(y > 0 ? ((y + 999) / 1000 - 1) * 1000 + 1 : -((999 - (y - 1)) / 1000) * 1000 + 1);
  }
  UnitError(unit, type, IsKnownUnit(unit));
}

// timestamptz truncation in `zone`: units of a day and more start at local
// midnight (offset recomputed, as across DST), smaller ones keep the offset.
int64_t TruncInZone(const std::string& unit, int64_t usecs, const tz::Zone& zone) {
  int32_t utoff;
  int64_t local = TruncLocal(unit, TimestampTzToLocal(usecs, zone, &utoff), TSZ);
  bool keeps_offset = unit == "microseconds" || unit == "milliseconds" || unit == "second" ||
                      unit == "minute" || unit == "hour";
  return keeps_offset ? local - utoff * kUsecsPerSec : LocalToTimestampTz(local, zone);
}

Value DateTrunc(const Value* a, int nargs, FuncCallContext&) {
  std::string unit = Canonical(a[0].str);
  int64_t usecs = a[1].i;
  Oid type = a[1].type;
  if (usecs == kTimestampNoBegin || usecs == kTimestampNoEnd) return a[1];
  if (type != TSZ) return Value::Int(type, TruncLocal(unit, usecs, type));
  if (nargs < 3) return Value::Int(TSZ, TruncInZone(unit, usecs, SessionZone()));
  return Value::Int(TSZ, TruncInZone(unit, usecs, *LookupZoneArgument(a[2].str)));
}

// make_date(year, month, day): negative years are BC; 22008 when invalid.
int64_t MakeDays(int64_t year, int64_t month, int64_t day) {
  int64_t y = year < 0 ? year + 1 : year;
  bool ok = year != 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
  int64_t days = ok ? DaysFromCivil(y, static_cast<int>(month), static_cast<int>(day)) : 0;
  int64_t cy = 0;
  int cm = 0, cd = 0;
  if (ok) CivilFromDays(days, &cy, &cm, &cd);
  if (!ok || cm != month || cd != day) {
    throw DbError(sqlstate::kDatetimeFieldOverflow,
                  "date field value out of range: " + std::to_string(year) + "-" +
                      (month < 10 && month >= 0 ? "0" : "") + std::to_string(month) + "-" +
                      (day < 10 && day >= 0 ? "0" : "") + std::to_string(day));
  }
  return days;
}
Value MakeDate(const Value* a, int, FuncCallContext&) { return Value::Int(D, MakeDays(a[0].i, a[1].i, a[2].i)); }

// date_bin(stride, source, origin): the start of the stride-wide bin, counted
// from origin, that holds source.
Value DateBin(const Value* a, int, FuncCallContext&) {
  Interval stride = DecodeInterval(a[0].str);
  int64_t source = a[1].i, origin = a[2].i;
  if (source == kTimestampNoBegin || source == kTimestampNoEnd) return a[1];
  if (origin == kTimestampNoBegin || origin == kTimestampNoEnd) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "origin out of range");
  }
  if (stride.month != 0) {
    throw DbError(sqlstate::kFeatureNotSupported,
                  "timestamps cannot be binned into intervals containing months or years");
  }
  auto out_of_range = [](const char* what) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, std::string(what) + " out of range");
  };
  int64_t width = 0, diff = 0, result = 0;
  if (__builtin_mul_overflow(static_cast<int64_t>(stride.day), kUsecsPerDay, &width) ||
      __builtin_add_overflow(width, stride.time, &width)) {
    out_of_range("interval");
  }
  if (width <= 0) throw DbError(sqlstate::kInvalidParameterValue, "stride must be greater than zero");
  if (__builtin_sub_overflow(source, origin, &diff)) out_of_range("interval");
  int64_t delta = diff - diff % width;
  if (diff < 0 && diff % width != 0) delta -= width;  // the bin starts before the source
  if (__builtin_add_overflow(origin, delta, &result) || result < kMinTimestampUsecs ||
      result >= kEndTimestampUsecs) {
    out_of_range("timestamp");
  }
  return Value::Int(a[1].type, result);
}

Value IsFiniteTs(const Value* a, int, FuncCallContext&) {
  if (a[0].type == D) return Value::Bool(a[0].i != kDateNoBegin && a[0].i != kDateNoEnd);
  return Value::Bool(a[0].i != kTimestampNoBegin && a[0].i != kTimestampNoEnd);
}

}  // namespace

std::string ScaledDecimalText(int64_t value, int scale) {
  bool neg = value < 0;
  std::string digits = std::to_string(neg ? -value : value);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, scale - digits.size() + 1, '0');
    digits.insert(digits.size() - scale, ".");
  }
  return (neg ? "-" : "") + digits;
}

std::string CanonicalDateUnit(std::string_view raw) { return Canonical(raw); }
bool IsKnownDateUnit(const std::string& unit) { return IsKnownUnit(unit); }

int64_t TimeOfDayUsecs(int64_t h, int64_t mi, double sec) {
  if (h < 0 || h > 24 || mi < 0 || mi > 59 || !(sec >= 0) || sec > 60 ||
      (h == 24 && (mi > 0 || sec > 0))) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "time field value out of range: %lld:%02lld:%02g",
                  static_cast<long long>(h), static_cast<long long>(mi), sec);
    throw DbError(sqlstate::kDatetimeFieldOverflow, buf);
  }
  int64_t usec = static_cast<int64_t>(std::llround(sec * kUsecsPerSec));
  return (h * 3600 + mi * 60) * kUsecsPerSec + usec;
}

Value MakeTimestampValue(const Value* a, int, FuncCallContext&) {
  int64_t days = MakeDays(a[0].i, a[1].i, a[2].i);
  return Value::Int(TS, days * kUsecsPerDay + TimeOfDayUsecs(a[3].i, a[4].i, a[5].f));
}

CalendarFields SplitTimestamp(int64_t usecs) {
  CalendarFields f{};
  f.days = usecs / kUsecsPerDay;
  f.usec_of_day = usecs % kUsecsPerDay;
  if (f.usec_of_day < 0) {
    f.usec_of_day += kUsecsPerDay;
    --f.days;
  }
  CivilFromDays(f.days, &f.year, &f.month, &f.day);
  return f;
}

int IsoDow(int64_t days) {
  int64_t m = (days + 5) % 7;  // 2000-01-01 was a Saturday
  return static_cast<int>(m < 0 ? m + 7 : m) + 1;
}

void IsoWeek(int64_t days, int64_t* iso_year, int64_t* week) {
  int64_t thursday = days + (4 - IsoDow(days));
  int64_t y;
  int m, d;
  CivilFromDays(thursday, &y, &m, &d);
  *iso_year = y;
  *week = (thursday - DaysFromCivil(y, 1, 1)) / 7 + 1;
}

void AddDatetimeBuiltins(std::vector<FuncSignature>* t) {
  for (Oid x : {TS, TSZ, D}) {
    t->push_back(Row("extract", kFn, {T, x}, kNumericOid, Extract));
    t->push_back(Row("date_part", kFn, {T, x}, kFloat8Oid, DatePart));
  }
  t->push_back(Row("date_trunc", kFn, {T, TS}, TS, DateTrunc));
  t->push_back(Row("date_trunc", kFn, {T, TSZ}, TSZ, DateTrunc));
  t->push_back(Row("date_trunc", kFn, {T, TSZ, T}, TSZ, DateTrunc));
  t->push_back(Row("date_bin", kFn, {kIntervalOid, TS, TS}, TS, DateBin));
  t->push_back(Row("date_bin", kFn, {kIntervalOid, TSZ, TSZ}, TSZ, DateBin));
  for (Oid x : {TS, TSZ, D}) t->push_back(Row("isfinite", kFn, {x}, kBoolOid, IsFiniteTs));
  t->push_back(Row("make_date", kFn, {I4, I4, I4}, D, MakeDate));
  t->push_back(Row("make_timestamp", kFn, {I4, I4, I4, I4, I4, kFloat8Oid}, TS, MakeTimestampValue));
}

}  // namespace hearth::types::internal
