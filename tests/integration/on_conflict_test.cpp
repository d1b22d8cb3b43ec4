// tests/integration/on_conflict_test.cpp
//
// INSERT ... ON CONFLICT between sessions of one hearthd: an upsert that
// meets a row another transaction is inserting waits for it and then
// updates (commit) or inserts (rollback); DO UPDATE waits for a concurrent
// updater and updates its version (Read Committed); Repeatable Read
// answers 40001 for a conflicting row its snapshot cannot see; and several
// connections hammering the same few keys at once never see a duplicate-key
// error nor lose an increment (sum == connections x iterations).
// A statement expected to block is sent without reading its reply; the test
// waits (bounded) until pg_locks shows that session waiting.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 20000;

std::unique_ptr<RawConn> Session(const TestServer& server) { return StartedSession(server); }
std::vector<RawMessage> Ok(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }
std::string Tag(const std::vector<RawMessage>& msgs) { return LastCommandTag(msgs); }
void AwaitBlocked(RawConn& waiter, RawConn& observer, const std::string& sql) {
  SendAndAwaitBlocked(waiter, observer, sql, kReplyMs);
}

const char kUpsert[] = "insert into c values (1, 1) on conflict (k) do update set n = c.n + 1 returning n";

// What one hammering connection saw: statements run and errors met.
struct HammerResult {
  int done = 0;
  std::vector<std::string> errors;
};

// `conns` connections each run `iterations` statements made by `sql(i)`
// at once; returns what each saw (assertions happen on the test thread).
template <typename Sql>
std::vector<HammerResult> Hammer(const TestServer& server, int conns, int iterations, Sql sql) {
  std::vector<std::unique_ptr<RawConn>> sessions;
  for (int i = 0; i < conns; ++i) sessions.push_back(Session(server));
  std::vector<HammerResult> results(static_cast<size_t>(conns));
  std::vector<std::thread> threads;
  for (int t = 0; t < conns; ++t) {
    threads.emplace_back([&, t] {
      HammerResult& r = results[static_cast<size_t>(t)];
      for (int i = 0; i < iterations; ++i) {
        auto msgs = sessions[static_cast<size_t>(t)]->Query(sql(t, i), kReplyMs);
        if (LastStatus(msgs) == 0) {
          r.errors.push_back("no reply");
          return;
        }
        if (const RawMessage* e = First(msgs, 'E')) r.errors.push_back(ErrorOf(*e).sqlstate + " " + ErrorOf(*e).message);
        ++r.done;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  return results;
}

void RequireClean(const std::vector<HammerResult>& results, int iterations) {
  for (const HammerResult& r : results) {
    INFO("first error: " << (r.errors.empty() ? "" : r.errors[0]));
    CHECK(r.errors.empty());
    CHECK(r.done == iterations);
  }
}

}  // namespace

TEST_CASE("on_conflict: an upsert waits for the inserter of its key", "[on_conflict_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  auto obs = Session(server);
  Ok(*a, "create table c (k int primary key, n int not null)");

  SECTION("the inserter commits: the upsert updates its row") {
    Ok(*a, "begin");
    Ok(*a, "insert into c values (1, 10)");
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"11"});
    CHECK(Tag(msgs) == "INSERT 0 1");
  }
  SECTION("the inserter rolls back: the upsert inserts") {
    Ok(*a, "begin");
    Ok(*a, "insert into c values (1, 10)");
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "rollback");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"1"});
  }
  SECTION("the other side is an upsert too") {
    Ok(*a, "begin");
    CHECK(FirstColumn(Ok(*a, kUpsert)) == std::vector<std::string>{"1"});
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "commit");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"2"});
  }
  SECTION("DO NOTHING waits, then skips the committed row") {
    Ok(*a, "begin");
    Ok(*a, "insert into c values (1, 10)");
    AwaitBlocked(*b, *obs, "insert into c values (1, 99) on conflict do nothing");
    Ok(*a, "commit");
    CHECK(Tag(b->ReadUntilReady(kReplyMs)) == "INSERT 0 0");
  }
  CHECK(Value(*obs, "select count(*) from c") == "1");
}

