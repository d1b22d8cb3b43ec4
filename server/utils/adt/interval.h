// server/utils/adt/interval.h
//
// interval (oid 1186), as PostgreSQL keeps it: months, days and
// microseconds held apart (a month is not a fixed number of days, a day
// not a fixed number of hours across DST), stored in Value::str as 16
// bytes in PostgreSQL's binary order (time int64, day int32, month int32,
// big-endian), so binary send/receive is a copy. Comparison, hashing and
// equality go through the span (months × 30 days + days × 24 h + time),
// so '1 day' = '24 hours' as in PostgreSQL. Stateless.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::types {

struct Interval {
  int64_t time = 0;  // microseconds
  int32_t day = 0;
  int32_t month = 0;
};

inline constexpr size_t kIntervalLen = 16;

std::string EncodeInterval(const Interval& iv);
// REQUIRES: bytes.size() == kIntervalLen.
Interval DecodeInterval(std::string_view bytes);

// PostgreSQL's input forms: "1 year 2 mons 3 days 04:05:06.5",
// "@ 1 minute ago", "-1 day +02:00", "1-2" (years-months), "3 4:05:06",
// fractional units ("1.5 weeks"), ISO 8601 "P1Y2M3DT4H5M6S". Throws 22007
// `invalid input syntax for type interval: "x"` and 22015
// `interval field value out of range: "x"`.
Interval ParseInterval(std::string_view text);
// IntervalStyle postgres: "1 year 2 mons -3 days +04:05:06.5", "00:00:00".
void AppendInterval(const Interval& iv, std::string* out);

// The span in microseconds, as a 128-bit value (PostgreSQL's comparison key).
__int128 IntervalSpan(const Interval& iv);
int CompareIntervals(const Interval& a, const Interval& b);

// Arithmetic with PostgreSQL's overflow checks (22008 `interval out of
// range`) and its rules for carrying fractions of months and days.
Interval IntervalAdd(const Interval& a, const Interval& b);
Interval IntervalNegate(const Interval& a);
Interval IntervalMultiply(const Interval& a, double factor);
Interval IntervalDivide(const Interval& a, double divisor);  // 22012 on 0
Interval JustifyHours(const Interval& a);
Interval JustifyDays(const Interval& a);
Interval JustifyInterval(const Interval& a);

// timestamp (µs since 2000-01-01) + interval: months first (the day of
// month clamped to the month's length), then days, then time. 22008
// `timestamp out of range` on overflow; infinities stay.
// timestamptz + interval in the session time zone, as PostgreSQL's
// timestamptz_pl_interval: months, then days, on the local wall clock; then
// the time part.
int64_t TimestampTzPlusInterval(int64_t usecs, const Interval& iv);
int64_t TimestampPlusInterval(int64_t usecs, const Interval& iv);
// PostgreSQL's age(): field-wise difference with borrowing.
Interval TimestampAge(int64_t a, int64_t b);

}  // namespace hearth::types
