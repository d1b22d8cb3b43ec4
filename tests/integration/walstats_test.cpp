// pg_stat_wal and hearth_stat_commit end to end: group commit shares fsyncs
// among concurrent committers, a lone committer never sleeps commit_delay,
// synchronous_commit = off and fsync = off behave as docs/durability.md says.
#include <catch2/catch.hpp>

#include <signal.h>

#include <atomic>
#include <cstdint>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

// One integer out of a single-row, single-column query.
int64_t Scalar(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const auto col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return std::stoll(col[0]);
}

RawConn& Connected(RawConn& c) {
  REQUIRE(LastStatus(c.Startup()) == 'I');
  return c;
}

}  // namespace

TEST_CASE("walstats: pg_stat_wal has PostgreSQL 15's columns and counts records", "[walstats_test]") {
  TestServer server;
  RawConn c(server.port());
  Connected(c);
  auto msgs = c.Query(
      "select wal_records, wal_fpi, wal_bytes, wal_buffers_full, wal_write, wal_sync, wal_write_time, "
      "wal_sync_time, stats_reset from pg_stat_wal");
  INFO(FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const RawMessage* desc = First(msgs, 'T');
  REQUIRE(desc != nullptr);
  const auto fields = RowDescriptionOf(*desc);
  REQUIRE(fields.size() == 9);
  CHECK(fields[0].type_oid == 20);   // int8
  CHECK(fields[2].type_oid == 1700);  // numeric
  CHECK(fields[6].type_oid == 701);   // float8
  CHECK(fields[8].type_oid == 1184);  // timestamptz
  const RawMessage* row = First(msgs, 'D');
  REQUIRE(row != nullptr);
  CHECK(DataRowValues(*row)[8].has_value());  // stats_reset set at startup

  REQUIRE(Ok(c.Query("create table w (id int)")));
  const int64_t records0 = Scalar(c, "select wal_records from pg_stat_wal");
  const int64_t bytes0 = Scalar(c, "select wal_bytes from pg_stat_wal");
  const int64_t requests0 = Scalar(c, "select commit_requests from hearth_stat_commit");
  for (int i = 0; i < 10; ++i) REQUIRE(Ok(c.Query("insert into w values (" + std::to_string(i) + ")")));
  // Each insert: at least a heap record and a commit record.
  CHECK(Scalar(c, "select wal_records from pg_stat_wal") - records0 >= 20);
  CHECK(Scalar(c, "select wal_bytes from pg_stat_wal") - bytes0 >= 20 * 24);
  CHECK(Scalar(c, "select commit_requests from hearth_stat_commit") - requests0 >= 10);
}

TEST_CASE("walstats: 16 concurrent committers share fsyncs (commit_delay = 0)", "[walstats_test]") {
  TestServer server(Settings{{"max_connections", "40"}, {"commit_delay", "0"}});
  constexpr int kClients = 16;
  constexpr int kPerClient = 100;
  RawConn admin(server.port());
  Connected(admin);
  REQUIRE(Ok(admin.Query("create table g (client int, n int)")));
  const int64_t sync0 = Scalar(admin, "select wal_sync from pg_stat_wal");
  const int64_t requests0 = Scalar(admin, "select commit_requests from hearth_stat_commit");
  const int64_t followers0 = Scalar(admin, "select flush_follower_waits from hearth_stat_commit");

  std::atomic<int> failures{0};
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kClients; ++t) {
    threads.emplace_back([&, t] {
      RawConn c(server.port());
      if (LastStatus(c.Startup()) != 'I') {
        failures++;
        return;
      }
      ready++;
      while (ready.load() < kClients) std::this_thread::yield();
      for (int i = 0; i < kPerClient; ++i) {
        auto msgs = c.Query("insert into g values (" + std::to_string(t) + ", " + std::to_string(i) + ")", 20000);
        if (!Ok(msgs)) failures++;
      }
    });
  }
  for (auto& th : threads) th.join();
  REQUIRE(failures.load() == 0);
  CHECK(Scalar(admin, "select count(*) from g") == kClients * kPerClient);

  const int64_t syncs = Scalar(admin, "select wal_sync from pg_stat_wal") - sync0;
  const int64_t requests = Scalar(admin, "select commit_requests from hearth_stat_commit") - requests0;
  const int64_t follower_waits = Scalar(admin, "select flush_follower_waits from hearth_stat_commit") - followers0;
  const int64_t commits = kClients * kPerClient;
  const double ratio = static_cast<double>(syncs) / static_cast<double>(commits);
  std::cout << "walstats_test: " << commits << " commits from " << kClients << " clients, " << syncs
            << " WAL syncs (" << ratio << " per commit), " << requests << " commit flush requests, "
            << follower_waits << " follower waits\n";
  CHECK(requests >= commits);
  CHECK(syncs > 0);
  CHECK(ratio < 0.9);
}

