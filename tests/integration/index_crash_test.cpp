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

// After a CHECKPOINT every index page's next change is logged as an image
// once and then as small insert / split / vacuum records; kill -9 after a
// mix of all of them, then the indexes must match the table exactly.
TEST_CASE("index crash: insert, split and vacuum records after a checkpoint survive kill -9",
          "[index_crash_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "1h"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Exec(c, "create table v (k int primary key, s text)"));
  REQUIRE(Exec(c, "create index v_s on v (s)"));
  REQUIRE(InsertValues(c, "v", 1, 2000, [](int i) {
    return "(" + std::to_string(i * 2) + ", repeat('v', 200) || " + std::to_string(i * 2) + ")";
  }));
  REQUIRE(Exec(c, "checkpoint"));
  const std::string wal_before = QueryValue(c, "select wal_bytes from pg_stat_wal");
  // Odd keys land between the existing ones: inserts into every leaf, splits.
  REQUIRE(InsertValues(c, "v", 1, 2000, [](int i) {
    return "(" + std::to_string(i * 2 - 1) + ", repeat('v', 200) || " + std::to_string(i * 2 - 1) + ")";
  }));
  // Small records instead of page images: 2000 rows into a heap and two
  // indexes cost well under a page each (whole images of every changed
  // index page would be about 16 kB per row).
  const double wal_per_row =
      (std::stod(QueryValue(c, "select wal_bytes from pg_stat_wal")) - std::stod(wal_before)) / 2000;
  INFO("WAL bytes per inserted row: " << wal_per_row);
  CHECK(wal_per_row < 5000);
  REQUIRE(Exec(c, "delete from v where k % 3 = 0"));
  REQUIRE(Exec(c, "vacuum v"));  // index entries removed: vacuum records
  REQUIRE(Exec(c, "insert into v values (100003, 'after vacuum'), (100005, 'after vacuum')"));
  const std::string expected = QueryValue(c, "select count(*) from v");
  REQUIRE(expected == std::to_string(4000 - 4000 / 3 + 2));
  CrashAndRestart(server);

  RawConn r(server.port());
  REQUIRE(LastStatus(r.Startup()) == 'I');
  CHECK(QueryValue(r, "select hearth_index_check('v_pkey')") == "ok");
  CHECK(QueryValue(r, "select hearth_index_check('v_s')") == "ok");
  CHECK(QueryValue(r, "select count(*) from v") == expected);
  CHECK(QueryValue(r, "select count(*) from v where k >= 0") == expected);
  CHECK(QueryValue(r, "select count(*) from v where s >= ''") == expected);
  CHECK(QueryValue(r, "select count(*) from v where k = 2997") == "0");  // deleted and vacuumed
  CHECK(QueryValue(r, "select count(*) from v where k = 2999") == "1");
  CHECK(QueryValue(r, "select k from v where s = 'after vacuum' order by k limit 1") == "100003");
  CHECK(FirstSqlstate(r.Query("insert into v values (2999, 'dup')")) == "23505");
}

// Pruned heap pages (prune records: offsets made dead) and index entries a
// unique check removed (delete-dead records) after a checkpoint, then kill -9:
// the table and its index come back exactly as acknowledged.
TEST_CASE("index crash: pruned pages and removed dead entries survive kill -9", "[index_crash_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "1h"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Exec(c, "create table w (k int primary key, v int, pad text)"));
  REQUIRE(InsertValues(c, "w", 1, 40, [](int i) { return "(" + std::to_string(i) + ", 0, repeat('w', 120))"; }));
  REQUIRE(Exec(c, "checkpoint"));
  for (int i = 0; i < 1200; ++i) {
    REQUIRE(Exec(c, "update w set v = v + 1 where k = " + std::to_string(i % 40 + 1)));
  }
  const std::string pages = QueryValue(c, "select pg_relation_size('w') / 8192");
  INFO("heap pages " << pages);
  CHECK(std::stoi(pages) <= 6);  // pruned while updating: 1240 versions would need 25 pages
  CrashAndRestart(server);

  RawConn r(server.port());
  REQUIRE(LastStatus(r.Startup()) == 'I');
  CHECK(QueryValue(r, "select hearth_index_check('w_pkey')") == "ok");
  CHECK(QueryValue(r, "select count(*) from w") == "40");
  CHECK(QueryValue(r, "select count(*) from w where k >= 1") == "40");
  CHECK(QueryValue(r, "select sum(v) from w") == "1200");
  CHECK(QueryValue(r, "select v from w where k = 17") == "30");
  CHECK(FirstSqlstate(r.Query("insert into w values (17, 0, 'dup')")) == "23505");
  REQUIRE(Exec(r, "update w set v = v + 1 where k = 17"));
  CHECK(QueryValue(r, "select v from w where k = 17") == "31");
}

// HOT chains, pruned into redirects, after a checkpoint, then kill -9: every
// row is found through both indexes with its last acknowledged value.
TEST_CASE("index crash: HOT chains and redirects survive kill -9", "[index_crash_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "1h"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Exec(c, "create table hc (k int primary key, v int, s text)"));
  REQUIRE(Exec(c, "create index hc_s on hc (s)"));
  REQUIRE(InsertValues(c, "hc", 1, 30, [](int i) { return "(" + std::to_string(i) + ", 0, 's" + std::to_string(i) + "')"; }));
  REQUIRE(Exec(c, "checkpoint"));
  for (int i = 0; i < 1500; ++i) REQUIRE(Exec(c, "update hc set v = v + 1 where k = " + std::to_string(i % 30 + 1)));
  CHECK(QueryValue(c, "select pg_relation_size('hc_s') / 8192") == "2");  // metapage + one leaf: (nearly) all HOT
  CrashAndRestart(server);

  RawConn r(server.port());
  REQUIRE(LastStatus(r.Startup()) == 'I');
  CHECK(QueryValue(r, "select hearth_index_check('hc_pkey')") == "ok");
  CHECK(QueryValue(r, "select hearth_index_check('hc_s')") == "ok");
  CHECK(QueryValue(r, "select sum(v) from hc") == "1500");
  CHECK(QueryValue(r, "select count(*) from hc where k >= 1") == "30");
  CHECK(QueryValue(r, "select v from hc where k = 13") == "50");
  CHECK(QueryValue(r, "select v from hc where s = 's13'") == "50");
  REQUIRE(Exec(r, "update hc set v = v + 1 where k = 13"));
  CHECK(QueryValue(r, "select v from hc where s = 's13'") == "51");
  CHECK(FirstSqlstate(r.Query("insert into hc values (13, 0, 'dup')")) == "23505");
}
