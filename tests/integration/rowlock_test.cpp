// tests/integration/rowlock_test.cpp
//
// SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE between several
// sessions of one hearthd: PostgreSQL 15's conflict table (checked with
// NOWAIT, so without waiting), waits of UPDATE/DELETE behind row locks,
// SKIP LOCKED as a job queue, OF, the Read Committed re-check of a row
// changed while waiting, Repeatable Read's 40001, deadlocks (40P01, also
// across a row lock and a table lock),
// multixacts (several FOR SHARE holders; FOR KEY SHARE beside a non-key
// UPDATE), lock_timeout and a crash with rows still locked.
// A statement expected to block is sent without reading its reply; the test
// then waits (bounded) until pg_locks shows that session waiting, acts in
// another session and reads the reply. Expectations are PostgreSQL 15's
// (run against it with HEARTH_IT_EXTERNAL_PORT).
#include <catch2/catch.hpp>

#include <signal.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 10000;

std::unique_ptr<RawConn> Session(const TestServer& server) { return StartedSession(server); }
std::vector<RawMessage> Ok(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::vector<std::string> Column(RawConn& c, const std::string& sql) { return FirstColumn(Ok(c, sql)); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }
std::string Tag(const std::vector<RawMessage>& msgs) { return LastCommandTag(msgs); }

void SendAndAwaitBlocked(RawConn& waiter, RawConn& observer, const std::string& sql) {
  hearth::testing::SendAndAwaitBlocked(waiter, observer, sql, kReplyMs);
}

// t(k int primary key, v int) holding (1, 10) and (2, 20).
void MakeTable(RawConn& c) {
  Ok(c, "drop table if exists t");
  Ok(c, "create table t (k int primary key, v int)");
  Ok(c, "insert into t values (1, 10), (2, 20)");
}

// A server, sessions a, b and an observer, and the table t.
struct Sessions {
  explicit Sessions(Settings settings = {}) : server(std::move(settings)) {
    for (auto& c : conns) c = Session(server);
    MakeTable(*conns[0]);
  }
  TestServer server;
  std::array<std::unique_ptr<RawConn>, 3> conns;
};

const char* const kModes[] = {"key share", "share", "no key update", "update"};

}  // namespace

TEST_CASE("rowlock: PostgreSQL's conflict table between the four modes", "[rowlock_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);
  // Rank sum >= 3 conflicts: KEY SHARE only with UPDATE, SHARE with NO KEY
  // UPDATE and UPDATE, NO KEY UPDATE with SHARE and stronger.
  for (int held = 0; held < 4; ++held) {
    for (int req = 0; req < 4; ++req) {
      Ok(*a, "begin");
      Ok(*a, std::string("select k from t where k = 1 for ") + kModes[held]);
      auto msgs = b->Query(std::string("select k from t where k = 1 for ") + kModes[req] + " nowait", kReplyMs);
      INFO("held " << kModes[held] << ", requested " << kModes[req]);
      if (held + req >= 3) {
        REQUIRE(First(msgs, 'E') != nullptr);
        auto e = ErrorOf(*First(msgs, 'E'));
        CHECK(e.sqlstate == "55P03");
        CHECK(e.message == "could not obtain lock on row in relation \"t\"");
      } else {
        CHECK(FirstSqlstate(msgs) == "");
        CHECK(FirstColumn(msgs) == std::vector<std::string>{"1"});
      }
      // The other row is never locked.
      CHECK(Column(*b, "select k from t where k = 2 for update nowait") == std::vector<std::string>{"2"});
      Ok(*a, "commit");
    }
  }
}

