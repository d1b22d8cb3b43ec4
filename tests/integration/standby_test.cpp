// Standby mode over the wire: a copy made by the real PostgreSQL 15
// `pg_basebackup -R` (standby.signal, primary_conninfo in
// postgresql.auto.conf) starts as a standby of a real hearthd primary,
// streams and replays its WAL, serves read-only queries that see exactly the
// primary's committed transactions (hot standby), refuses writes with 25006,
// survives kill -9 of itself and a restart of its primary, and is promoted by
// pg_promote() into a server that accepts writes.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "crash_util.h"
#include "pg_tools.h"
#include "raw_session.h"
#include "standby_util.h"
#include "test_server.h"

using namespace hearth::testing;
namespace fs = std::filesystem;

namespace {

// The error line psql prints with VERBOSITY verbose (it carries the SQLSTATE).
std::string VerboseError(const TestServer& server, const std::string& sql) {
  CommandResult r = server.PsqlScript("\\set VERBOSITY verbose\n" + sql + ";\n");
  return r.out;
}

void AppendToFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app);
  out << text;
  REQUIRE(out.good());
}

int64_t Count(const TestServer& server, const std::string& where = "true") {
  return PsqlInt(server, "select count(*) from t where " + where);
}

}  // namespace

TEST_CASE("standby: a pg_basebackup -R copy streams, replays and serves reads", "[standby_test]") {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table t (id int primary key, v text)"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'before' from generate_series(1, 100) g"}).exit_code == 0);

  const std::string copy = BackupForStandby(primary);
  // Replies only when positions move: the lags measured stay visible (an
  // idle standby's second reply would clear them, as in PostgreSQL).
  TestServer standby(TestServer::ExistingDataDir{copy}, {{"wal_receiver_status_interval", "3600s"}});
  WaitForValue(standby, "select count(*) from t", "100");
  CHECK(standby.PsqlValue("select pg_is_in_recovery()") == "t");
  CHECK(standby.PsqlValue("show in_hot_standby") == "on");
  CHECK(primary.PsqlValue("select pg_is_in_recovery()") == "f");

  // Committed rows arrive; rows of a transaction still open on the primary
  // stay invisible until it commits, and rolled-back ones never appear.
  RawConn open_tx(primary.port());
  RequireStartup(open_tx);
  REQUIRE(Exec(open_tx, "begin"));
  REQUIRE(Exec(open_tx, "insert into t select -g, 'open' from generate_series(1, 20) g"));
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'after' from generate_series(101, 250) g"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "begin; insert into t values (-1000, 'rolled back'); rollback"}).exit_code == 0);
  WaitForValue(standby, "select count(*) from t where id > 0", "250");
  CHECK(Count(standby, "id < 0") == 0);
  REQUIRE(Exec(open_tx, "commit"));
  WaitForValue(standby, "select count(*) from t where id < 0", "20");
  CHECK(Count(standby, "id = -1000") == 0);
  // The primary key index was replayed too: a point lookup finds the row.
  CHECK(standby.PsqlValue("select v from t where id = 200") == "after");

  // Updates and deletes, and a table created after the backup.
  REQUIRE(primary.Psql({"-c", "update t set v = 'updated' where id between 1 and 10; delete from t where id between 11 and 20"})
              .exit_code == 0);
  REQUIRE(primary.Psql({"-c", "create table t2 (a int); insert into t2 values (7)"}).exit_code == 0);
  WaitForValue(standby, "select count(*) from t where v = 'updated'", "10");
  WaitForValue(standby, "select a from t2", "7");
  CHECK(Count(standby, "id between 11 and 20") == 0);

  // The primary sees its standby streaming, with the positions it reported
  // (replay catches up with what was sent once the primary is idle).
  WaitForValue(primary,
               "select state, application_name, sent_lsn = replay_lsn, flush_lsn = sent_lsn from pg_stat_replication",
               "streaming|walreceiver|t|t");
  CHECK(standby.PsqlValue("select status from pg_stat_wal_receiver") == "streaming");
  // Lags: from sending WAL to the standby's report of having written,
  // flushed and replayed it.
  CHECK(primary.PsqlValue("select write_lag >= interval '0', flush_lag >= interval '0', replay_lag >= interval '0', "
                          "pg_typeof(replay_lag) from pg_stat_replication") == "t|t|t|interval");

  // Recovery information functions.
  CHECK(standby.PsqlValue("select pg_last_wal_receive_lsn() is not null") == "t");
  CHECK(standby.PsqlValue("select pg_last_wal_replay_lsn() <= pg_last_wal_receive_lsn()") == "t");
  CHECK(standby.PsqlValue("select pg_last_xact_replay_timestamp() is not null") == "t");
  CHECK(primary.PsqlValue("select pg_last_wal_receive_lsn() is null") == "t");

  // Writes are refused as in a read-only transaction.
  CHECK(Contains(VerboseError(standby, "insert into t values (1000, 'no')"),
                 "ERROR:  25006: cannot execute INSERT in a read-only transaction"));
  CHECK(Contains(VerboseError(standby, "update t set v = 'no'"),
                 "ERROR:  25006: cannot execute UPDATE in a read-only transaction"));
  CHECK(Contains(VerboseError(standby, "create table nope (a int)"),
                 "ERROR:  25006: cannot execute CREATE TABLE in a read-only transaction"));
  CHECK(Contains(VerboseError(standby, "select pg_current_wal_lsn()"), "ERROR:  55000: recovery is in progress"));
  CHECK(Contains(VerboseError(primary, "select pg_promote()"), "ERROR:  55000: recovery is not in progress"));
  CHECK(Count(standby, "id = 1000") == 0);
}

