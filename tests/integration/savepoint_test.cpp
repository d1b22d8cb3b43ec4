// tests/integration/savepoint_test.cpp
//
// Savepoints over the wire, each a real subtransaction: rows inserted,
// updated and deleted after a savepoint vanish/return at ROLLBACK TO (also
// through the unique index), other sessions see released levels only when
// the top-level transaction commits (also a Repeatable Read snapshot taken
// before that commit, which must keep not seeing them), row and table locks
// taken after a savepoint stop blocking others at ROLLBACK TO while the
// transaction goes on, DDL rolled back to a savepoint, PostgreSQL's errors
// (25P01, 3B001, 25P02 until ROLLBACK TO), psql's ON_ERROR_ROLLBACK, and a
// kill -9 after committing a transaction with a rolled-back level.
#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "raw_session.h"
#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 10000;

std::vector<RawMessage> SqlOk(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }
std::vector<std::string> Column(RawConn& c, const std::string& sql) { return FirstColumn(SqlOk(c, sql)); }
std::string FailState(RawConn& c, const std::string& sql) { return FirstSqlstate(c.Query(sql, kReplyMs)); }

void SendAndAwaitBlocked(RawConn& waiter, RawConn& observer, const std::string& sql) {
  hearth::testing::SendAndAwaitBlocked(waiter, observer, sql, kReplyMs);
}

void MakeTable(RawConn& c) {
  SqlOk(c, "create table t (k int primary key, v text)");
  SqlOk(c, "insert into t values (1, 'one'), (2, 'two')");
}

}  // namespace

TEST_CASE("savepoint: ROLLBACK TO undoes inserts, updates and deletes, index entries included", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  MakeTable(*a);
  SqlOk(*a, "begin");
  SqlOk(*a, "insert into t values (3, 'three')");
  SqlOk(*a, "savepoint s1");
  SqlOk(*a, "insert into t values (5, 'five')");
  SqlOk(*a, "update t set v = 'uno' where k = 1");
  SqlOk(*a, "delete from t where k = 2");
  CHECK(Column(*a, "select v from t order by k") == std::vector<std::string>{"uno", "three", "five"});
  CHECK(LastCommandTag(SqlOk(*a, "rollback to savepoint s1")) == "ROLLBACK");
  CHECK(Column(*a, "select v from t order by k") == std::vector<std::string>{"one", "two", "three"});
  // The rolled-back key is free again in the unique index; an index scan
  // finds only the new row.
  SqlOk(*a, "insert into t values (5, 'cinq')");
  CHECK(Value(*a, "select v from t where k = 5") == "cinq");
  // Nested levels: the inner one rolled back, the outer one released.
  SqlOk(*a, "savepoint s2");
  SqlOk(*a, "insert into t values (6, 'six')");
  SqlOk(*a, "savepoint s3");
  SqlOk(*a, "insert into t values (7, 'seven')");
  SqlOk(*a, "rollback to s3");
  SqlOk(*a, "release s2");
  // Nothing of it is visible to another session before the commit.
  CHECK(Column(*b, "select k from t order by k") == std::vector<std::string>{"1", "2"});
  SqlOk(*a, "commit");
  CHECK(Column(*b, "select k from t order by k") == std::vector<std::string>{"1", "2", "3", "5", "6"});
  CHECK(Value(*b, "select v from t where k = 1") == "one");
  CHECK(Value(*b, "select count(*) from t where k = 7") == "0");
}

TEST_CASE("savepoint: a snapshot taken before the commit keeps not seeing released levels", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  MakeTable(*a);
  SqlOk(*a, "begin");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "insert into t values (10, 'sub')");
  SqlOk(*a, "release s");
  SqlOk(*b, "begin isolation level repeatable read");
  CHECK(Value(*b, "select count(*) from t") == "2");
  SqlOk(*a, "commit");
  // b's snapshot counts a's top-level xid as running, so its subxid too.
  CHECK(Value(*b, "select count(*) from t") == "2");
  CHECK(Value(*b, "select count(*) from t where k = 10") == "0");
  SqlOk(*b, "commit");
  CHECK(Value(*b, "select count(*) from t") == "3");
}