TEST_CASE("rowlock: UPDATE and DELETE wait only for conflicting row locks", "[rowlock_test]") {
  Sessions f;
  auto& [a, b, obs] = f.conns;

  SECTION("FOR KEY SHARE does not block an UPDATE of non-key columns") {
    Ok(*a, "begin");
    Ok(*a, "select * from t where k = 1 for key share");
    CHECK(Tag(Ok(*b, "update t set v = 11 where k = 1")) == "UPDATE 1");
    // ... but it does block a key change and a DELETE; the lock moved to the
    // new version with the non-key update.
    SendAndAwaitBlocked(*b, *obs, "update t set k = 5 where k = 1");
    Ok(*a, "commit");
    CHECK(Tag(b->ReadUntilReady(kReplyMs)) == "UPDATE 1");
    CHECK(Value(*obs, "select v from t where k = 5") == "11");
  }
  SECTION("FOR KEY SHARE still holds after the non-key updater beside it rolls back") {
    Ok(*a, "begin");
    Ok(*a, "select * from t where k = 1 for key share");
    Ok(*b, "begin");
    CHECK(Tag(Ok(*b, "update t set v = 11 where k = 1")) == "UPDATE 1");
    Ok(*b, "rollback");
    auto c = Session(f.server);
    CHECK(FirstSqlstate(c->Query("select * from t where k = 1 for update nowait", kReplyMs)) == "55P03");
    SendAndAwaitBlocked(*c, *obs, "delete from t where k = 1");
    Ok(*a, "commit");
    CHECK(Tag(c->ReadUntilReady(kReplyMs)) == "DELETE 1");
  }
  SECTION("FOR KEY SHARE blocks DELETE") {
    Ok(*a, "begin");
    Ok(*a, "select * from t where k = 1 for key share");
    SendAndAwaitBlocked(*b, *obs, "delete from t where k = 1");
    Ok(*a, "rollback");
    CHECK(Tag(b->ReadUntilReady(kReplyMs)) == "DELETE 1");
  }
  SECTION("FOR SHARE blocks a non-key UPDATE") {
    Ok(*a, "begin");
    Ok(*a, "select * from t where k = 1 for share");
    SendAndAwaitBlocked(*b, *obs, "update t set v = 12 where k = 1");
    CHECK(Value(*obs, "select v from t where k = 1") == "10");
    Ok(*a, "commit");
    CHECK(Tag(b->ReadUntilReady(kReplyMs)) == "UPDATE 1");
    CHECK(Value(*obs, "select v from t where k = 1") == "12");
  }
  SECTION("an uncommitted non-key UPDATE blocks FOR UPDATE but a committed one is followed") {
    Ok(*a, "begin");
    Ok(*a, "update t set v = 13 where k = 1");
    SendAndAwaitBlocked(*b, *obs, "select v from t where k = 1 for update");
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"13"});
  }
}

TEST_CASE("rowlock: SKIP LOCKED hands two workers distinct jobs", "[rowlock_test]") {
  TestServer server;
  auto w1 = Session(server);
  auto w2 = Session(server);
  Ok(*w1, "drop table if exists jobs");
  Ok(*w1, "create table jobs (id int primary key, done bool)");
  Ok(*w1, "insert into jobs values (1, false), (2, false), (3, false)");
  const std::string take = "select id from jobs where not done order by id limit 1 for update skip locked";
  Ok(*w1, "begin");
  Ok(*w2, "begin");
  CHECK(Value(*w1, take) == "1");
  CHECK(Value(*w2, take) == "2");  // LockRows sits below Limit: w1 locked job 1 only
  Ok(*w1, "update jobs set done = true where id = 1");
  Ok(*w1, "commit");
  Ok(*w1, "begin");
  CHECK(Value(*w1, take) == "3");
  CHECK(Column(*w1, "select id from jobs order by id for update skip locked") == std::vector<std::string>{"1", "3"});
  Ok(*w2, "commit");
  Ok(*w1, "commit");
}

