// Server-side COPY over the wire: COPY ... FROM/TO 'file' and FROM/TO
// PROGRAM 'cmd' with PostgreSQL 15's privileges (superusers; members of
// pg_read_server_files, pg_write_server_files, pg_execute_server_program),
// messages and SQLSTATEs: 42501 with its hint for everyone else, 42602 for a
// relative COPY TO path, 58P01 for a missing file, 38000 with the exit
// status for a failed program, and the line/column CONTEXT of data errors.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <string>
#include <vector>

#include "client/client.h"
#include "role_sessions.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::Connection;

namespace {

// A scratch directory the server (same user) reads and writes.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    char tmpl[] = "/tmp/hearth-copyfile-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~ScratchDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first error of `sql` on `c` (sqlstate empty when it succeeded).
hearth::client::ErrorFields ErrorOfQuery(Connection& c, const std::string& sql) {
  for (const auto& r : c.SimpleQuery(sql)) {
    if (!r.ok()) return *r.error;
  }
  return {};
}

// The values of `sql`'s first column, in order.
std::vector<std::string> Column(Connection& c, const std::string& sql) {
  auto rs = c.SimpleQuery(sql);
  REQUIRE(!rs.empty());
  INFO(sql << ": " << (rs.back().ok() ? "" : rs.back().error->message));
  REQUIRE(rs.back().ok());
  std::vector<std::string> out;
  for (const auto& row : rs.back().rows) out.push_back(row[0].value_or("NULL"));
  return out;
}

void Run(Connection& c, const std::string& sql) {
  const auto e = ErrorOfQuery(c, sql);
  INFO(sql << ": " << e.message);
  REQUIRE(e.sqlstate.empty());
}

Connection Superuser(const TestServer& s) { return Connection::Connect(LoginAs(s, "hearth")); }

}  // namespace

TEST_CASE("copy_server_file: superuser round-trips text, CSV and binary through files", "[copy_server_file_test]") {
  TestServer server;
  ScratchDir dir;
  Connection c = Superuser(server);
  Run(c, "create table src (a int, b text, c numeric)");
  Run(c, "insert into src select i, 'row ' || i || E'\\ttab', i * 1.5 from generate_series(1, 2000) i");
  Run(c, "insert into src values (null, null, null), (0, '', 0), (-1, 'x,\"y\"', -0.5)");
  for (const std::string opts : {"", "(format csv, header)", "(format binary)", "(delimiter '|', null 'NIL')"}) {
    INFO("options " << opts);
    const std::string file = dir.path + "/src.data";
    auto rs = c.SimpleQuery("copy src to '" + file + "' " + opts);
    REQUIRE(rs.back().ok());
    CHECK(rs.back().command_tag == "COPY 2003");
    Run(c, "create table dst (a int, b text, c numeric)");
    rs = c.SimpleQuery("copy dst from '" + file + "' " + opts);
    REQUIRE(rs.back().ok());
    CHECK(rs.back().command_tag == "COPY 2003");
    CHECK(Column(c, "select count(*) from (select * from src except all select * from dst) d") ==
          std::vector<std::string>{"0"});
    CHECK(Column(c, "select count(*) from dst where a is null and b is null") == std::vector<std::string>{"1"});
    Run(c, "drop table dst");
  }
  // The text file is PostgreSQL's text format, byte for byte.
  Run(c, "create table small (a int, b text)");
  Run(c, "insert into small values (1, 'one'), (2, null), (3, E'tab\\there')");
  const std::string file = dir.path + "/small.txt";
  Run(c, "copy small to '" + file + "'");
  CHECK(ReadFile(file) == "1\tone\n2\t\\N\n3\ttab\\there\n");
  // A query and a column list.
  Run(c, "copy (select b, a from small where a > 1 order by a) to '" + file + "' (format csv, header)");
  CHECK(ReadFile(file) == "b,a\n,2\ntab\there,3\n");
  Run(c, "create table cols (a int, b text default 'dflt', c int)");
  WriteFile(file, "10\t100\n20\t200\n");
  Run(c, "copy cols (a, c) from '" + file + "'");
  CHECK(Column(c, "select a || ':' || b || ':' || c from cols order by a") ==
        std::vector<std::string>{"10:dflt:100", "20:dflt:200"});
}

