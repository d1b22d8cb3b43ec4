// Administration functions and views over the wire: relation sizes and
// regclass, WAL positions and pg_lsn, pg_buffercache, and
// pg_stat_progress_copy seen from a second session while a COPY runs.
// Sizes differ between servers, so the checks are relations between them
// (whole pages, growth, totals), never absolute byte counts.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <regex>
#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

RawConn& Connected(RawConn& c) {
  REQUIRE(LastStatus(c.Startup()) == 'I');
  return c;
}

// The single value of a one-row, one-column query ("NULL" for NULL).
std::string Value(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const auto col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return col[0];
}

int64_t Int(RawConn& c, const std::string& sql) { return std::stoll(Value(c, sql)); }

// Type OID of the first result column.
int32_t ResultType(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const RawMessage* desc = First(msgs, 'T');
  REQUIRE(desc != nullptr);
  return RowDescriptionOf(*desc).at(0).type_oid;
}

// INSERT of rows (from..to, 'pad' repeated n times) as one multi-row VALUES.
std::string InsertRows(const std::string& table, int from, int to, char pad, int n) {
  std::string sql = "insert into " + table + " values ";
  for (int i = from; i <= to; ++i) {
    sql += (i > from ? ", (" : "(") + std::to_string(i) + ", '" + std::string(static_cast<size_t>(n), pad) + "')";
  }
  return sql;
}

// Sends a COPY ... FROM STDIN and waits for CopyInResponse.
void StartCopyIn(RawConn& c, const std::string& sql) {
  REQUIRE(c.Send(QueryMsg(sql)));
  auto response = c.Read(10000);
  REQUIRE(response.has_value());
  REQUIRE(response->type == 'G');
}

}  // namespace

TEST_CASE("admin: relation sizes grow in whole pages and add up", "[admin_functions_test]") {
  TestServer server;
  RawConn c(server.port());
  Connected(c);
  REQUIRE(Ok(c.Query("create table sz (id int primary key, pad text)")));
  CHECK(ResultType(c, "select pg_relation_size('sz')") == 20);  // bigint
  CHECK(Int(c, "select pg_relation_size('sz')") == 0);
  REQUIRE(Ok(c.Query(InsertRows("sz", 1, 2000, 'x', 100), 30000)));

  const int64_t heap = Int(c, "select pg_relation_size('sz')");
  CHECK(heap > 0);
  CHECK(heap % 8192 == 0);
  CHECK(Int(c, "select pg_relation_size('sz', 'main')") == heap);
  CHECK(Int(c, "select pg_relation_size('public.sz'::regclass)") == heap);
  CHECK(Int(c, "select pg_relation_size('sz', 'init')") == 0);
  const int64_t table = Int(c, "select pg_table_size('sz')");
  const int64_t indexes = Int(c, "select pg_indexes_size('sz')");
  CHECK(table >= heap);
  CHECK(table % 8192 == 0);
  CHECK(indexes > 0);
  CHECK(indexes % 8192 == 0);
  CHECK(Int(c, "select pg_relation_size('sz_pkey')") == indexes);  // the only index
  CHECK(Int(c, "select pg_indexes_size('sz_pkey')") == 0);         // an index has no indexes
  CHECK(Int(c, "select pg_total_relation_size('sz')") == table + indexes);

  REQUIRE(Ok(c.Query(InsertRows("sz", 2001, 4000, 'y', 100), 30000)));
  const int64_t grown = Int(c, "select pg_relation_size('sz')");
  CHECK(grown > heap);
  CHECK(grown % 8192 == 0);
  CHECK(Int(c, "select pg_total_relation_size('sz')") >= grown + indexes);

  // The file behind pg_relation_filenode holds exactly pg_relation_size bytes.
  const std::string filenode = Value(c, "select pg_relation_filenode('sz')");
  CHECK(ResultType(c, "select pg_relation_filenode('sz')") == 26);  // oid
  REQUIRE(Ok(c.Query("checkpoint")));
  struct stat st {};
  REQUIRE(stat((server.datadir() + "/base/5/" + filenode).c_str(), &st) == 0);
  CHECK(st.st_size == grown);
  // TRUNCATE gives the table a new, empty file.
  REQUIRE(Ok(c.Query("truncate sz")));
  CHECK(Value(c, "select pg_relation_filenode('sz')") != filenode);
  CHECK(Int(c, "select pg_relation_size('sz')") == 0);

  // A number that is no relation: NULL, as in PostgreSQL.
  CHECK(Value(c, "select pg_relation_size(4000000000::oid::regclass)") == "NULL");
  CHECK(Value(c, "select pg_relation_filenode(4000000000::oid)") == "NULL");
  auto bad_fork = c.Query("select pg_relation_size('sz', 'bogus')");
  CHECK(FirstSqlstate(bad_fork) == "22023");
  CHECK(ErrorOf(*First(bad_fork, 'E')).message == "invalid fork name");
}

