// Unit tests for config/registry and config/settings: defaults, file,
// command-line overrides, reload semantics and SHOW formatting.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <set>

#include "config/settings.h"
#include "config/value_parse.h"
#include "error_capture.h"

using namespace hearth;
using namespace hearth::config;
using hearth::config::testing::CaptureDbError;

TEST_CASE("registry: names unique, defaults parse, enums and bounds sane", "[config][registry]") {
  std::set<std::string> lower_names;
  for (const SettingDef& d : AllSettings()) {
    INFO(d.name);
    std::string l(d.name);
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CHECK(lower_names.insert(l).second);
    CHECK_FALSE(d.description.empty());
    CHECK_NOTHROW(ParseSettingValue(d, d.boot_value, SettingValue{}));
    if (d.type == SettingType::kEnum) CHECK_FALSE(d.options.empty());
    if (d.type == SettingType::kInt) CHECK(d.min_int <= d.max_int);
    if (d.type != SettingType::kInt && d.type != SettingType::kReal) CHECK(d.unit == Unit::kNone);
    // Every default survives a SHOW → parse round trip.
    SettingValue v = BootValue(d);
    CHECK(ParseSettingValue(d, FormatSettingValue(d, v), v) == v);
  }
  CHECK(FindSetting("SHARED_BUFFERS") == FindSetting("shared_buffers"));
  CHECK(FindSetting("datestyle")->name == "DateStyle");
  CHECK(FindSetting("no_such_setting") == nullptr);
  CHECK(SettingIndex(*FindSetting("port")) == static_cast<size_t>(FindSettingIndex("PORT")));
}

TEST_CASE("settings: defaults and typed getters", "[config][settings]") {
  Settings s;
  CHECK(s.GetString("listen_addresses") == "127.0.0.1");
  CHECK(s.GetInt("port") == 5433);
  CHECK(s.GetInt("max_connections") == 100);
  CHECK(s.GetInt("shared_buffers") == 16384);
  CHECK(s.GetInt("wal_buffers") == 2048);
  CHECK(s.GetInt("work_mem") == 4096);
  CHECK(s.GetInt("maintenance_work_mem") == 65536);
  CHECK(s.GetBool("fsync"));
  CHECK(s.GetString("synchronous_commit") == "on");
  CHECK(s.GetEnum("synchronous_commit") == static_cast<int>(SynchronousCommit::kOn));
  CHECK(s.GetString("wal_sync_method") == "fdatasync");
  CHECK(s.GetInt("commit_delay") == 0);
  CHECK(s.GetInt("commit_siblings") == 5);
  CHECK(s.GetInt("wal_writer_delay") == 200);
  CHECK(s.GetInt("checkpoint_timeout") == 300);
  CHECK(s.GetReal("checkpoint_completion_target") == Approx(0.9));
  CHECK(s.GetInt("max_wal_size") == 1024);
  CHECK(s.GetInt("min_wal_size") == 80);
  CHECK(s.GetInt("deadlock_timeout") == 1000);
  CHECK(s.GetInt("max_message_size") == 1073741824);
  CHECK(s.GetInt("authentication_timeout") == 60);
  CHECK(s.GetString("TimeZone") == "UTC");
  CHECK(s.GetString("DateStyle") == "ISO, MDY");
  CHECK(s.GetString("server_version") == "15.0 (Hearth 0.1)");
  CHECK(s.GetInt("server_version_num") == 150000);
  CHECK(s.GetInt("block_size") == 8192);
  CHECK(s.GetString("search_path") == "\"$user\", public");
  CHECK(s.GetSource("port") == Source::kDefault);

  CHECK_THROWS_AS(s.GetInt("fsync"), std::invalid_argument);
  CHECK_THROWS_AS(s.GetBool("nope"), std::invalid_argument);

  const HotSettings& h = s.hot();
  CHECK(h.shared_buffers_blocks == 16384);
  CHECK(h.wal_writer_delay_ms == 200);
  CHECK(h.synchronous_commit == SynchronousCommit::kOn);
  CHECK(h.wal_level == WalLevel::kReplica);
  CHECK(h.bgwriter_lru_multiplier == Approx(2.0));
  CHECK(h.log_min_messages == MessageLevel::kWarning);
}