TEST_CASE("copy_server_file: errors name the file, the line and the column", "[copy_server_file_test]") {
  TestServer server;
  ScratchDir dir;
  Connection c = Superuser(server);
  Run(c, "create table t (a int, b text)");

  auto e = ErrorOfQuery(c, "copy t from '" + dir.path + "/missing.data'");
  CHECK(e.sqlstate == "58P01");
  CHECK(e.message == "could not open file \"" + dir.path + "/missing.data\" for reading: No such file or directory");
  CHECK(e.hint ==
        "COPY FROM instructs the PostgreSQL server process to read a file. You may want a client-side facility "
        "such as psql's \\copy.");

  e = ErrorOfQuery(c, "copy t to 'relative.data'");
  CHECK(e.sqlstate == "42602");
  CHECK(e.message == "relative path not allowed for COPY to file");
  // COPY FROM reads a relative name under the data directory.
  WriteFile(server.datadir() + "/in_datadir.data", "5\tfive\n");
  Run(c, "copy t from 'in_datadir.data'");
  CHECK(Column(c, "select b from t") == std::vector<std::string>{"five"});

  e = ErrorOfQuery(c, "copy t from '" + dir.path + "'");
  CHECK(e.sqlstate == "42809");
  CHECK(e.message == "\"" + dir.path + "\" is a directory");
  e = ErrorOfQuery(c, "copy t to '" + dir.path + "/no/such/dir/x'");
  CHECK(e.sqlstate == "58P01");

  const std::string bad = dir.path + "/bad.data";
  WriteFile(bad, "1\tok\n2\tok\nthree\tbad\n");
  e = ErrorOfQuery(c, "copy t from '" + bad + "'");
  CHECK(e.sqlstate == "22P02");
  CHECK(e.message == "invalid input syntax for type integer: \"three\"");
  CHECK(e.where == "COPY t, line 3, column a: \"three\"");
  CHECK(Column(c, "select count(*) from t") == std::vector<std::string>{"1"});  // nothing of the failed COPY
}

TEST_CASE("copy_server_file: PROGRAM feeds and receives rows and reports a failure", "[copy_server_file_test]") {
  TestServer server;
  ScratchDir dir;
  Connection c = Superuser(server);
  Run(c, "create table t (a int, b text)");
  auto rs = c.SimpleQuery("copy t from program 'seq 1 500 | sed \"s/$/\\tv/\"'");
  REQUIRE(rs.back().ok());
  CHECK(rs.back().command_tag == "COPY 500");
  CHECK(Column(c, "select sum(a) || ' ' || min(b) from t") == std::vector<std::string>{"125250 v"});

  const std::string out = dir.path + "/sorted.csv";
  rs = c.SimpleQuery("copy (select a, b from t where a <= 3) to program 'sort -r > " + out + "' (format csv)");
  REQUIRE(rs.back().ok());
  CHECK(rs.back().command_tag == "COPY 3");
  CHECK(ReadFile(out) == "3,v\n2,v\n1,v\n");

  // Rows before the failure are not kept.
  auto e = ErrorOfQuery(c, "copy t from program 'printf \"7\\tx\\n\"; exit 3'");
  CHECK(e.sqlstate == "38000");
  CHECK(e.message == "program \"printf \"7\\tx\\n\"; exit 3\" failed");
  CHECK(e.detail == "child process exited with exit code 3");
  e = ErrorOfQuery(c, "copy t to program 'exit 2'");
  CHECK(e.sqlstate == "38000");
  CHECK(e.detail == "child process exited with exit code 2");
  e = ErrorOfQuery(c, "copy t from program 'no_such_command_for_copy'");
  CHECK(e.detail == "command not found");
  e = ErrorOfQuery(c, "copy t from program 'printf \"1\\tx\\nzz\\ty\\n\"'");
  CHECK(e.sqlstate == "22P02");
  CHECK(e.where == "COPY t, line 2, column a: \"zz\"");
  CHECK(Column(c, "select count(*) from t") == std::vector<std::string>{"500"});
}

