// server/utils/adt/time_adt.h
//
// time (time without time zone, oid 1083) and timetz (time with time zone,
// oid 1266), as PostgreSQL 15 keeps them. time is microseconds since
// midnight, 0 ..= 24:00:00, in Value::i. timetz is that wall-clock time
// plus the zone it was written in, held in Value::str as 12 bytes in
// PostgreSQL's binary order (time int64, zone int32 in seconds WEST of
// UTC, big-endian), so binary send/receive is a copy. timetz orders by the
// instant (time + zone), then by zone: '00:00+01' < '01:00+02' differ only
// in zone, and equal values have equal bytes (hashing uses them as is).
// Input follows PostgreSQL's DecodeTimeOnly (datetime_parse.h); output is
// "hh:mm:ss[.ffffff]" in every DateStyle, timetz with "+hh[:mm[:ss]]".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/value.h"

namespace hearth::types {

struct TimeTz {
  int64_t time = 0;  // µs since midnight (local to the zone)
  int32_t zone = 0;  // seconds west of UTC (PostgreSQL's sign)
};

inline constexpr size_t kTimeTzLen = 12;

std::string EncodeTimeTz(const TimeTz& t);
// REQUIRES: bytes.size() == kTimeTzLen.
TimeTz DecodeTimeTz(std::string_view bytes);
inline Value TimeTzValue(const TimeTz& t) { return Value::Bytes(kTimeTzOid, EncodeTimeTz(t)); }

// time_in / timetz_in (typmod: fractional-second precision, -1 for none).
// Throws 22007 `invalid input syntax for type time: "x"`, 22008
// `date/time field value out of range: "x"`, 22009 for zone offsets.
int64_t ParseTime(std::string_view text, int32_t typmod);
TimeTz ParseTimeTz(std::string_view text, int32_t typmod);

// "hh:mm:ss[.ffffff]" (trailing fractional zeros dropped).
void AppendTimeOfDay(int64_t usecs, std::string* out);
void AppendTimeTz(const TimeTz& t, std::string* out);

// PostgreSQL's AdjustTimeForTypmod: round half up to `precision` digits
// (negative or >= 6: unchanged). 23:59:59.9 at precision 0 becomes 24:00:00.
int64_t RoundTimePrecision(int64_t usecs, int32_t precision);

// timetz_cmp: by instant, then zone.
int CompareTimeTz(const TimeTz& a, const TimeTz& b);

// Wraps µs into [0, 24h) (time ± interval, timetz ± interval).
int64_t WrapTimeOfDay(int64_t usecs);

// Casts. timestamp → time takes the time of day; timestamptz → timetz is the
// session-local time with its offset; time → timetz uses the session
// zone's offset for today's date.
int64_t TimestampToTime(int64_t usecs);
TimeTz TimestampTzToTimeTz(int64_t usecs);
TimeTz TimeToTimeTz(int64_t time);

// The pg_cast conversions into and out of time/timetz that CastValue
// dispatches here (time → interval/timetz, timetz → time, timestamp[tz] →
// time, timestamptz → timetz, interval → time); infinite timestamps give
// NULL as in PostgreSQL. REQUIRES: CanCoerce(v.type, to, kExplicit).
Value CastTimeValue(const Value& v, Oid to);
// A time/timetz value rounded to a time(p) typmod.
Value RoundTimeValue(Value v, int32_t typmod);

}  // namespace hearth::types
