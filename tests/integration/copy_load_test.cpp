// COPY FROM and INSERT ... SELECT through the bulk-insert path, over the
// wire: one WAL record per heap page filled (not per row), WAL no bigger
// than the heap it creates, errors found when a batch is written (23505)
// naming the right input line, and nothing of a failed load visible.
#include <catch2/catch.hpp>


#include <cstdint>
#include <string>

#include "crash_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Rows shaped like pgbench_accounts: aid, bid, abalance, filler char(84).
std::string AccountRows(int from, int to) {
  std::string data;
  const std::string filler(84, ' ');
  for (int i = from; i < to; ++i) data += std::to_string(i) + "\t" + std::to_string(i / 1000 + 1) + "\t0\t" + filler + "\n";
  return data + "\\.\n";
}

CommandResult Run(const TestServer& server, const std::string& sql, const std::string& input = "") {
  CommandResult r = server.Psql({"-v", "VERBOSITY=verbose", "-c", sql}, input);
  INFO(sql << "\n" << r.out << r.err);
  return r;
}

}  // namespace

TEST_CASE("copy_load: COPY logs one WAL record per page and no more WAL than the heap", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table acc (aid int not null, bid int, abalance int, filler char(84))").exit_code == 0);
  const int64_t rec0 = PsqlInt(server, "select wal_records from pg_stat_wal");
  const int64_t bytes0 = PsqlInt(server, "select wal_bytes from pg_stat_wal");
  constexpr int kRows = 30000;
  CommandResult r = Run(server, "copy acc from stdin", AccountRows(1, kRows + 1));
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.out, "COPY 30000"));
  const int64_t records = PsqlInt(server, "select wal_records from pg_stat_wal") - rec0;
  const int64_t wal = PsqlInt(server, "select wal_bytes from pg_stat_wal") - bytes0;
  const int64_t heap = LargestRelationFileBytes(server.datadir());
  const int64_t pages = heap / 8192;
  INFO("records " << records << " wal " << wal << " heap " << heap);
  // ~61 rows a page: row-by-row logging would take 30000 records. The heap
  // file may end with a few extended but unused blocks.
  CHECK(pages >= kRows / 70);
  CHECK(records <= kRows / 61 + 10);
  CHECK(wal * 10 <= heap * 11);
  CHECK(PsqlInt(server, "select count(*) from acc") == kRows);
  CHECK(PsqlInt(server, "select sum(aid) from acc") == int64_t{kRows} * (kRows + 1) / 2);
  CHECK(PsqlInt(server, "select count(*) from acc where length(filler) = 0 and bid = aid / 1000 + 1") == kRows);
}

TEST_CASE("copy_load: INSERT ... SELECT loads a page per WAL record too", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table src (aid int, bid int, abalance int, filler char(84))").exit_code == 0);
  REQUIRE(Run(server, "copy src from stdin", AccountRows(0, 20000)).exit_code == 0);
  REQUIRE(Run(server, "create table dst (aid int, bid int, abalance int, filler char(84))").exit_code == 0);
  const int64_t rec0 = PsqlInt(server, "select wal_records from pg_stat_wal");
  CommandResult r = Run(server, "insert into dst select * from src where aid % 2 = 0");
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.out, "INSERT 0 10000"));
  const int64_t records = PsqlInt(server, "select wal_records from pg_stat_wal") - rec0;
  CHECK(records <= 10000 / 50 + 20);
  CHECK(PsqlInt(server, "select count(*) from dst") == 10000);
  CHECK(PsqlInt(server, "select count(*) from dst join src using (aid, bid, abalance, filler)") == 10000);
  // Inserting a table into itself sees only the rows from before the statement.
  REQUIRE(Run(server, "insert into dst select aid + 1, bid, abalance, filler from dst").exit_code == 0);
  CHECK(PsqlInt(server, "select count(*) from dst") == 20000);
}

