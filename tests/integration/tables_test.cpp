// tests/integration/tables_test.cpp
//
// Tables end to end on a real hearthd: committed data survives a clean
// shutdown (SIGTERM) and restart while rolled-back work stays gone; tables
// larger than shared_buffers (16 buffers); cancelling a long cross-join
// sort; psql's \d family answered with an error on a live session; and the
// unmodified pgbench (initialisation with COPY, then TPC-B-like runs in
// simple and prepared mode) leaving balances consistent.
// Restart tests need hearthd itself (they signal the postmaster); the other
// cases also pass against PostgreSQL 15 (HEARTH_IT_EXTERNAL_PORT).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Runs a script through psql with ON_ERROR_STOP; the test fails (showing
// psql's output) unless every statement succeeded.
void RunOk(const TestServer& server, const std::string& script) {
  auto r = server.Psql({"-q", "-f", "-"}, script);
  INFO("psql stdout: " << r.out << "\npsql stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
}

// The rows of `sql` as psql -A -t prints them (fields joined by '|').
std::string Rows(const TestServer& server, const std::string& sql) { return server.PsqlValue(sql); }

const char* kSetupScript = R"sql(
create table keep (id int not null, name text, amount numeric(10,2), day date, flag boolean);
insert into keep values (1, 'one', 1.10, '2026-01-01', true), (2, 'two', 2.20, '2026-01-02', false),
                        (3, 'three', 3.30, '2026-01-03', null), (4, 'four', 4.40, null, true);
update keep set name = name || '!' where id in (1, 3);
delete from keep where id = 2;
create table wiped (a int);
insert into wiped values (1), (2), (3);
truncate wiped;
insert into wiped values (42);
create table gone (a int);
insert into gone values (1);
drop table gone;
create table counters (k int, v bigint default 0, note varchar(20));
insert into counters (k) values (1), (2), (3);
begin;
update counters set v = v + 100 where k = 1;
insert into counters values (4, 4, 'committed');
commit;
begin;
update counters set v = -1;
insert into counters values (5, 5, 'rolled back');
delete from keep;
drop table wiped;
rollback;
begin;
insert into keep values (9, 'aborted', 0, null, null);
select 1 / 0;
commit;
)sql";

// What kSetupScript leaves committed, as psql -A -t prints it.
void CheckSetupState(const TestServer& server) {
  CHECK(Rows(server, "select id, name, amount, day, flag from keep order by id") ==
        "1|one!|1.10|2026-01-01|t\n3|three!|3.30|2026-01-03|\n4|four|4.40||t");
  CHECK(Rows(server, "select a from wiped") == "42");
  CHECK(Rows(server, "select k, v, note from counters order by k") == "1|100|\n2|0|\n3|0|\n4|4|committed");
  auto r = server.Psql({"-c", "select * from gone"});
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("relation \"gone\" does not exist") != std::string::npos);
}

}  // namespace

TEST_CASE("tables: a clean shutdown and restart keeps exactly the committed data", "[tables_test]") {
  TestServer server;
  {
    // The script has deliberate errors inside its aborted transaction.
    auto r = server.PsqlScript(kSetupScript);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("ERROR:  division by zero") != std::string::npos);
  }
  CheckSetupState(server);

  int status = server.Stop(SIGTERM);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  server.Start();
  CheckSetupState(server);

  // Work after the restart is kept by the next restart, too; names are reusable.
  RunOk(server, R"sql(
update counters set v = v + 1;
create table gone (a int, b text);
insert into gone values (7, 'again');
drop table wiped;
vacuum;
)sql");
  status = server.Stop(SIGTERM);
  REQUIRE(WIFEXITED(status));
  server.Start();
  CHECK(Rows(server, "select sum(v), count(*) from counters") == "108|4");
  CHECK(Rows(server, "select a, b from gone") == "7|again");
  CHECK(server.Psql({"-c", "select * from wiped"}).exit_code != 0);
  CHECK(Rows(server, "select count(*) from keep") == "3");
}

