// server/utils/adt/datetime_adt.h
//
// date, timestamp and timestamptz: text input/output and calendar math.
// date is days since 2000-01-01; timestamps are microseconds since
// 2000-01-01 00:00:00 (PostgreSQL's epoch, so binary send/receive needs no
// conversion); timestamptz counts from 2000-01-01 00:00:00 UTC and is read
// and shown in the session time zone, in the session DateStyle
// (datetime_session.h). Input follows PostgreSQL's grammar
// (datetime_parse.h).
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

// PostgreSQL's finite range: Julian day 0 (4714-11-24 BC) up to, not
// including, 294277-01-01 00:00 UTC for timestamps and 5874898-01-01 for
// dates.
inline constexpr int64_t kMinTimestampUsecs = -211813488000000000LL;
inline constexpr int64_t kEndTimestampUsecs = 9223371331200000000LL;
inline constexpr int64_t kMinDateDays = -2451545;
inline constexpr int64_t kEndDateDays = 2147483494 - 2451545;

// Days since 2000-01-01 for a proleptic Gregorian date (year 0 = 1 BC).
int64_t DaysFromCivil(int64_t y, int m, int d);
void CivilFromDays(int64_t days, int64_t* y, int* m, int* d);

// Parses date input (any form datetime_parse.h accepts; a time or zone is
// ignored). Throws 22007 `invalid input syntax for type date: "x"` and
// 22008 `date/time field value out of range: "2026-13-01"`.
int64_t ParseDate(std::string_view text);
void AppendDate(int64_t days, std::string* out);

// Parses timestamp input (oid kTimestampOid or kTimestampTzOid). A date
// alone means midnight. For timestamptz a written zone (offset,
// abbreviation, zone name) applies, else the session zone; timestamp
// ignores zones.
int64_t ParseTimestamp(std::string_view text, Oid oid);
// In the session DateStyle; timestamptz in the session zone with its
// offset (ISO) or abbreviation (other styles).
void AppendTimestamp(int64_t usecs, Oid oid, std::string* out);
// "+05", "-08", "+05:30", "-07:52:58" for an offset east of UTC in seconds.
void AppendZoneOffset(int32_t utoff, std::string* out);

// date → timestamp at midnight; timestamp → date (floor to the day).
int64_t DateToTimestamp(int64_t days);
int64_t TimestampToDate(int64_t usecs);

// Rounds to `precision` fractional-second digits (a timestamp(p) typmod;
// negative: unchanged), half away from zero, as PostgreSQL does.
int64_t RoundTimestampPrecision(int64_t usecs, int32_t precision);

// timestamptz ↔ timestamp in the session time zone (infinities kept).
int64_t TimestampTzToTimestamp(int64_t usecs);
int64_t TimestampToTimestampTz(int64_t local_usecs);

// Microseconds since 2000-01-01 UTC for the current wall clock.
int64_t CurrentTimestampUsecs();

}  // namespace hearth::types
