// Unit tests for config/session_settings: SET/SHOW/RESET semantics, errors
// with exact SQLSTATEs and messages, transactions, ParameterStatus reports,
// startup options and the values real drivers send.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "config/session_settings.h"
#include "error_capture.h"

using namespace hearth;
using namespace hearth::config;
using hearth::config::testing::CaptureDbError;

namespace {
void Set1(SessionSettings& s, std::string_view name, std::string value, bool local = false) {
  s.Set(name, {std::move(value)}, local);
}
}  // namespace

TEST_CASE("session: SET and SHOW, names case-insensitive", "[config][session]") {
  Settings base;
  SessionSettings s(base);
  CHECK(s.Show("work_mem") == "4MB");
  Set1(s, "WORK_MEM", "64MB");
  CHECK(s.Show("work_mem") == "64MB");
  CHECK(s.GetInt("work_mem") == 65536);
  CHECK(s.hot().work_mem_kb == 65536);
  Set1(s, "statement_timeout", "5s");
  CHECK(s.Show("statement_timeout") == "5s");
  CHECK(s.hot().statement_timeout_ms == 5000);
  Set1(s, "extra_float_digits", "3");
  CHECK(s.hot().extra_float_digits == 3);
  Set1(s, "client_min_messages", "WARNING");
  CHECK(s.Show("client_min_messages") == "warning");
  CHECK(s.hot().client_min_messages == MessageLevel::kWarning);
  Set1(s, "default_transaction_isolation", "serializable");
  CHECK(s.hot().default_transaction_isolation == IsolationLevel::kSerializable);
  // Base settings are not affected by a session.
  CHECK(base.Show("work_mem") == "4MB");
}