TEST_CASE("rowlock: OF names the tables whose rows are locked", "[rowlock_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);
  Ok(*a, "drop table if exists u");
  Ok(*a, "create table u (k int, w int)");
  Ok(*a, "insert into u values (1, 100), (2, 200)");
  Ok(*a, "begin");
  CHECK(Value(*a, "select w from t join u using (k) where k = 1 for update of u") == "100");
  CHECK(Value(*b, "select v from t where k = 1 for update nowait") == "10");  // t is not locked
  CHECK(FirstSqlstate(b->Query("select w from u where k = 1 for update nowait", kReplyMs)) == "55P03");
  CHECK(Value(*b, "select w from u where k = 2 for update nowait") == "200");  // only the joined row
  Ok(*a, "commit");
  // Several clauses: the strongest mode per table.
  Ok(*a, "begin");
  Ok(*a, "select * from t x, u y where x.k = y.k and x.k = 2 for key share of x for update of y for share of x");
  CHECK(FirstSqlstate(b->Query("select * from t where k = 2 for no key update nowait", kReplyMs)) == "55P03");
  CHECK(Value(*b, "select v from t where k = 2 for share nowait") == "20");
  CHECK(FirstSqlstate(b->Query("select * from u where k = 2 for key share nowait", kReplyMs)) == "55P03");
  Ok(*a, "commit");
}

TEST_CASE("rowlock: Read Committed re-checks the newest version after waiting", "[rowlock_test]") {
  Sessions f;
  auto& [a, b, obs] = f.conns;

  SECTION("the holder updates the row: the waiter gets the new version") {
    Ok(*a, "begin");
    Ok(*a, "select * from t where k = 1 for update");
    SendAndAwaitBlocked(*b, *obs, "select k, v from t where v < 50 order by k for update");
    Ok(*a, "update t set v = 30 where k = 1");
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"1", "2"});
    CHECK(Tag(msgs) == "SELECT 2");
    CHECK(Column(*b, "select v from t order by k") == std::vector<std::string>{"30", "20"});
  }
  SECTION("the new version no longer satisfies WHERE: skipped") {
    Ok(*a, "begin");
    Ok(*a, "update t set v = 99 where k = 1");
    SendAndAwaitBlocked(*b, *obs, "select k from t where v < 50 order by k for update");
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"2"});
  }
  SECTION("the holder deletes the row: skipped") {
    Ok(*a, "begin");
    Ok(*a, "delete from t where k = 1");
    SendAndAwaitBlocked(*b, *obs, "select k from t for share");
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"2"});
  }
  SECTION("a join: the locked table's new version is re-joined and re-checked") {
    Ok(*a, "drop table if exists u");
    Ok(*a, "create table u (k int, w text)");
    Ok(*a, "insert into u values (1, 'one'), (2, 'two')");
    Ok(*a, "begin");
    Ok(*a, "update t set v = 40 where k = 1");
    Ok(*a, "update t set v = 90 where k = 2");
    SendAndAwaitBlocked(*b, *obs,
                        "select t.v::text || u.w from t join u using (k) where t.v < 50 order by t.k for update of t");
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"40one"});
  }
  SECTION("the holder rolls back: the row as it was") {
    Ok(*a, "begin");
    Ok(*a, "update t set v = 77 where k = 1");
    SendAndAwaitBlocked(*b, *obs, "select v from t where k = 1 for no key update");
    Ok(*a, "rollback");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"10"});
  }
}

TEST_CASE("rowlock: Repeatable Read locking a concurrently updated row is 40001", "[rowlock_test]") {
  Sessions f;
  auto& [a, b, obs] = f.conns;
  Ok(*b, "begin isolation level repeatable read");
  CHECK(Value(*b, "select v from t where k = 1") == "10");
  SECTION("updated and committed before the lock") {
    Ok(*a, "update t set v = 11 where k = 1");
    auto msgs = b->Query("select v from t where k = 1 for update", kReplyMs);
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.sqlstate == "40001");
    CHECK(e.message == "could not serialize access due to concurrent update");
  }
  SECTION("waits for the updater, which commits") {
    Ok(*a, "begin");
    Ok(*a, "delete from t where k = 2");
    SendAndAwaitBlocked(*b, *obs, "select * from t where k = 2 for key share");
    Ok(*a, "commit");
    CHECK(FirstSqlstate(b->ReadUntilReady(kReplyMs)) == "40001");
  }
  SECTION("a lock-only holder that commits is no conflict") {
    Ok(*a, "begin");
    Ok(*a, "select * from t where k = 2 for update");
    SendAndAwaitBlocked(*b, *obs, "select v from t where k = 2 for update");
    Ok(*a, "commit");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"20"});
  }
  Ok(*b, "rollback");
}