TEST_CASE("settings: SHOW formatting of defaults", "[config][settings][format]") {
  Settings s;
  CHECK(s.Show("shared_buffers") == "128MB");
  CHECK(s.Show("wal_buffers") == "16MB");
  CHECK(s.Show("work_mem") == "4MB");
  CHECK(s.Show("maintenance_work_mem") == "64MB");
  CHECK(s.Show("checkpoint_timeout") == "5min");
  CHECK(s.Show("statement_timeout") == "0");
  CHECK(s.Show("wal_writer_delay") == "200ms");
  CHECK(s.Show("deadlock_timeout") == "1s");
  CHECK(s.Show("authentication_timeout") == "1min");
  CHECK(s.Show("max_wal_size") == "1GB");
  CHECK(s.Show("min_wal_size") == "80MB");
  CHECK(s.Show("max_message_size") == "1GB");
  CHECK(s.Show("wal_writer_flush_after") == "1MB");
  CHECK(s.Show("fsync") == "on");
  CHECK(s.Show("jit") == "off");
  CHECK(s.Show("default_transaction_isolation") == "read committed");
  CHECK(s.Show("bgwriter_lru_multiplier") == "2");
}

TEST_CASE("settings: file values apply, command line wins in any order", "[config][settings]") {
  Settings s;
  s.ApplyCommandLine("port", "6000");
  s.ApplyConfText(
      "port = 7000\n"
      "shared_buffers = 1GB\n"
      "Work_Mem = '16MB'\n"
      "work_mem = 32MB\n",  // last one wins
      "hearth.conf");
  s.ApplyCommandLine("shared_buffers", "256MB");
  CHECK(s.GetInt("port") == 6000);
  CHECK(s.GetSource("port") == Source::kCommandLine);
  CHECK(s.Show("shared_buffers") == "256MB");
  CHECK(s.hot().shared_buffers_blocks == 32768);
  CHECK(s.GetInt("work_mem") == 32768);
  CHECK(s.GetSource("work_mem") == Source::kFile);
}

TEST_CASE("settings: file errors carry file:line and apply nothing", "[config][settings]") {
  Settings s;
  DbError e = CaptureDbError(
      [&] { s.ApplyConfText("port = 7000\n# c\nno_such_thing = 1\n", "hearth.conf"); });
  CHECK(e.sqlstate() == kConfigFileError);
  CHECK(e.message() == "hearth.conf:3: unrecognized configuration parameter \"no_such_thing\"");
  CHECK(s.GetInt("port") == 5433);  // nothing applied

  e = CaptureDbError([&] { s.ApplyConfText("work_mem = 1kB\n", "/data/hearth.conf"); });
  CHECK(e.message() ==
        "/data/hearth.conf:1: 1 kB is outside the valid range for parameter \"work_mem\" "
        "(64 .. 2147483647)");

  e = CaptureDbError([&] { s.ApplyConfText("\nshared_buffers = 12XB\n", "h.conf"); });
  CHECK(e.message() == "h.conf:2: invalid value for parameter \"shared_buffers\": \"12XB\"");
  CHECK(e.hint() ==
        "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");

  e = CaptureDbError([&] { s.ApplyConfText("block_size = 4096\n", "h.conf"); });
  CHECK(e.message() == "h.conf:1: parameter \"block_size\" cannot be changed");

  e = CaptureDbError([&] { s.ApplyConfText("port = 'abc\n", "h.conf"); });
  CHECK(e.message() == "h.conf:1: unterminated quoted string");
}