TEST_CASE("walstats: a lone committer never takes commit_delay; with commit_siblings = 0 it always does",
          "[walstats_test]") {
  TestServer server;
  RawConn c(server.port());
  Connected(c);
  REQUIRE(Ok(c.Query("create table d (id int)")));
  REQUIRE(Ok(c.Query("set commit_delay = 1000")));
  REQUIRE(Ok(c.Query("set commit_siblings = 5")));
  const int64_t delays0 = Scalar(c, "select commit_delays from hearth_stat_commit");
  const int64_t requests0 = Scalar(c, "select commit_requests from hearth_stat_commit");
  for (int i = 0; i < 50; ++i) REQUIRE(Ok(c.Query("insert into d values (" + std::to_string(i) + ")")));
  CHECK(Scalar(c, "select commit_requests from hearth_stat_commit") - requests0 >= 50);
  CHECK(Scalar(c, "select commit_delays from hearth_stat_commit") - delays0 == 0);

  // Control: siblings = 0 means "always delay", so the counter does move.
  REQUIRE(Ok(c.Query("set commit_siblings = 0")));
  const int64_t delays1 = Scalar(c, "select commit_delays from hearth_stat_commit");
  for (int i = 0; i < 5; ++i) REQUIRE(Ok(c.Query("insert into d values (" + std::to_string(100 + i) + ")")));
  CHECK(Scalar(c, "select commit_delays from hearth_stat_commit") - delays1 >= 1);
  CHECK(Scalar(c, "select count(*) from d") == 55);
}

TEST_CASE("walstats: synchronous_commit = off commits survive a clean restart", "[walstats_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    Connected(c);
    REQUIRE(Ok(c.Query("create table a (id int)")));
    REQUIRE(Ok(c.Query("set synchronous_commit = off")));
    const int64_t sync0 = Scalar(c, "select wal_sync from pg_stat_wal");
    for (int i = 0; i < 200; ++i) REQUIRE(Ok(c.Query("insert into a values (" + std::to_string(i) + ")")));
    // Commits did not each wait for a sync (the walwriter batches them).
    const int64_t syncs = Scalar(c, "select wal_sync from pg_stat_wal") - sync0;
    std::cout << "walstats_test: synchronous_commit=off: 200 commits, " << syncs << " WAL syncs\n";
    CHECK(syncs < 200);
    CHECK(Scalar(c, "select count(*) from a") == 200);
  }
  server.Stop(SIGTERM);
  REQUIRE_NOTHROW(server.Start());
  RawConn d(server.port());
  Connected(d);
  CHECK(Scalar(d, "select count(*) from a") == 200);
  CHECK(Scalar(d, "select sum(id) from a") == 199 * 200 / 2);
}

TEST_CASE("walstats: fsync = off works and never syncs WAL", "[walstats_test]") {
  TestServer server(Settings{{"fsync", "off"}});
  RawConn c(server.port());
  Connected(c);
  REQUIRE(Ok(c.Query("create table f (id int)")));
  const int64_t sync0 = Scalar(c, "select wal_sync from pg_stat_wal");
  const int64_t records0 = Scalar(c, "select wal_records from pg_stat_wal");
  for (int i = 0; i < 100; ++i) REQUIRE(Ok(c.Query("insert into f values (" + std::to_string(i) + ")")));
  REQUIRE(Ok(c.Query("checkpoint")));
  CHECK(Scalar(c, "select wal_sync from pg_stat_wal") == sync0);
  CHECK(Scalar(c, "select wal_records from pg_stat_wal") - records0 >= 200);
  CHECK(Scalar(c, "select count(*) from f") == 100);
}

