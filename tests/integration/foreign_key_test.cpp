// tests/integration/foreign_key_test.cpp
//
// FOREIGN KEY checks between concurrent sessions of one hearthd, as in
// PostgreSQL 15: a referencing INSERT locks the referenced row FOR KEY
// SHARE, so a concurrent DELETE of that row waits for it and then fails
// (23503, the new row counts); an INSERT referencing a row another session
// is deleting waits for that session and fails if it committed, succeeds if
// it rolled back; a non-key UPDATE of the referenced row does not wait.
// Waits are observed in pg_locks (no sleeps). Also: constraints survive a
// restart (catalog rows), and DEFERRABLE is refused (0A000).
#include <catch2/catch.hpp>

#include <signal.h>

#include <memory>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 10000;

std::vector<RawMessage> Ok(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }

// p(id) with 1 and 2; c(id, pid references p).
void MakeTables(RawConn& c) {
  Ok(c, "create table p (id int primary key, note text)");
  Ok(c, "create table c (id int, pid int references p)");
  Ok(c, "insert into p values (1, 'one'), (2, 'two')");
}

struct Sessions {
  Sessions() {
    a = StartedSession(server);
    b = StartedSession(server);
    obs = StartedSession(server);
    MakeTables(*a);
  }
  TestServer server;
  std::unique_ptr<RawConn> a, b, obs;
};

}  // namespace

TEST_CASE("foreign_key: a DELETE of a row a running INSERT references waits, then fails", "[foreign_key_test]") {
  Sessions f;
  Ok(*f.a, "begin");
  Ok(*f.a, "insert into c values (10, 1)");
  // The referencing insert holds FOR KEY SHARE on p's row 1.
  CHECK(Value(*f.obs, "select count(*) from pg_locks where mode = 'RowShareLock' and relation = 'p'::regclass") ==
        "1");
  SendAndAwaitBlocked(*f.b, *f.obs, "delete from p where id = 1", kReplyMs);
  Ok(*f.a, "commit");
  auto msgs = f.b->ReadUntilReady(kReplyMs);
  REQUIRE(First(msgs, 'E') != nullptr);
  const auto e = ErrorOf(*First(msgs, 'E'));
  CHECK(e.sqlstate == "23503");
  CHECK(e.message == "update or delete on table \"p\" violates foreign key constraint \"c_pid_fkey\" on table \"c\"");
  CHECK(Value(*f.obs, "select count(*) from p where id = 1") == "1");
  CHECK(Value(*f.obs, "select count(*) from c where pid = 1") == "1");
}

TEST_CASE("foreign_key: the waiting DELETE succeeds when the INSERT rolls back", "[foreign_key_test]") {
  Sessions f;
  Ok(*f.a, "begin");
  Ok(*f.a, "insert into c values (10, 1)");
  SendAndAwaitBlocked(*f.b, *f.obs, "delete from p where id = 1", kReplyMs);
  Ok(*f.a, "rollback");
  CHECK(LastCommandTag(f.b->ReadUntilReady(kReplyMs)) == "DELETE 1");
}

TEST_CASE("foreign_key: an INSERT referencing a row being deleted waits for the deleter", "[foreign_key_test]") {
  Sessions f;
  Ok(*f.a, "begin");
  Ok(*f.a, "delete from p where id = 2");
  SendAndAwaitBlocked(*f.b, *f.obs, "insert into c values (20, 2)", kReplyMs);

  SECTION("deleter commits: the INSERT fails") {
    Ok(*f.a, "commit");
    auto msgs = f.b->ReadUntilReady(kReplyMs);
    REQUIRE(First(msgs, 'E') != nullptr);
    const auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.sqlstate == "23503");
    CHECK(e.detail == "Key (pid)=(2) is not present in table \"p\".");
    CHECK(Value(*f.obs, "select count(*) from c") == "0");
  }
  SECTION("deleter rolls back: the INSERT succeeds") {
    Ok(*f.a, "rollback");
    CHECK(LastCommandTag(f.b->ReadUntilReady(kReplyMs)) == "INSERT 0 1");
    CHECK(Value(*f.obs, "select count(*) from c where pid = 2") == "1");
  }
}

TEST_CASE("foreign_key: FOR KEY SHARE lets non-key updates of the referenced row through", "[foreign_key_test]") {
  Sessions f;
  Ok(*f.a, "begin");
  Ok(*f.a, "insert into c values (10, 1)");
  CHECK(LastCommandTag(Ok(*f.b, "update p set note = 'uno' where id = 1")) == "UPDATE 1");
  // A key change waits, and then fails: the key is still referenced.
  SendAndAwaitBlocked(*f.b, *f.obs, "update p set id = 100 where id = 1", kReplyMs);
  Ok(*f.a, "commit");
  auto msgs = f.b->ReadUntilReady(kReplyMs);
  REQUIRE(First(msgs, 'E') != nullptr);
  CHECK(ErrorOf(*First(msgs, 'E')).sqlstate == "23503");
}

TEST_CASE("foreign_key: constraints are catalog rows that survive a restart", "[foreign_key_test]") {
  TestServer server;
  {
    auto a = StartedSession(server);
    MakeTables(*a);
    Ok(*a, "create table k (v int check (v > 0))");
  }
  REQUIRE(server.Stop(SIGINT) >= 0);
  server.Start();
  REQUIRE(server.WaitReady());
  auto a = StartedSession(server);
  CHECK(FirstSqlstate(a->Query("insert into c values (1, 3)", kReplyMs)) == "23503");
  CHECK(FirstSqlstate(a->Query("insert into k values (0)", kReplyMs)) == "23514");
  CHECK(Value(*a, "select string_agg(conname, ',' order by conname) from pg_constraint where contype in ('c', 'f')") ==
        "c_pid_fkey,k_v_check");
}

TEST_CASE("foreign_key: DEFERRABLE is not supported yet", "[foreign_key_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeTables(*a);
  auto msgs = a->Query("create table d (pid int references p deferrable initially deferred)", kReplyMs);
  CHECK(FirstSqlstate(msgs) == "0A000");
}