TEST_CASE("admin: regclass reads and prints relation names", "[admin_functions_test]") {
  TestServer server;
  RawConn c(server.port());
  Connected(c);
  REQUIRE(Ok(c.Query("create table \"Mixed\" (a int)")));
  REQUIRE(Ok(c.Query("create table plain (a int unique)")));
  CHECK(ResultType(c, "select 'plain'::regclass") == 2205);
  CHECK(Value(c, "select 'plain'::regclass") == "plain");
  CHECK(Value(c, "select 'PLAIN'::regclass::text") == "plain");  // unquoted names fold to lower case
  CHECK(Value(c, "select 'public.plain'::regclass") == "plain");
  CHECK(Value(c, "select '\"Mixed\"'::regclass") == "\"Mixed\"");
  CHECK(Value(c, "select 'plain_a_key'::regclass") == "plain_a_key");  // indexes too
  // oid <-> regclass round trip.
  const std::string oid = Value(c, "select 'plain'::regclass::oid");
  CHECK(std::stoll(oid) >= 16384);
  CHECK(Value(c, "select " + oid + "::regclass") == "plain");
  CHECK(Value(c, "select '" + oid + "'::regclass") == "plain");
  CHECK(Value(c, "select 0::regclass") == "-");
  CHECK(Value(c, "select 4000000000::oid::regclass") == "4000000000");  // unknown OIDs print as numbers
  CHECK(Value(c, "select count(*) from pg_stat_wal where 'plain'::regclass::oid > 0") == "1");

  auto missing = c.Query("select 'nosuch'::regclass");
  CHECK(FirstSqlstate(missing) == "42P01");
  CHECK(ErrorOf(*First(missing, 'E')).message == "relation \"nosuch\" does not exist");
  auto quoted = c.Query("select pg_relation_size('\"PLAIN\"')");
  CHECK(ErrorOf(*First(quoted, 'E')).message == "relation \"PLAIN\" does not exist");
  auto schema = c.Query("select 'nosuch.plain'::regclass");
  CHECK(FirstSqlstate(schema) == "3F000");
  CHECK(ErrorOf(*First(schema, 'E')).message == "schema \"nosuch\" does not exist");
  auto in_schema = c.Query("select 'public.nosuch'::regclass");
  CHECK(ErrorOf(*First(in_schema, 'E')).message == "relation \"public.nosuch\" does not exist");
  CHECK(FirstSqlstate(c.Query("select 'a.b.c.d'::regclass")) == "42601");
  // The session is usable after the errors.
  CHECK(Value(c, "select 1") == "1");
  // A regclass parameter of the extended protocol is looked up at Bind.
  REQUIRE(c.Send(ParseMsg("", "select $1::regclass, pg_relation_size($1)") +
                 BindMsg("", "", {0}, {std::string("PLAIN")}, {0}) + ExecuteMsg("") + SyncMsg()));
  auto bound = c.ReadUntilReady();
  REQUIRE(Ok(bound));
  const RawMessage* d = First(bound, 'D');
  REQUIRE(d != nullptr);
  CHECK(DataRowValues(*d)[0] == std::optional<std::string>("plain"));
  CHECK(DataRowValues(*d)[1] == std::optional<std::string>("0"));
}

