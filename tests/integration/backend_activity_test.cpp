// pg_stat_activity as another session sees it (the running statement, its
// wait event while blocked on a row lock or in pg_sleep), and
// pg_cancel_backend / pg_terminate_backend ending it over the wire.
#include <catch2/catch.hpp>

#include <string>

#include "raw_session.h"
#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kTimeout = 20000;

// pg_stat_activity's row of `pid` as "query|wait_event_type|wait_event|state".
std::string ActivityOf(RawConn& observer, const std::string& pid) {
  return SingleValue(observer,
                     "select query || '|' || coalesce(wait_event_type, '-') || '|' || coalesce(wait_event, '-') || "
                     "'|' || state from pg_stat_activity where pid = " + pid,
                     kTimeout);
}

// Waits until `pid`'s activity row reads `expected`.
void AwaitActivity(RawConn& observer, const std::string& pid, const std::string& expected) {
  std::string last;
  const bool seen = WaitFor(
      [&] {
        last = ActivityOf(observer, pid);
        return last == expected;
      },
      kTimeout);
  INFO("last seen: " << last);
  REQUIRE(seen);
}

}  // namespace

TEST_CASE("pg_stat_activity: another session's query and its row-lock wait", "[backend_activity_test]") {
  TestServer s;
  auto holder = StartedSession(s);
  auto waiter = StartedSession(s);
  auto observer = StartedSession(s);
  QueryOk(*holder, "CREATE TABLE acct (id int PRIMARY KEY, balance int); INSERT INTO acct VALUES (1, 10)", kTimeout);
  const std::string waiter_pid = SingleValue(*waiter, "select pg_backend_pid()", kTimeout);
  QueryOk(*holder, "BEGIN; UPDATE acct SET balance = 11 WHERE id = 1", kTimeout);
  const std::string update = "UPDATE acct SET balance = balance + 1 WHERE id = 1";
  REQUIRE(waiter->Send(QueryMsg(update)));
  // Blocked on the holder's transaction id, as PostgreSQL reports a row lock.
  AwaitActivity(*observer, waiter_pid, update + "|Lock|transactionid|active");
  CHECK(SingleValue(*observer, "select query_start is not null from pg_stat_activity where pid = " + waiter_pid,
                    kTimeout) == "t");
  QueryOk(*holder, "COMMIT", kTimeout);
  CHECK(LastCommandTag(waiter->ReadUntilReady(kTimeout)) == "UPDATE 1");
  // Idle again: the last statement stays, the wait is gone.
  AwaitActivity(*observer, waiter_pid, update + "|-|-|idle");
  CHECK(SingleValue(*observer, "select balance from acct", kTimeout) == "12");
}

TEST_CASE("pg_stat_activity: pg_sleep, then pg_cancel_backend and pg_terminate_backend", "[backend_activity_test]") {
  TestServer s;
  auto victim = StartedSession(s);
  auto admin = StartedSession(s);
  const std::string pid = SingleValue(*victim, "select pg_backend_pid()", kTimeout);
  const std::string sleep = "select pg_sleep(600)";

  REQUIRE(victim->Send(QueryMsg(sleep)));
  AwaitActivity(*admin, pid, sleep + "|Timeout|PgSleep|active");
  CHECK(SingleValue(*admin, "select pg_cancel_backend(" + pid + ")", kTimeout) == "t");
  auto cancelled = victim->ReadUntilReady(kTimeout);
  REQUIRE(First(cancelled, 'E') != nullptr);
  CHECK(ErrorOf(*First(cancelled, 'E')).sqlstate == "57014");
  CHECK(ErrorOf(*First(cancelled, 'E')).message == "canceling statement due to user request");
  // The session lives on.
  CHECK(SingleValue(*victim, "select 1", kTimeout) == "1");

  REQUIRE(victim->Send(QueryMsg(sleep)));
  AwaitActivity(*admin, pid, sleep + "|Timeout|PgSleep|active");
  CHECK(SingleValue(*admin, "select pg_terminate_backend(" + pid + ", 10000)", kTimeout) == "t");
  auto terminated = victim->ReadUntilReady(kTimeout);
  REQUIRE(First(terminated, 'E') != nullptr);
  const auto fatal = ErrorOf(*First(terminated, 'E'));
  CHECK(fatal.sqlstate == "57P01");
  CHECK(fatal.severity == "FATAL");
  CHECK(fatal.message == "terminating connection due to administrator command");
  // The server closed the connection (after whatever it had queued).
  std::string after;
  for (int i = 0; i < 10; ++i) {
    auto m = victim->Read(kTimeout);
    if (!m) break;
    after += m->type;
  }
  INFO("messages after the FATAL: " << after);
  CHECK(victim->eof());
  CHECK(SingleValue(*admin, "select count(*) from pg_stat_activity where pid = " + pid, kTimeout) == "0");

  // No such backend: a WARNING and false.
  auto none = admin->Query("select pg_terminate_backend(1)", kTimeout);
  CHECK(FirstColumn(none) == std::vector<std::string>{"f"});
  REQUIRE(First(none, 'N') != nullptr);
  CHECK(ErrorOf(*First(none, 'N')).message == "PID 1 is not a PostgreSQL backend process");
  CHECK(FirstSqlstate(admin->Query("select pg_terminate_backend(" + pid + ", -1)", kTimeout)) == "22023");
}