TEST_CASE("copy_load: a duplicate key in a later batch names its line and loads nothing", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table pk (aid int primary key, bid int, abalance int, filler char(84))").exit_code == 0);
  REQUIRE(Run(server, "create index pk_bid on pk (bid)").exit_code == 0);
  // Line 2700 (in the third batch) repeats the key of line 5.
  std::string data = AccountRows(1, 2700);
  data.resize(data.size() - 3);  // drop "\\.\n"
  data += "5\t1\t0\tdup\n" + AccountRows(3000, 3100);
  CommandResult r = Run(server, "copy pk from stdin", data);
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "ERROR:  23505: duplicate key value violates unique constraint \"pk_pkey\""));
  CHECK(Contains(r.err, "DETAIL:  Key (aid)=(5) already exists."));
  CHECK(Contains(r.err, "CONTEXT:  COPY pk, line 2700"));
  CHECK(PsqlInt(server, "select count(*) from pk") == 0);
  // A clean load afterwards goes through both indexes.
  REQUIRE(Run(server, "copy pk from stdin", AccountRows(1, 5001)).exit_code == 0);
  CHECK(PsqlInt(server, "select count(*) from pk where aid = 4321") == 1);
  CHECK(PsqlInt(server, "select count(*) from pk where bid = 3") == 1000);
  // INSERT ... SELECT into the same index hits the same check.
  r = Run(server, "insert into pk select aid + 4990, bid, abalance, filler from pk where aid <= 20");
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "ERROR:  23505"));
  CHECK(Contains(r.err, "Key (aid)=(4991) already exists."));
  CHECK(PsqlInt(server, "select count(*) from pk") == 5000);
}

TEST_CASE("copy_load: a NOT NULL violation and a bad value name their lines; nothing is visible", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table nn (aid int not null, bid int, abalance int, filler char(84))").exit_code == 0);
  std::string data = AccountRows(1, 1500);
  data.resize(data.size() - 3);
  CommandResult r = Run(server, "copy nn from stdin", data + "\\N\t1\t0\tx\n\\.\n");
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "ERROR:  23502"));
  CHECK(Contains(r.err, "CONTEXT:  COPY nn, line 1500"));
  r = Run(server, "copy nn from stdin", data + "12x\t1\t0\tx\n\\.\n");
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "ERROR:  22P02"));
  CHECK(Contains(r.err, "COPY nn, line 1500, column aid: \"12x\""));
  CHECK(PsqlInt(server, "select count(*) from nn") == 0);
  // The next load fills the pages the failed ones left behind.
  REQUIRE(Run(server, "copy nn from stdin", AccountRows(1, 1001)).exit_code == 0);
  CHECK(PsqlInt(server, "select count(*) from nn") == 1000);
}

TEST_CASE("copy_load: a client that disconnects mid-COPY leaves nothing", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table gone (aid int, bid int, abalance int, filler char(84))").exit_code == 0);
  const size_t children = server.ChildPids().size();
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    REQUIRE(c.Send(QueryMsg("copy gone from stdin")));
    auto m = c.Read(10000);
    REQUIRE(m.has_value());
    REQUIRE(m->type == 'G');
    // Several batches' worth (written to the heap already), then the socket closes.
    std::string data = AccountRows(0, 5000);
    data.resize(data.size() - 3);
    std::string msg = "d";
    const uint32_t len = static_cast<uint32_t>(data.size() + 4);
    for (int shift = 24; shift >= 0; shift -= 8) msg.push_back(static_cast<char>((len >> shift) & 0xff));
    REQUIRE(c.Send(msg + data));
  }
  // The backend notices the EOF, aborts and exits; nothing of its load is
  // visible and the table takes new rows.
  REQUIRE(WaitFor([&] { return server.ChildPids().size() == children; }, 10000));
  CHECK(PsqlInt(server, "select count(*) from gone") == 0);
  REQUIRE(Run(server, "copy gone from stdin", AccountRows(0, 10)).exit_code == 0);
  CHECK(PsqlInt(server, "select count(*) from gone") == 10);
}

