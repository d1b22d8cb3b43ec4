// server/utils/adt/time_adt.cpp
//
// Principal entry points: ParseTime, ParseTimeTz (fields from
// datetime_parse.cpp, then PostgreSQL's DecodeTimeOnly rules for the zone),
// AppendTimeOfDay, AppendTimeTz, CompareTimeTz and the casts from
// timestamps.
#include "utils/adt/time_adt.h"

#include <cstdio>

#include "utils/adt/big_endian.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_parse.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/interval.h"

namespace hearth::types {
namespace {

// The time of day of parsed fields; `now` and the words time input takes.
int64_t TimeOfFields(const DateTimeFields& f, std::string_view text, Oid type) {
  switch (f.special) {
    case DateTimeFields::Special::kNow:
      return TimestampToTime(TimestampTzToLocal(TransactionClockUsecs(), SessionZone()));
    case DateTimeFields::Special::kNone:
      break;
    default:  // epoch, infinity: no time of day
      ThrowDateTimeSyntax(text, type);
  }
  if (!f.has_time) ThrowDateTimeSyntax(text, type);
  return f.time_usecs;
}

// Days since 2000-01-01 of the written date, else of today in the session
// zone: the day a zone's offset is looked up for.
int64_t DayOfFields(const DateTimeFields& f) {
  if (f.has_date && !f.relative_day) return DaysFromCivil(f.year, f.month, f.day);
  int64_t today = TimestampToDate(TimestampTzToLocal(TransactionClockUsecs(), SessionZone()));
  return f.relative_day ? today + f.relative_days : today;
}

// A zone name fixes an offset only with a date, unless it never changes
// offset ('15:36:39 America/New_York' is an error, 'Etc/GMT+5' is not).
int32_t NamedZoneOffset(const DateTimeFields& f, int64_t time, std::string_view text, Oid type) {
  int32_t utoff;
  if (f.zone->FixedOffset(&utoff)) return utoff;
  if (!f.has_date) ThrowDateTimeSyntax(text, type);
  return ZoneOffsetForLocal(DayOfFields(f) * kUsecsPerDay + time, *f.zone);
}

}  // namespace

std::string EncodeTimeTz(const TimeTz& t) {
  std::string out;
  out.reserve(kTimeTzLen);
  PutBigEndianBytes(static_cast<uint64_t>(t.time), 8, &out);
  PutBigEndianBytes(static_cast<uint32_t>(t.zone), 4, &out);
  return out;
}

TimeTz DecodeTimeTz(std::string_view bytes) {
  TimeTz t;
  t.time = static_cast<int64_t>(GetBigEndianBytes(bytes, 0, 8));
  t.zone = static_cast<int32_t>(static_cast<uint32_t>(GetBigEndianBytes(bytes, 8, 4)));
  return t;
}

int64_t RoundTimePrecision(int64_t usecs, int32_t precision) {
  if (precision < 0 || precision >= 6) return usecs;
  int64_t scale = 1;
  for (int k = precision; k < 6; ++k) scale *= 10;
  return (usecs + scale / 2) / scale * scale;
}

int64_t ParseTime(std::string_view text, int32_t typmod) {
  DateTimeFields f = ParseDateTimeFields(text, kTimeOid);
  int64_t time = TimeOfFields(f, text, kTimeOid);
  if (f.zone) NamedZoneOffset(f, time, text, kTimeOid);  // checked, then ignored
  return RoundTimePrecision(time, typmod);
}

TimeTz ParseTimeTz(std::string_view text, int32_t typmod) {
  DateTimeFields f = ParseDateTimeFields(text, kTimeTzOid);
  TimeTz t;
  t.time = TimeOfFields(f, text, kTimeTzOid);
  int32_t utoff;
  if (f.special == DateTimeFields::Special::kNow) {
    return TimestampTzToTimeTz(TransactionClockUsecs());
  } else if (f.zone) {
    utoff = NamedZoneOffset(f, t.time, text, kTimeTzOid);
  } else if (f.has_offset) {
    utoff = f.utoff;
  } else {
    utoff = ZoneOffsetForLocal(DayOfFields(f) * kUsecsPerDay + t.time, SessionZone());
  }
  t.zone = -utoff;
  t.time = RoundTimePrecision(t.time, typmod);
  return t;
}

void AppendTimeOfDay(int64_t usecs, std::string* out) {
  char buf[48];
  int64_t secs = usecs / kUsecsPerSec;
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  out->append(buf);
  int64_t frac = usecs % kUsecsPerSec;
  if (frac != 0) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
    std::string f(buf);
    while (f.back() == '0') f.pop_back();
    out->append(f);
  }
}

void AppendTimeTz(const TimeTz& t, std::string* out) {
  AppendTimeOfDay(t.time, out);
  AppendZoneOffset(-t.zone, out);
}

int CompareTimeTz(const TimeTz& a, const TimeTz& b) {
  int64_t ua = a.time + a.zone * kUsecsPerSec, ub = b.time + b.zone * kUsecsPerSec;
  if (ua != ub) return ua < ub ? -1 : 1;
  if (a.zone != b.zone) return a.zone < b.zone ? -1 : 1;
  return 0;
}

int64_t WrapTimeOfDay(int64_t usecs) {
  usecs %= kUsecsPerDay;
  return usecs < 0 ? usecs + kUsecsPerDay : usecs;
}

int64_t TimestampToTime(int64_t usecs) { return WrapTimeOfDay(usecs); }

TimeTz TimestampTzToTimeTz(int64_t usecs) {
  int32_t utoff = 0;
  int64_t local = TimestampTzToLocal(usecs, SessionZone(), &utoff);
  return TimeTz{WrapTimeOfDay(local), -utoff};
}

TimeTz TimeToTimeTz(int64_t time) {
  int64_t today = TimestampToDate(TimestampTzToLocal(TransactionClockUsecs(), SessionZone()));
  return TimeTz{time, -ZoneOffsetForLocal(today * kUsecsPerDay + time, SessionZone())};
}

Value CastTimeValue(const Value& v, Oid to) {
  bool infinite = (v.type == kTimestampOid || v.type == kTimestampTzOid) &&
                  (v.i == kTimestampNoBegin || v.i == kTimestampNoEnd);
  if (infinite) return Value::Null(to);
  switch (v.type) {
    case kTimeOid:
      if (to == kIntervalOid) return Value::Bytes(to, EncodeInterval(Interval{v.i, 0, 0}));
      return TimeTzValue(TimeToTimeTz(v.i));
    case kTimeTzOid:
      return Value::Int(kTimeOid, DecodeTimeTz(v.str).time);
    case kTimestampOid:
      return Value::Int(kTimeOid, TimestampToTime(v.i));
    case kTimestampTzOid:
      if (to == kTimeTzOid) return TimeTzValue(TimestampTzToTimeTz(v.i));
      return Value::Int(kTimeOid, TimestampToTime(TimestampTzToLocal(v.i, SessionZone())));
    default:  // interval: its time part, wrapped to a day (interval_time)
      return Value::Int(kTimeOid, WrapTimeOfDay(DecodeInterval(v.str).time));
  }
}

Value RoundTimeValue(Value v, int32_t typmod) {
  if (v.is_null) return v;
  if (v.type == kTimeOid) {
    v.i = RoundTimePrecision(v.i, typmod);
    return v;
  }
  TimeTz t = DecodeTimeTz(v.str);
  t.time = RoundTimePrecision(t.time, typmod);
  return TimeTzValue(t);
}

}  // namespace hearth::types
