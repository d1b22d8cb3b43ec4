// pg_stat_user_tables and autovacuum end to end: the counters after inserts,
// HOT and non-HOT updates, deletes and a rollback are PostgreSQL 15's; a
// table with churn is vacuumed by a worker without a manual VACUUM; a table
// WITH (autovacuum_enabled = false) is left alone; DROP TABLE does not wait
// behind a worker busy on the table (the worker is cancelled).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <string>
#include <thread>

#include "test_server.h"

using namespace hearth::testing;

namespace {

// Polls `sql` until it returns `want` or `limit` passes; returns the last value.
std::string WaitForValue(const TestServer& server, const std::string& sql, const std::string& want,
                         std::chrono::seconds limit = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::string got = server.PsqlValue(sql);
  while (got != want && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    got = server.PsqlValue(sql);
  }
  return got;
}

std::string ValuesList(int from, int to, const std::string& row_suffix = "") {
  std::string s;
  for (int i = from; i <= to; ++i) {
    if (!s.empty()) s += ",";
    s += "(" + std::to_string(i) + row_suffix + ")";
  }
  return s;
}

// Rows of about 500 bytes: `rows` of them fill rows / 15 heap pages.
std::string WideCopyData(int rows) {
  std::string data;
  const std::string pad(500, 'x');
  for (int i = 1; i <= rows; ++i) data += std::to_string(i) + "\t" + pad + "\n";
  return data + "\\.\n";
}

// Settings under which a worker sleeps 100 ms per page (cost limit 1).
Settings SlowWorkerSettings() {
  return Settings{{"autovacuum_naptime", "1"},
                  {"autovacuum_vacuum_cost_delay", "100ms"},
                  {"autovacuum_vacuum_cost_limit", "1"},
                  {"log_min_messages", "info"}};
}

// Loads `rows` wide rows into a new table, deletes them, and waits until an
// autovacuum worker holds its ShareUpdateExclusiveLock. Returns the pid of
// the worker holding it.
std::string BusyWorkerOn(const TestServer& server, const std::string& table, int rows) {
  REQUIRE(server.PsqlScript("\\set ON_ERROR_STOP 1\ncreate table " + table + "(a int, pad text);\n").exit_code == 0);
  REQUIRE(server.Psql({"-c", "copy " + table + " from stdin"}, WideCopyData(rows)).exit_code == 0);
  REQUIRE(server.PsqlScript("delete from " + table + ";\n").exit_code == 0);
  const std::string relid = server.PsqlValue("select relid from pg_stat_user_tables where relname = '" + table + "'");
  const std::string held =
      "select count(*) from pg_locks where relation = " + relid + " and mode = 'ShareUpdateExclusiveLock' and granted";
  REQUIRE(WaitForValue(server, held, "1") == "1");
  return server.PsqlValue("select pid from pg_locks where relation = " + relid +
                          " and mode = 'ShareUpdateExclusiveLock' and granted");
}

}  // namespace

TEST_CASE("autovacuum: pg_stat_user_tables counts as PostgreSQL 15", "[autovacuum_test]") {
  TestServer server(Settings{{"autovacuum", "off"}});
  const CommandResult r = server.PsqlScript(
      "\\set ON_ERROR_STOP 1\n"
      "create table s(a int primary key, b int);\n"
      "insert into s values " + ValuesList(1, 10, ", 0") + ";\n"
      "update s set b = b + 1 where a <= 3;\n"      // HOT: b is not indexed
      "update s set a = a + 100 where a = 10;\n"    // the key changes: not HOT
      "delete from s where a = 9;\n"
      "begin;\n"
      "insert into s values (50, 50), (51, 51);\n"  // rolled back: dead rows
      "rollback;\n");
  REQUIRE(r.exit_code == 0);
  // What PostgreSQL 15 shows for the same script (scan counts depend on plans).
  CHECK(server.PsqlValue("select n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd, n_live_tup, n_dead_tup, "
                         "n_mod_since_analyze, n_ins_since_vacuum, vacuum_count, analyze_count "
                         "from pg_stat_user_tables where relname = 's'") == "12|4|1|3|9|7|15|12|0|0");
  CHECK(server.PsqlValue("select last_vacuum is null and last_autovacuum is null and last_analyze is null "
                         "and last_autoanalyze is null from pg_stat_user_tables where relname = 's'") == "t");

  REQUIRE(server.PsqlScript("vacuum s;\nanalyze s;\n").exit_code == 0);
  CHECK(server.PsqlValue("select n_live_tup, n_dead_tup, n_mod_since_analyze, n_ins_since_vacuum, vacuum_count, "
                         "analyze_count, autovacuum_count, last_vacuum is not null, last_analyze is not null "
                         "from pg_stat_user_tables where relname = 's'") == "9|0|0|0|1|1|0|t|t");

  // PostgreSQL 15's columns, in its order; catalogs are "sys" tables.
  const CommandResult cols = server.Psql({"-A", "-c", "select * from pg_stat_user_tables where relname = 's'"});
  REQUIRE(cols.exit_code == 0);
  CHECK(cols.out.substr(0, cols.out.find('\n')) ==
        "relid|schemaname|relname|seq_scan|seq_tup_read|idx_scan|idx_tup_fetch|n_tup_ins|n_tup_upd|n_tup_del|"
        "n_tup_hot_upd|n_live_tup|n_dead_tup|n_mod_since_analyze|n_ins_since_vacuum|last_vacuum|last_autovacuum|"
        "last_analyze|last_autoanalyze|vacuum_count|autovacuum_count|analyze_count|autoanalyze_count");
  CHECK(server.PsqlValue("select count(*) from pg_stat_sys_tables where relname = 's'") == "0");
  CHECK(server.PsqlValue("select count(*) from pg_stat_sys_tables where schemaname = 'pg_catalog'") ==
        server.PsqlValue("select count(*) from pg_stat_sys_tables"));
  CHECK(server.PsqlValue("select count(*) from pg_stat_all_tables where relname = 's'") == "1");

  // TRUNCATE restarts the live/dead counts; a dropped table's row goes.
  REQUIRE(server.PsqlScript("truncate s;\ninsert into s values (1, 1);\n").exit_code == 0);
  CHECK(server.PsqlValue("select n_live_tup, n_dead_tup, n_tup_ins from pg_stat_user_tables where relname = 's'") ==
        "1|0|13");
  REQUIRE(server.PsqlScript("drop table s;\n").exit_code == 0);
  CHECK(server.PsqlValue("select count(*) from pg_stat_user_tables where relname = 's'") == "0");

  // Versions that pruning on access frees are no longer dead (PostgreSQL
  // lowers n_dead_tup the same way): 300 HOT updates of one row overflow
  // its page, so the page is pruned on the way.
  std::string updates = "create table h(a int primary key, b int);\ninsert into h values (1, 0);\n";
  for (int i = 0; i < 300; ++i) updates += "update h set b = b + 1;\n";
  REQUIRE(server.PsqlScript(updates).exit_code == 0);
  CHECK(server.PsqlValue("select n_tup_upd, n_tup_hot_upd, n_live_tup, n_dead_tup < 300 "
                         "from pg_stat_user_tables where relname = 'h'") == "300|300|1|t");

  // The reloption is checked as PostgreSQL does.
  const CommandResult bad = server.PsqlScript("create table bad(a int) with (autovacuum_enabled = maybe);\n");
  CHECK(bad.out.find("invalid value for boolean option \"autovacuum_enabled\": maybe") != std::string::npos);
}