TEST_CASE("walstats: a large commit_delay sleeps at most half a WAL flush", "[walstats_test]") {
  TestServer server;
  RawConn c(server.port());
  Connected(c);
  REQUIRE(Ok(c.Query("create table e (id int)")));
  // 100 ms, the maximum, with "always delay": a leader that slept all of it
  // would spend 100 ms per commit on a disk that syncs in well under 1 ms.
  REQUIRE(Ok(c.Query("set commit_delay = 100000")));
  REQUIRE(Ok(c.Query("set commit_siblings = 0")));
  const int64_t delays0 = Scalar(c, "select commit_delays from hearth_stat_commit");
  for (int i = 0; i < 30; ++i) REQUIRE(Ok(c.Query("insert into e values (" + std::to_string(i) + ")")));
  const int64_t delays = Scalar(c, "select commit_delays from hearth_stat_commit") - delays0;
  auto msgs = c.Query("select commit_delay_time, flush_time_avg from hearth_stat_commit");
  REQUIRE(Ok(msgs));
  const auto row = DataRowValues(*First(msgs, 'D'));
  const double delay_ms = std::stod(*row[0]), flush_avg_ms = std::stod(*row[1]);
  std::cout << "walstats_test: commit_delay=100ms: " << delays << " delays, " << delay_ms << " ms slept in all, "
            << "average flush " << flush_avg_ms << " ms\n";
  CHECK(flush_avg_ms > 0);  // flushes are timed
  CHECK(delays >= 1);       // the delay is still taken ...
  // ... but each is capped by half the average flush at the time, never the
  // full commit_delay (unless the disk needed 200 ms per sync).
  CHECK(delay_ms < 100.0 * static_cast<double>(delays));
  CHECK(Scalar(c, "select count(*) from e") == 30);
}

TEST_CASE("walstats: checkpoints are counted in pg_stat_bgwriter and logged with log_checkpoints",
          "[walstats_test]") {
  {
    TestServer server;  // log_checkpoints defaults to on, as in PostgreSQL 15
    RawConn c(server.port());
    Connected(c);
    const int64_t req0 = Scalar(c, "select checkpoints_req from pg_stat_bgwriter");
    REQUIRE(Ok(c.Query("create table cp (id int)")));
    REQUIRE(Ok(c.Query("insert into cp values (1), (2)")));
    REQUIRE(Ok(c.Query("checkpoint")));
    REQUIRE(Ok(c.Query("checkpoint")));
    CHECK(Scalar(c, "select checkpoints_req from pg_stat_bgwriter") - req0 == 2);
    CHECK(Scalar(c, "select checkpoints_timed from pg_stat_bgwriter") == 0);  // checkpoint_timeout is 5 min
    auto msgs = c.Query("select checkpoint_write_time >= 0 and checkpoint_sync_time >= 0 from pg_stat_bgwriter");
    REQUIRE(Ok(msgs));
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"t"});
    CHECK(WaitFor([&] { return server.log().find("checkpoint starting: immediate force wait") != std::string::npos; },
                  10000));
    CHECK(server.log().find("checkpoint complete: wrote ") != std::string::npos);
  }
  TestServer quiet(Settings{{"log_checkpoints", "off"}});
  RawConn c(quiet.port());
  Connected(c);
  REQUIRE(Ok(c.Query("checkpoint")));
  CHECK(Scalar(c, "select checkpoints_req from pg_stat_bgwriter") >= 1);
  CHECK(FirstSqlstate(c.Query("set log_checkpoints = on")) == "55P02");
  CHECK(quiet.log().find("checkpoint starting") == std::string::npos);
}
