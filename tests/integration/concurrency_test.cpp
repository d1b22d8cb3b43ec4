// tests/integration/concurrency_test.cpp
//
// Two or more sessions against one hearthd, each a RawConn driven from the
// test's single thread: a statement expected to block is sent without
// reading its reply (RawConn::Send), the test checks that nothing arrives
// for a while, acts in the other session, then reads the reply with a
// bounded timeout. Covers MVCC visibility, the Read Committed re-check of a
// concurrently updated row, Repeatable Read's 40001, deadlock detection
// (40P01), DROP TABLE waiting for a reader, and lock waits ended by
// statement_timeout / lock_timeout / CancelRequest (57014 / 55P03).
// Expectations are PostgreSQL 15's (check with HEARTH_IT_EXTERNAL_PORT).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// Every wait in this file is bounded by one of these.
constexpr int kQuietMs = 600;     // "still blocked": nothing may arrive this long
constexpr int kReplyMs = 10000;   // an unblocked statement must answer within this

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::unique_ptr<RawConn> Session(const TestServer& server) { return StartedSession(server); }
std::vector<RawMessage> Ok(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }
std::string Tag(const std::vector<RawMessage>& msgs) { return LastCommandTag(msgs); }

// True if nothing arrives on c for `ms`: the statement sent is still waiting.
bool StillBlocked(RawConn& c, int ms = kQuietMs) {
  auto m = c.Read(ms);
  return !m.has_value() && !c.eof();
}

// A fresh table t(k int, v int) holding (1, 1) and (2, 2).
void MakeTable(RawConn& c) {
  Ok(c, "drop table if exists t");
  Ok(c, "create table t (k int, v int)");
  Ok(c, "insert into t values (1, 1), (2, 2)");
}

}  // namespace

TEST_CASE("concurrency: uncommitted changes are invisible to other sessions", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  Ok(*a, "begin");
  Ok(*a, "insert into t values (3, 3), (4, 4)");
  Ok(*a, "update t set v = 100 where k = 1");
  Ok(*a, "delete from t where k = 2");
  // A sees its own changes.
  CHECK(Value(*a, "select count(*) from t") == "3");
  CHECK(Value(*a, "select v from t where k = 1") == "100");
  // B sees none of them, and is not blocked by them.
  CHECK(Value(*b, "select count(*) from t") == "2");
  CHECK(Value(*b, "select v from t where k = 1") == "1");
  CHECK(Value(*b, "select count(*) from t where k = 2") == "1");
  // B can insert concurrently without waiting for A.
  Ok(*b, "insert into t values (5, 5)");
  CHECK(Value(*a, "select count(*) from t where k = 5") == "1");  // committed: RC sees it

  SECTION("commit makes everything visible at once") {
    Ok(*a, "commit");
    CHECK(Value(*b, "select count(*) from t") == "4");
    CHECK(FirstColumn(Ok(*b, "select k::text || ':' || v::text from t order by k")) ==
          std::vector<std::string>{"1:100", "3:3", "4:4", "5:5"});
  }
  SECTION("rollback makes nothing visible") {
    Ok(*a, "rollback");
    CHECK(Value(*b, "select count(*) from t") == "3");
    CHECK(Value(*b, "select sum(v) from t") == "8");
  }
}

TEST_CASE("concurrency: snapshots of Read Committed and Repeatable Read", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  // Read Committed: each statement sees what was committed before it began.
  Ok(*b, "begin");
  CHECK(Value(*b, "select count(*) from t") == "2");
  Ok(*a, "insert into t values (3, 3)");
  CHECK(Value(*b, "select count(*) from t") == "3");
  Ok(*b, "commit");

  // Repeatable Read: the whole transaction sees the first statement's snapshot.
  Ok(*b, "begin isolation level repeatable read");
  CHECK(Value(*b, "select count(*) from t") == "3");
  Ok(*a, "insert into t values (4, 4)");
  Ok(*a, "update t set v = 10 where k = 1");
  Ok(*a, "delete from t where k = 2");
  CHECK(Value(*b, "select count(*) from t") == "3");
  CHECK(Value(*b, "select sum(v) from t") == "6");
  Ok(*b, "commit");
  CHECK(Value(*b, "select count(*) from t") == "3");
  CHECK(Value(*b, "select sum(v) from t") == "17");

  // SERIALIZABLE is not offered yet (a deliberate gap; PostgreSQL has it).
  if (getenv("HEARTH_IT_EXTERNAL_PORT") == nullptr) {
    auto msgs = b->Query("begin isolation level serializable", kReplyMs);
    CHECK(FirstSqlstate(msgs) == "0A000");
    b->Query("rollback", kReplyMs);
  }
}