TEST_CASE("standby: CREATE and DROP DATABASE on the primary reach the standby", "[standby_test]") {
  TestServer primary;
  const std::string copy = BackupForStandby(primary);
  TestServer standby(TestServer::ExistingDataDir{copy}, {});
  WaitForValue(standby, "select pg_is_in_recovery()", "t");

  // The new database's files are copied from its template on the standby
  // too, so the WAL of the tables made in it afterwards has files to land in.
  REQUIRE(primary.Psql({"-c", "create database d2"}).exit_code == 0);
  REQUIRE(primary.Psql({"-d", "d2", "-c", "create table t (a int); insert into t select generate_series(1, 50)"})
              .exit_code == 0);
  const std::string d2_count = "select count(*) from t";
  std::string last;
  const bool arrived = WaitFor([&] {
    CommandResult r = standby.Psql({"-d", "d2", "-A", "-t", "-q", "-c", d2_count});
    last = r.out + r.err;
    return r.exit_code == 0 && r.out == "50\n";
  }, 60000);
  INFO("standby answered: " << last << "\nstandby log:\n" << standby.log());
  REQUIRE(arrived);
  const std::string oid = primary.PsqlValue("select oid from pg_database where datname = 'd2'");
  REQUIRE(fs::is_directory(copy + "/base/" + oid));

  // DROP DATABASE: the standby's copy goes once the drop commits, and a
  // standby session connected to it is ended first (FATAL 57P04).
  RawConn in_d2(standby.port());
  REQUIRE(LastStatus(in_d2.Startup("hearth", "d2")) == 'I');
  REQUIRE(QueryValue(in_d2, "select count(*) from t") == "50");
  REQUIRE(primary.Psql({"-c", "drop database d2"}).exit_code == 0);
  WaitForValue(standby, "select count(*) from pg_database where datname = 'd2'", "0");
  CHECK(WaitFor([&] { return !fs::exists(copy + "/base/" + oid); }, 60000));
  const std::vector<RawMessage> ended = in_d2.DrainUntilEof(60000);
  const RawMessage* fatal = First(ended, 'E');
  REQUIRE(fatal != nullptr);
  CHECK(ErrorOf(*fatal).severity_nonlocal == "FATAL");
  CHECK(ErrorOf(*fatal).sqlstate == "57P04");
  CHECK(ErrorOf(*fatal).message == "terminating connection due to conflict with recovery");
  CHECK(ErrorOf(*fatal).detail == "User was connected to a database that must be dropped.");
  CHECK(standby.Psql({"-d", "d2", "-c", "select 1"}).exit_code != 0);
  // Replay goes on afterwards.
  REQUIRE(primary.Psql({"-c", "create table after_drop (a int); insert into after_drop values (1)"}).exit_code == 0);
  WaitForValue(standby, "select count(*) from after_drop", "1");
}