TEST_CASE("copy_server_file: only superusers and the predefined roles' members may", "[copy_server_file_test]") {
  TestServer server;
  ScratchDir dir;
  const std::string file = dir.path + "/rows.data";
  WriteFile(file, "1\tone\n2\ttwo\n");
  ::chmod(dir.path.c_str(), 0755);
  Connection su = Superuser(server);
  Run(su, "create role alice login password 'pw'; create role bob login password 'pw'");
  Run(su, "create table t (a int, b text); grant all on t to alice, bob");
  CHECK(Column(su, "select oid || ' ' || rolname from pg_roles where rolname like 'pg\\_%server%' order by oid") ==
        std::vector<std::string>{"4569 pg_read_server_files", "4570 pg_write_server_files",
                                 "4571 pg_execute_server_program"});
  Connection alice = Connection::Connect(LoginAs(server, "alice"));
  const std::string hint = "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.";

  auto e = ErrorOfQuery(alice, "copy t from '" + file + "'");
  CHECK(e.sqlstate == "42501");
  CHECK(e.message == "must be superuser or have privileges of the pg_read_server_files role to COPY from a file");
  CHECK(e.hint == hint);
  e = ErrorOfQuery(alice, "copy t to '" + dir.path + "/out.data'");
  CHECK(e.sqlstate == "42501");
  CHECK(e.message == "must be superuser or have privileges of the pg_write_server_files role to COPY to a file");
  e = ErrorOfQuery(alice, "copy t from program 'echo 1'");
  CHECK(e.sqlstate == "42501");
  CHECK(e.message ==
        "must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external "
        "program");
  // The privilege check comes first, even for a relative path.
  CHECK(ErrorOfQuery(alice, "copy t to 'relative'").sqlstate == "42501");

  Run(su, "grant pg_read_server_files to alice");
  Run(alice, "copy t from '" + file + "'");
  CHECK(Column(alice, "select count(*) from t") == std::vector<std::string>{"2"});
  CHECK(ErrorOfQuery(alice, "copy t to '" + dir.path + "/out.data'").sqlstate == "42501");
  CHECK(ErrorOfQuery(alice, "copy t from program 'echo 1'").sqlstate == "42501");

  // Membership through a role works; without INHERIT it does not.
  Run(su, "create role readers; grant pg_write_server_files to readers; grant readers to bob");
  Connection bob = Connection::Connect(LoginAs(server, "bob"));
  Run(bob, "copy t to '" + dir.path + "/bob.data'");
  CHECK(ReadFile(dir.path + "/bob.data") == "1\tone\n2\ttwo\n");
  Run(su, "alter role bob noinherit");
  CHECK(ErrorOfQuery(bob, "copy t to '" + dir.path + "/bob.data'").sqlstate == "42501");

  // The predefined roles stay as they are.
  CHECK(ErrorOfQuery(su, "drop role pg_read_server_files").sqlstate == "2BP01");
  CHECK(ErrorOfQuery(su, "alter role pg_read_server_files login").sqlstate == "42939");
  CHECK(ErrorOfQuery(su, "alter role pg_execute_server_program rename to x").sqlstate == "42939");
}

TEST_CASE("copy_server_file: a cancelled COPY FROM PROGRAM ends and kills the program", "[copy_server_file_test]") {
  TestServer server;
  Connection c = Superuser(server);
  Connection watcher = Superuser(server);
  Run(c, "create table t (a int)");
  const hearth::client::CancelKey key = c.cancel_key();
  hearth::client::ErrorFields error;
  std::thread copier([&] { error = ErrorOfQuery(c, "copy t from program 'sleep 631'"); });
  // pg_stat_progress_copy shows it as a PROGRAM copy while it waits.
  const bool seen = WaitFor(
      [&] {
        return Column(watcher, "select count(*) from pg_stat_progress_copy where type = 'PROGRAM'") ==
               std::vector<std::string>{"1"};
      },
      20000);
  Connection::CancelRequest(key);
  copier.join();
  REQUIRE(seen);
  CHECK(error.sqlstate == "57014");
  CHECK(WaitFor([] { return RunCommand({"pgrep", "-f", "sleep 631"}).exit_code == 1; }, 20000));
  // The session goes on.
  CHECK(Column(c, "select count(*) from t") == std::vector<std::string>{"0"});
}