TEST_CASE("concurrency: Read Committed UPDATE waits and re-checks the new row version", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  Ok(*a, "begin");
  Ok(*a, "update t set v = 2 where k = 1");
  REQUIRE(b->Send(QueryMsg("update t set v = v + 10 where k = 1")));
  CHECK(StillBlocked(*b));
  // Another row is not locked.
  auto c = Session(server);
  CHECK(Tag(Ok(*c, "update t set v = v + 1 where k = 2")) == "UPDATE 1");

  SECTION("A commits: B applies its change on top of A's") {
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(Tag(msgs) == "UPDATE 1");
    CHECK(Value(*a, "select v from t where k = 1") == "12");
  }
  SECTION("A rolls back: B updates the original row") {
    Ok(*a, "rollback");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(Tag(msgs) == "UPDATE 1");
    CHECK(Value(*a, "select v from t where k = 1") == "11");
  }
  CHECK(Value(*a, "select count(*) from t") == "2");
  CHECK(Value(*a, "select v from t where k = 2") == "3");
}

TEST_CASE("concurrency: Read Committed re-check drops rows that no longer qualify", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  SECTION("A moves the row out of B's WHERE") {
    Ok(*a, "begin");
    Ok(*a, "update t set k = 5 where k = 1");
    REQUIRE(b->Send(QueryMsg("update t set v = v + 10 where k = 1")));
    CHECK(StillBlocked(*b));
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(Tag(msgs) == "UPDATE 0");
    CHECK(Value(*a, "select v from t where k = 5") == "1");
  }
  SECTION("A deletes the row") {
    Ok(*a, "begin");
    Ok(*a, "delete from t where k = 1");
    REQUIRE(b->Send(QueryMsg("update t set v = v + 10 where k = 1 returning v")));
    CHECK(StillBlocked(*b));
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(Tag(msgs) == "UPDATE 0");
    CHECK(FirstColumn(msgs).empty());
    CHECK(Value(*a, "select count(*) from t") == "1");
  }
  SECTION("B's DELETE waits, then deletes the updated version") {
    Ok(*a, "begin");
    Ok(*a, "update t set v = 50 where k = 1");
    REQUIRE(b->Send(QueryMsg("delete from t where v < 60 returning k, v")));
    CHECK(StillBlocked(*b));
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(Tag(msgs) == "DELETE 2");
    CHECK(Value(*a, "select count(*) from t") == "0");
  }
}

TEST_CASE("concurrency: Repeatable Read update of a concurrently changed row is 40001", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  SECTION("the other transaction committed before B's update") {
    Ok(*b, "begin isolation level repeatable read");
    CHECK(Value(*b, "select v from t where k = 1") == "1");
    Ok(*a, "update t set v = 2 where k = 1");
    auto msgs = b->Query("update t set v = v + 10 where k = 1", kReplyMs);
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.sqlstate == "40001");
    CHECK(e.message == "could not serialize access due to concurrent update");
    CHECK(LastStatus(msgs) == 'E');
    // An untouched row can still be updated after a rollback-and-retry.
    Ok(*b, "rollback");
    Ok(*b, "begin isolation level repeatable read");
    CHECK(Tag(Ok(*b, "update t set v = v + 10 where k = 1")) == "UPDATE 1");
    Ok(*b, "commit");
    CHECK(Value(*a, "select v from t where k = 1") == "12");
  }
  SECTION("B waits for A, A commits: 40001") {
    Ok(*b, "begin isolation level repeatable read");
    CHECK(Value(*b, "select count(*) from t") == "2");
    Ok(*a, "begin");
    Ok(*a, "delete from t where k = 2");
    REQUIRE(b->Send(QueryMsg("update t set v = 0 where k = 2")));
    CHECK(StillBlocked(*b));
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "40001");
    Ok(*b, "rollback");
    CHECK(Value(*b, "select count(*) from t") == "1");
  }
  SECTION("B waits for A, A rolls back: B's update succeeds") {
    Ok(*b, "begin isolation level repeatable read");
    CHECK(Value(*b, "select count(*) from t") == "2");
    Ok(*a, "begin");
    Ok(*a, "update t set v = 7 where k = 2");
    REQUIRE(b->Send(QueryMsg("update t set v = v * 3 where k = 2")));
    CHECK(StillBlocked(*b));
    Ok(*a, "rollback");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(Tag(msgs) == "UPDATE 1");
    Ok(*b, "commit");
    CHECK(Value(*a, "select v from t where k = 2") == "6");
  }
}