TEST_CASE("standby: replay that removes rows a query needs cancels it with 40001", "[standby_test]") {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table t (id int primary key, v text)"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'x' from generate_series(1, 500) g"}).exit_code == 0);
  const std::string copy = BackupForStandby(primary);
  TestServer standby(TestServer::ExistingDataDir{copy}, {{"max_standby_streaming_delay", "200ms"}});
  WaitForValue(standby, "select count(*) from t", "500");

  // An idle transaction whose snapshot still sees the rows, and a statement
  // running (sleeping) with such a snapshot.
  RawConn idle_tx(standby.port());
  RequireStartup(idle_tx);
  REQUIRE(Exec(idle_tx, "begin isolation level repeatable read"));
  REQUIRE(QueryValue(idle_tx, "select count(*) from t") == "500");
  RawConn running(standby.port());
  RequireStartup(running);
  REQUIRE(running.Send(QueryMsg("select count(*), pg_sleep(120) from t")));
  WaitForValue(standby, "select count(*) from pg_stat_activity where query like 'select count(*), pg_sleep%' and state = 'active'",
               "1");

  // The primary deletes the rows and VACUUM removes them: replay waits the
  // delay, then both give way; then the removal is replayed.
  REQUIRE(primary.Psql({"-c", "delete from t where id > 100"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "vacuum t"}).exit_code == 0);
  std::vector<RawMessage> msgs = running.ReadUntilReady(60000);
  const RawMessage* err = First(msgs, 'E');
  REQUIRE(err != nullptr);
  CHECK(ErrorOf(*err).sqlstate == "40001");
  CHECK(ErrorOf(*err).message == "canceling statement due to conflict with recovery");
  CHECK(ErrorOf(*err).detail == "User query might have needed to see row versions that must be removed.");
  CHECK(QueryValue(running, "select 1") == "1");  // the session goes on

  msgs = idle_tx.DrainUntilEof(60000);
  err = First(msgs, 'E');
  REQUIRE(err != nullptr);
  CHECK(ErrorOf(*err).severity_nonlocal == "FATAL");
  CHECK(ErrorOf(*err).sqlstate == "40001");
  CHECK(ErrorOf(*err).message == "terminating connection due to conflict with recovery");

  WaitForValue(standby, "select count(*) from t", "100");
  WaitForValue(primary, "select sent_lsn = replay_lsn from pg_stat_replication", "t");
}

