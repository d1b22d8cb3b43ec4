// server/utils/adt/builtins_interval.cpp
//
// interval operators and functions as PostgreSQL 15 defines them:
// interval ± interval, unary -, × and ÷ by float8; timestamp[tz] and date
// ± interval; timestamp[tz] − timestamp[tz] (hours justified into days);
// age(); justify_days/hours/interval; extract/date_part and date_trunc on
// intervals; make_interval with positional arguments. Comparisons come
// from the shared comparison rows (builtins_math.cpp).
#include <cmath>
#include <cstdio>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/interval.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr FuncKind kOp = FuncKind::kOperator;
constexpr Oid IV = kIntervalOid;
constexpr Oid TS = kTimestampOid;
constexpr Oid TSZ = kTimestampTzOid;
constexpr Oid D = kDateOid;
constexpr Oid F8 = kFloat8Oid;
constexpr Oid I4 = kInt4Oid;
constexpr Oid T = kTextOid;

Interval IvOf(const Value& v) { return DecodeInterval(v.str); }
Value IvValue(const Interval& iv) { return Value::Bytes(IV, EncodeInterval(iv)); }

int64_t AsTimestamp(const Value& v) {
  if (v.type != D) return v.i;
  if (v.i == kDateNoBegin) return kTimestampNoBegin;
  if (v.i == kDateNoEnd) return kTimestampNoEnd;
  return DateToTimestamp(v.i);
}

// date ± interval is a timestamp; timestamptz stays timestamptz.
Oid ResultTimestampType(Oid t) { return t == D ? TS : t; }

Value PlusInterval(const Value& ts, const Interval& iv) {
  if (ts.type == TSZ) return Value::Int(TSZ, TimestampTzPlusInterval(ts.i, iv));
  return Value::Int(ResultTimestampType(ts.type), TimestampPlusInterval(AsTimestamp(ts), iv));
}
Value TsPlusIv(const Value* a, int, FuncCallContext&) { return PlusInterval(a[0], IvOf(a[1])); }
Value IvPlusTs(const Value* a, int, FuncCallContext&) { return PlusInterval(a[1], IvOf(a[0])); }
Value TsMinusIv(const Value* a, int, FuncCallContext&) { return PlusInterval(a[0], IntervalNegate(IvOf(a[1]))); }