TEST_CASE("concurrency: Repeatable Read chosen by default_transaction_isolation", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  Ok(*b, "set default_transaction_isolation = 'repeatable read'");
  Ok(*b, "begin");
  CHECK(Value(*b, "show transaction_isolation") == "repeatable read");
  CHECK(Value(*b, "select v from t where k = 1") == "1");
  Ok(*a, "update t set v = 2 where k = 1");
  Ok(*a, "insert into t values (3, 3)");
  CHECK(Value(*b, "select count(*) from t") == "2");  // the snapshot is kept
  auto msgs = b->Query("update t set v = v + 10 where k = 1", kReplyMs);
  CHECK(FirstSqlstate(msgs) == "40001");
  Ok(*b, "rollback");
  CHECK(Value(*b, "select count(*) from t") == "3");
}

TEST_CASE("concurrency: a deadlock is broken with 40P01 for exactly one session", "[concurrency_test]") {
  TestServer server(Settings{{"deadlock_timeout", "200ms"}});
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  Ok(*a, "begin");
  Ok(*b, "begin");
  Ok(*a, "update t set v = 10 where k = 1");
  Ok(*b, "update t set v = 20 where k = 2");
  REQUIRE(a->Send(QueryMsg("update t set v = 11 where k = 2")));
  CHECK(StillBlocked(*a, 300));
  auto start = std::chrono::steady_clock::now();
  REQUIRE(b->Send(QueryMsg("update t set v = 21 where k = 1")));

  // One of the two gets the deadlock error; the other then gets its row.
  auto ra = a->ReadUntilReady(kReplyMs);
  auto rb = b->ReadUntilReady(kReplyMs);
  // Under hearthd's 200ms deadlock_timeout this is quick (PostgreSQL's default is 1s).
  CHECK(SecondsSince(start) < 5.0);
  std::string sa = FirstSqlstate(ra);
  std::string sb = FirstSqlstate(rb);
  INFO("a: " << sa << " b: " << sb);
  REQUIRE(((sa == "40P01" && sb.empty()) || (sb == "40P01" && sa.empty())));
  auto& loser_msgs = sa == "40P01" ? ra : rb;
  auto& winner_msgs = sa == "40P01" ? rb : ra;
  auto e = ErrorOf(*First(loser_msgs, 'E'));
  CHECK(e.message == "deadlock detected");
  CHECK(LastStatus(loser_msgs) == 'E');
  CHECK(Tag(winner_msgs) == "UPDATE 1");
  CHECK(LastStatus(winner_msgs) == 'T');

  RawConn& loser = sa == "40P01" ? *a : *b;
  RawConn& winner = sa == "40P01" ? *b : *a;
  // The loser's transaction is aborted: its first update is gone too.
  CHECK(Tag(loser.Query("commit", kReplyMs)) == "ROLLBACK");
  Ok(winner, "commit");
  auto expected = sa == "40P01" ? std::vector<std::string>{"21", "20"} : std::vector<std::string>{"10", "11"};
  CHECK(FirstColumn(Ok(*a, "select v from t order by k")) == expected);
}

