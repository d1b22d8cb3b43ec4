// Checkpoints over the wire: a timed checkpoint is counted and logged in
// PostgreSQL 15's words; a WAL-triggered checkpoint is spread over time and a
// CHECKPOINT issued meanwhile makes it finish at full speed; kill -9 in the
// middle of a spread checkpoint loses no acknowledged commit.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crash_util.h"
#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

bool LogHas(const TestServer& server, const std::string& text) { return server.log().find(text) != std::string::npos; }

// PostgreSQL 15's log_checkpoints closing line, every field.
const std::regex kCompleteLine(
    R"(checkpoint complete: wrote \d+ buffers \(\d+\.\d%\); 0 WAL file\(s\) added, \d+ removed, \d+ recycled; )"
    R"(write=\d+\.\d{3} s, sync=\d+\.\d{3} s, total=\d+\.\d{3} s; )"
    R"(sync files=\d+, longest=\d+\.\d{3} s, average=\d+\.\d{3} s; distance=\d+ kB, estimate=\d+ kB)");

// Settings under which ~8.4 MB of WAL starts a checkpoint ("wal") that is then
// spread over checkpoint_timeout: it stays in progress for minutes unless
// something makes it hurry.
Settings SpreadSettings() {
  return Settings{{"max_wal_size", "16MB"},
                  {"checkpoint_timeout", "300s"},
                  {"checkpoint_completion_target", "0.9"}};
}

// Rows 1..1000 of `table` (id int, pad text), pad `width` characters long,
// in one statement.
void InsertThousand(RawConn& c, const std::string& table, int width) {
  std::string sql = "insert into " + table + " values ";
  for (int i = 1; i <= 1000; ++i) {
    sql += (i > 1 ? ", (" : "(") + std::to_string(i) + ", repeat('p', " + std::to_string(width) + "))";
  }
  REQUIRE(Exec(c, sql));
}

// Dirties a few thousand pages and writes just over max_wal_size / 1.9 of
// WAL (~117 bytes a row): 1000 rows doubled to 64000 (~7.5 MB, below the
// trigger), then 4000 rows at a time until the checkpointer (which looks
// every second) starts a checkpoint. Little WAL follows the trigger, so
// the checkpoint is ahead of its WAL schedule and spreads its writes.
void LoadUntilWalCheckpoint(TestServer& server, RawConn& c, int64_t* rows_out) {
  REQUIRE(Exec(c, "create table big (id int, pad text)"));
  InsertThousand(c, "big", 80);
  int64_t rows = 1000;
  for (; rows < 64000; rows *= 2) {
    REQUIRE(Exec(c, "insert into big select id + " + std::to_string(rows) + ", pad from big", 120000));
  }
  for (int chunk = 0; !WaitFor([&] { return LogHas(server, "checkpoint starting: wal"); }, 1500); ++chunk) {
    REQUIRE(chunk < 40);
    REQUIRE(Exec(c, "insert into big select id + " + std::to_string(rows) + ", pad from big where id <= 4000"));
    rows += 4000;
  }
  *rows_out = rows;
}

// Single-row autocommit inserts into `table` on their own connection until
// the server goes away or the object is destroyed; `acked` holds the ids
// whose COMMIT was acknowledged.
class Committer {
 public:
  Committer(int port, std::string table) : thread_([this, port, table] { Run(port, table); }) {}
  ~Committer() { Join(); }
  void Join() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  bool started() const { return started_.load(); }
  const std::vector<int>& acked() const { return acked_; }  // after Join

 private:
  void Run(int port, const std::string& table) {
    RawConn w(port);
    if (LastStatus(w.Startup()) != 'I') return;
    for (int i = 0; !stop_; ++i) {
      if (!Ok(w.Query("insert into " + table + " values (" + std::to_string(i) + ")", 10000))) return;
      acked_.push_back(i);
      started_ = true;
    }
  }
  std::atomic<bool> stop_{false};
  std::atomic<bool> started_{false};
  std::vector<int> acked_;
  std::thread thread_;
};

}  // namespace