TEST_CASE("pg_stat_activity: other roles' queries and signalling them need their privileges",
          "[backend_activity_test]") {
  TestServer s;
  auto admin = StartedSession(s);
  QueryOk(*admin, "CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN", kTimeout);
  auto alice = std::make_unique<RawConn>(s.port());
  REQUIRE(LastStatus(alice->Startup("alice", "hearth")) == 'I');
  auto bob = std::make_unique<RawConn>(s.port());
  REQUIRE(LastStatus(bob->Startup("bob", "hearth")) == 'I');
  const std::string alice_pid = SingleValue(*alice, "select pg_backend_pid()", kTimeout);
  const std::string admin_pid = SingleValue(*admin, "select pg_backend_pid()", kTimeout);
  QueryOk(*alice, "select 42", kTimeout);
  CHECK(SingleValue(*bob, "select usename || ' ' || query from pg_stat_activity where pid = " + alice_pid, kTimeout) ==
        "alice <insufficient privilege>");
  CHECK(SingleValue(*admin, "select query from pg_stat_activity where pid = " + alice_pid, kTimeout) == "select 42");
  auto refused = bob->Query("select pg_cancel_backend(" + alice_pid + ")", kTimeout);
  REQUIRE(First(refused, 'E') != nullptr);
  CHECK(ErrorOf(*First(refused, 'E')).sqlstate == "42501");
  CHECK(ErrorOf(*First(refused, 'E')).message ==
        "must be a member of the role whose query is being canceled or member of pg_signal_backend");
  auto superuser = bob->Query("select pg_terminate_backend(" + admin_pid + ")", kTimeout);
  REQUIRE(First(superuser, 'E') != nullptr);
  CHECK(ErrorOf(*First(superuser, 'E')).message == "must be a superuser to terminate superuser process");
}

TEST_CASE("pg_stat_activity: a statement run through Parse/Bind/Execute shows its text and wait",
          "[backend_activity_test]") {
  TestServer s;
  auto victim = StartedSession(s);
  auto admin = StartedSession(s);
  const std::string pid = SingleValue(*victim, "select pg_backend_pid()", kTimeout);
  // As JDBC and node-postgres send a parameterized query.
  const std::string sleep = "select pg_sleep($1)";
  REQUIRE(victim->Send(ParseMsg("", sleep, {701}) + BindMsg("", "", {0}, {std::string("600")}, {}) +
                       ExecuteMsg("") + SyncMsg()));
  AwaitActivity(*admin, pid, sleep + "|Timeout|PgSleep|active");
  CHECK(SingleValue(*admin, "select pg_terminate_backend(" + pid + ")", kTimeout) == "t");
  auto terminated = victim->ReadUntilReady(kTimeout);
  REQUIRE(First(terminated, 'E') != nullptr);
  CHECK(ErrorOf(*First(terminated, 'E')).sqlstate == "57P01");

  // A named statement executed twice: the text stays after it finished.
  auto other = StartedSession(s);
  const std::string other_pid = SingleValue(*other, "select pg_backend_pid()", kTimeout);
  const std::string q = "select $1::int + 1";
  REQUIRE(other->Send(ParseMsg("s1", q) + BindMsg("", "s1", {}, {std::string("1")}, {}) + ExecuteMsg("") +
                      SyncMsg()));
  CHECK(First(other->ReadUntilReady(kTimeout), 'E') == nullptr);
  AwaitActivity(*admin, other_pid, q + "|-|-|idle");
}