TEST_CASE("admin: WAL positions and pg_lsn arithmetic", "[admin_functions_test]") {
  TestServer server;
  RawConn c(server.port());
  Connected(c);
  CHECK(ResultType(c, "select pg_current_wal_lsn()") == 3220);
  CHECK(ResultType(c, "select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')") == 1700);
  CHECK(ResultType(c, "select pg_current_wal_lsn() - '0/0'::pg_lsn") == 1700);
  const std::string lsn = Value(c, "select pg_current_wal_lsn()");
  CHECK(std::regex_match(lsn, std::regex("[0-9A-F]{1,8}/[0-9A-F]{1,8}")));
  CHECK(Value(c, "select '" + lsn + "'::pg_lsn::text") == lsn);

  REQUIRE(Ok(c.Query("create table w (id int, pad text)")));
  REQUIRE(Ok(c.Query(InsertRows("w", 1, 1000, 'w', 10), 30000)));
  // Committed (synchronous commit): everything written is flushed and the
  // write position moved past where it was.
  CHECK(Int(c, "select pg_wal_lsn_diff(pg_current_wal_lsn(), '" + lsn + "')") > 1000);
  CHECK(Int(c, "select pg_current_wal_lsn() - '" + lsn + "'") > 1000);
  CHECK(Value(c, "select pg_current_wal_insert_lsn() >= pg_current_wal_flush_lsn()") == "t");
  CHECK(Value(c, "select pg_current_wal_flush_lsn() >= '" + lsn + "'::pg_lsn") == "t");
  const int64_t total = Int(c, "select pg_wal_lsn_diff(pg_current_wal_flush_lsn(), '0/0')");
  CHECK(total > 0);
  CHECK(FirstSqlstate(c.Query("select 'G/0'::pg_lsn")) == "22P02");
}

TEST_CASE("admin: pg_buffercache shows the shared buffers", "[admin_functions_test]") {
  TestServer server(Settings{{"shared_buffers", "2MB"}});
  RawConn c(server.port());
  Connected(c);
  auto create = c.Query("create extension if not exists pg_buffercache");
  REQUIRE(Ok(create));
  CHECK(CommandTag(*First(create, 'C')) == "CREATE EXTENSION");
  auto unknown = c.Query("create extension no_such_extension");
  CHECK(FirstSqlstate(unknown) == "0A000");
  CHECK(ErrorOf(*First(unknown, 'E')).message == "extension \"no_such_extension\" is not available");
  CHECK(Int(c, "select count(*) from pg_buffercache") == 256);  // 2MB of 8kB pages
  CHECK(Int(c, "select min(bufferid) from pg_buffercache") == 1);
  CHECK(ResultType(c, "select relforknumber from pg_buffercache") == 21);  // smallint
  CHECK(ResultType(c, "select relblocknumber from pg_buffercache") == 20);  // bigint

  REQUIRE(Ok(c.Query("create table bc (id int, pad text)")));
  REQUIRE(Ok(c.Query(InsertRows("bc", 1, 1000, 'z', 200), 30000)));
  const std::string of_bc =
      " from pg_buffercache where relfilenode = pg_relation_filenode('bc') and relforknumber = 0";
  const int64_t pages = Int(c, "select pg_relation_size('bc') / 8192");
  CHECK(Int(c, "select count(*)" + of_bc) == pages);  // every page just written is cached
  CHECK(Int(c, "select count(*)" + of_bc + " and isdirty") > 0);
  CHECK(Int(c, "select max(relblocknumber)" + of_bc) == pages - 1);
  CHECK(Int(c, "select count(*)" + of_bc + " and (usagecount < 1 or usagecount > 5 or pinning_backends <> 0)") == 0);
  REQUIRE(Ok(c.Query("checkpoint")));
  CHECK(Int(c, "select count(*)" + of_bc + " and isdirty") == 0);
  // Unused buffers have NULL in every column but bufferid.
  CHECK(Int(c, "select count(*) from pg_buffercache where relfilenode is null and isdirty is not null") == 0);
  auto drop = c.Query("drop extension pg_buffercache");
  REQUIRE(Ok(drop));
  CHECK(CommandTag(*First(drop, 'C')) == "DROP EXTENSION");
}

