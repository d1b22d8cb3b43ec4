// server/utils/adt/datetime_session.h
//
// The session's TimeZone and DateStyle as date/time input and output read
// them. Like PostgreSQL's session_timezone and DateStyle globals these are
// per process: each backend is its own process, and the backend pushes the
// values here whenever its settings change (tcop/session.cpp), so type I/O
// needs no session argument. Without a backend (unit tests, tools) the zone
// is UTC and the style "ISO, MDY".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "common/tz/tz.h"

namespace hearth::types {

enum class DateStyle : uint8_t { kIso, kSql, kPostgres, kGerman };
enum class DateOrder : uint8_t { kMdy, kDmy, kYmd };

// The session time zone (never null).
const tz::Zone& SessionZone();
DateStyle SessionDateStyle();
DateOrder SessionDateOrder();

// Applies a TimeZone value as the setting's check hook normalised it; an
// unloadable name (the tz database changed underneath) keeps the old zone.
void SetSessionTimeZone(std::string_view name);
// Applies a DateStyle value in its shown form ("Postgres, MDY").
void SetSessionDateStyle(std::string_view shown);

// The current transaction's start (µs since 2000-01-01 UTC), what the
// input words now/today/tomorrow/yesterday mean; the backend installs it.
// Without one: the wall clock.
void SetTransactionClock(std::function<int64_t()> clock);
int64_t TransactionClockUsecs();

// Converts between a timestamptz (µs since 2000-01-01 UTC) and the local
// wall clock of `zone` (µs since 2000-01-01 local). `utoff` receives the
// offset east of UTC in seconds and `type` the local time type in effect.
int64_t TimestampTzToLocal(int64_t usecs, const tz::Zone& zone, int32_t* utoff = nullptr,
                           const tz::LocalTimeType** type = nullptr);
// Local wall-clock µs → timestamptz, resolving gaps and overlaps as
// PostgreSQL does (tz::Zone::OffsetForLocal).
int64_t LocalToTimestampTz(int64_t local_usecs, const tz::Zone& zone);
// The offset (east, seconds) a local wall-clock time gets in `zone`.
int32_t ZoneOffsetForLocal(int64_t local_usecs, const tz::Zone& zone);

// A zone named in a function argument (AT TIME ZONE, date_trunc's third
// argument): an input abbreviation ('PST', a fixed offset) first, else a
// zone name or POSIX string ('America/New_York', '+05' = 5 hours west).
// Throws 22023 `time zone "x" not recognized`.
std::shared_ptr<const tz::Zone> LookupZoneArgument(std::string_view name);

}  // namespace hearth::types