TEST_CASE("autovacuum: churn is vacuumed by a worker; autovacuum_enabled = false is left alone",
          "[autovacuum_test]") {
  TestServer server(Settings{{"autovacuum_naptime", "1"}, {"log_autovacuum_min_duration", "0"}});
  // The opted-out table's churn comes first: the worker that sees t's sees it.
  REQUIRE(server.PsqlScript("\\set ON_ERROR_STOP 1\n"
                            "create table off_t(a int, b int) with (autovacuum_enabled = false);\n"
                            "insert into off_t values " + ValuesList(1, 200, ", 0") + ";\n"
                            "delete from off_t;\n"
                            "create table t(a int primary key, b int);\n"
                            "insert into t values " + ValuesList(1, 200, ", 0") + ";\n"
                            "update t set b = b + 1;\n"
                            "delete from t where a > 150;\n")
              .exit_code == 0);
  // 250 dead versions > autovacuum_vacuum_threshold (50) + 0.2 * reltuples.
  CHECK(WaitForValue(server, "select autovacuum_count >= 1 from pg_stat_user_tables where relname = 't'", "t") ==
        "t");
  CHECK(server.PsqlValue("select n_dead_tup < 250, n_live_tup, last_autovacuum is not null "
                         "from pg_stat_user_tables where relname = 't'") == "t|150|t");
  CHECK(server.PsqlValue("select autovacuum_count, autoanalyze_count, n_dead_tup "
                         "from pg_stat_user_tables where relname = 'off_t'") == "0|0|200");
  CHECK(server.log().find("automatic vacuum of table \"hearth.public.t\"") != std::string::npos);
  CHECK(server.log().find("public.off_t") == std::string::npos);
}

TEST_CASE("autovacuum: DROP TABLE cancels a worker busy on the table instead of waiting", "[autovacuum_test]") {
  // 300 pages at 100 ms each: the worker needs half a minute for the table.
  TestServer server(SlowWorkerSettings());
  BusyWorkerOn(server, "big", 4500);
  // Without the cancel the DROP would wait out lock_timeout (the worker
  // has tens of seconds of pages left) and fail with 55P03.
  const CommandResult drop =
      server.PsqlScript("\\set ON_ERROR_STOP 1\nset deadlock_timeout = '100ms';\nset lock_timeout = '10s';\n"
                        "drop table big;\n");
  INFO(drop.out);
  CHECK(drop.exit_code == 0);
  CHECK(drop.out.find("DROP TABLE") != std::string::npos);
  CHECK(server.PsqlValue("select count(*) from pg_stat_user_tables where relname = 'big'") == "0");
  CHECK(server.log().find("canceling autovacuum task") != std::string::npos);
}

TEST_CASE("autovacuum: a busy worker does not hold up shutdown; a crashed one resets the server",
          "[autovacuum_test]") {
  TestServer server(SlowWorkerSettings());
  REQUIRE(server.PsqlScript("\\set ON_ERROR_STOP 1\ncreate table kept(a int);\ninsert into kept values (1), (2);\n")
              .exit_code == 0);
  // A worker that dies by a signal may have left shared memory half-changed.
  const std::string pid = BusyWorkerOn(server, "crashy", 4500);
  REQUIRE(kill(std::stoi(pid), SIGKILL) == 0);
  REQUIRE(WaitForValue(server, "select 1", "1") == "1");
  const auto reset_seen = [&] {
    return server.log().find("autovacuum worker process (PID " + pid + ") was terminated by signal 9") !=
           std::string::npos;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!reset_seen() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(reset_seen());
  CHECK(WaitForValue(server, "select count(*) from kept", "2") == "2");

  // 600 pages at 100 ms each: a minute of work, twice what Stop waits.
  BusyWorkerOn(server, "huge", 9000);
  const int status = server.Stop(SIGTERM);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(server.log().find("database system is shut down") != std::string::npos);
}