TEST_CASE("rowlock: two row locks in opposite order deadlock: 40P01 for one", "[rowlock_test]") {
  Sessions f(Settings{{"deadlock_timeout", "100ms"}});
  auto& [a, b, obs] = f.conns;
  Ok(*a, "begin");
  Ok(*b, "begin");
  Ok(*a, "select * from t where k = 1 for update");
  Ok(*b, "select * from t where k = 2 for share");
  SendAndAwaitBlocked(*a, *obs, "select * from t where k = 2 for update");
  REQUIRE(b->Send(QueryMsg("select * from t where k = 1 for no key update")));
  auto ra = a->ReadUntilReady(kReplyMs);
  auto rb = b->ReadUntilReady(kReplyMs);
  const std::string sa = FirstSqlstate(ra), sb = FirstSqlstate(rb);
  INFO("a: " << sa << " b: " << sb);
  REQUIRE(((sa == "40P01" && sb.empty()) || (sb == "40P01" && sa.empty())));
  CHECK(ErrorOf(*First(sa == "40P01" ? ra : rb, 'E')).message == "deadlock detected");
  Ok(*a, "rollback");
  Ok(*b, "rollback");
}

TEST_CASE("rowlock: a deadlock across a row lock and a table lock: 40P01", "[rowlock_test]") {
  Sessions f(Settings{{"deadlock_timeout", "100ms"}});
  auto& [a, b, obs] = f.conns;
  Ok(*a, "begin");
  Ok(*b, "begin");
  Ok(*a, "select * from t where k = 1 for update");  // also RowShareLock on t
  Ok(*b, "select * from t where k = 2 for update");
  SendAndAwaitBlocked(*b, *obs, "truncate t");  // AccessExclusiveLock waits for a
  REQUIRE(a->Send(QueryMsg("select * from t where k = 2 for share")));  // waits for b's transaction
  auto ra = a->ReadUntilReady(kReplyMs);
  auto rb = b->ReadUntilReady(kReplyMs);
  const std::string sa = FirstSqlstate(ra), sb = FirstSqlstate(rb);
  INFO("a: " << sa << " b: " << sb);
  REQUIRE(((sa == "40P01" && sb.empty()) || (sb == "40P01" && sa.empty())));
  Ok(*a, "rollback");
  Ok(*b, "rollback");
  CHECK(Value(*obs, "select count(*) from t") == "2");
}

TEST_CASE("rowlock: several FOR SHARE holders (a multixact) and an UPDATE waiting for all", "[rowlock_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  auto c = Session(server);
  auto obs = Session(server);
  MakeTable(*a);
  Ok(*a, "begin");
  Ok(*b, "begin");
  Ok(*a, "select * from t where k = 1 for share");
  Ok(*b, "select * from t where k = 1 for share");
  // A third shared locker joins without waiting; an exclusive one cannot.
  CHECK(Value(*obs, "select v from t where k = 1 for key share nowait") == "10");
  CHECK(FirstSqlstate(obs->Query("select v from t where k = 1 for no key update nowait", kReplyMs)) == "55P03");
  SendAndAwaitBlocked(*c, *obs, "update t set v = 15 where k = 1");
  Ok(*a, "commit");
  // Still blocked by b: pg_locks shows c waiting again (on b's transaction).
  const std::string cpid_probe = "select count(*) from pg_locks where not granted and locktype = 'transactionid'";
  REQUIRE(WaitFor([&] { return Value(*obs, cpid_probe) == "1"; }, kReplyMs));
  CHECK(Value(*obs, "select v from t where k = 1") == "10");
  Ok(*b, "commit");
  CHECK(Tag(c->ReadUntilReady(kReplyMs)) == "UPDATE 1");
  CHECK(Value(*obs, "select v from t where k = 1") == "15");
}

