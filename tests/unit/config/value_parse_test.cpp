// Unit tests for config/value_parse: PostgreSQL value syntax and messages.
#include <catch2/catch.hpp>

#include "common/error/sqlstate.h"
#include "config/registry.h"
#include "config/value_parse.h"
#include "error_capture.h"

using namespace hearth;
using namespace hearth::config;
using hearth::config::testing::CaptureDbError;

namespace {
const SettingDef& Def(std::string_view name) {
  const SettingDef* d = FindSetting(name);
  REQUIRE(d != nullptr);
  return *d;
}
SettingValue Parse(std::string_view name, std::string_view text) {
  return ParseSettingValue(Def(name), text);
}
}  // namespace

TEST_CASE("booleans accept PostgreSQL spellings and unique prefixes", "[config][parse]") {
  for (const char* t : {"on", "ON", "true", "TRUE", "t", "tr", "yes", "y", "Ye", "1"}) {
    INFO(t);
    CHECK(ParseBoolText(t) == std::optional<bool>(true));
  }
  for (const char* t : {"off", "OFF", "of", "false", "f", "fal", "no", "n", "0"}) {
    INFO(t);
    CHECK(ParseBoolText(t) == std::optional<bool>(false));
  }
  for (const char* t : {"", "o", "maybe", "2", "onn", "offf", "yess", "truee"}) {
    INFO(t);
    CHECK_FALSE(ParseBoolText(t).has_value());
  }
}

TEST_CASE("memory units convert to the base unit", "[config][parse]") {
  CHECK(ParseIntWithUnit("128MB", Unit::kBlocks) == 16384);
  CHECK(ParseIntWithUnit("8kB", Unit::kBlocks) == 1);
  CHECK(ParseIntWithUnit("1GB", Unit::kKilobytes) == 1048576);
  CHECK(ParseIntWithUnit("1TB", Unit::kMegabytes) == 1048576);
  CHECK(ParseIntWithUnit("4MB", Unit::kKilobytes) == 4096);
  CHECK(ParseIntWithUnit("1024", Unit::kKilobytes) == 1024);  // plain = base unit
  CHECK(ParseIntWithUnit("1.5GB", Unit::kMegabytes) == 1536);
  CHECK(ParseIntWithUnit("2048B", Unit::kKilobytes) == 2);
  CHECK(ParseIntWithUnit(" 64 MB ", Unit::kKilobytes) == 65536);
  CHECK(ParseIntWithUnit("1GB", Unit::kBytes) == 1073741824);
  // Units are case-sensitive, of the right kind, and only for unit settings.
  CHECK_FALSE(ParseIntWithUnit("128mb", Unit::kBlocks).has_value());
  CHECK_FALSE(ParseIntWithUnit("5s", Unit::kKilobytes).has_value());
  CHECK_FALSE(ParseIntWithUnit("5kB", Unit::kNone).has_value());
  CHECK_FALSE(ParseIntWithUnit("MB", Unit::kKilobytes).has_value());
  CHECK_FALSE(ParseIntWithUnit("0x10", Unit::kNone).has_value());
  CHECK_FALSE(ParseIntWithUnit("nan", Unit::kNone).has_value());
}

TEST_CASE("time units convert to the base unit", "[config][parse]") {
  CHECK(ParseIntWithUnit("200ms", Unit::kMilliseconds) == 200);
  CHECK(ParseIntWithUnit("5s", Unit::kMilliseconds) == 5000);
  CHECK(ParseIntWithUnit("1min", Unit::kSeconds) == 60);
  CHECK(ParseIntWithUnit("1h", Unit::kSeconds) == 3600);
  CHECK(ParseIntWithUnit("1d", Unit::kMilliseconds) == 86400000);
  CHECK(ParseIntWithUnit("1500us", Unit::kMilliseconds) == 2);  // rounded
  CHECK(ParseIntWithUnit("2ms", Unit::kMicroseconds) == 2000);
  CHECK(ParseIntWithUnit("-1", Unit::kMilliseconds) == -1);
  CHECK_FALSE(ParseIntWithUnit("5 sec", Unit::kSeconds).has_value());
}