TEST_CASE("tables: data larger than shared_buffers, before and after a restart", "[tables_test]") {
  // 16 buffers (128kB) is the minimum; ~5000 rows of ~100 bytes need ~70 pages.
  TestServer server(Settings{{"shared_buffers", "128kB"}});
  CHECK(Rows(server, "show shared_buffers") == "128kB");
  RunOk(server, R"sql(
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table wide (id int, grp int, pad text, amount numeric(12,2));
insert into wide (id)
  select a.d * 1000 + b.d * 100 + c.d * 10 + e.d from digits a, digits b, digits c, digits e where a.d < 5;
update wide set grp = id % 7, pad = 'padding-padding-padding-padding-padding-padding-padding-padding-' || id::text,
                amount = id / 4.0;
delete from wide where id % 10 = 3;
create table other (id int, tag text);
insert into other select id, 'tag' || (id % 3)::text from wide where id % 2 = 0;
)sql");
  auto check = [&] {
    CHECK(Rows(server, "select count(*), sum(id), sum(amount), max(length(pad)) from wide") ==
          "4500|11248500|2812125.00|68");
    CHECK(Rows(server, "select grp, count(*) from wide group by grp order by grp") ==
          "0|644\n1|644\n2|642\n3|642\n4|643\n5|643\n6|642");
    CHECK(Rows(server, "select o.tag, count(*), sum(w.id) from wide w join other o on o.id = w.id "
                       "group by o.tag order by o.tag") ==
          "tag0|834|2084166\ntag1|833|2082500\ntag2|833|2080834");
    CHECK(Rows(server, "select id from wide order by pad desc limit 2") == "999\n998");
  };
  check();
  int status = server.Stop(SIGTERM);
  REQUIRE(WIFEXITED(status));
  server.Start();
  check();
  // Updating every row again churns all pages through the 16 buffers.
  RunOk(server, "update wide set amount = amount + 1;");
  CHECK(Rows(server, "select sum(amount) from wide") == "2816625.00");
}

TEST_CASE("tables: a long cross-join sort is cancelled within a second", "[tables_test]") {
  TestServer server;
  RunOk(server, R"sql(
drop table if exists ca, cb, digits;
create table digits (d int);
insert into digits values (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
create table ca (x int);
create table cb (y int);
insert into ca select a.d * 1000 + b.d * 100 + c.d * 10 + e.d from digits a, digits b, digits c, digits e where a.d < 2;
insert into cb select x from ca;
)sql");
  CHECK(Rows(server, "select count(*) from ca, cb where ca.x = cb.y") == "2000");

  RawConn c(server.port());
  REQUIRE(c.ok());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(c.Send(QueryMsg("select ca.x, cb.y from ca cross join cb order by ca.x * 7919 + cb.y desc")));
  SleepMs(700);
  auto start = std::chrono::steady_clock::now();
  {
    RawConn canceller(server.port());
    REQUIRE(canceller.ok());
    REQUIRE(canceller.Send(CancelRequestMsg(c.backend_pid(), c.secret())));
    canceller.DrainUntilEof(5000);
  }
  auto msgs = c.ReadUntilReady(20000);
  double took = SecondsSince(start);
  CHECK(took < 1.0);
  REQUIRE(First(msgs, 'E') != nullptr);
  CHECK(ErrorOf(*First(msgs, 'E')).sqlstate == "57014");
  CHECK(First(msgs, 'D') == nullptr);  // cancelled before the first row
  CHECK(LastStatus(msgs) == 'I');
  // The session and the tables are fine afterwards.
  CHECK(FirstColumn(c.Query("select count(*) from ca")) == std::vector<std::string>{"2000"});

  // statement_timeout stops the same sort.
  REQUIRE(LastStatus(c.Query("set statement_timeout = 500")) == 'I');
  start = std::chrono::steady_clock::now();
  msgs = c.Query("select ca.x, cb.y from ca cross join cb order by ca.x * 7919 + cb.y desc", 20000);
  took = SecondsSince(start);
  CHECK(took >= 0.45);
  CHECK(took < 1.5);
  REQUIRE(First(msgs, 'E') != nullptr);
  auto e = ErrorOf(*First(msgs, 'E'));
  CHECK(e.sqlstate == "57014");
  CHECK(e.message == "canceling statement due to statement timeout");
  CHECK(First(msgs, 'D') == nullptr);
  c.Query("reset statement_timeout");
  c.Query("drop table ca, cb, digits");
}

TEST_CASE("tables: psql \\d and \\dt list the table, \\d table describes it", "[tables_test]") {
  TestServer server;
  RunOk(server, "create table if not exists described (a int);");
  auto r = server.PsqlScript("\\dt\n\\d\n\\d described\nselect 40 + 2 as answer;\n");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("answer") != std::string::npos);
  CHECK(r.out.find(" 42\n") != std::string::npos);
  CHECK(r.out.find("server closed the connection") == std::string::npos);
  CHECK(r.out.find("connection to server was lost") == std::string::npos);
  // \dt and \d list it (both with the header and the table's row).
  size_t listed = 0;
  for (size_t at = r.out.find(" public | described | table | hearth"); at != std::string::npos;
       at = r.out.find(" public | described | table | hearth", at + 1)) {
    listed++;
  }
  CHECK(listed == 2);
  // \d of a table prints its columns, as PostgreSQL does; no errors.
  CHECK(r.out.find("Table \"public.described\"") != std::string::npos);
  CHECK(r.out.find(" a      | integer |") != std::string::npos);
  CHECK(r.out.find("ERROR:") == std::string::npos);
  CHECK(server.PsqlValue("select count(*) from described") == "0");
  RunOk(server, "drop table described;");
}