TEST_CASE("rowlock: waiters for one row are served in arrival order", "[rowlock_test]") {
  TestServer server;
  auto h = Session(server);
  auto w1 = Session(server);
  auto w2 = Session(server);
  auto obs = Session(server);
  MakeTable(*h);
  Ok(*h, "begin");
  Ok(*h, "select * from t where k = 1 for update");
  Ok(*w1, "begin");
  Ok(*w2, "begin");
  SendAndAwaitBlocked(*w1, *obs, "select v from t where k = 1 for update");
  SendAndAwaitBlocked(*w2, *obs, "select v from t where k = 1 for update");
  // The first waiter holds the row's tuple lock, the second waits for it.
  CHECK(Value(*obs, "select count(*) from pg_locks where locktype = 'tuple' and granted") == "1");
  Ok(*h, "commit");
  // The first to come gets the row (the second now waits for it).
  CHECK(FirstColumn(w1->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"10"});
  Ok(*w1, "commit");
  auto msgs = w2->ReadUntilReady(kReplyMs);
  CHECK(FirstColumn(msgs) == std::vector<std::string>{"10"});
  Ok(*w2, "commit");
}

TEST_CASE("rowlock: twenty sessions share one row lock", "[rowlock_test]") {
  TestServer server;
  auto a = Session(server);
  MakeTable(*a);
  std::vector<std::unique_ptr<RawConn>> holders;
  for (int i = 0; i < 20; ++i) {
    holders.push_back(Session(server));
    Ok(*holders.back(), "begin");
    CHECK(Value(*holders.back(), "select v from t where k = 1 for share") == "10");
  }
  CHECK(FirstSqlstate(a->Query("select v from t where k = 1 for update nowait", kReplyMs)) == "55P03");
  for (auto& h : holders) Ok(*h, "commit");
  CHECK(Value(*a, "select v from t where k = 1 for update nowait") == "10");
}

TEST_CASE("rowlock: lock_timeout and statement errors end a row-lock wait", "[rowlock_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  MakeTable(*a);
  Ok(*a, "begin");
  Ok(*a, "select * from t where k = 1 for update");
  Ok(*b, "set lock_timeout = '50ms'");
  auto msgs = b->Query("select * from t where k = 1 for share", kReplyMs);
  REQUIRE(First(msgs, 'E') != nullptr);
  CHECK(ErrorOf(*First(msgs, 'E')).sqlstate == "55P03");
  Ok(*a, "commit");
  CHECK(Value(*b, "select v from t where k = 1 for share") == "10");
}

TEST_CASE("rowlock: rows locked at a crash are visible and free after restart", "[rowlock_test]") {
  if (getenv("HEARTH_IT_EXTERNAL_PORT") != nullptr) return;
  TestServer server;
  {
    auto a = Session(server);
    auto b = Session(server);
    MakeTable(*a);
    Ok(*a, "checkpoint");
    Ok(*a, "begin");
    Ok(*b, "begin");
    Ok(*a, "select * from t where k = 1 for update");
    Ok(*a, "select * from t where k = 2 for share");
    Ok(*b, "select * from t where k = 2 for share");  // a multixact
    Ok(*b, "insert into t values (3, 30)");
    Ok(*b, "commit");  // WAL up to here is flushed, the lock records with it
    const auto children = server.ChildPids();
    server.Stop(SIGKILL);
    for (pid_t p : children) kill(p, SIGKILL);
    REQUIRE(WaitFor([&] {
      for (pid_t p : children) {
        if (kill(p, 0) == 0) return false;
      }
      return true;
    }, kReplyMs));
  }
  KillProcessesMentioning(server.datadir());
  REQUIRE_NOTHROW(server.Start());
  auto c = Session(server);
  CHECK(Column(*c, "select v from t order by k") == std::vector<std::string>{"10", "20", "30"});
  CHECK(Column(*c, "select k from t order by k for update nowait") == std::vector<std::string>{"1", "2", "3"});
  CHECK(Tag(Ok(*c, "delete from t where k <= 2")) == "DELETE 2");
  CHECK(Value(*c, "select count(*) from t") == "1");
}
