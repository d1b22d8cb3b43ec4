// server/utils/adt/tz_abbrevs.h
//
// Time zone abbreviations accepted in date/time input ('2000-01-01 12:00
// EST'), PostgreSQL's "Default" timezone_abbreviations set: each names a
// fixed offset east of UTC and whether it is a daylight-saving one.
// Immutable; safe from any thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace hearth::types {

struct TzAbbrev {
  std::string_view abbrev;  // lower case
  int32_t utoff;            // seconds east of UTC
  bool is_dst;
};

// The abbreviation `lower` (already lower case), or nullptr.
const TzAbbrev* FindTzAbbrev(std::string_view lower);

// All of them, sorted by abbreviation (pg_timezone_abbrevs).
const std::vector<TzAbbrev>& AllTzAbbrevs();

}  // namespace hearth::types