TEST_CASE("session: error SQLSTATEs and messages", "[config][session][errors]") {
  Settings base;
  SessionSettings s(base);
  DbError e = CaptureDbError([&] { Set1(s, "no_such_param", "1"); });
  CHECK(e.sqlstate() == "42704");
  CHECK(e.message() == "unrecognized configuration parameter \"no_such_param\"");
  e = CaptureDbError([&] { s.Show("no_such_param"); });
  CHECK(e.sqlstate() == "42704");
  CHECK(e.message() == "unrecognized configuration parameter \"no_such_param\"");

  e = CaptureDbError([&] { Set1(s, "shared_buffers", "1GB"); });
  CHECK(e.sqlstate() == "55P02");
  CHECK(e.message() ==
        "parameter \"shared_buffers\" cannot be changed without restarting the server");
  e = CaptureDbError([&] { Set1(s, "fsync", "off"); });
  CHECK(e.sqlstate() == "55P02");
  CHECK(e.message() == "parameter \"fsync\" cannot be changed now");
  e = CaptureDbError([&] { Set1(s, "server_version", "16"); });
  CHECK(e.sqlstate() == "55P02");
  CHECK(e.message() == "parameter \"server_version\" cannot be changed");
  e = CaptureDbError([&] { s.Reset("port"); });
  CHECK(e.sqlstate() == "55P02");

  e = CaptureDbError([&] { Set1(s, "extra_float_digits", "4"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() ==
        "4 is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)");
  e = CaptureDbError([&] { Set1(s, "work_mem", "12 parsecs"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "invalid value for parameter \"work_mem\": \"12 parsecs\"");
  e = CaptureDbError([&] { s.Set("work_mem", {"1MB", "2MB"}, false); });
  CHECK(e.sqlstate() == "42601");
  CHECK(e.message() == "SET work_mem takes only one argument");
  // Failed SETs leave the value alone.
  CHECK(s.Show("work_mem") == "4MB");
}

TEST_CASE("session: list values", "[config][session]") {
  Settings base;
  SessionSettings s(base);
  s.Set("search_path", {"$user", "public", "MySchema", "app"}, false);
  CHECK(s.Show("search_path") == "\"$user\", public, \"MySchema\", app");
  s.Set("search_path", {"a, b"}, false);  // one string constant = one schema
  CHECK(s.Show("search_path") == "\"a, b\"");
  s.Set("DateStyle", {"iso", "dmy"}, false);
  CHECK(s.Show("datestyle") == "ISO, DMY");
}

TEST_CASE("session: RESET, DEFAULT and RESET ALL", "[config][session]") {
  Settings base;
  base.ApplyConfText("work_mem = 16MB\n", "hearth.conf");
  SessionSettings s(base);
  s.ApplyStartupOption("application_name", "psql");
  Set1(s, "work_mem", "1GB");
  Set1(s, "application_name", "other");
  Set1(s, "lock_timeout", "2s");
  s.Reset("work_mem");
  CHECK(s.Show("work_mem") == "16MB");  // the file's value, not the built-in default
  s.SetDefault("lock_timeout", false);
  CHECK(s.Show("lock_timeout") == "0");
  Set1(s, "work_mem", "1GB");
  s.ResetAll();
  CHECK(s.Show("work_mem") == "16MB");
  CHECK(s.Show("application_name") == "psql");  // startup value is the reset value
  s.SetInternal("is_superuser", "off");
  s.ResetAll();
  CHECK(s.Show("is_superuser") == "off");
}

TEST_CASE("session: SET / SET LOCAL across commit and abort", "[config][session][xact]") {
  Settings base;
  SessionSettings s(base);

  SECTION("SET survives commit, is undone by abort") {
    Set1(s, "work_mem", "8MB");
    s.AtTransactionEnd(true);
    CHECK(s.Show("work_mem") == "8MB");
    Set1(s, "work_mem", "16MB");
    Set1(s, "work_mem", "32MB");
    s.AtTransactionEnd(false);
    CHECK(s.Show("work_mem") == "8MB");
    CHECK(s.hot().work_mem_kb == 8192);
  }
  SECTION("SET LOCAL ends with the transaction either way") {
    Set1(s, "statement_timeout", "1s", true);
    CHECK(s.Show("statement_timeout") == "1s");
    CHECK(s.hot().statement_timeout_ms == 1000);
    s.AtTransactionEnd(true);
    CHECK(s.Show("statement_timeout") == "0");
    CHECK(s.hot().statement_timeout_ms == 0);
    Set1(s, "statement_timeout", "1s", true);
    s.AtTransactionEnd(false);
    CHECK(s.Show("statement_timeout") == "0");
  }
  SECTION("SET then SET LOCAL: the SET value returns at commit") {
    Set1(s, "work_mem", "8MB");
    Set1(s, "work_mem", "64MB", true);
    CHECK(s.Show("work_mem") == "64MB");
    s.AtTransactionEnd(true);
    CHECK(s.Show("work_mem") == "8MB");
  }
  SECTION("SET LOCAL then SET: the SET wins at commit, abort restores") {
    Set1(s, "work_mem", "64MB", true);
    Set1(s, "work_mem", "8MB");
    s.AtTransactionEnd(true);
    CHECK(s.Show("work_mem") == "8MB");
    Set1(s, "work_mem", "64MB", true);
    Set1(s, "work_mem", "16MB");
    s.AtTransactionEnd(false);
    CHECK(s.Show("work_mem") == "8MB");
  }
  SECTION("RESET inside an aborted transaction is undone") {
    Set1(s, "work_mem", "8MB");
    s.AtTransactionEnd(true);
    s.Reset("work_mem");
    CHECK(s.Show("work_mem") == "4MB");
    s.AtTransactionEnd(false);
    CHECK(s.Show("work_mem") == "8MB");
  }
}

TEST_CASE("session: ParameterStatus reporting", "[config][session][report]") {
  Settings base;
  SessionSettings s(base);
  s.ApplyStartupOption("application_name", "pgbench");
  s.SetInternal("session_authorization", "alice");
  NameValueList initial = s.ReportedParameters();
  auto value_of = [&](const std::string& name) {
    auto it = std::find_if(initial.begin(), initial.end(),
                           [&](const auto& p) { return p.first == name; });
    REQUIRE(it != initial.end());
    return it->second;
  };
  CHECK(initial.size() == 13);
  CHECK(value_of("server_version") == "15.0 (Hearth 0.1)");
  CHECK(value_of("client_encoding") == "UTF8");
  CHECK(value_of("server_encoding") == "UTF8");
  CHECK(value_of("DateStyle") == "ISO, MDY");
  CHECK(value_of("integer_datetimes") == "on");
  CHECK(value_of("standard_conforming_strings") == "on");
  CHECK(value_of("IntervalStyle") == "postgres");
  CHECK(value_of("TimeZone") == "UTC");
  CHECK(value_of("is_superuser") == "on");
  CHECK(value_of("session_authorization") == "alice");
  CHECK(value_of("application_name") == "pgbench");
  CHECK(value_of("default_transaction_read_only") == "off");
  CHECK(value_of("in_hot_standby") == "off");

  CHECK(s.TakeReportChanges().empty());
  Set1(s, "work_mem", "8MB");  // not reported
  CHECK(s.TakeReportChanges().empty());
  Set1(s, "application_name", "x");
  Set1(s, "TimeZone", "Etc/UTC");
  NameValueList changes = s.TakeReportChanges();
  REQUIRE(changes.size() == 2);
  CHECK(changes[0] == std::make_pair(std::string("application_name"), std::string("x")));
  CHECK(changes[1] == std::make_pair(std::string("TimeZone"), std::string("Etc/UTC")));
  CHECK(s.TakeReportChanges().empty());
  s.AtTransactionEnd(true);
  CHECK(s.TakeReportChanges().empty());  // commit keeps the reported values

  // Changed and rolled back before being asked: nothing to report.
  Set1(s, "DateStyle", "ISO, DMY");
  s.AtTransactionEnd(false);
  CHECK(s.TakeReportChanges().empty());
  // Rolled back after being reported: report the old value again.
  Set1(s, "DateStyle", "ISO, DMY");
  CHECK(s.TakeReportChanges().size() == 1);
  s.AtTransactionEnd(false);
  changes = s.TakeReportChanges();
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].second == "ISO, MDY");
}

TEST_CASE("session: startup packet options", "[config][session][startup]") {
  Settings base;
  SessionSettings s(base);
  CHECK_FALSE(s.ApplyStartupOption("user", "alice"));
  CHECK_FALSE(s.ApplyStartupOption("database", "db"));
  CHECK(s.ApplyStartupOption("client_encoding", "utf-8"));
  CHECK(s.Show("client_encoding") == "UTF8");
  CHECK(s.ApplyStartupOption(
      "options", "-c search_path=app,public --statement-timeout=5s -c application_name=my\\ app"));
  CHECK(s.Show("search_path") == "app,public");
  CHECK(s.Show("statement_timeout") == "5s");
  CHECK(s.Show("application_name") == "my app");
  s.Reset("statement_timeout");
  CHECK(s.Show("statement_timeout") == "5s");  // startup value is the reset value

  DbError e = CaptureDbError([&] { s.ApplyStartupOption("bogus", "1"); });
  CHECK(e.severity() == Severity::kFatal);
  CHECK(e.sqlstate() == "42704");
  CHECK(e.message() == "unrecognized configuration parameter \"bogus\"");
  e = CaptureDbError([&] { s.ApplyStartupOption("options", "-c shared_buffers=1GB"); });
  CHECK(e.severity() == Severity::kFatal);
  CHECK(e.sqlstate() == "55P02");
  CHECK(e.message() ==
        "parameter \"shared_buffers\" cannot be changed without restarting the server");
  e = CaptureDbError([&] { s.ApplyStartupOption("options", "-c work_mem"); });
  CHECK(e.severity() == Severity::kFatal);
  CHECK(e.sqlstate() == "42601");
  e = CaptureDbError([&] { s.ApplyStartupOption("extra_float_digits", "9"); });
  CHECK(e.severity() == Severity::kFatal);
  CHECK(e.sqlstate() == "22023");
}

TEST_CASE("session: values real drivers send", "[config][session][drivers]") {
  Settings base;
  SessionSettings s(base);
  for (const char* enc : {"UTF8", "utf8", "UNICODE", "utf-8", "Utf_8"}) {
    INFO(enc);
    Set1(s, "client_encoding", enc);
    CHECK(s.Show("client_encoding") == "UTF8");
  }
  Set1(s, "client_encoding", "SQL_ASCII");
  CHECK(s.Show("client_encoding") == "SQL_ASCII");
  DbError e = CaptureDbError([&] { Set1(s, "client_encoding", "LATIN1"); });
  CHECK(e.sqlstate() == "0A000");
  CHECK(e.message() == "conversion between LATIN1 and UTF8 is not supported");
  e = CaptureDbError([&] { Set1(s, "client_encoding", "klingon"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "invalid value for parameter \"client_encoding\": \"klingon\"");

  Set1(s, "DateStyle", "ISO");
  CHECK(s.Show("DateStyle") == "ISO, MDY");
  Set1(s, "DateStyle", "iso, dmy");
  CHECK(s.Show("DateStyle") == "ISO, DMY");
  Set1(s, "DateStyle", "ISO");  // keeps the current order
  CHECK(s.Show("DateStyle") == "ISO, DMY");
  Set1(s, "DateStyle", "ISO, MDY");
  CHECK(s.Show("DateStyle") == "ISO, MDY");
  Set1(s, "DateStyle", "sql, dmy");
  CHECK(s.Show("DateStyle") == "SQL, DMY");
  Set1(s, "DateStyle", "Postgres");  // keeps the current order
  CHECK(s.Show("DateStyle") == "Postgres, DMY");
  Set1(s, "DateStyle", "German, MDY");
  CHECK(s.Show("DateStyle") == "German, MDY");
  Set1(s, "DateStyle", "ISO, MDY");
  e = CaptureDbError([&] { Set1(s, "DateStyle", "SQL, ISO"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "invalid value for parameter \"DateStyle\": \"SQL, ISO\"");
  e = CaptureDbError([&] { Set1(s, "DateStyle", "dmy, mdy"); });
  CHECK(e.detail() == "Conflicting \"datestyle\" specifications.");

  Set1(s, "TimeZone", "utc");
  CHECK(s.Show("TimeZone") == "UTC");
  Set1(s, "TimeZone", "GMT");
  CHECK(s.Show("TimeZone") == "GMT");
  Set1(s, "timezone", "Etc/UTC");
  CHECK(s.Show("TimeZone") == "Etc/UTC");
  if (std::filesystem::exists("/usr/share/zoneinfo/Europe/Paris")) {
    Set1(s, "TimeZone", "Europe/Paris");
    CHECK(s.Show("TimeZone") == "Europe/Paris");
    Set1(s, "TimeZone", "europe/paris");
    CHECK(s.Show("TimeZone") == "Europe/Paris");
  }
  for (const char* bad : {"Mars/Olympus", "../etc/passwd", "/etc/passwd", ""}) {
    INFO(bad);
    e = CaptureDbError([&] { Set1(s, "TimeZone", bad); });
    CHECK(e.sqlstate() == "22023");
  }

  Set1(s, "extra_float_digits", "-15");
  CHECK(s.Show("extra_float_digits") == "-15");
  for (const char* st : {"postgres", "iso_8601", "sql_standard", "postgres_verbose"}) {
    Set1(s, "IntervalStyle", st);
    CHECK(s.Show("IntervalStyle") == st);
  }
  CHECK(s.hot().interval_style == IntervalStyle::kPostgresVerbose);

  Set1(s, "application_name", std::string(100, 'a'));
  CHECK(s.Show("application_name") == std::string(63, 'a'));
  Set1(s, "application_name", "caf\xc3\xa9\n");
  CHECK(s.Show("application_name") == "caf???");

  e = CaptureDbError([&] { Set1(s, "standard_conforming_strings", "off"); });
  CHECK(e.sqlstate() == "0A000");
  Set1(s, "standard_conforming_strings", "on");
  Set1(s, "transaction_isolation", "repeatable read");
  CHECK(s.Show("transaction_isolation") == "repeatable read");
}

TEST_CASE("session: SHOW ALL sorted case-insensitively", "[config][session]") {
  Settings base;
  SessionSettings s(base);
  std::vector<ShowRow> rows = s.ShowAll();
  CHECK(rows.size() == AllSettings().size());
  auto find = [&](std::string_view n) {
    return std::find_if(rows.begin(), rows.end(), [&](const ShowRow& r) { return r.name == n; });
  };
  REQUIRE(find("DateStyle") != rows.end());
  CHECK(find("DateStyle")->setting == "ISO, MDY");
  CHECK(find("shared_buffers")->setting == "128MB");
  CHECK(find("shared_buffers")->description ==
        "Sets the number of shared memory buffers used by the server.");
  CHECK(find("data_directory") < find("DateStyle"));
  CHECK(find("DateStyle") < find("deadlock_timeout"));
  CHECK(rows.front().name == "application_name");
}

TEST_CASE("session: OnReload adopts new defaults except session-set ones",
          "[config][session][reload]") {
  Settings base;
  SessionSettings s(base);
  s.ApplyStartupOption("statement_timeout", "1s");
  Set1(s, "lock_timeout", "3s");
  base.ReloadConfText(
      "work_mem = 32MB\nstatement_timeout = 9s\nlock_timeout = 9s\nfsync = off\n", "hearth.conf");
  s.OnReload(base);
  CHECK(s.Show("work_mem") == "32MB");
  CHECK(s.Show("statement_timeout") == "1s");  // from the client
  CHECK(s.Show("lock_timeout") == "3s");       // SET in the session
  CHECK(s.Show("fsync") == "off");             // sighup setting follows the server
  s.Reset("lock_timeout");
  CHECK(s.Show("lock_timeout") == "9s");
}