Value TsMinusTs(const Value* a, int, FuncCallContext&) {
  int64_t x = a[0].i, y = a[1].i;
  for (int64_t v : {x, y}) {
    if (v == kTimestampNoBegin || v == kTimestampNoEnd) {
      throw DbError(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite timestamps");
    }
  }
  Interval iv;
  __int128 d = static_cast<__int128>(x) - y;
  if (d < INT64_MIN || d > INT64_MAX) throw DbError(sqlstate::kDatetimeFieldOverflow, "interval out of range");
  iv.time = static_cast<int64_t>(d);
  return IvValue(JustifyHours(iv));
}

// age() of timestamptz compares the local wall-clock fields.
int64_t AgeOperand(const Value& v) { return v.type == TSZ ? TimestampTzToTimestamp(v.i) : v.i; }

Value Age2(const Value* a, int, FuncCallContext&) { return IvValue(TimestampAge(AgeOperand(a[0]), AgeOperand(a[1]))); }

Value Age1(const Value* a, int, FuncCallContext& c) {
  int64_t now = (c.session && c.session->transaction_timestamp) ? c.session->transaction_timestamp()
                                                                  : CurrentTimestampUsecs();
  int64_t midnight = DateToTimestamp(TimestampToDate(TimestampTzToTimestamp(now)));
  return IvValue(TimestampAge(midnight, AgeOperand(a[0])));
}

std::string UnitOf(const std::string& raw) {
  std::string u = AsciiLower(raw);
  struct Alias {
    const char* name;
    const char* unit;
  };
  static const Alias kAliases[] = {
      {"microsecond", "microseconds"}, {"microseconds", "microseconds"}, {"us", "microseconds"},
      {"usec", "microseconds"},        {"usecs", "microseconds"},        {"millisecond", "milliseconds"},
      {"milliseconds", "milliseconds"}, {"ms", "milliseconds"},         {"msec", "milliseconds"},
      {"msecs", "milliseconds"},        {"second", "second"},           {"seconds", "second"},
      {"sec", "second"},                {"secs", "second"},             {"s", "second"},
      {"minute", "minute"},             {"minutes", "minute"},          {"min", "minute"},
      {"mins", "minute"},               {"m", "minute"},                {"hour", "hour"},
      {"hours", "hour"},                {"hr", "hour"},                 {"hrs", "hour"},
      {"h", "hour"},                    {"day", "day"},                 {"days", "day"},
      {"d", "day"},                     {"week", "week"},               {"weeks", "week"},
      {"month", "month"},               {"months", "month"},            {"mon", "month"},
      {"mons", "month"},                {"quarter", "quarter"},         {"qtr", "quarter"},
      {"year", "year"},                 {"years", "year"},              {"y", "year"},
      {"yr", "year"},                   {"yrs", "year"},                {"decade", "decade"},
      {"decades", "decade"},            {"dec", "decade"},              {"century", "century"},
      {"centuries", "century"},         {"cent", "century"},            {"c", "century"},
      {"millennium", "millennium"},     {"millennia", "millennium"},    {"mil", "millennium"},
      {"epoch", "epoch"},
  };
  for (const Alias& a : kAliases) {
    if (u == a.name) return a.unit;
  }
  throw DbError(sqlstate::kInvalidParameterValue, "unit \"" + u + "\" not recognized for type interval");
}

// A field of an interval as value / 10^scale (PostgreSQL's interval_part).
struct Part {
  __int128 value;
  int scale;
};

Part IntervalPart(const std::string& unit, const Interval& iv) {
  int64_t usec_of_min = iv.time % (60 * kUsecsPerSec);
  int64_t year = iv.month / 12;
  if (unit == "microseconds") return {usec_of_min, 0};
  if (unit == "milliseconds") return {usec_of_min, 3};
  if (unit == "second") return {usec_of_min, 6};
  if (unit == "minute") return {iv.time / (60 * kUsecsPerSec) % 60, 0};
  if (unit == "hour") return {iv.time / (3600 * kUsecsPerSec), 0};
  if (unit == "day") return {iv.day, 0};
  if (unit == "month") return {iv.month % 12, 0};
  if (unit == "quarter") return {(iv.month % 12) / 3 + 1, 0};
  if (unit == "year") return {year, 0};
  if (unit == "decade") return {year / 10, 0};
  if (unit == "century") return {year / 100, 0};
  if (unit == "millennium") return {year / 1000, 0};
  if (unit == "epoch") {
    // 365.25 days a year, 30 a month, as PostgreSQL.
    __int128 secs_x100 = static_cast<__int128>(year) * 3155760000LL + static_cast<__int128>(iv.month % 12) * 259200000LL +
                         static_cast<__int128>(iv.day) * 8640000LL;
    return {secs_x100 * 10000 + iv.time, 6};
  }
  throw DbError(sqlstate::kFeatureNotSupported, "unit \"" + unit + "\" not supported for type interval");
}

std::string PartText(const Part& p) {
  bool neg = p.value < 0;
  unsigned __int128 mag = neg ? -static_cast<unsigned __int128>(p.value) : static_cast<unsigned __int128>(p.value);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  } while (mag);
  if (p.scale > 0) {
    while (digits.size() <= static_cast<size_t>(p.scale)) digits.insert(digits.begin(), '0');
    digits.insert(digits.end() - p.scale, '.');
  }
  return (neg ? "-" : "") + digits;
}

Value ExtractIv(const Value* a, int, FuncCallContext&) {
  std::string unit = UnitOf(a[0].str);
  if (unit == "week") throw DbError(sqlstate::kFeatureNotSupported, "unit \"week\" not supported for type interval");
  return Value::Bytes(kNumericOid, PartText(IntervalPart(unit, IvOf(a[1]))));
}

Value DatePartIv(const Value* a, int, FuncCallContext&) {
  std::string unit = UnitOf(a[0].str);
  if (unit == "week") throw DbError(sqlstate::kFeatureNotSupported, "unit \"week\" not supported for type interval");
  Part p = IntervalPart(unit, IvOf(a[1]));
  return Value::Float8(static_cast<double>(p.value) / std::pow(10.0, p.scale));
}

Value DateTruncIv(const Value* a, int, FuncCallContext&) {
  std::string unit = UnitOf(a[0].str);
  Interval iv = IvOf(a[1]), r;
  const int64_t kHour = 3600 * kUsecsPerSec, kMin = 60 * kUsecsPerSec;
  if (unit == "millennium" || unit == "century" || unit == "decade" || unit == "year") {
    int per = unit == "millennium" ? 12000 : unit == "century" ? 1200 : unit == "decade" ? 120 : 12;
    r.month = iv.month / per * per;
  } else if (unit == "quarter") {
    r.month = iv.month / 3 * 3;
  } else if (unit == "month") {
    r.month = iv.month;
  } else {
    r.month = iv.month;
    r.day = iv.day;
    int64_t per = unit == "day"            ? -1
                  : unit == "hour"         ? kHour
                  : unit == "minute"       ? kMin
                  : unit == "second"       ? kUsecsPerSec
                  : unit == "milliseconds" ? 1000
                  : unit == "microseconds" ? 1
                                           : 0;
    if (per == 0) throw DbError(sqlstate::kFeatureNotSupported, "unit \"" + unit + "\" not supported for type interval");
    r.time = per < 0 ? 0 : iv.time / per * per;
  }
  return IvValue(r);
}