TEST_CASE("concurrency: DROP TABLE waits until a reader's transaction ends", "[concurrency_test]") {
  TestServer server;
  auto reader = Session(server);
  auto dropper = Session(server);
  MakeTable(*reader);

  Ok(*reader, "begin");
  CHECK(FirstColumn(Ok(*reader, "select k from t order by k")) == std::vector<std::string>{"1", "2"});
  REQUIRE(dropper->Send(QueryMsg("drop table t")));
  CHECK(StillBlocked(*dropper));
  // The reader keeps reading the table inside its transaction.
  CHECK(Value(*reader, "select sum(v) from t") == "3");
  Ok(*reader, "commit");
  auto msgs = dropper->ReadUntilReady(kReplyMs);
  CHECK(FirstSqlstate(msgs) == "");
  CHECK(Tag(msgs) == "DROP TABLE");
  CHECK(FirstSqlstate(reader->Query("select * from t", kReplyMs)) == "42P01");
}

TEST_CASE("concurrency: TRUNCATE waits for a reader; plain writers do not", "[concurrency_test]") {
  TestServer server;
  auto reader = Session(server);
  auto writer = Session(server);
  MakeTable(*reader);

  Ok(*reader, "begin");
  CHECK(Value(*reader, "select count(*) from t") == "2");
  // INSERT/UPDATE/DELETE of other rows take no conflicting table lock.
  Ok(*writer, "insert into t values (3, 3)");
  Ok(*writer, "update t set v = 20 where k = 2");
  REQUIRE(writer->Send(QueryMsg("truncate t")));
  CHECK(StillBlocked(*writer));
  CHECK(Value(*reader, "select sum(v) from t") == "24");
  Ok(*reader, "commit");
  auto msgs = writer->ReadUntilReady(kReplyMs);
  CHECK(FirstSqlstate(msgs) == "");
  CHECK(Tag(msgs) == "TRUNCATE TABLE");
  CHECK(Value(*reader, "select count(*) from t") == "0");
}

TEST_CASE("concurrency: readers wait for an uncommitted DROP TABLE", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);

  Ok(*a, "begin");
  Ok(*a, "drop table t");
  REQUIRE(b->Send(QueryMsg("select count(*) from t")));
  CHECK(StillBlocked(*b));
  SECTION("rollback: the reader gets the table") {
    Ok(*a, "rollback");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"2"});
  }
  SECTION("commit: the reader finds no table") {
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "42P01");
  }
}

TEST_CASE("concurrency: lock waits end with statement_timeout, lock_timeout or a cancel", "[concurrency_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);
  Ok(*a, "begin");
  Ok(*a, "update t set v = 5 where k = 1");

  SECTION("statement_timeout on a row wait") {
    Ok(*b, "set statement_timeout = 500");
    auto start = std::chrono::steady_clock::now();
    auto msgs = b->Query("update t set v = 6 where k = 1", kReplyMs);
    double took = SecondsSince(start);
    CHECK(took >= 0.45);
    CHECK(took < 3.0);
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.sqlstate == "57014");
    CHECK(e.message == "canceling statement due to statement timeout");
    CHECK(LastStatus(msgs) == 'I');
  }
  SECTION("statement_timeout on a table lock wait (DROP TABLE)") {
    Ok(*b, "set statement_timeout = 500");
    auto start = std::chrono::steady_clock::now();
    auto msgs = b->Query("drop table t", kReplyMs);
    CHECK(SecondsSince(start) < 3.0);
    CHECK(FirstSqlstate(msgs) == "57014");
  }
  SECTION("lock_timeout") {
    Ok(*b, "set lock_timeout = 300");
    auto start = std::chrono::steady_clock::now();
    auto msgs = b->Query("delete from t where k = 1", kReplyMs);
    CHECK(SecondsSince(start) < 3.0);
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.sqlstate == "55P03");
    CHECK(e.message == "canceling statement due to lock timeout");
  }
  SECTION("CancelRequest") {
    REQUIRE(b->Send(QueryMsg("update t set v = 6 where k = 1")));
    CHECK(StillBlocked(*b, 300));
    auto start = std::chrono::steady_clock::now();
    {
      RawConn canceller(server.port());
      REQUIRE(canceller.ok());
      REQUIRE(canceller.Send(CancelRequestMsg(b->backend_pid(), b->secret())));
      canceller.DrainUntilEof(5000);
    }
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(SecondsSince(start) < 3.0);
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.sqlstate == "57014");
    CHECK(e.message == "canceling statement due to user request");
  }
  // B's session goes on, and A's lock was never taken away.
  Ok(*b, "reset all");
  CHECK(Value(*b, "select v from t where k = 1") == "1");
  Ok(*a, "commit");
  CHECK(Value(*b, "select v from t where k = 1") == "5");
}