TEST_CASE("on_conflict: DO UPDATE under Read Committed updates the newest version", "[on_conflict_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  auto obs = Session(server);
  Ok(*a, "create table c (k int primary key, n int not null)");
  Ok(*a, "insert into c values (1, 1)");

  SECTION("a concurrent non-key update") {
    Ok(*a, "begin");
    Ok(*a, "update c set n = n + 100 where k = 1");
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "commit");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"102"});
  }
  SECTION("the row's key moves away: the upsert inserts a new row") {
    Ok(*a, "begin");
    Ok(*a, "update c set k = 2 where k = 1");
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "commit");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"1"});
    CHECK(Value(*obs, "select string_agg(k || ':' || n, ',' order by k) from c") == "1:1,2:1");
  }
  SECTION("the row is deleted: the upsert inserts") {
    Ok(*a, "begin");
    Ok(*a, "delete from c where k = 1");
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "commit");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"1"});
  }
  SECTION("a row locked FOR SHARE") {
    Ok(*a, "begin");
    Ok(*a, "select * from c where k = 1 for share");
    AwaitBlocked(*b, *obs, kUpsert);
    Ok(*a, "commit");
    CHECK(FirstColumn(b->ReadUntilReady(kReplyMs)) == std::vector<std::string>{"2"});
  }
}

TEST_CASE("on_conflict: Repeatable Read answers 40001 for rows it cannot see", "[on_conflict_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  Ok(*a, "create table c (k int primary key, n int not null)");
  Ok(*a, "insert into c values (1, 1)");
  for (const char* action : {"do nothing", "do update set n = c.n + 1"}) {
    INFO(action);
    Ok(*a, "begin isolation level repeatable read");
    Ok(*a, "select count(*) from c");  // takes the snapshot
    Ok(*b, "insert into c values (2, 1)");
    auto msgs = a->Query(std::string("insert into c values (2, 5) on conflict (k) ") + action, kReplyMs);
    CHECK(FirstSqlstate(msgs) == "40001");
    Ok(*a, "rollback");
    // A row the snapshot sees is fine; so is one the transaction inserted.
    Ok(*a, "begin isolation level repeatable read");
    Ok(*a, "select count(*) from c");
    CHECK(Tag(Ok(*a, std::string("insert into c values (1, 5) on conflict (k) ") + action)).rfind("INSERT 0 ", 0) == 0);
    Ok(*a, "insert into c values (3, 1)");
    Ok(*a, std::string("insert into c values (3, 5) on conflict (k) ") + action);
    Ok(*a, "rollback");
    Ok(*b, "delete from c where k = 2");
  }
  // A concurrent update of the conflicting row: 40001 as well.
  Ok(*a, "begin isolation level repeatable read");
  Ok(*a, "select count(*) from c");
  Ok(*b, "update c set n = 50 where k = 1");
  CHECK(FirstSqlstate(a->Query("insert into c values (1, 5) on conflict (k) do update set n = c.n + 1", kReplyMs)) ==
        "40001");
  Ok(*a, "rollback");
}

TEST_CASE("on_conflict: concurrent upserts of the same keys lose nothing", "[on_conflict_test]") {
  TestServer server;
  auto a = Session(server);
  Ok(*a, "create table c (k int primary key, n int not null)");
  Ok(*a, "create table once (k int primary key, who int)");
  constexpr int kConns = 4;
  constexpr int kIterations = 150;
  constexpr int kKeys = 3;

  // Counters: every statement either inserts n = 1 or adds 1.
  auto counters = Hammer(server, kConns, kIterations, [](int, int i) {
    return "insert into c values (" + std::to_string(i % kKeys) + ", 1) on conflict (k) do update set n = c.n + 1";
  });
  RequireClean(counters, kIterations);
  CHECK(Value(*a, "select sum(n) from c") == std::to_string(kConns * kIterations));
  CHECK(Value(*a, "select count(*) from c") == std::to_string(kKeys));

  // DO NOTHING racing on fresh keys: each key inserted exactly once.
  auto once = Hammer(server, kConns, kIterations, [](int t, int i) {
    return "insert into once values (" + std::to_string(i) + ", " + std::to_string(t) + ") on conflict do nothing";
  });
  RequireClean(once, kIterations);
  CHECK(Value(*a, "select count(*) from once") == std::to_string(kIterations));

  // Multi-row upserts in explicit transactions, keys in one order (no deadlock).
  auto batches = Hammer(server, kConns, kIterations / 3, [](int, int) {
    return std::string("begin; insert into c values (0, 1), (1, 1), (2, 1), (3, 1) on conflict (k) do update set "
                       "n = c.n + 1; commit");
  });
  RequireClean(batches, kIterations / 3);
  CHECK(Value(*a, "select sum(n) from c") == std::to_string(kConns * kIterations + kConns * (kIterations / 3) * 4));
  CHECK(Value(*a, "select count(*) from c") == "4");
  CHECK(Value(*a, "select count(*) from c where k = 3") == "1");
}
