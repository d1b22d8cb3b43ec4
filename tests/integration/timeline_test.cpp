// Timelines over the wire: a primary with two standbys made by PostgreSQL
// 15's pg_basebackup -R; the primary stops, one standby is promoted (timeline
// 2), and the other, pointed at it by primary_conninfo and a reload, follows
// the timeline switch while streaming (the promoted server streams timeline
// 1 up to the switch point and names timeline 2; the standby fetches its
// history and goes on), as PostgreSQL standbys do.
#include <catch2/catch.hpp>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "crash_util.h"
#include "pg_tools.h"
#include "standby_util.h"
#include "test_server.h"

using namespace hearth::testing;
namespace fs = std::filesystem;

TEST_CASE("timeline: a standby follows its sibling's promotion onto timeline 2", "[timeline_test]") {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table t (id int primary key, v text)"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'one' from generate_series(1, 50) g"}).exit_code == 0);
  const std::string copy1 = BackupForStandby(primary);
  const std::string copy2 = BackupForStandby(primary);
  TestServer promoted(TestServer::ExistingDataDir{copy1}, {});
  TestServer follower(TestServer::ExistingDataDir{copy2}, {});
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'one' from generate_series(51, 80) g"}).exit_code == 0);
  WaitForValue(promoted, "select count(*) from t", "80");
  WaitForValue(follower, "select count(*) from t", "80");

  // The primary stops (clean shutdown: both standbys received all of its
  // WAL); one standby is promoted and starts timeline 2.
  REQUIRE(primary.Stop(SIGTERM) == 0);
  CHECK(promoted.PsqlValue("select pg_promote()") == "t");
  REQUIRE(promoted.Psql({"-c", "insert into t select g, 'two' from generate_series(81, 100) g"}).exit_code == 0);

  // The other standby is pointed at the promoted one.
  {
    std::ofstream conf(copy2 + "/postgresql.auto.conf", std::ios::app);
    conf << "\nprimary_conninfo = 'host=127.0.0.1 port=" << promoted.port() << " user=hearth'\n";
    REQUIRE(conf.good());
  }
  REQUIRE(kill(follower.pid(), SIGHUP) == 0);
  WaitForValue(follower, "select count(*) from t where v = 'two'", "20");
  CHECK(follower.PsqlValue("select pg_is_in_recovery()") == "t");
  CHECK(fs::exists(copy2 + "/pg_wal/00000002.history"));
  CHECK(ReadWholeFile(copy2 + "/pg_wal/00000002.history") == ReadWholeFile(copy1 + "/pg_wal/00000002.history"));
  CHECK(Contains(follower.log(), "new target timeline is 2"));
  WaitForValue(promoted, "select state, sent_lsn = replay_lsn from pg_stat_replication", "streaming|t");

  // After a restart it stays on timeline 2 and streams it.
  REQUIRE(follower.Stop(SIGTERM) == 0);
  follower.Start();
  REQUIRE(promoted.Psql({"-c", "insert into t values (101, 'after restart')"}).exit_code == 0);
  WaitForValue(follower, "select v from t where id = 101", "after restart");
  CHECK(PsqlInt(follower, "select count(*) from t") == 101);

  // A standby that received WAL the promoted server never had (here: a
  // copy of the old primary's later state) is refused with PostgreSQL's
  // message.
  const std::string repl = "host=127.0.0.1 port=" + std::to_string(promoted.port()) + " user=hearth replication=true";
  CommandResult ahead = RunCommand({"psql", "-X", repl, "-c", "START_REPLICATION PHYSICAL FF/0 TIMELINE 1"});
  CHECK(Contains(ahead.err, "requested starting point FF/0 on timeline 1 is not in this server's history"));
  CHECK(Contains(ahead.err, "This server's history forked from timeline 1 at"));
}
