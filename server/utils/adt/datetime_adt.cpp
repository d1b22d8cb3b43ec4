// server/utils/adt/datetime_adt.cpp
//
// Principal entry points: ParseDate, ParseTimestamp (the fields come from
// datetime_parse.cpp; output is datetime_out.cpp), the casts between
// timestamp and timestamptz, and the calendar in PostgreSQL's epoch.
#include "utils/adt/datetime_adt.h"

#include <chrono>

#include "common/error/db_error.h"
#include "utils/adt/datetime_parse.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/value.h"

namespace hearth::types {
namespace {

// Days from 1970-01-01 to 2000-01-01.
constexpr int64_t kUnixToPgDays = 10957;

// Days since 2000-01-01 of the current date in the session zone.
int64_t CurrentLocalDate() { return TimestampToDate(TimestampTzToLocal(TransactionClockUsecs(), SessionZone())); }

// The coarse field check PostgreSQL makes before converting (IS_VALID_JULIAN:
// from November 4714 BC); the exact limits are checked on the result.
bool InJulianRange(const DateTimeFields& f) {
  return (f.year > -4713 || (f.year == -4713 && f.month >= 11)) &&
         (f.year < 5874898 || (f.year == 5874898 && f.month < 6));
}

[[noreturn]] void OutOfRange(const char* what, std::string_view text) {
  throw DbError(sqlstate::kDatetimeFieldOverflow, std::string(what) + " out of range: \"" + std::string(text) + "\"");
}

// Local wall-clock µs (no range check) of parsed date/time fields.
int64_t LocalUsecs(const DateTimeFields& f) {
  int64_t days = f.relative_day ? CurrentLocalDate() + f.relative_days : DaysFromCivil(f.year, f.month, f.day);
  return days * kUsecsPerDay + f.time_usecs;
}

}  // namespace

// The calendar arithmetic lives with the time zone rules (Unix epoch);
// these shift it to PostgreSQL's.
int64_t DaysFromCivil(int64_t y, int m, int d) { return tz::DaysFromCivil(y, m, d) - kUnixToPgDays; }

void CivilFromDays(int64_t days, int64_t* y, int* m, int* d) { tz::CivilFromDays(days + kUnixToPgDays, y, m, d); }

int64_t ParseDate(std::string_view text) {
  DateTimeFields f = ParseDateTimeFields(text, kDateOid);
  switch (f.special) {
    case DateTimeFields::Special::kInfinity:
      return kDateNoEnd;
    case DateTimeFields::Special::kNegInfinity:
      return kDateNoBegin;
    case DateTimeFields::Special::kEpoch:
      return -kUnixToPgDays;
    case DateTimeFields::Special::kNow:
      return CurrentLocalDate();
    case DateTimeFields::Special::kNone:
      break;
  }
  if (!f.has_date) ThrowDateTimeSyntax(text, kDateOid);
  int64_t days = f.relative_day ? CurrentLocalDate() + f.relative_days : 0;
  if (!f.relative_day) {
    if (!InJulianRange(f)) OutOfRange("date", text);
    days = DaysFromCivil(f.year, f.month, f.day);
  }
  if (days < kMinDateDays || days >= kEndDateDays) OutOfRange("date", text);
  return days;
}

int64_t ParseTimestamp(std::string_view text, Oid oid) {
  DateTimeFields f = ParseDateTimeFields(text, oid);
  switch (f.special) {
    case DateTimeFields::Special::kInfinity:
      return kTimestampNoEnd;
    case DateTimeFields::Special::kNegInfinity:
      return kTimestampNoBegin;
    case DateTimeFields::Special::kEpoch:
      return -kUnixToPgDays * kUsecsPerDay;
    case DateTimeFields::Special::kNow: {
      int64_t now = TransactionClockUsecs();
      return oid == kTimestampTzOid ? now : TimestampTzToLocal(now, SessionZone());
    }
    case DateTimeFields::Special::kNone:
      break;
  }
  if (!f.has_date) ThrowDateTimeSyntax(text, oid);
  if (!f.relative_day && (!InJulianRange(f) || f.year > 294277)) OutOfRange("timestamp", text);
  int64_t local = LocalUsecs(f);
  int64_t result = local;
  if (oid == kTimestampTzOid) {
    if (f.zone) result = LocalToTimestampTz(local, *f.zone);
    else if (f.has_offset) result = local - f.utoff * kUsecsPerSec;
    else result = LocalToTimestampTz(local, SessionZone());
  }
  if (result < kMinTimestampUsecs || result >= kEndTimestampUsecs) OutOfRange("timestamp", text);
  return result;
}

int64_t DateToTimestamp(int64_t days) {
  if (days == kDateNoEnd) return kTimestampNoEnd;
  if (days == kDateNoBegin) return kTimestampNoBegin;
  if (days >= kEndTimestampUsecs / kUsecsPerDay) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
  }
  return days * kUsecsPerDay;
}

int64_t TimestampToDate(int64_t usecs) {
  if (usecs == kTimestampNoEnd) return kDateNoEnd;
  if (usecs == kTimestampNoBegin) return kDateNoBegin;
  int64_t d = usecs / kUsecsPerDay;
  if (usecs % kUsecsPerDay < 0) --d;
  return d;
}

int64_t RoundTimestampPrecision(int64_t usecs, int32_t precision) {
  if (precision < 0 || precision >= 6 || usecs == kTimestampNoBegin || usecs == kTimestampNoEnd) return usecs;
  int64_t scale = 1;
  for (int k = precision; k < 6; ++k) scale *= 10;
  int64_t half = scale / 2;
  return usecs >= 0 ? (usecs + half) / scale * scale : -((-usecs + half) / scale * scale);
}

int64_t TimestampTzToTimestamp(int64_t usecs) {
  if (usecs == kTimestampNoBegin || usecs == kTimestampNoEnd) return usecs;
  return TimestampTzToLocal(usecs, SessionZone());
}

int64_t TimestampToTimestampTz(int64_t local_usecs) {
  if (local_usecs == kTimestampNoBegin || local_usecs == kTimestampNoEnd) return local_usecs;
  return LocalToTimestampTz(local_usecs, SessionZone());
}

int64_t CurrentTimestampUsecs() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(now).count();
  return us - kUnixToPgDays * kUsecsPerDay;
}

}  // namespace hearth::types
