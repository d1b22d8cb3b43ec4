// Crash recovery end to end: kill -9 of the postmaster and every child, then
// a restart, which replays WAL. Checks that every acknowledged commit is
// there, that nothing of a transaction that never got its COMMIT
// acknowledged is, and that DROP TABLE follows its transaction's outcome.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crash_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

std::set<int> Ids(int port, const std::string& table) {
  RawConn c(port);
  REQUIRE(LastStatus(c.Startup()) == 'I');
  auto msgs = c.Query("select id from " + table);
  INFO(FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  std::set<int> out;
  for (const std::string& v : FirstColumn(msgs)) out.insert(std::stoi(v));
  return out;
}

// A client commits single-row inserts in a loop; kill -9 after `kill_after_ms`.
void CommitStreamThenCrash(TestServer& server, const std::string& table, int kill_after_ms) {
  {
    RawConn setup(server.port());
    REQUIRE(LastStatus(setup.Startup()) == 'I');
    REQUIRE(Ok(setup.Query("create table " + table + " (id int, pad text)")));
  }
  std::set<int> acked;
  int in_flight = -1;
  std::atomic<bool> stop{false};
  std::thread killer([&] {
    SleepMs(kill_after_ms);
    stop = true;
  });
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    for (int i = 0; !stop; ++i) {
      in_flight = i;
      auto msgs = c.Query("insert into " + table + " values (" + std::to_string(i) + ", repeat('x', 50))", 5000);
      REQUIRE(Ok(msgs));
      acked.insert(i);
      in_flight = -1;
    }
    // The last statement is sent but the crash comes before its answer.
    in_flight = static_cast<int>(acked.size()) + 100000;
    REQUIRE(c.Send(QueryMsg("insert into " + table + " values (" + std::to_string(in_flight) + ", 'y')")));
    CrashAndRestart(server);
  }
  killer.join();
  REQUIRE(acked.size() > 5);
  const std::set<int> got = Ids(server.port(), table);
  for (int id : acked) {
    INFO("acknowledged id " << id);
    CHECK(got.count(id) == 1);
  }
  for (int id : got) {
    INFO("unexpected id " << id);
    CHECK((acked.count(id) == 1 || id == in_flight));
  }
}

}  // namespace

TEST_CASE("crash: every acknowledged commit survives kill -9, three different timings", "[crash_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "30s"}});
  int round = 0;
  for (int kill_after_ms : {300, 900, 1700}) {
    INFO("kill after " << kill_after_ms << " ms");
    CommitStreamThenCrash(server, "stream_" + std::to_string(round++), kill_after_ms);
  }
  // Earlier rounds' tables are still complete after the later recoveries.
  CHECK(Ids(server.port(), "stream_0").size() > 5);
}

TEST_CASE("crash: a transaction killed before COMMIT leaves nothing; rows committed before stay", "[crash_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Ok(c.Query("create table t (id int)")));
  REQUIRE(Ok(c.Query("insert into t values (1), (2), (3)")));
  REQUIRE(Ok(c.Query("begin")));
  REQUIRE(Ok(c.Query("insert into t values (10), (11)")));
  REQUIRE(Ok(c.Query("delete from t where id = 1")));
  REQUIRE(Ok(c.Query("update t set id = 20 where id = 2")));
  REQUIRE(Ok(c.Query("create table t_new (id int)")));
  // Another session commits after, so the in-progress work's WAL is flushed too.
  RawConn d(server.port());
  REQUIRE(LastStatus(d.Startup()) == 'I');
  REQUIRE(Ok(d.Query("insert into t values (4)")));
  REQUIRE(Ok(d.Query("checkpoint")));
  REQUIRE(Ok(d.Query("insert into t values (5)")));
  CrashAndRestart(server);
  CHECK(Ids(server.port(), "t") == std::set<int>{1, 2, 3, 4, 5});
  RawConn e(server.port());
  REQUIRE(LastStatus(e.Startup()) == 'I');
  CHECK(FirstSqlstate(e.Query("select * from t_new")) == "42P01");
  // The server keeps working after recovery, and a second crash is fine too.
  REQUIRE(Ok(e.Query("insert into t values (6)")));
  CrashAndRestart(server);
  CHECK(Ids(server.port(), "t") == std::set<int>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("crash: DROP TABLE committed before the crash stays dropped; rolled back, the data stays",
          "[crash_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Ok(c.Query("create table dropped (id int)")));
  REQUIRE(Ok(c.Query("insert into dropped values (1), (2)")));
  REQUIRE(Ok(c.Query("create table kept (id int)")));
  REQUIRE(Ok(c.Query("insert into kept values (7), (8)")));
  REQUIRE(Ok(c.Query("drop table dropped")));
  REQUIRE(Ok(c.Query("begin")));
  REQUIRE(Ok(c.Query("drop table kept")));
  REQUIRE(Ok(c.Query("rollback")));
  CrashAndRestart(server);
  RawConn d(server.port());
  REQUIRE(LastStatus(d.Startup()) == 'I');
  CHECK(FirstSqlstate(d.Query("select * from dropped")) == "42P01");
  CHECK(Ids(server.port(), "kept") == std::set<int>{7, 8});
}

TEST_CASE("crash: a backend killed -9 makes the postmaster reset and replay WAL without restarting",
          "[crash_test]") {
  TestServer server;
  const pid_t postmaster = server.pid();
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    REQUIRE(Ok(c.Query("create table r (id int)")));
    for (int i = 0; i < 50; ++i) REQUIRE(Ok(c.Query("insert into r values (" + std::to_string(i) + ")")));
    REQUIRE(Ok(c.Query("begin")));
    REQUIRE(Ok(c.Query("insert into r values (1000)")));
    REQUIRE(kill(c.backend_pid(), SIGKILL) == 0);
    c.DrainUntilEof(5000);
  }
  // The postmaster survives, resets shared memory, recovers and accepts again.
  REQUIRE(WaitFor([&] { return server.log().find("reinitializing") != std::string::npos; }, 15000));
  REQUIRE(WaitFor([&] {
    RawConn probe(server.port());
    return probe.ok() && LastStatus(probe.Startup()) == 'I';
  }, 15000));
  CHECK(server.pid() == postmaster);
  CHECK(Alive(postmaster));
  std::set<int> expect;
  for (int i = 0; i < 50; ++i) expect.insert(i);
  CHECK(Ids(server.port(), "r") == expect);
}