TEST_CASE("checkpoint: a timed checkpoint writes buffers, is counted in checkpoints_timed and logged",
          "[checkpoint_test]") {
  // 30 s is checkpoint_timeout's minimum, as in PostgreSQL.
  TestServer server(Settings{{"checkpoint_timeout", "30s"}, {"checkpoint_completion_target", "0"}});
  RawConn c(server.port());
  RequireStartup(c);
  REQUIRE(Exec(c, "create table t (id int, pad text)"));
  InsertThousand(c, "t", 100);
  const int64_t written0 = QueryNumber(c, "select buffers_checkpoint from pg_stat_bgwriter");
  const int64_t req0 = QueryNumber(c, "select checkpoints_req from pg_stat_bgwriter");  // end of recovery at start
  REQUIRE(QueryNumber(c, "select checkpoints_timed from pg_stat_bgwriter") == 0);
  REQUIRE(WaitFor([&] { return QueryNumber(c, "select checkpoints_timed from pg_stat_bgwriter") >= 1; }, 90000));
  CHECK(QueryNumber(c, "select buffers_checkpoint from pg_stat_bgwriter") > written0);
  CHECK(QueryNumber(c, "select checkpoints_req from pg_stat_bgwriter") == req0);
  CHECK(LogHas(server, "checkpoint starting: time"));
  // The counter moves before the completion line reaches the log.
  CHECK(WaitFor([&] { return std::regex_search(server.log(), kCompleteLine); }, 30000));
  // The counters the view shows are the real ones, not constants.
  CHECK(QueryNumber(c, "select buffers_alloc from pg_stat_bgwriter") > 0);
  CHECK(QueryNumber(c, "select count(*) from t") == 1000);
}

TEST_CASE("checkpoint: a WAL-triggered checkpoint is spread; CHECKPOINT makes it finish at full speed",
          "[checkpoint_test]") {
  TestServer server(SpreadSettings());
  RawConn c(server.port());
  RequireStartup(c);
  const int64_t req0 = QueryNumber(c, "select checkpoints_req from pg_stat_bgwriter");
  int64_t rows = 0;
  LoadUntilWalCheckpoint(server, c, &rows);
  // Spread over ~270 s, it is still running: the CHECKPOINT below waits for
  // it, and gets its turn only because the running one stops sleeping.
  CHECK_FALSE(LogHas(server, "checkpoint complete"));
  REQUIRE(Exec(c, "checkpoint", 120000));
  CHECK(QueryNumber(c, "select checkpoints_req from pg_stat_bgwriter") - req0 == 2);
  CHECK(QueryNumber(c, "select checkpoints_timed from pg_stat_bgwriter") == 0);
  CHECK(QueryNumber(c, "select buffers_checkpoint from pg_stat_bgwriter") > 0);
  const std::string log = server.log();
  const size_t wal_start = log.find("checkpoint starting: wal");
  const size_t cmd_start = log.find("checkpoint starting: immediate force wait");
  REQUIRE(wal_start != std::string::npos);
  REQUIRE(cmd_start != std::string::npos);
  CHECK(wal_start < cmd_start);
  CHECK(std::regex_search(log, kCompleteLine));
  CHECK(QueryNumber(c, "select count(*) from big") == rows);
}

TEST_CASE("checkpoint: kill -9 in the middle of a spread checkpoint loses no acknowledged commit",
          "[checkpoint_test]") {
  TestServer server(SpreadSettings());
  std::vector<int> acked;
  int64_t rows = 0;
  {
    RawConn c(server.port());
    RequireStartup(c);
    REQUIRE(Exec(c, "create table stream (id int)"));
    Committer committer(server.port(), "stream");
    REQUIRE(WaitFor([&] { return committer.started(); }, 10000));
    LoadUntilWalCheckpoint(server, c, &rows);
    // Some of its buffers are written, the checkpoint record is not.
    REQUIRE(WaitFor([&] { return QueryNumber(c, "select buffers_checkpoint from pg_stat_bgwriter") > 0; }, 30000));
    CHECK_FALSE(LogHas(server, "checkpoint complete"));
    CrashAndRestart(server);
    committer.Join();
    acked = committer.acked();
  }
  REQUIRE(acked.size() > 3);
  RawConn c(server.port());
  RequireStartup(c);
  std::set<int> got;
  for (const std::string& v : FirstColumn(c.Query("select id from stream", 30000))) got.insert(std::stoi(v));
  int missing = 0;
  for (int id : acked) missing += got.count(id) == 0 ? 1 : 0;
  CHECK(missing == 0);
  CHECK(got.size() <= acked.size() + 1);  // at most the statement in flight at the kill
  CHECK(QueryNumber(c, "select count(*) from big") == rows);
  CHECK(QueryNumber(c, "select sum(length(pad)) from big") == rows * 80);
}