TEST_CASE("admin: pg_stat_progress_copy shows a running COPY to other sessions", "[admin_functions_test]") {
  TestServer server;
  RawConn admin(server.port());
  Connected(admin);
  REQUIRE(Ok(admin.Query("create table cp (id int, note text)")));
  const std::string relid = Value(admin, "select 'cp'::regclass::oid");
  CHECK(Int(admin, "select count(*) from pg_stat_progress_copy") == 0);

  RawConn copy(server.port());
  Connected(copy);
  const std::string copy_pid = Value(copy, "select pg_backend_pid()");
  StartCopyIn(copy, "copy cp from stdin");
  std::string data;
  for (int i = 0; i < 500; ++i) data += std::to_string(i) + "\trow\n";
  REQUIRE(copy.Send(CopyDataMsg(data)));

  const std::string query =
      "select pid, datname, relid, command, type, bytes_processed, bytes_total, tuples_processed, tuples_excluded "
      "from pg_stat_progress_copy";
  std::vector<std::optional<std::string>> row;
  REQUIRE(WaitFor(
      [&] {
        auto msgs = admin.Query(query);
        const RawMessage* d = First(msgs, 'D');
        if (d == nullptr) return false;
        row = DataRowValues(*d);
        return row.size() == 9 && row[7] && std::stoll(*row[7]) == 500;
      },
      20000));
  CHECK(row[0] == copy_pid);
  CHECK(row[1] == std::optional<std::string>("hearth"));
  CHECK(row[2] == relid);
  CHECK(row[3] == std::optional<std::string>("COPY FROM"));
  CHECK(row[4] == std::optional<std::string>("PIPE"));
  CHECK(row[5] == std::to_string(data.size()));
  CHECK(row[6] == std::optional<std::string>("0"));
  CHECK(row[8] == std::optional<std::string>("0"));

  REQUIRE(copy.Send(CopyDoneMsg()));
  auto done = copy.ReadUntilReady();
  REQUIRE(Ok(done));
  CHECK(CommandTag(*First(done, 'C')) == "COPY 500");
  // The report ends with the command.
  CHECK(Int(admin, "select count(*) from pg_stat_progress_copy") == 0);

  // A failed COPY leaves no row behind either.
  StartCopyIn(copy, "copy cp from stdin");
  REQUIRE(copy.Send(CopyDataMsg("not a number\trow\n") + CopyDoneMsg()));
  auto failed = copy.ReadUntilReady();
  CHECK(FirstSqlstate(failed) == "22P02");
  CHECK(Int(admin, "select count(*) from pg_stat_progress_copy") == 0);

  // COPY TO reports its rows as well (seen here after it ended: the totals
  // are published at the end too, and the row is gone).
  auto out = copy.Query("copy cp to stdout");
  CHECK(CommandTag(*First(out, 'C')) == "COPY 500");
  CHECK(Int(admin, "select count(*) from pg_stat_progress_copy") == 0);
}

TEST_CASE("admin: pg_stat_progress_copy follows a COPY TO whose client stops reading", "[admin_functions_test]") {
  TestServer server;
  RawConn admin(server.port());
  Connected(admin);
  REQUIRE(Ok(admin.Query("create table big (id int, pad text)")));
  // 12 MB, far more than loopback socket buffers hold while nobody reads.
  constexpr int kRows = 12000;
  RawConn loader(server.port());
  Connected(loader);
  StartCopyIn(loader, "copy big from stdin");
  const std::string pad(1000, 'p');
  for (int chunk = 0; chunk < kRows / 1000; ++chunk) {
    std::string data;
    for (int i = 0; i < 1000; ++i) data += std::to_string(chunk * 1000 + i) + "\t" + pad + "\n";
    REQUIRE(loader.Send(CopyDataMsg(data)));
  }
  REQUIRE(loader.Send(CopyDoneMsg()));
  auto loaded = loader.ReadUntilReady(60000);
  REQUIRE(Ok(loaded));
  const std::string relid = Value(admin, "select 'big'::regclass::oid");

  RawConn reader(server.port());
  Connected(reader);
  REQUIRE(reader.Send(QueryMsg("copy big to stdout")));
  std::vector<std::optional<std::string>> row;
  REQUIRE(WaitFor(
      [&] {
        auto msgs = admin.Query("select relid, command, type, tuples_processed, bytes_processed from pg_stat_progress_copy");
        const RawMessage* d = First(msgs, 'D');
        if (d == nullptr) return false;
        row = DataRowValues(*d);
        return row.size() == 5 && row[3] && std::stoll(*row[3]) > 0;
      },
      20000));
  CHECK(row[0] == relid);
  CHECK(row[1] == std::optional<std::string>("COPY TO"));
  CHECK(row[2] == std::optional<std::string>("PIPE"));
  const int64_t tuples = std::stoll(*row[3]);
  CHECK(tuples % 1024 == 0);  // published every 1024 rows while running
  CHECK(tuples < kRows);      // the COPY is still waiting for its reader
  CHECK(std::stoll(*row[4]) >= tuples * 1000);

  auto out = reader.ReadUntilReady(60000);
  REQUIRE(Ok(out));
  CHECK(CommandTag(*First(out, 'C')) == "COPY " + std::to_string(kRows));
  CHECK(Int(admin, "select count(*) from pg_stat_progress_copy") == 0);
}
