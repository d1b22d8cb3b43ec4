// B-tree crash recovery end to end: a client commits single-row inserts into
// a table with a primary key and a wide secondary index (many page splits,
// several levels) while another table's indexes were just built by CREATE
// INDEX; kill -9 of the postmaster and every child mid-stream, restart.
// After WAL replay: hearth_index_check() finds every index sound, every
// acknowledged key is found through an index scan, index and sequential
// counts agree, and unique constraints still hold.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crash_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

// Runs `sql`; on failure returns false after printing the error.
bool Exec(RawConn& c, const std::string& sql, int timeout_ms = 30000) {
  auto msgs = c.Query(sql, timeout_ms);
  if (Ok(msgs)) return true;
  const RawMessage* e = First(msgs, 'E');
  UNSCOPED_INFO(sql << "\n  -> " << (e ? ErrorOf(*e).sqlstate + " " + ErrorOf(*e).message : "no answer"));
  return false;
}

// The single value of a one-row, one-column query ("<error SQLSTATE>" on failure).
std::string QueryValue(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 10000);
  if (!Ok(msgs)) return "<error " + FirstSqlstate(msgs) + ">";
  std::vector<std::string> col = FirstColumn(msgs);
  return col.size() == 1 ? col[0] : "<" + std::to_string(col.size()) + " rows>";
}

// Multi-row INSERT of rows(first..last) into `table`, 250 rows a statement.
template <typename RowFn>
bool InsertValues(RawConn& c, const std::string& table, int first, int last, RowFn row) {
  for (int from = first; from <= last; from += 250) {
    std::string sql = "insert into " + table + " values ";
    for (int i = from; i <= last && i < from + 250; ++i) sql += (i == from ? "" : ", ") + row(i);
    if (!Exec(c, sql)) return false;
  }
  return true;
}

std::string Plan(RawConn& c, const std::string& sql) {
  std::string out;
  for (const std::string& line : FirstColumn(c.Query("explain " + sql, 10000))) out += line + "\n";
  return out;
}

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

int StreamKey(int i) { return static_cast<int>((static_cast<int64_t>(i) * 7919) % 100003); }

}  // namespace

TEST_CASE("index crash: kill -9 mid-stream leaves sound indexes that find every acknowledged key",
          "[index_crash_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "30s"}});
  {
    RawConn setup(server.port());
    REQUIRE(LastStatus(setup.Startup()) == 'I');
    REQUIRE(Exec(setup, "create table t (k int primary key, s text, pad text)"));
    REQUIRE(Exec(setup, "create index t_s on t (s)"));
    // Long keys in t_s: about 25 per leaf, so the tree is several levels deep.
    REQUIRE(InsertValues(setup, "t", 1, 1500, [](int i) {
      return "(" + std::to_string(1000000 + i) + ", repeat('s', 300) || " + std::to_string(1000000 + i) + ", 'pre')";
    }));
    // Indexes built by CREATE INDEX just before the crash (no checkpoint in between).
    REQUIRE(Exec(setup, "create table u (k int, s text)"));
    REQUIRE(InsertValues(setup, "u", 1, 3000,
                         [](int i) { return "(" + std::to_string(i) + ", repeat('u', 300) || " + std::to_string(i) + ")"; }));
    REQUIRE(Exec(setup, "create unique index u_k on u (k)", 30000));
    REQUIRE(Exec(setup, "create index u_s on u (s)", 30000));
  }
  std::set<int> acked;
  std::atomic<bool> stop{false};
  std::thread killer([&] {
    SleepMs(1500);
    stop = true;
  });
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    for (int i = 0; !stop; ++i) {
      const std::string k = std::to_string(StreamKey(i));
      auto msgs = c.Query("insert into t values (" + k + ", repeat('s', 300) || " + k + ", 'x')", 5000);
      REQUIRE(Ok(msgs));
      acked.insert(StreamKey(i));
    }
    // One more insert is in flight when the crash comes.
    const std::string k = std::to_string(StreamKey(static_cast<int>(acked.size())));
    REQUIRE(c.Send(QueryMsg("insert into t values (" + k + ", repeat('s', 300) || " + k + ", 'y')")));
    CrashAndRestart(server);
  }
  killer.join();
  REQUIRE(acked.size() > 20);

  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  for (const char* idx : {"t_pkey", "t_s", "u_k", "u_s"}) {
    INFO("index " << idx);
    CHECK(QueryValue(c, std::string("select hearth_index_check('") + idx + "')") == "ok");
  }
  CHECK(FirstSqlstate(c.Query("select hearth_index_check('no_such_index')")) == "42704");

  // Every acknowledged key through the primary key index (k = … is an index scan).
  const std::string eq_plan = Plan(c, "select count(*) from t where k = 7919");
  INFO(eq_plan);
  REQUIRE(Contains(eq_plan, "Index Scan using t_pkey on t"));
  int missing = 0;
  for (int k : acked) {
    if (QueryValue(c, "select count(*) from t where k = " + std::to_string(k)) != "1") {
      UNSCOPED_INFO("acknowledged key " << k << " not found through t_pkey");
      ++missing;
    }
  }
  CHECK(missing == 0);
  // ... and through the wide index, for a sample.
  int n = 0;
  for (int k : acked) {
    if (n++ % 10 != 0) continue;
    INFO("key " << k << " through t_s");
    CHECK(QueryValue(c, "select k from t where s = repeat('s', 300) || " + std::to_string(k)) == std::to_string(k));
  }

  // Counts through each index equal the sequential count.
  const std::string seq_plan = Plan(c, "select count(*) from t");
  const std::string range_plan = Plan(c, "select count(*) from t where k >= -1");
  INFO(seq_plan << range_plan);
  CHECK(Contains(seq_plan, "Seq Scan on t"));
  CHECK(Contains(range_plan, "Index Scan using t_pkey on t"));
  const std::string seq_count = QueryValue(c, "select count(*) from t");
  CHECK(std::stoul(seq_count) >= acked.size() + 1500);
  CHECK(std::stoul(seq_count) <= acked.size() + 1501);
  CHECK(QueryValue(c, "select count(*) from t where k >= -1") == seq_count);
  CHECK(QueryValue(c, "select count(*) from t where s >= ''") == seq_count);
  CHECK(QueryValue(c, "select count(*) from u") == "3000");
  CHECK(QueryValue(c, "select count(*) from u where k >= 0") == "3000");
  CHECK(QueryValue(c, "select count(*) from u where s >= ''") == "3000");
  CHECK(QueryValue(c, "select s from u where k = 2345") == std::string(300, 'u') + "2345");

  // Unique constraints still hold after recovery.
  const int some = *acked.begin();
  CHECK(FirstSqlstate(c.Query("insert into t values (" + std::to_string(some) + ", 'dup', 'z')")) == "23505");
  CHECK(FirstSqlstate(c.Query("insert into t values (1000007, 'dup', 'z')")) == "23505");
  CHECK(FirstSqlstate(c.Query("insert into u values (17, 'dup')")) == "23505");

  // The recovered indexes keep working (more splits) and stay sound.
  REQUIRE(InsertValues(c, "t", 2000001, 2000500, [](int i) {
    return "(" + std::to_string(i) + ", repeat('s', 300) || " + std::to_string(i) + ", 'post')";
  }));
  CHECK(QueryValue(c, "select hearth_index_check('t_pkey')") == "ok");
  CHECK(QueryValue(c, "select hearth_index_check('public.t_s')") == "ok");
  CHECK(QueryValue(c, "select count(*) from t where k >= 2000000") == "500");
}