TEST_CASE("savepoint: row and table locks taken after a savepoint are released by ROLLBACK TO", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  auto observer = StartedSession(server);
  MakeTable(*a);
  // Row lock (FOR UPDATE) and a row update after the savepoint.
  SqlOk(*a, "begin");
  SqlOk(*a, "update t set v = 'kept' where k = 2");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "select * from t where k = 1 for update");
  SendAndAwaitBlocked(*b, *observer, "update t set v = 'b' where k = 1");
  SqlOk(*a, "rollback to s");
  auto reply = b->ReadUntilReady(kReplyMs);
  CHECK(FirstSqlstate(reply) == "");
  CHECK(LastCommandTag(reply) == "UPDATE 1");
  // The lock taken before the savepoint still holds.
  CHECK(FailState(*b, "select * from t where k = 2 for update nowait") == "55P03");
  // A table lock after a savepoint.
  SqlOk(*a, "savepoint s2");
  SqlOk(*a, "truncate t");  // AccessExclusiveLock, and a new file dropped at ROLLBACK TO
  auto c = StartedSession(server);
  SendAndAwaitBlocked(*c, *observer, "select count(*) from t");
  SqlOk(*a, "rollback to savepoint s2");
  auto counted = c->ReadUntilReady(kReplyMs);
  CHECK(FirstColumn(counted) == std::vector<std::string>{"2"});
  SqlOk(*a, "commit");
  CHECK(Column(*b, "select v from t order by k") == std::vector<std::string>{"b", "kept"});
}

TEST_CASE("savepoint: an update rolled back to a savepoint no longer blocks writers", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  auto observer = StartedSession(server);
  MakeTable(*a);
  SqlOk(*a, "begin");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "update t set v = 'a' where k = 1");
  SendAndAwaitBlocked(*b, *observer, "update t set v = 'b' where k = 1");
  SqlOk(*a, "rollback to s");
  CHECK(LastCommandTag(b->ReadUntilReady(kReplyMs)) == "UPDATE 1");
  SqlOk(*a, "commit");
  CHECK(Value(*a, "select v from t where k = 1") == "b");
}

TEST_CASE("savepoint: DDL after a savepoint is rolled back with it", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeTable(*a);
  SqlOk(*a, "begin");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "create table u (x int)");
  SqlOk(*a, "insert into u values (1)");
  SqlOk(*a, "drop table t");
  SqlOk(*a, "rollback to s");
  CHECK(FailState(*a, "select * from u") == "42P01");
  SqlOk(*a, "rollback to s");
  CHECK(Value(*a, "select count(*) from t") == "2");
  SqlOk(*a, "create table u (y int)");
  SqlOk(*a, "commit");
  CHECK(Value(*a, "select count(*) from u") == "0");
  CHECK(Value(*a, "select count(*) from t") == "2");
}

TEST_CASE("savepoint: PostgreSQL's errors and the failed block", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeTable(*a);
  CHECK(FailState(*a, "savepoint s") == "25P01");
  CHECK(FailState(*a, "release s") == "25P01");
  CHECK(FailState(*a, "rollback to s") == "25P01");
  SqlOk(*a, "begin");
  CHECK(FailState(*a, "release nope") == "3B001");
  CHECK(LastStatus(a->Query("rollback")) == 'I');
  SqlOk(*a, "begin");
  SqlOk(*a, "insert into t values (3, 'kept')");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "insert into t values (4, 'lost')");
  auto failed = a->Query("insert into t values (1, 'duplicate')");
  CHECK(FirstSqlstate(failed) == "23505");
  CHECK(LastStatus(failed) == 'E');
  CHECK(FailState(*a, "select 1") == "25P02");
  CHECK(FailState(*a, "savepoint x") == "25P02");
  CHECK(FailState(*a, "release s") == "25P02");
  CHECK(FailState(*a, "rollback to nope") == "3B001");
  auto back = a->Query("rollback to s");
  CHECK(LastStatus(back) == 'T');
  CHECK(Column(*a, "select k from t order by k") == std::vector<std::string>{"1", "2", "3"});
  // The savepoint survives ROLLBACK TO; the newest of a repeated name wins.
  SqlOk(*a, "insert into t values (4, 'four')");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "insert into t values (5, 'five')");
  SqlOk(*a, "rollback to s");
  SqlOk(*a, "release s");
  SqlOk(*a, "release s");
  CHECK(FailState(*a, "release s") == "3B001");
  SqlOk(*a, "rollback");
  SqlOk(*a, "begin");
  SqlOk(*a, "savepoint s");
  SqlOk(*a, "insert into t values (6, 'six')");
  SqlOk(*a, "commit");
  CHECK(Column(*a, "select k from t order by k") == std::vector<std::string>{"1", "2", "6"});
}