TEST_CASE("standby: survives kill -9 and its primary's restart, then is promoted", "[standby_test]") {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table t (id int primary key, v text)"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'x' from generate_series(1, 50) g"}).exit_code == 0);
  const std::string copy = BackupForStandby(primary);
  TestServer standby(TestServer::ExistingDataDir{copy}, {});
  WaitForValue(standby, "select count(*) from t", "50");

  // kill -9 of the standby's postmaster and children: the restart replays
  // from its last restartpoint and streams again.
  // A primary checkpoint replayed, then CHECKPOINT on the standby: a
  // restartpoint there, which retires the base backup's label.
  REQUIRE(primary.Psql({"-c", "checkpoint"}).exit_code == 0);
  const std::string primary_lsn = primary.PsqlValue("select pg_current_wal_lsn()");
  WaitForValue(standby, "select pg_last_wal_replay_lsn() >= '" + primary_lsn + "'", "t");
  REQUIRE(standby.Psql({"-c", "checkpoint"}).exit_code == 0);
  CHECK_FALSE(fs::exists(copy + "/backup_label"));
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'x' from generate_series(51, 80) g"}).exit_code == 0);
  WaitForValue(standby, "select count(*) from t", "80");
  CrashAndRestart(standby, [&primary] {
    REQUIRE(primary.Psql({"-c", "insert into t select g, 'x' from generate_series(81, 120) g"}).exit_code == 0);
  });
  WaitForValue(standby, "select count(*) from t", "120");
  CHECK(standby.PsqlValue("select pg_is_in_recovery()") == "t");

  // The primary restarts: the walreceiver reconnects (with backoff).
  REQUIRE(primary.Stop(SIGTERM) == 0);
  primary.Start();
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'x' from generate_series(121, 150) g"}).exit_code == 0);
  WaitForValue(standby, "select count(*) from t", "150");

  // Promotion: pg_promote() waits until writes are accepted.
  CHECK(standby.PsqlValue("select pg_promote()") == "t");
  CHECK(standby.PsqlValue("select pg_is_in_recovery()") == "f");
  CHECK_FALSE(fs::exists(copy + "/standby.signal"));
  REQUIRE(standby.Psql({"-c", "insert into t values (1000, 'promoted')"}).exit_code == 0);
  REQUIRE(standby.Psql({"-c", "create table after_promotion (a int); insert into after_promotion values (1)"})
              .exit_code == 0);
  CHECK(Count(standby) == 151);
  CHECK(PsqlInt(standby, "select count(*) from after_promotion") == 1);
  // The primary's rows and the new ones survive a restart of the new primary.
  REQUIRE(standby.Stop(SIGTERM) == 0);
  standby.Start();
  CHECK(Count(standby) == 151);
  CHECK(standby.PsqlValue("select pg_is_in_recovery()") == "f");
  // The old primary is untouched.
  CHECK(Count(primary) == 150);

  // Promotion started timeline 2 where the replayed WAL ended: a history
  // file naming the switch point, segment files of timeline 2 (the old
  // timeline's switch segment kept as .partial), and the replication
  // protocol reporting it.
  const std::string history = ReadWholeFile(copy + "/pg_wal/00000002.history");
  INFO(history);
  CHECK(history.rfind("1\t0/", 0) == 0);
  CHECK(Contains(history, "\tno recovery target specified\n"));
  bool tli2_segment = false, partial = false;
  for (const auto& e : fs::directory_iterator(copy + "/pg_wal")) {
    const std::string name = e.path().filename().string();
    tli2_segment = tli2_segment || (name.size() == 24 && name.rfind("00000002", 0) == 0);
    partial = partial || (name.rfind("00000001", 0) == 0 && Contains(name, ".partial"));
  }
  CHECK(tli2_segment);
  CHECK(partial);
  const std::string repl = "host=127.0.0.1 port=" + std::to_string(standby.port()) + " user=hearth replication=true";
  CommandResult ident = RunCommand({"psql", "-X", "-A", "-t", repl, "-c", "IDENTIFY_SYSTEM"});
  INFO(ident.out << ident.err);
  CHECK(Contains(ident.out, "|2|"));
  CommandResult hist = RunCommand({"psql", "-X", "-A", "-t", repl, "-c", "TIMELINE_HISTORY 2"});
  CHECK(Contains(hist.out, "00000002.history|" + history.substr(0, history.find('\n'))));
  CommandResult none = RunCommand({"psql", "-X", "-A", "-t", repl, "-c", "TIMELINE_HISTORY 1"});
  CHECK(Contains(none.err, "could not open file \"pg_wal/00000001.history\""));

  // A standby of the promoted server (pg_basebackup of it) follows it on
  // timeline 2.
  const std::string copy2 = BackupForStandby(standby);
  CHECK(Contains(ReadWholeFile(copy2 + "/backup_label"), "START TIMELINE: 2"));
  TestServer follower(TestServer::ExistingDataDir{copy2}, {});
  WaitForValue(follower, "select count(*) from t", "151");
  REQUIRE(standby.Psql({"-c", "insert into t values (1001, 'on timeline 2')"}).exit_code == 0);
  WaitForValue(follower, "select v from t where id = 1001", "on timeline 2");
  WaitForValue(standby, "select state, sent_lsn = replay_lsn from pg_stat_replication", "streaming|t");
  CHECK(follower.PsqlValue("select pg_is_in_recovery()") == "t");
}

