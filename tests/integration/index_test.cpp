// tests/integration/index_test.cpp
//
// B-tree indexes through a real hearthd and real clients:
// - the planner's choices as hearthd's EXPLAIN prints them through psql
//   (Index Scan for =, ranges, BETWEEN, IN and ORDER BY ... LIMIT in both
//   directions; Seq Scan when no condition uses an index's first column),
//   with the results of each query checked too;
// - concurrent inserts of the same unique key in two sessions: the second
//   waits for the first transaction and then fails with 23505 (first
//   committed) or succeeds (first rolled back);
// - index consistency after many updates and VACUUM: every sampled key looked
//   up through the index agrees with a sequential-scan aggregate;
// - unmodified pgbench (-i with its primary keys, then a tpcb-like run in
//   simple and prepared mode) with consistent balances.
// The EXPLAIN text is hearthd's own (PostgreSQL prints costs and chooses
// differently on tiny tables); everything else is what PostgreSQL 15 does.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kQuietMs = 600;    // "still blocked": nothing may arrive this long
constexpr int kReplyMs = 20000;  // an unblocked statement must answer within this

// Runs a script through psql with ON_ERROR_STOP; fails unless it all worked.
void RunOk(const TestServer& server, const std::string& script) {
  auto r = server.Psql({"-q", "-f", "-"}, script);
  INFO("psql stdout: " << r.out << "\npsql stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
}

// EXPLAIN's text for `sql`, one line per plan line (psql -A -t).
std::string Explain(const TestServer& server, const std::string& sql) {
  return server.PsqlValue("explain " + sql);
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::unique_ptr<RawConn> Session(const TestServer& server) { return StartedSession(server); }
std::vector<RawMessage> Ok(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }

// True if nothing arrives on c for `ms`: the statement sent is still waiting.
bool StillBlocked(RawConn& c, int ms = kQuietMs) {
  auto m = c.Read(ms);
  return !m.has_value() && !c.eof();
}

}  // namespace

TEST_CASE("index: EXPLAIN shows index scans for usable conditions", "[index_test]") {
  TestServer server;
  RunOk(server, R"sql(
drop table if exists digits, t;
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table t (k int, v text, w int);
insert into t select i, 'v' || i, i % 100
  from (select a.d * 10000 + b.d * 1000 + c.d * 100 + e.d * 10 + f.d + 1 as i
        from digits a, digits b, digits c, digits e, digits f) n where i <= 20000;
create index t_k on t (k);
analyze t;
)sql");

  SECTION("equality") {
    std::string plan = Explain(server, "select v from t where k = 42");
    INFO(plan);
    CHECK(Contains(plan, "Index Scan using t_k on t"));
    CHECK(Contains(plan, "Index Cond: "));
    CHECK_FALSE(Contains(plan, "Seq Scan"));
    CHECK(server.PsqlValue("select v from t where k = 42") == "v42");
  }
  SECTION("ranges and BETWEEN") {
    for (const char* where : {"k < 5", "k <= 5", "k > 19995", "k >= 19995", "k between 100 and 104",
                              "k > 10 and k < 16"}) {
      std::string sql = std::string("select count(*) from t where ") + where;
      std::string plan = Explain(server, sql);
      INFO(sql << "\n" << plan);
      CHECK(Contains(plan, "Index Scan using t_k on t"));
      CHECK(Contains(plan, "Index Cond: "));
    }
    CHECK(server.PsqlValue("select count(*) from t where k < 5") == "4");
    CHECK(server.PsqlValue("select count(*) from t where k >= 19995") == "6");
    CHECK(server.PsqlValue("select sum(k) from t where k between 100 and 104") == "510");
    CHECK(server.PsqlValue("select count(*) from t where k > 10 and k < 16") == "5");
  }
  SECTION("IN list") {
    std::string plan = Explain(server, "select v from t where k in (3, 7, 30000)");
    INFO(plan);
    CHECK(Contains(plan, "Index Scan using t_k on t"));
    CHECK(server.PsqlValue("select v from t where k in (3, 7, 30000) order by k") == "v3\nv7");
  }
  SECTION("ORDER BY ... LIMIT forwards and backwards") {
    std::string plan = Explain(server, "select k from t order by k limit 3");
    INFO(plan);
    CHECK(Contains(plan, "Index Scan using t_k on t"));
    CHECK_FALSE(Contains(plan, "Backward"));
    CHECK_FALSE(Contains(plan, "Sort"));
    CHECK(server.PsqlValue("select k from t order by k limit 3") == "1\n2\n3");

    plan = Explain(server, "select k from t order by k desc limit 3");
    INFO(plan);
    CHECK(Contains(plan, "Index Scan Backward using t_k on t"));
    CHECK_FALSE(Contains(plan, "Sort"));
    CHECK(server.PsqlValue("select k from t order by k desc limit 3") == "20000\n19999\n19998");
  }
  SECTION("no usable condition: sequential scan") {
    for (const char* sql : {"select count(*) from t", "select k from t where v = 'v5'", "select v from t where k + 0 = 42"}) {
      std::string plan = Explain(server, sql);
      INFO(sql << "\n" << plan);
      CHECK(Contains(plan, "Seq Scan on t"));
      CHECK_FALSE(Contains(plan, "Index Scan"));
    }
    CHECK(server.PsqlValue("select k from t where v = 'v5'") == "5");
    CHECK(server.PsqlValue("select k from t where w = 5 order by k desc limit 1") == "19905");
  }
  SECTION("a condition on a second index column only does not use the index") {
    RunOk(server, "create index t_wk on t (w, k); drop index t_k;");
    std::string plan = Explain(server, "select v from t where k = 7");
    INFO(plan);
    CHECK(Contains(plan, "Seq Scan on t"));
    CHECK(server.PsqlValue("select v from t where k = 7") == "v7");
    plan = Explain(server, "select k from t where w = 7 and k < 300");
    INFO(plan);
    CHECK(Contains(plan, "Index Scan using t_wk on t"));
    CHECK(server.PsqlValue("select k from t where w = 7 and k < 300 order by k") == "7\n107\n207");
  }
  SECTION("after DROP INDEX the plan falls back to a sequential scan") {
    RunOk(server, "drop index t_k;");
    std::string plan = Explain(server, "select v from t where k = 42");
    INFO(plan);
    CHECK(Contains(plan, "Seq Scan on t"));
    CHECK(server.PsqlValue("select v from t where k = 42") == "v42");
  }
}

TEST_CASE("index: concurrent inserts of one unique key wait for the first transaction", "[index_test]") {
  TestServer server;
  auto a = Session(server);
  auto b = Session(server);
  Ok(*a, "drop table if exists u");
  Ok(*a, "create table u (k int primary key, who text)");

  Ok(*a, "begin");
  Ok(*a, "insert into u values (1, 'a')");
  // B's insert of the same key must wait for A's outcome.
  REQUIRE(b->Send(QueryMsg("insert into u values (1, 'b')")));
  CHECK(StillBlocked(*b));
  // A different key does not wait.
  Ok(*a, "insert into u values (2, 'a')");

  SECTION("first commits: the second fails with 23505") {
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    REQUIRE(LastStatus(msgs) == 'I');
    const RawMessage* err = First(msgs, 'E');
    REQUIRE(err != nullptr);
    auto fields = ErrorOf(*err);
    CHECK(fields.sqlstate == "23505");
    CHECK(fields.message == "duplicate key value violates unique constraint \"u_pkey\"");
    CHECK(fields.detail == "Key (k)=(1) already exists.");
    CHECK(FirstColumn(Ok(*b, "select who from u order by k")) == std::vector<std::string>{"a", "a"});
  }
  SECTION("first rolls back: the second succeeds") {
    Ok(*a, "rollback");
    auto msgs = b->ReadUntilReady(kReplyMs);
    REQUIRE(LastStatus(msgs) == 'I');
    CHECK(FirstSqlstate(msgs) == "");
    CHECK(FirstColumn(Ok(*a, "select who from u order by k")) == std::vector<std::string>{"b"});
  }
}

TEST_CASE("index: COPY with a duplicate key fails with 23505 and loads nothing", "[index_test]") {
  TestServer server;
  RunOk(server, "drop table if exists cp; create table cp (id int primary key, name text);\n");
  auto ok = server.Psql({"-c", "copy cp from stdin"}, "1\tone\n2\ttwo\n\\.\n");
  INFO(ok.out << ok.err);
  REQUIRE(ok.exit_code == 0);
  auto dup = server.Psql({"-v", "VERBOSITY=verbose", "-c", "copy cp from stdin"}, "3\tthree\n1\tuno\n\\.\n");
  INFO(dup.out << dup.err);
  CHECK(dup.exit_code != 0);
  CHECK(Contains(dup.err, "ERROR:  23505: duplicate key value violates unique constraint \"cp_pkey\""));
  CHECK(Contains(dup.err, "DETAIL:  Key (id)=(1) already exists."));
  CHECK(server.PsqlValue("select id::text || name from cp order by id") == "1one\n2two");
  CHECK(server.PsqlValue("select count(*) from cp where id = 3") == "0");
}

TEST_CASE("index: lookups agree with a sequential scan after many updates and VACUUM", "[index_test]") {
  TestServer server;
  RunOk(server, R"sql(
drop table if exists digits, c;
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table c (id int primary key, k int, v int);
create index c_k on c (k);
insert into c select i, i % 500, i
  from (select a.d * 1000 + b.d * 100 + e.d * 10 + f.d + 1 as i from digits a, digits b, digits e, digits f) n
  where i <= 5000;
)sql");
  // Rounds of updates that move rows between keys, deletes and re-inserts,
  // with a VACUUM in between so dead entries are removed while live ones stay.
  for (int round = 0; round < 6; ++round) {
    std::string r = std::to_string(round);
    RunOk(server, "update c set k = (k * 7 + " + r + ") % 500, v = v + 1 where id % 3 = " + std::to_string(round % 3) +
                      ";\n"
                      "update c set v = v + 1 where k between 100 and 150;\n"
                      "delete from c where id % 97 = " +
                      r +
                      ";\n"
                      "insert into c select id + 100000 * (" + r + " + 1), k, v from c where id % 97 = " +
                      std::to_string(round + 1) + " and id < 100000;\n" + (round % 2 == 1 ? "vacuum c;\n" : ""));
  }
  RunOk(server, "vacuum c;");

  // Per-key counts and sums from a sequential scan (no condition on k),
  // as "k|count|sum" lines.
  std::string full = server.PsqlValue("select k, count(*), sum(v) from c group by k order by k");
  std::map<std::string, std::string> by_scan;  // k -> "count|sum"
  for (size_t pos = 0; pos < full.size();) {
    size_t nl = full.find('\n', pos);
    if (nl == std::string::npos) nl = full.size();
    std::string line = full.substr(pos, nl - pos);
    size_t bar = line.find('|');
    REQUIRE(bar != std::string::npos);
    by_scan[line.substr(0, bar)] = line.substr(bar + 1);
    pos = nl + 1;
  }
  REQUIRE(by_scan.size() > 400);
  // The same numbers for sampled keys, each through an index lookup on k.
  int checked = 0;
  for (int k = 0; k < 520; k += 7) {
    std::string ks = std::to_string(k);
    std::string via_index = server.PsqlValue("select count(*), sum(v) from c where k = " + ks);
    INFO("key " << ks << " via index " << via_index);
    auto it = by_scan.find(ks);
    if (it == by_scan.end()) {
      CHECK(via_index == "0|");
    } else {
      CHECK(via_index == it->second);
      ++checked;
    }
  }
  CHECK(checked > 60);
  std::string plan = Explain(server, "select count(*) from c where k = 7");
  INFO(plan);
  CHECK(Contains(plan, "Index Scan using c_k on c"));
  // The primary key: every id found through the index exactly once, range
  // counts through the index equal the scan's.
  CHECK(server.PsqlValue("select count(*) from c") == server.PsqlValue("select count(distinct id) from c"));
  CHECK(server.PsqlValue("select count(*) from c where id between 1000 and 2000") ==
        server.PsqlValue("select count(*) from c where id + 0 between 1000 and 2000"));
  CHECK(server.PsqlValue("select count(*) from c where k < 50") ==
        server.PsqlValue("select count(*) from c where k + 0 < 50"));
  CHECK(server.PsqlValue("select id from c order by id desc limit 5") ==
        server.PsqlValue("select id from c order by id + 0 desc limit 5"));
}

TEST_CASE("index: unmodified pgbench with primary keys keeps the balances consistent", "[index_test]") {
  TestServer server;
  const std::vector<std::string> conn = {"-h", "127.0.0.1", "-p", std::to_string(server.port()), "-U", "hearth"};
  auto pgbench = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {"pgbench"};
    argv.insert(argv.end(), conn.begin(), conn.end());
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("hearth");
    return RunCommand(argv, "", 120);
  };
  auto balances_agree = [&] {
    std::string sums = server.PsqlValue(
        "select (select sum(abalance) from pgbench_accounts), (select sum(bbalance) from pgbench_branches), "
        "(select sum(tbalance) from pgbench_tellers), (select sum(delta) from pgbench_history), "
        "(select count(*) from pgbench_history)");
    INFO("sums: " << sums);
    auto bar = sums.find('|');
    REQUIRE(bar != std::string::npos);
    std::string a = sums.substr(0, bar);
    CHECK(sums.substr(0, sums.rfind('|')) == a + "|" + a + "|" + a + "|" + a);
    return std::stol(sums.substr(sums.rfind('|') + 1));
  };

  // The default initialisation steps, primary keys included.
  auto init = pgbench({"-i", "-s", "2"});
  INFO("init out: " << init.out << "\ninit err: " << init.err);
  REQUIRE(init.exit_code == 0);
  CHECK(Contains(init.err, "creating primary keys"));
  CHECK(server.PsqlValue("select count(*) from pgbench_accounts") == "200000");
  // The primary keys exist: a duplicate is refused.
  auto dup = server.Psql({"-c", "insert into pgbench_branches values (1, 0, '')"});
  CHECK(dup.exit_code != 0);
  CHECK(Contains(dup.err, "pgbench_branches_pkey"));
  std::string plan = Explain(server, "select abalance from pgbench_accounts where aid = 12345");
  INFO(plan);
  CHECK(Contains(plan, "Index Scan using pgbench_accounts_pkey on pgbench_accounts"));

  // One run in simple mode (it vacuums and truncates pgbench_history first),
  // checked; then one in prepared mode with -n, so history keeps the first
  // run's rows and the sums must still agree.
  auto run = pgbench({"-c", "4", "-j", "2", "-T", "5"});
  INFO("run out: " << run.out << "\nrun err: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(Contains(run.out, "number of failed transactions: 0 "));
  long first = balances_agree();
  CHECK(first > 10);

  auto prepared = pgbench({"-n", "-c", "4", "-j", "2", "-T", "5", "-M", "prepared"});
  INFO("prepared out: " << prepared.out << "\nprepared err: " << prepared.err);
  REQUIRE(prepared.exit_code == 0);
  CHECK(Contains(prepared.out, "number of failed transactions: 0 "));
  long second = balances_agree();
  CHECK(second > first);
  // Every account still reachable through its key exactly once.
  CHECK(server.PsqlValue("select count(*) from pgbench_accounts") == "200000");
  CHECK(server.PsqlValue("select count(*) from pgbench_accounts where aid between 1 and 200000") == "200000");
}