TEST_CASE("tables: unmodified pgbench keeps the balances consistent", "[tables_test]") {
  TestServer server;
  const std::vector<std::string> conn = {"-h", "127.0.0.1", "-p", std::to_string(server.port()), "-U", "hearth"};
  auto pgbench = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {"pgbench"};
    argv.insert(argv.end(), conn.begin(), conn.end());
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("hearth");
    return RunCommand(argv, "", 60);
  };

  // d: drop, t: create tables, g: client-side generate (COPY), v: vacuum.
  // No p: primary keys need indexes, which do not exist yet.
  auto init = pgbench({"-i", "-I", "dtgv", "-s", "1"});
  INFO("init out: " << init.out << "\ninit err: " << init.err);
  REQUIRE(init.exit_code == 0);
  CHECK(init.err.find("done in") != std::string::npos);
  CHECK(server.PsqlValue("select count(*) from pgbench_accounts") == "100000");
  CHECK(server.PsqlValue("select count(*) from pgbench_branches") == "1");
  CHECK(server.PsqlValue("select count(*) from pgbench_tellers") == "10");

  auto balances_agree = [&] {
    std::string sums = server.PsqlValue(
        "select (select sum(abalance) from pgbench_accounts), (select sum(bbalance) from pgbench_branches), "
        "(select sum(tbalance) from pgbench_tellers), (select sum(delta) from pgbench_history), "
        "(select count(*) from pgbench_history)");
    INFO("sums: " << sums);
    auto bar = sums.find('|');
    REQUIRE(bar != std::string::npos);
    std::string a = sums.substr(0, bar);
    CHECK(sums.rfind('|') > bar);
    CHECK(sums.substr(0, sums.rfind('|')) == a + "|" + a + "|" + a + "|" + a);
    return std::stol(sums.substr(sums.rfind('|') + 1));
  };

  for (const char* mode : {"simple", "prepared"}) {
    INFO("mode " << mode);
    auto run = pgbench({"-n", "-c", "2", "-j", "2", "-T", "3", "-M", mode});
    INFO("run out: " << run.out << "\nrun err: " << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("number of failed transactions: 0 ") != std::string::npos);
    CHECK(run.out.find("number of transactions actually processed: ") != std::string::npos);
  }
  long history = balances_agree();
  CHECK(history > 10);
}
