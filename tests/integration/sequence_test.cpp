// Sequences over the wire: concurrent nextval from several sessions hands
// out distinct values (also with CACHE), and kill -9 of the whole server
// never lets a value handed out before the crash be handed out again (the
// WAL-logged look-ahead, including right after a checkpoint).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

int64_t QueryInt(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const auto col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return std::stoll(col[0]);
}

void Exec(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
}

// kill -9 of the postmaster and every child, then a restart (recovery).
void CrashAndRestart(TestServer& server) {
  REQUIRE(KillServerHard(server));
  REQUIRE_NOTHROW(server.Start());
}

}  // namespace

TEST_CASE("concurrent nextval hands out distinct values", "[sequence_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    Exec(c, "create sequence plain");
    Exec(c, "create sequence cached cache 5");
    Exec(c, "create table t (id bigserial primary key, who int)");
  }
  constexpr int kClients = 4, kCalls = 120;
  std::vector<std::vector<int64_t>> got(kClients);
  std::vector<std::thread> threads;
  std::vector<int> failures(kClients, 0);
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      RawConn c(server.port());
      if (LastStatus(c.Startup()) != 'I') {
        ++failures[i];
        return;
      }
      for (int n = 0; n < kCalls; ++n) {
        const char* sql = n % 3 == 0   ? "select nextval('plain')"
                          : n % 3 == 1 ? "select nextval('cached')"
                                       : "insert into t (who) values (1) returning id";
        auto msgs = c.Query(sql, 30000);
        const auto col = FirstColumn(msgs);
        if (!Ok(msgs) || col.size() != 1) {
          ++failures[i];
          return;
        }
        got[i].push_back(std::stoll(col[0]) * 3 + n % 3);  // tag by source
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int f : failures) REQUIRE(f == 0);
  std::set<int64_t> all;
  for (const auto& v : got) {
    REQUIRE(v.size() == static_cast<size_t>(kCalls));
    for (size_t k = 3; k < v.size(); ++k) REQUIRE(v[k] > v[k - 3]);  // each session sees its values rise
    all.insert(v.begin(), v.end());
  }
  REQUIRE(all.size() == static_cast<size_t>(kClients * kCalls));
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(QueryInt(c, "select count(distinct id) from t") == kClients * kCalls / 3);
  // Without CACHE the values are exactly 1..n.
  REQUIRE(QueryInt(c, "select last_value from plain") == kClients * kCalls / 3);
}

TEST_CASE("kill -9 never hands out a sequence value twice", "[sequence_test]") {
  TestServer server;
  int64_t seen = 0, seen_id = 0;
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    Exec(c, "create sequence s");
    Exec(c, "create table t (id serial, v int)");
    for (int i = 0; i < 45; ++i) seen = QueryInt(c, "select nextval('s')");
    Exec(c, "insert into t (v) values (1), (2), (3)");
    seen_id = QueryInt(c, "select max(id) from t");
    REQUIRE(seen_id == 3);
    // A rolled-back nextval is used up too.
    Exec(c, "begin");
    seen = QueryInt(c, "select nextval('s')");
    Exec(c, "rollback");
  }
  REQUIRE(seen == 46);
  CrashAndRestart(server);
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    const int64_t next = QueryInt(c, "select nextval('s')");
    REQUIRE(next > seen);
    REQUIRE(next <= seen + 1 + 32);  // at most the logged look-ahead is skipped
    seen = next;
    REQUIRE(QueryInt(c, "insert into t (v) values (4) returning id") > 3);
    // After a checkpoint the next change is logged again, whatever log_cnt says.
    Exec(c, "checkpoint");
    for (int i = 0; i < 3; ++i) seen = QueryInt(c, "select nextval('s')");
    seen_id = QueryInt(c, "insert into t (v) values (5) returning id");
  }
  CrashAndRestart(server);
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(QueryInt(c, "select nextval('s')") > seen);
  REQUIRE(QueryInt(c, "insert into t (v) values (6) returning id") > seen_id);
  REQUIRE(QueryInt(c, "select count(distinct id) from t") == 6);
}

TEST_CASE("kill -9 while sessions call nextval loses no acknowledged value", "[sequence_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    Exec(c, "create sequence busy");
    Exec(c, "create sequence busy_cached cache 7");
  }
  constexpr int kClients = 3;
  std::vector<std::vector<int64_t>> acked(kClients);
  std::vector<std::atomic<int>> counts(kClients);
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      RawConn c(server.port());
      if (LastStatus(c.Startup()) != 'I') return;
      const char* sql = i == 0 ? "select nextval('busy_cached')" : "select nextval('busy')";
      for (;;) {  // until the crash takes the connection
        auto msgs = c.Query(sql, 10000);
        const auto col = FirstColumn(msgs);
        if (!Ok(msgs) || col.size() != 1) return;
        acked[i].push_back(std::stoll(col[0]));
        counts[i].fetch_add(1);
      }
    });
  }
  REQUIRE(WaitFor([&] {
    for (const auto& n : counts) {
      if (n.load() < 100) return false;
    }
    return true;
  }, 60000));
  REQUIRE(KillServerHard(server));
  for (auto& t : threads) t.join();
  int64_t max_plain = 0, max_cached = 0;
  std::set<int64_t> plain;
  for (int i = 1; i < kClients; ++i) {
    for (int64_t v : acked[i]) {
      REQUIRE(plain.insert(v).second);  // distinct across sessions
      max_plain = std::max(max_plain, v);
    }
  }
  for (int64_t v : acked[0]) max_cached = std::max(max_cached, v);
  REQUIRE_NOTHROW(server.Start());
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(QueryInt(c, "select nextval('busy')") > max_plain);
  REQUIRE(QueryInt(c, "select nextval('busy_cached')") > max_cached);
}