TEST_CASE("standby: synchronous commit waits for the standby and loses nothing at failover", "[standby_test]") {
  // The walreceiver connects with application_name "walreceiver" (libpq's
  // default from pg_basebackup -R's primary_conninfo), as PostgreSQL's.
  // The setting comes from hearth.conf (a -c option would outrank the
  // file, and reloads change it below).
  TestServer primary;
  const auto set_names = [&primary](const std::string& value) {
    AppendToFile(primary.datadir() + "/hearth.conf", "\nsynchronous_standby_names = '" + value + "'\n");
    REQUIRE(kill(primary.pid(), SIGHUP) == 0);
    WaitForValue(primary, "show synchronous_standby_names", value);
  };
  set_names("FIRST 1 (walreceiver, other)");
  // No standby yet: synchronous_commit = local does not wait for one.
  REQUIRE(primary.Psql({"-c", "set synchronous_commit = local; create table t (id int primary key, v text)"})
              .exit_code == 0);
  const std::string copy = BackupForStandby(primary);
  TestServer standby(TestServer::ExistingDataDir{copy}, {});
  WaitForValue(primary, "select application_name, sync_priority, sync_state from pg_stat_replication",
               "walreceiver|1|sync");

  // Every acknowledged commit is on the standby's disk when the client hears of it.
  REQUIRE(primary.Psql({"-c", "insert into t select g, 'bulk' from generate_series(1, 100) g"}).exit_code == 0);
  std::string script;
  for (int i = 101; i <= 200; i++) script += "insert into t values (" + std::to_string(i) + ", 'one');\n";
  REQUIRE(primary.Psql({"-q"}, script).exit_code == 0);
  CHECK(primary.PsqlValue("select flush_lsn >= pg_current_wal_lsn() from pg_stat_replication") == "t");

  // Without the standby a commit waits, invisible to others; a cancel ends
  // the wait with PostgreSQL's WARNING and the transaction stays committed.
  REQUIRE(standby.Stop(SIGTERM) == 0);
  WaitForValue(primary, "select count(*) from pg_stat_replication", "0");
  RawConn waiter(primary.port());
  RequireStartup(waiter);
  // Only the COMMIT is left to run when the session shows as active (a
  // cancel then reaches the commit, never the INSERT).
  REQUIRE(Exec(waiter, "begin; insert into t values (1000, 'waited')"));
  REQUIRE(waiter.Send(QueryMsg("commit")));
  WaitForValue(primary,
               "select state, wait_event_type, wait_event from pg_stat_activity where pid = " +
                   std::to_string(waiter.backend_pid()),
               "active|IPC|SyncRep");
  CHECK(Count(primary, "id = 1000") == 0);
  {
    RawConn cancel(primary.port());  // the protocol's CancelRequest, as psql's ^C
    REQUIRE(cancel.Send(CancelRequestMsg(waiter.backend_pid(), waiter.secret())));
  }
  std::vector<RawMessage> reply = waiter.ReadUntilReady();
  const RawMessage* notice = First(reply, 'N');
  REQUIRE(notice != nullptr);
  CHECK(ErrorOf(*notice).severity == "WARNING");
  CHECK(ErrorOf(*notice).sqlstate == "57014");
  CHECK(ErrorOf(*notice).message == "canceling wait for synchronous replication due to user request");
  CHECK(ErrorOf(*notice).detail ==
        "The transaction has already committed locally, but might not have been replicated to the standby.");
  CHECK(First(reply, 'E') == nullptr);
  CHECK(Types(reply).find('C') != std::string::npos);
  CHECK(Count(primary, "id = 1000") == 1);

  // synchronous_standby_names emptied by a reload releases waiters and
  // lets commits go on without a standby.
  RawConn second(primary.port());
  RequireStartup(second);
  REQUIRE(Exec(second, "begin; insert into t values (1001, 'released')"));
  REQUIRE(second.Send(QueryMsg("commit")));
  WaitForValue(primary, "select state from pg_stat_activity where pid = " + std::to_string(second.backend_pid()),
               "active");
  AppendToFile(primary.datadir() + "/hearth.conf", "\nsynchronous_standby_names = ''\n");
  REQUIRE(kill(primary.pid(), SIGHUP) == 0);
  std::vector<RawMessage> released = second.ReadUntilReady(30000);
  CHECK(First(released, 'E') == nullptr);
  CHECK(First(released, 'N') == nullptr);
  CHECK(Count(primary, "id = 1001") == 1);
  set_names("walreceiver");

  // The standby comes back and catches up; then the primary dies right
  // after acknowledging a burst of commits, the standby is promoted, and
  // every acknowledged row is there.
  standby.Start();
  WaitForValue(primary, "select sync_state from pg_stat_replication", "sync");
  std::string burst;
  for (int i = 2001; i <= 2100; i++) burst += "insert into t values (" + std::to_string(i) + ", 'burst');\n";
  REQUIRE(primary.Psql({"-q"}, burst).exit_code == 0);
  REQUIRE(KillServerHard(primary));
  CHECK(standby.PsqlValue("select pg_promote()") == "t");
  CHECK(Count(standby, "id <= 200") == 200);
  CHECK(Count(standby, "id in (1000, 1001)") == 2);
  CHECK(Count(standby, "id between 2001 and 2100") == 100);
}