// make_interval(years, months, weeks, days, hours, mins, secs), trailing
// arguments optional (PostgreSQL's defaults of 0).
Value MakeInterval(const Value* a, int n, FuncCallContext&) {
  auto arg = [&](int i) -> int64_t { return i < n ? a[i].i : 0; };
  double secs = n > 6 ? a[6].f : 0;
  if (!std::isfinite(secs)) throw DbError(sqlstate::kDatetimeFieldOverflow, "interval out of range");
  __int128 months = static_cast<__int128>(arg(0)) * 12 + arg(1);
  __int128 days = static_cast<__int128>(arg(2)) * 7 + arg(3);
  double usecs = std::rint((static_cast<double>(arg(4)) * 3600 + static_cast<double>(arg(5)) * 60 + secs) * 1e6);
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX ||
      !(usecs > -9.2233720368547758e18 && usecs < 9.2233720368547758e18)) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "interval out of range");
  }
  Interval iv;
  iv.month = static_cast<int32_t>(months);
  iv.day = static_cast<int32_t>(days);
  iv.time = static_cast<int64_t>(usecs);
  return IvValue(iv);
}

}  // namespace

void AddIntervalBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("+", kOp, {IV, IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(IntervalAdd(IvOf(a[0]), IvOf(a[1])));
  }));
  t->push_back(Row("-", kOp, {IV, IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(IntervalAdd(IvOf(a[0]), IntervalNegate(IvOf(a[1]))));
  }));
  t->push_back(Row("-", kOp, {IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(IntervalNegate(IvOf(a[0])));
  }));
  t->push_back(Row("*", kOp, {IV, F8}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(IntervalMultiply(IvOf(a[0]), a[1].f));
  }));
  t->push_back(Row("*", kOp, {F8, IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(IntervalMultiply(IvOf(a[1]), a[0].f));
  }));
  t->push_back(Row("/", kOp, {IV, F8}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(IntervalDivide(IvOf(a[0]), a[1].f));
  }));
  for (Oid x : {TS, TSZ, D}) {
    t->push_back(Row("+", kOp, {x, IV}, ResultTimestampType(x), TsPlusIv));
    t->push_back(Row("+", kOp, {IV, x}, ResultTimestampType(x), IvPlusTs));
    t->push_back(Row("-", kOp, {x, IV}, ResultTimestampType(x), TsMinusIv));
  }
  for (Oid x : {TS, TSZ}) {
    t->push_back(Row("-", kOp, {x, x}, IV, TsMinusTs));
    t->push_back(Row("age", kFn, {x, x}, IV, Age2));
    t->push_back(Row("age", kFn, {x}, IV, Age1, true, false, /*is_volatile=*/true));
  }
  t->push_back(Row("justify_days", kFn, {IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(JustifyDays(IvOf(a[0])));
  }));
  t->push_back(Row("justify_hours", kFn, {IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(JustifyHours(IvOf(a[0])));
  }));
  t->push_back(Row("justify_interval", kFn, {IV}, IV, [](const Value* a, int, FuncCallContext&) {
    return IvValue(JustifyInterval(IvOf(a[0])));
  }));
  t->push_back(Row("isfinite", kFn, {IV}, kBoolOid, [](const Value*, int, FuncCallContext&) {
    return Value::Bool(true);
  }));
  t->push_back(Row("extract", kFn, {T, IV}, kNumericOid, ExtractIv));
  t->push_back(Row("date_part", kFn, {T, IV}, F8, DatePartIv));
  t->push_back(Row("date_trunc", kFn, {T, IV}, IV, DateTruncIv));
  t->push_back(Row("make_interval", kFn, {}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4, I4}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4, I4, I4}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4, I4, I4, I4}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4, I4, I4, I4, I4}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4, I4, I4, I4, I4, I4}, IV, MakeInterval));
  t->push_back(Row("make_interval", kFn, {I4, I4, I4, I4, I4, I4, F8}, IV, MakeInterval));
}

}  // namespace hearth::types::internal
