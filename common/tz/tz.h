// common/tz/tz.h
//
// Time zone rules from the system tz database (/usr/share/zoneinfo, the
// tzdata package), read the way PostgreSQL's own tz code reads them: TZif
// files (version 2+ 64-bit data and the POSIX footer for instants past the
// last transition), POSIX TZ strings ("EST5EDT", "<-08>+08", "UTC+5": the
// POSIX sign convention, positive west), and fixed offsets. Times here are
// whole seconds since 1970-01-01 00:00:00 UTC.
//
// Zones are immutable after loading and cached per process (LoadZone
// returns the same object for the same name), so they are safe to share
// between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::tz {

// What a zone says of one instant: offset east of UTC and abbreviation.
struct LocalTimeType {
  int32_t utoff = 0;  // seconds east of UTC
  bool is_dst = false;
  std::string abbrev;
};

// One POSIX TZ rule date (Jn, n or Mm.w.d) and the local time of day the
// change happens at.
struct RuleDate {
  enum class Kind : uint8_t { kJulianNoLeap, kDayOfYear, kMonthWeekDay } kind = Kind::kMonthWeekDay;
  int day = 0, week = 0, month = 0;
  int32_t time = 7200;
};

// A POSIX TZ string's rule: standard time, and optionally daylight time
// between two rule dates each year.
struct PosixRule {
  LocalTimeType std_type;
  LocalTimeType dst_type;
  bool has_dst = false;
  RuleDate start, end;
};

class Zone {
 public:
  // The name SHOW TimeZone prints (the zone file's spelling, the POSIX
  // string, or "<-08>+08" for a fixed offset).
  const std::string& name() const { return name_; }

  // The local time type in effect at `utc`.
  const LocalTimeType& At(int64_t utc) const;

  // The offset (east of UTC) to subtract from local wall-clock seconds
  // `local` to get UTC. Local times skipped by a spring-forward transition
  // take the offset before it, ambiguous ones after a fall-back the offset
  // after it (PostgreSQL's DetermineTimeZoneOffset).
  int32_t OffsetForLocal(int64_t local) const;

  // True, with the offset, when the zone has one offset at every instant
  // (PostgreSQL's pg_get_timezone_offset): such a zone needs no date to
  // place a time of day (timetz input).
  bool FixedOffset(int32_t* utoff) const;

  // The first change of offset or DST flag strictly after `utc`: its instant
  // and the type from then on. False when there is none.
  bool NextTransition(int64_t utc, int64_t* when, const LocalTimeType** after) const;

  // Builders (used by the loaders in tz.cpp).
  static std::shared_ptr<Zone> FromPosix(std::string name, const PosixRule& rule);
  static std::shared_ptr<Zone> FromTzif(std::string name, std::string_view bytes);

 private:
  std::string name_;
  std::vector<int64_t> transitions_;  // ascending UTC instants
  std::vector<uint8_t> transition_types_;
  std::vector<LocalTimeType> types_;
  bool has_footer_ = false;
  PosixRule footer_;
  // The footer's instants in the three years around `utc`, ascending.
  void FooterTransitions(int64_t utc, int64_t out[6], bool out_dst[6]) const;
  const LocalTimeType& FooterAt(int64_t utc) const;
};

// A zone by name: a file under the zone directory (an exact match, else a
// case-insensitive one; name() is the file's spelling), else a POSIX TZ
// string. nullptr when it is neither. Cached per process.
std::shared_ptr<const Zone> LoadZone(std::string_view name);

// A fixed offset, `utoff` seconds east of UTC, named as PostgreSQL names
// one ("<-08>+08" for 8 hours west, "<+05:30>-05:30").
std::shared_ptr<const Zone> FixedZone(int32_t utoff);

// Parses a POSIX TZ string into `rule`; false when it is not one. An empty
// standard abbreviation is allowed ("+05"), as PostgreSQL allows it.
bool ParsePosixTz(std::string_view text, PosixRule* rule);

// Every zone file name under the zone directory ("America/New_York"),
// sorted; for pg_timezone_names.
std::vector<std::string> ListZoneNames();

// Days since 1970-01-01 of a proleptic Gregorian date, and back.
int64_t DaysFromCivil(int64_t y, int m, int d);
void CivilFromDays(int64_t days, int64_t* y, int* m, int* d);

}  // namespace hearth::tz