TEST_CASE("savepoint: many levels in one transaction, released and rolled back", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeTable(*a);
  SqlOk(*a, "begin");
  std::string batch;
  for (int i = 100; i < 400; ++i) {
    batch += "savepoint p; insert into t values (" + std::to_string(i) + ", 'x'); ";
    batch += (i % 3 == 0) ? "rollback to p; release p; " : "release p; ";
  }
  SqlOk(*a, batch);
  SqlOk(*a, "commit");
  CHECK(Value(*a, "select count(*) from t where k >= 100") == "200");
}

TEST_CASE("savepoint: psql's ON_ERROR_ROLLBACK keeps the rest of the transaction", "[savepoint_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeTable(*a);
  const std::string script =
      "begin;\n"
      "insert into t values (3, 'three');\n"
      "insert into t values (1, 'duplicate');\n"
      "insert into t values (4, 'four');\n"
      "commit;\n";
  CommandResult r = server.PsqlScript(script, {"-v", "ON_ERROR_ROLLBACK=on"});
  INFO(r.out);
  CHECK(r.out.find("duplicate key value violates unique constraint") != std::string::npos);
  CHECK(r.out.find("COMMIT") != std::string::npos);
  CHECK(Column(*a, "select k from t order by k") == std::vector<std::string>{"1", "2", "3", "4"});
}

TEST_CASE("savepoint: after kill -9, a committed transaction's rolled-back level stays invisible", "[savepoint_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    RequireStartup(c);
    REQUIRE(Exec(c, "create table t (k int primary key, v text)"));
    REQUIRE(Exec(c, "insert into t values (1, 'one'), (2, 'two')"));
    REQUIRE(Exec(c, "checkpoint"));
    REQUIRE(Exec(c, "begin"));
    REQUIRE(Exec(c, "insert into t values (3, 'top')"));
    REQUIRE(Exec(c, "savepoint s"));
    REQUIRE(Exec(c, "insert into t values (4, 'rolled back')"));
    REQUIRE(Exec(c, "update t set v = 'rolled back' where k = 1"));
    REQUIRE(Exec(c, "delete from t where k = 2"));
    REQUIRE(Exec(c, "rollback to s"));
    REQUIRE(Exec(c, "savepoint r"));
    REQUIRE(Exec(c, "insert into t values (5, 'released')"));
    REQUIRE(Exec(c, "release r"));
    REQUIRE(Exec(c, "commit"));
    // A transaction with a released level still open at the crash.
    REQUIRE(Exec(c, "begin"));
    REQUIRE(Exec(c, "savepoint q"));
    REQUIRE(Exec(c, "insert into t values (6, 'in flight')"));
    REQUIRE(Exec(c, "release q"));
    RawConn d(server.port());
    RequireStartup(d);
    REQUIRE(Exec(d, "create table flush_wal (x int)"));  // its commit flushes WAL written before
    CrashAndRestart(server);
  }
  RawConn e(server.port());
  RequireStartup(e);
  CHECK(FirstColumn(e.Query("select k || ':' || v from t order by k")) ==
        std::vector<std::string>{"1:one", "2:two", "3:top", "5:released"});
  CHECK(QueryValue(e, "select count(*) from t where k = 4") == "0");
}
