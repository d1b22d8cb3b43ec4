// server/utils/adt/datetime_session.cpp
//
// Principal entry points: SessionZone, SetSessionTimeZone,
// TimestampTzToLocal, LocalToTimestampTz.
#include "utils/adt/datetime_session.h"

#include <cctype>
#include <string>

#include "common/error/db_error.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/tz_abbrevs.h"
#include "utils/adt/value.h"

namespace hearth::types {
namespace {

constexpr int64_t kUnixEpochSecs = 946684800;  // 2000-01-01 in Unix time

struct State {
  std::function<int64_t()> clock;
  std::shared_ptr<const tz::Zone> zone;
  DateStyle style = DateStyle::kIso;
  DateOrder order = DateOrder::kMdy;
};

State& Current() {
  static State s = [] {
    State init;
    init.zone = tz::LoadZone("UTC");
    return init;
  }();
  return s;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Unix seconds of a µs-since-2000 instant, clamped to what the zone
// arithmetic handles without overflow.
int64_t UnixSecs(int64_t usecs) { return FloorDiv(usecs, kUsecsPerSec) + kUnixEpochSecs; }

}  // namespace

const tz::Zone& SessionZone() { return *Current().zone; }

void SetTransactionClock(std::function<int64_t()> clock) { Current().clock = std::move(clock); }

int64_t TransactionClockUsecs() {
  const State& s = Current();
  int64_t t = s.clock ? s.clock() : 0;
  return t != 0 ? t : CurrentTimestampUsecs();  // 0: no transaction has started yet
}
DateStyle SessionDateStyle() { return Current().style; }
DateOrder SessionDateOrder() { return Current().order; }

void SetSessionTimeZone(std::string_view name) {
  State& s = Current();
  if (s.zone && s.zone->name() == name) return;
  if (auto z = tz::LoadZone(name)) s.zone = std::move(z);
}

void SetSessionDateStyle(std::string_view shown) {
  std::string u;
  for (char c : shown) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  State& s = Current();
  s.style = u.rfind("SQL", 0) == 0        ? DateStyle::kSql
            : u.rfind("POSTGRES", 0) == 0 ? DateStyle::kPostgres
            : u.rfind("GERMAN", 0) == 0   ? DateStyle::kGerman
                                          : DateStyle::kIso;
  s.order = u.find("DMY") != std::string::npos   ? DateOrder::kDmy
            : u.find("YMD") != std::string::npos ? DateOrder::kYmd
                                                 : DateOrder::kMdy;
}

int64_t TimestampTzToLocal(int64_t usecs, const tz::Zone& zone, int32_t* utoff,
                           const tz::LocalTimeType** type) {
  const tz::LocalTimeType& t = zone.At(UnixSecs(usecs));
  if (utoff) *utoff = t.utoff;
  if (type) *type = &t;
  return usecs + t.utoff * kUsecsPerSec;
}

int32_t ZoneOffsetForLocal(int64_t local_usecs, const tz::Zone& zone) {
  return zone.OffsetForLocal(UnixSecs(local_usecs));
}

int64_t LocalToTimestampTz(int64_t local_usecs, const tz::Zone& zone) {
  return local_usecs - ZoneOffsetForLocal(local_usecs, zone) * kUsecsPerSec;
}

std::shared_ptr<const tz::Zone> LookupZoneArgument(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (const TzAbbrev* a = FindTzAbbrev(lower)) return tz::FixedZone(a->utoff);
  if (auto z = tz::LoadZone(name)) return z;
  throw DbError(sqlstate::kInvalidParameterValue, "time zone \"" + std::string(name) + "\" not recognized");
}

}  // namespace hearth::types
