// server/utils/adt/datetime_adt.h
//
// date, timestamp and timestamptz: text input/output and calendar math.
// date is days since 2000-01-01; timestamps are microseconds since
// 2000-01-01 00:00:00 (PostgreSQL's epoch, so binary send/receive needs no
// conversion). timestamptz is UTC-only: output carries "+00", input honours
// an explicit offset. Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"

namespace hearth::types {

// 'infinity' / '-infinity' sentinels, as PostgreSQL stores them.
inline constexpr int64_t kDateNoBegin = INT32_MIN;
inline constexpr int64_t kDateNoEnd = INT32_MAX;
inline constexpr int64_t kTimestampNoBegin = INT64_MIN;
inline constexpr int64_t kTimestampNoEnd = INT64_MAX;

// Days since 2000-01-01 for a proleptic Gregorian date (year 0 = 1 BC).
int64_t DaysFromCivil(int64_t y, int m, int d);
void CivilFromDays(int64_t days, int64_t* y, int* m, int* d);

// Parses date input: ISO "2026-11-30" (optionally followed by a time, which
// is ignored), "2026-11-30T…", "11/30/2026" (MDY), "20261130", "epoch",
// "infinity", "-infinity". Throws 22007
// `invalid input syntax for type date: "x"` and 22008
// `date/time field value out of range: "2026-13-01"`.
int64_t ParseDate(std::string_view text);
void AppendDate(int64_t days, std::string* out);

// Parses timestamp input (oid kTimestampOid or kTimestampTzOid):
// "YYYY-MM-DD[ |T]HH:MM[:SS[.ffffff]][Z|±HH[:MM]|UTC]". A date alone means
// midnight. Offsets shift timestamptz to UTC and are ignored for timestamp.
int64_t ParseTimestamp(std::string_view text, Oid oid);
// "2026-11-30 12:34:56[.5]" with "+00" appended for timestamptz.
void AppendTimestamp(int64_t usecs, Oid oid, std::string* out);

// date → timestamp at midnight; timestamp → date (floor to the day).
int64_t DateToTimestamp(int64_t days);
int64_t TimestampToDate(int64_t usecs);

// Microseconds since 2000-01-01 UTC for the current wall clock.
int64_t CurrentTimestampUsecs();

}  // namespace hearth::types