TEST_CASE("settings: command-line errors", "[config][settings]") {
  Settings s;
  DbError e = CaptureDbError([&] { s.ApplyCommandLine("nonesuch", "1"); });
  CHECK(e.sqlstate() == "42704");
  CHECK(e.message() == "unrecognized configuration parameter \"nonesuch\"");
  e = CaptureDbError([&] { s.ApplyCommandLine("server_version", "1"); });
  CHECK(e.sqlstate() == "55P02");
  e = CaptureDbError([&] { s.ApplyCommandLine("port", "0"); });
  CHECK(e.sqlstate() == "22023");
  CHECK(e.message() == "0 is outside the valid range for parameter \"port\" (1 .. 65535)");
}

TEST_CASE("settings: reload changes sighup/user settings only", "[config][settings][reload]") {
  Settings s;
  s.ApplyCommandLine("bgwriter_delay", "50ms");
  s.ApplyConfText(
      "shared_buffers = 256MB\n"
      "checkpoint_timeout = 10min\n"
      "work_mem = 8MB\n"
      "max_wal_size = 2GB\n",
      "hearth.conf");
  REQUIRE(s.Show("checkpoint_timeout") == "10min");

  ReloadResult r = s.ReloadConfText(
      "shared_buffers = 512MB\n"     // postmaster: ignored
      "port = 5433\n"                // postmaster but unchanged: not listed
      "checkpoint_timeout = 15min\n" // sighup: applied
      "bgwriter_delay = 400ms\n"     // command line wins over the file
      "fsync = off\n"                // newly set
      "work_mem = 8MB\n",            // unchanged
      "hearth.conf");                // max_wal_size removed → back to default
  CHECK(r.ignored_restart_required == std::vector<std::string>{"shared_buffers"});
  CHECK(r.changed ==
        std::vector<std::string>{"fsync", "checkpoint_timeout", "max_wal_size"});
  CHECK(s.Show("shared_buffers") == "256MB");
  CHECK(s.Show("checkpoint_timeout") == "15min");
  CHECK(s.hot().checkpoint_timeout_s == 900);
  CHECK(s.GetInt("bgwriter_delay") == 50);
  CHECK_FALSE(s.hot().fsync);
  CHECK(s.GetInt("max_wal_size") == 1024);
  CHECK(s.GetSource("max_wal_size") == Source::kDefault);
  CHECK(s.GetSource("checkpoint_timeout") == Source::kFile);

  // Removing a postmaster setting from the file is also a restart-only change.
  r = s.ReloadConfText("checkpoint_timeout = 15min\nfsync = off\n", "hearth.conf");
  CHECK(r.ignored_restart_required == std::vector<std::string>{"shared_buffers"});
  CHECK(r.changed == std::vector<std::string>{"work_mem"});

  // A broken file changes nothing.
  DbError e = CaptureDbError(
      [&] { s.ReloadConfText("checkpoint_timeout = 20min\nfsync = perhaps\n", "hearth.conf"); });
  CHECK(e.message() == "hearth.conf:2: parameter \"fsync\" requires a Boolean value");
  CHECK(s.Show("checkpoint_timeout") == "15min");
}

TEST_CASE("settings: ApplyFile and Reload read real files", "[config][settings][reload]") {
  std::string path = "settings_test_tmp.conf";
  {
    std::ofstream out(path);
    out << "port = 6001\nwal_writer_delay = 10ms\n";
  }
  Settings s;
  s.ApplyFile(path);
  CHECK(s.GetInt("port") == 6001);
  CHECK(s.Show("wal_writer_delay") == "10ms");
  {
    std::ofstream out(path);
    out << "port = 6002\nwal_writer_delay = 20ms\n";
  }
  ReloadResult r = s.Reload(path);
  CHECK(r.ignored_restart_required == std::vector<std::string>{"port"});
  CHECK(r.changed == std::vector<std::string>{"wal_writer_delay"});
  CHECK(s.hot().wal_writer_delay_ms == 20);
  CHECK(s.GetInt("port") == 6001);
  std::remove(path.c_str());
}

TEST_CASE("settings: SetInternal sets read-only settings", "[config][settings]") {
  Settings s;
  s.SetInternal("data_directory", "/var/lib/hearth");
  CHECK(s.GetString("data_directory") == "/var/lib/hearth");
  CHECK(s.GetSource("data_directory") == Source::kInternal);
}