// Keys in ascending order go onto the index's last leaf without a descent
// (the rightmost-leaf fast path); the tree must stay sound and unique checks
// must still see every key, including the last one inserted that way.
TEST_CASE("copy_load: ascending keys through the rightmost-leaf path keep the index sound", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table asc_t (aid int primary key, bid int, abalance int, filler char(84))").exit_code == 0);
  REQUIRE(Run(server, "copy asc_t from stdin", AccountRows(1, 30001)).exit_code == 0);
  REQUIRE(Run(server, "copy asc_t from stdin", AccountRows(30001, 40001)).exit_code == 0);
  CHECK(server.PsqlValue("select hearth_index_check('asc_t_pkey')") == "ok");
  CHECK(PsqlInt(server, "select count(*) from asc_t where aid = 40000") == 1);
  CHECK(PsqlInt(server, "select count(*) from asc_t where aid between 29990 and 30010") == 21);
  // The largest key again: the fast path must not skip the unique check.
  CommandResult r = Run(server, "insert into asc_t values (40000, 1, 0, 'dup')");
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "Key (aid)=(40000) already exists."));
  REQUIRE(Run(server, "insert into asc_t values (40001, 1, 0, 'next')").exit_code == 0);
  REQUIRE(Run(server, "insert into asc_t values (0, 1, 0, 'first')").exit_code == 0);
  r = Run(server, "insert into asc_t values (40001, 1, 0, 'dup')");
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "Key (aid)=(40001) already exists."));
  CHECK(PsqlInt(server, "select count(*) from asc_t") == 40002);
  CHECK(server.PsqlValue("select hearth_index_check('asc_t_pkey')") == "ok");
}

// Invalid UTF-8 in COPY data is 22021 with the line in CONTEXT, as in
// PostgreSQL, and nothing of the load is visible.
TEST_CASE("copy_load: invalid UTF-8 in COPY data is 22021 naming its line", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table u (id int, t text)").exit_code == 0);
  std::string data = "1\tok\n2\tfine\n3\tbad \xff byte\n4\tlater\n\\.\n";
  CommandResult r = Run(server, "copy u from stdin", data);
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "ERROR:  22021: invalid byte sequence for encoding \"UTF8\": 0xff"));
  CHECK(Contains(r.err, "CONTEXT:  COPY u, line 3"));
  CHECK(PsqlInt(server, "select count(*) from u") == 0);
}

// A record that never ends stops at PostgreSQL's 1 GB line limit with 54000
// instead of growing the backend without bound; the session goes on.
TEST_CASE("copy_load: a COPY line over 1 GB is 54000 and the session goes on", "[copy_load_test]") {
  TestServer server;
  REQUIRE(Run(server, "create table big_line (t text)").exit_code == 0);
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(c.Send(QueryMsg("copy big_line from stdin")));
  auto g = c.Read();
  REQUIRE(g.has_value());
  REQUIRE(g->type == 'G');
  const std::string chunk = CopyDataMsg(std::string(1 << 20, 'x'));  // 1 MiB, no line end
  for (int i = 0; i < 1100; ++i) REQUIRE(c.Send(chunk));
  REQUIRE(c.Send(CopyDoneMsg()));
  auto msgs = c.ReadUntilReady(60000);
  const RawMessage* e = First(msgs, 'E');
  REQUIRE(e != nullptr);
  CHECK(ErrorOf(*e).sqlstate == "54000");
  CHECK(ErrorOf(*e).message == "out of memory");
  CHECK(ErrorOf(*e).where == "COPY big_line, line 1");
  CHECK(Contains(ErrorOf(*e).detail, "Cannot enlarge string buffer"));
  auto after = c.Query("select count(*) from big_line");
  CHECK(FirstColumn(after) == std::vector<std::string>{"0"});
}