TEST_CASE("concurrency: no lost updates when several sessions update one row", "[concurrency_test]") {
  TestServer server;
  std::vector<std::unique_ptr<RawConn>> sessions;
  for (int i = 0; i < 4; i++) sessions.push_back(Session(server));
  Ok(*sessions[0], "drop table if exists counter, log");
  Ok(*sessions[0], "create table counter (id int, v int)");
  Ok(*sessions[0], "insert into counter values (1, 0)");
  Ok(*sessions[0], "create table log (who int, n int)");
  // Every round, all sessions send at once: all but one wait on the row and
  // then re-check the newest version, so each increment counts exactly once.
  for (int round = 0; round < 25; round++) {
    for (size_t i = 0; i < sessions.size(); i++) {
      REQUIRE(sessions[i]->Send(QueryMsg("update counter set v = v + 1 where id = 1; insert into log values (" +
                                         std::to_string(i) + ", " + std::to_string(round) + ")")));
    }
    for (auto& s : sessions) {
      auto msgs = s->ReadUntilReady(kReplyMs);
      REQUIRE(FirstSqlstate(msgs) == "");
      REQUIRE(LastStatus(msgs) == 'I');
    }
  }
  CHECK(Value(*sessions[1], "select v from counter") == "100");
  CHECK(Value(*sessions[2], "select count(*) from log") == "100");
  CHECK(Value(*sessions[3], "select count(distinct who) from log") == "4");
  // One row version is visible, however many were written.
  CHECK(Value(*sessions[0], "select count(*) from counter") == "1");
  Ok(*sessions[0], "drop table counter, log");
}

TEST_CASE("concurrency: a deadlock on table locks (DROP TABLE vs readers) is broken with 40P01",
          "[concurrency_test]") {
  TestServer server(Settings{{"deadlock_timeout", "200ms"}});
  auto a = Session(server);
  auto b = Session(server);
  Ok(*a, "drop table if exists t1, t2");
  Ok(*a, "create table t1 (x int)");
  Ok(*a, "create table t2 (x int)");
  Ok(*a, "begin");
  Ok(*a, "select * from t1");
  Ok(*b, "begin");
  Ok(*b, "select * from t2");
  REQUIRE(a->Send(QueryMsg("drop table t2")));
  CHECK(StillBlocked(*a, 300));
  REQUIRE(b->Send(QueryMsg("drop table t1")));
  auto ra = a->ReadUntilReady(kReplyMs);
  auto rb = b->ReadUntilReady(kReplyMs);
  std::string sa = FirstSqlstate(ra);
  std::string sb = FirstSqlstate(rb);
  INFO("a: " << sa << " b: " << sb);
  REQUIRE(((sa == "40P01" && sb.empty()) || (sb == "40P01" && sa.empty())));
  RawConn& loser = sa == "40P01" ? *a : *b;
  RawConn& winner = sa == "40P01" ? *b : *a;
  CHECK(Tag(sa == "40P01" ? rb : ra) == "DROP TABLE");
  loser.Query("rollback", kReplyMs);
  Ok(winner, "commit");
  // Exactly one of the two tables is gone.
  bool t1_gone = FirstSqlstate(a->Query("select * from t1", kReplyMs)) == "42P01";
  bool t2_gone = FirstSqlstate(a->Query("select * from t2", kReplyMs)) == "42P01";
  CHECK(t1_gone != t2_gone);
  CHECK(t1_gone == (sa == "40P01"));
  a->Query("drop table if exists t1, t2", kReplyMs);
}