TEST_CASE("int settings: bounds and messages", "[config][parse]") {
  CHECK(Parse("shared_buffers", "128MB").i == 16384);
  CHECK(Parse("shared_buffers", "16").i == 16);
  CHECK(Parse("work_mem", "64kB").i == 64);

  DbError e = CaptureDbError([] { Parse("shared_buffers", "8"); });
  CHECK(e.sqlstate() == sqlstate::kInvalidParameterValue);
  CHECK(e.message() ==
        "8 8kB is outside the valid range for parameter \"shared_buffers\" "
        "(16 .. 1073741823)");

  e = CaptureDbError([] { Parse("work_mem", "1kB"); });
  CHECK(e.message() ==
        "1 kB is outside the valid range for parameter \"work_mem\" (64 .. 2147483647)");

  e = CaptureDbError([] { Parse("extra_float_digits", "4"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() ==
        "4 is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)");

  // PostgreSQL 15 hints at units only after a number ('5 parsecs').
  e = CaptureDbError([] { Parse("work_mem", "lots"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "invalid value for parameter \"work_mem\": \"lots\"");
  CHECK(e.hint().empty());
  e = CaptureDbError([] { Parse("work_mem", "5 parsecs"); });
  CHECK(e.message() == "invalid value for parameter \"work_mem\": \"5 parsecs\"");
  CHECK(e.hint() ==
        "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");

  e = CaptureDbError([] { Parse("statement_timeout", "5 sec"); });
  CHECK(e.message() == "invalid value for parameter \"statement_timeout\": \"5 sec\"");
  CHECK(e.hint() ==
        "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".");

  e = CaptureDbError([] { Parse("port", "54x"); });
  CHECK(e.message() == "invalid value for parameter \"port\": \"54x\"");
  CHECK(e.hint().empty());

  e = CaptureDbError([] { Parse("statement_timeout", "-1"); });
  CHECK(e.message() ==
        "-1 ms is outside the valid range for parameter \"statement_timeout\" "
        "(0 .. 2147483647)");

  e = CaptureDbError([] { Parse("work_mem", "99999999999999999999999TB"); });
  CHECK(e.hint() == "Value exceeds integer range.");
}

TEST_CASE("real, bool and enum settings", "[config][parse]") {
  CHECK(Parse("checkpoint_completion_target", "0.5").r == Approx(0.5));
  DbError e = CaptureDbError([] { Parse("checkpoint_completion_target", "1.5"); });
  CHECK(e.message() ==
        "1.5 is outside the valid range for parameter \"checkpoint_completion_target\" (0 .. 1)");
  e = CaptureDbError([] { Parse("bgwriter_lru_multiplier", "abc"); });
  CHECK(e.message() == "parameter \"bgwriter_lru_multiplier\" requires a numeric value");

  CHECK(Parse("fsync", "off").i == 0);
  CHECK(Parse("fsync", "YES").i == 1);
  e = CaptureDbError([] { Parse("fsync", "maybe"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "parameter \"fsync\" requires a Boolean value");

  SettingValue v = Parse("synchronous_commit", "LOCAL");
  CHECK(v.s == "local");
  CHECK(v.i == 1);
  CHECK(Parse("synchronous_commit", "true").s == "on");  // hidden alias
  CHECK(Parse("default_transaction_isolation", "Repeatable Read").s == "repeatable read");
  CHECK(Parse("wal_level", "hot_standby").s == "replica");
  e = CaptureDbError([] { Parse("wal_sync_method", "magic"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "invalid value for parameter \"wal_sync_method\": \"magic\"");
  CHECK(e.hint() == "Available values: fsync, fdatasync, open_datasync.");
  e = CaptureDbError([] { Parse("synchronous_commit", "maybe"); });
  CHECK(e.hint() == "Available values: local, remote_write, remote_apply, on, off.");
}

TEST_CASE("FormatSettingValue prints like SHOW", "[config][format]") {
  auto show = [](std::string_view name, std::string_view text) {
    return FormatSettingValue(Def(name), Parse(name, text));
  };
  CHECK(show("shared_buffers", "16384") == "128MB");
  CHECK(show("shared_buffers", "100") == "800kB");
  CHECK(show("shared_buffers", "1GB") == "1GB");
  CHECK(show("work_mem", "4096") == "4MB");
  CHECK(show("work_mem", "1000") == "1000kB");
  CHECK(show("max_wal_size", "1024") == "1GB");
  CHECK(show("max_message_size", "1048576") == "1MB");
  CHECK(show("max_message_size", "1048577") == "1048577B");
  CHECK(show("checkpoint_timeout", "300") == "5min");
  CHECK(show("checkpoint_timeout", "90") == "90s");
  CHECK(show("statement_timeout", "0") == "0");
  CHECK(show("statement_timeout", "3600000") == "1h");
  CHECK(show("deadlock_timeout", "1000") == "1s");
  CHECK(show("wal_writer_delay", "200") == "200ms");
  CHECK(show("commit_delay", "10") == "10us");
  CHECK(show("authentication_timeout", "86400ms") == "86s");
  CHECK(show("fsync", "true") == "on");
  CHECK(show("jit", "0") == "off");
  CHECK(show("bgwriter_lru_multiplier", "2.0") == "2");
  CHECK(show("checkpoint_completion_target", "0.9") == "0.9");
  CHECK(show("port", "5433") == "5433");
  CHECK(show("log_statement", "ALL") == "all");
}
