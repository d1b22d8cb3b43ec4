// server/utils/adt/datetime_parse.h
//
// Date/time input as PostgreSQL's ParseDateTime + DecodeDateTime read it:
// the text is split into fields (numbers, words, "1999-01-08"-like dates,
// "04:05:06"-like times, "+05:30"-like zones) and the fields are assigned
// to year/month/day/time/zone, numeric dates following the session's
// DateStyle order (MDY, DMY, YMD). Accepted: ISO 8601 (with 'T'),
// 'January 8, 1999', '1/8/1999', '1999-Jan-08', '08-Jan-1999', '19990108',
// 'J2451187' (Julian day), AM/PM, BC/AD, zone offsets, abbreviations
// ('PST') and zone names ('America/New_York'), and the special words epoch,
// infinity, -infinity, now, today, tomorrow, yesterday, allballs.
// For time and timetz the rules are DecodeTimeOnly's: bare numbers are
// times (040506, 0405), a word after the first field is a zone name, and
// the time may not pass 24:00:00.
// Errors carry PostgreSQL's SQLSTATEs and messages (22007, 22008 with the
// datestyle HINT, 22009, 22023).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/tz/tz.h"
#include "utils/adt/type_oid.h"

namespace hearth::types {

struct DateTimeFields {
  enum class Special : uint8_t { kNone, kInfinity, kNegInfinity, kEpoch, kNow };
  Special special = Special::kNone;
  bool has_date = false, has_time = false;
  int64_t year = 2000;  // astronomical: 0 = 1 BC
  int month = 1, day = 1;
  int64_t time_usecs = 0;  // of the day; 24:00:00 allowed
  // Zone written in the input: a fixed offset east of UTC, or a zone.
  bool has_offset = false;
  int32_t utoff = 0;
  std::shared_ptr<const tz::Zone> zone;
  // today/tomorrow/yesterday: days relative to the current date.
  bool relative_day = false;
  int relative_days = 0;
};

// Parses `text` as input of `type` (date, time, timetz, timestamp,
// timestamptz; names errors). Throws DbError.
DateTimeFields ParseDateTimeFields(std::string_view text, Oid type);

// "invalid input syntax for type T" / out-of-range errors, for callers that
// check more after parsing.
[[noreturn]] void ThrowDateTimeSyntax(std::string_view text, Oid type);
[[noreturn]] void ThrowDateTimeRange(std::string_view text);

// PostgreSQL's name for a date/time type in messages.
const char* DateTimeTypeName(Oid type);

}  // namespace hearth::types
