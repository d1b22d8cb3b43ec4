// Time zone rules (common/tz): POSIX TZ strings, fixed offsets, TZif files
// from the system tz database, and the local-time resolution PostgreSQL
// uses for DST gaps and overlaps.
#include <catch2/catch.hpp>

#include <filesystem>

#include "common/tz/tz.h"

using namespace hearth::tz;

namespace {

// Unix seconds of a UTC calendar time.
int64_t Utc(int64_t y, int m, int d, int h = 0, int mi = 0) { return DaysFromCivil(y, m, d) * 86400 + h * 3600 + mi * 60; }

}  // namespace

TEST_CASE("tz: POSIX TZ strings", "[tz]") {
  PosixRule r;
  REQUIRE(ParsePosixTz("EST5EDT,M3.2.0,M11.1.0", &r));
  CHECK(r.std_type.abbrev == "EST");
  CHECK(r.std_type.utoff == -5 * 3600);
  CHECK(r.dst_type.utoff == -4 * 3600);
  REQUIRE(ParsePosixTz("<+0545>-5:45", &r));
  CHECK(r.std_type.abbrev == "+0545");
  CHECK(r.std_type.utoff == 5 * 3600 + 45 * 60);
  CHECK(!r.has_dst);
  REQUIRE(ParsePosixTz("+05", &r));  // an empty abbreviation, as PostgreSQL allows
  CHECK(r.std_type.utoff == -5 * 3600);
  CHECK(!ParsePosixTz("America/Nowhere", &r));
  CHECK(!ParsePosixTz("", &r));
  CHECK(!ParsePosixTz("EST5EDT,M13.1.0,M11.1.0", &r));
}

TEST_CASE("tz: fixed offsets are named as PostgreSQL names them", "[tz]") {
  CHECK(FixedZone(-8 * 3600)->name() == "<-08>+08");
  CHECK(FixedZone(5 * 3600 + 30 * 60)->name() == "<+05:30>-05:30");
  CHECK(FixedZone(-8 * 3600)->At(0).utoff == -8 * 3600);
  CHECK(FixedZone(-8 * 3600)->At(0).abbrev == "-08");
}

TEST_CASE("tz: POSIX rules switch at the rule dates", "[tz]") {
  auto z = LoadZone("XST5XDT,M3.2.0,M11.1.0");
  REQUIRE(z);
  // 2021-03-14 02:00 local standard time = 07:00 UTC.
  CHECK(z->At(Utc(2021, 3, 14, 6, 59)).utoff == -5 * 3600);
  CHECK(z->At(Utc(2021, 3, 14, 7, 0)).utoff == -4 * 3600);
  CHECK(z->At(Utc(2021, 3, 14, 7, 0)).abbrev == "XDT");
  // 2021-11-07 02:00 local daylight time = 06:00 UTC.
  CHECK(z->At(Utc(2021, 11, 7, 5, 59)).is_dst);
  CHECK(!z->At(Utc(2021, 11, 7, 6, 0)).is_dst);
}

TEST_CASE("tz: zone files, gaps and overlaps", "[tz]") {
  if (!std::filesystem::exists("/usr/share/zoneinfo/America/New_York")) return;
  auto z = LoadZone("america/new_york");
  REQUIRE(z);
  CHECK(z->name() == "America/New_York");
  CHECK(z->At(Utc(2000, 1, 1)).utoff == -5 * 3600);
  CHECK(z->At(Utc(2000, 7, 1)).abbrev == "EDT");
  CHECK(z->At(Utc(2100, 7, 1)).utoff == -4 * 3600);  // past the table: the footer rule
  CHECK(z->At(Utc(1850, 1, 1)).utoff == -(4 * 3600 + 56 * 60 + 2));  // local mean time
  // 02:30 on 2021-03-14 does not exist: the offset before the change.
  CHECK(z->OffsetForLocal(Utc(2021, 3, 14, 2, 30)) == -5 * 3600);
  // 01:30 on 2021-11-07 happens twice: the offset after the change.
  CHECK(z->OffsetForLocal(Utc(2021, 11, 7, 1, 30)) == -5 * 3600);
  CHECK(z->OffsetForLocal(Utc(2021, 7, 1, 12, 0)) == -4 * 3600);
  CHECK(LoadZone("UTC")->At(0).utoff == 0);
  CHECK(!LoadZone("../etc/passwd"));
  CHECK(!LoadZone("Mars/Olympus"));
}
