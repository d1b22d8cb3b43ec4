// Our own client library (client/client.h) and the `hearth` shell against a
// real hearthd. Compiled only when the hearth_client target exists.
#ifdef HEARTH_HAVE_CLIENT

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "client/client.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::ClientError;
using hearth::client::ConnectOptions;
using hearth::client::Connection;
using hearth::client::Result;

namespace {

ConnectOptions Options(int port) {
  ConnectOptions o;
  o.host = "127.0.0.1";
  o.port = static_cast<uint16_t>(port);
  o.user = "hearth";
  o.database = "hearth";
  return o;
}

std::string ShellPath() { return std::string(HEARTH_BINARY_DIR) + "/hearth"; }

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("client: connect and simple queries", "[client_test]") {
  TestServer server;
  Connection c = Connection::Connect(Options(server.port()));
  CHECK(c.is_open());
  CHECK(c.parameter("server_version").rfind("15", 0) == 0);
  CHECK(c.parameter("client_encoding") == "UTF8");
  CHECK(c.backend_pid() > 0);
  CHECK(c.TransactionStatus() == 'I');

  std::vector<Result> rs = c.SimpleQuery("select 1+2 as three; select 'a', null::int; ;");
  REQUIRE(rs.size() == 2);
  REQUIRE(rs[0].ok());
  REQUIRE(rs[0].columns.size() == 1);
  CHECK(rs[0].columns[0].name == "three");
  CHECK(rs[0].columns[0].type_oid == 23);
  REQUIRE(rs[0].rows.size() == 1);
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("3"));
  CHECK(rs[0].command_tag == "SELECT 1");
  REQUIRE(rs[1].rows.size() == 1);
  CHECK(rs[1].rows[0][0] == std::optional<std::string>("a"));
  CHECK(!rs[1].rows[0][1].has_value());

  rs = c.SimpleQuery(";");
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].empty_query);

  // An error is a Result; the rest of the string is skipped.
  rs = c.SimpleQuery("select 1; select 1/0; select 2");
  REQUIRE(rs.size() == 2);
  CHECK(rs[0].ok());
  REQUIRE(!rs[1].ok());
  CHECK(rs[1].error->sqlstate == "22012");
  CHECK(rs[1].error->message == "division by zero");

  rs = c.SimpleQuery("selec 1");
  REQUIRE(rs.size() == 1);
  REQUIRE(!rs[0].ok());
  CHECK(rs[0].error->sqlstate == "42601");
  CHECK(rs[0].error->position == "1");

  // Transactions and notices.
  rs = c.SimpleQuery("begin");
  CHECK(c.TransactionStatus() == 'T');
  rs = c.SimpleQuery("begin");
  REQUIRE(rs.size() == 1);
  REQUIRE(rs[0].notices.size() == 1);
  CHECK(rs[0].notices[0].sqlstate == "25001");
  c.SimpleQuery("select 1/0");
  CHECK(c.TransactionStatus() == 'E');
  rs = c.SimpleQuery("commit");
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].command_tag == "ROLLBACK");
  CHECK(c.TransactionStatus() == 'I');

  rs = c.SimpleQuery("set work_mem = '5MB'; show work_mem");
  REQUIRE(rs.size() == 2);
  CHECK(rs[0].command_tag == "SET");
  REQUIRE(rs[1].rows.size() == 1);
  CHECK(rs[1].rows[0][0] == std::optional<std::string>("5MB"));
  c.Close();
  CHECK_FALSE(c.is_open());
}

TEST_CASE("client: extended protocol with parameters", "[client_test]") {
  TestServer server;
  Connection c = Connection::Connect(Options(server.port()));
  Result r = c.ExecParams("select $1::int + 1", {"41"});
  REQUIRE(r.ok());
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0][0] == std::optional<std::string>("42"));
  CHECK(r.columns.at(0).type_oid == 23);

  r = c.ExecParams("select $1::text || 'x', $2::int is null", {"ab", std::nullopt});
  REQUIRE(r.ok());
  CHECK(r.rows.at(0)[0] == std::optional<std::string>("abx"));
  CHECK(r.rows.at(0)[1] == std::optional<std::string>("t"));

  r = c.ExecParams("select $1::int", {"nope"});
  REQUIRE(!r.ok());
  CHECK(r.error->sqlstate == "22P02");

  r = c.Prepare("s1", "select $1 + 1, $2::text");
  REQUIRE(r.ok());
  CHECK(r.param_type_oids == std::vector<uint32_t>{23, 25});
  for (int i = 0; i < 3; i++) {
    r = c.ExecPrepared("s1", {std::to_string(i), "t"});
    REQUIRE(r.ok());
    CHECK(r.rows.at(0)[0] == std::optional<std::string>(std::to_string(i + 1)));
  }
  r = c.Prepare("s1", "select 1");
  REQUIRE(!r.ok());
  CHECK(r.error->sqlstate == "42P05");
  r = c.ExecPrepared("nosuch", {});
  REQUIRE(!r.ok());
  CHECK(r.error->sqlstate == "26000");
  r = c.ClosePrepared("s1");
  CHECK(r.ok());
  r = c.ExecPrepared("s1", {"1", "t"});
  REQUIRE(!r.ok());
  CHECK(r.error->sqlstate == "26000");
}

TEST_CASE("client: connection errors carry the server's SQLSTATE", "[client_test]") {
  TestServer server;
  ConnectOptions o = Options(server.port());
  o.database = "nosuchdb";
  try {
    Connection::Connect(o);
    FAIL("connected to a database that does not exist");
  } catch (const ClientError& e) {
    CHECK(e.sqlstate() == "3D000");
    CHECK(Contains(e.what(), "database \"nosuchdb\" does not exist"));
  }
  o = Options(server.port());
  o.user = "nosuchrole";
  try {
    Connection::Connect(o);
    FAIL("connected as a role that does not exist");
  } catch (const ClientError& e) {
    CHECK(e.sqlstate() == "28000");
  }
  // Startup options reach the session.
  o = Options(server.port());
  o.options["work_mem"] = "7MB";
  Connection c = Connection::Connect(o);
  auto rs = c.SimpleQuery("show work_mem");
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].rows.at(0)[0] == std::optional<std::string>("7MB"));
}

TEST_CASE("client: cancel from another thread", "[client_test]") {
  TestServer server;
  Connection c = Connection::Connect(Options(server.port()));
  auto key = c.cancel_key();
  std::thread canceller([key] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    Connection::CancelRequest(key);
  });
  auto start = std::chrono::steady_clock::now();
  auto rs = c.SimpleQuery("select pg_sleep(5)");
  canceller.join();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(took < 3.0);
  REQUIRE(rs.size() == 1);
  REQUIRE(!rs[0].ok());
  CHECK(rs[0].error->sqlstate == "57014");
  CHECK(c.TransactionStatus() == 'I');
}

TEST_CASE("client: the hearth shell", "[client_test]") {
  TestServer server;
  const std::vector<std::string> base = {ShellPath(), "-X", "-h", "127.0.0.1", "-p", std::to_string(server.port()),
                                         "-U", "hearth", "-d", "hearth"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  };
  CommandResult r = RunCommand(with({"-c", "select 1+2"}));
  CHECK(r.exit_code == 0);
  CHECK(r.out == " ?column? \n----------\n        3\n(1 row)\n\n");

  // Same aligned output as psql for several types.
  const std::string sql = "select 1::int2 as a, 2.5::numeric as b, 'x'::text as c, true as d, date '2026-11-30' as e";
  CommandResult shell = RunCommand(with({"-c", sql}));
  CommandResult psql = server.Psql({"-c", sql});
  CHECK(shell.exit_code == 0);
  CHECK(shell.out == psql.out);

  r = RunCommand(with({"-c", "select 1/0"}));
  CHECK(r.exit_code == 1);
  CHECK(r.err == "ERROR:  division by zero\n");

  r = RunCommand(with({"-c", "selec 1"}));
  CHECK(r.exit_code == 1);
  CHECK(r.err == "ERROR:  syntax error at or near \"selec\"\nLINE 1: selec 1\n        ^\n");

  r = RunCommand(with({"-A", "-t", "-c", "select 1, 'two'"}));
  CHECK(r.exit_code == 0);
  CHECK(r.out == "1|two\n");

  // A script with ON_ERROR_STOP stops at the first error with exit code 3.
  r = RunCommand(with({"-v", "ON_ERROR_STOP=1", "-f", "-"}), "select 1;\nselect 1/0;\nselect 2;\n");
  CHECK(r.exit_code == 3);
  CHECK(Contains(r.out, "        1\n"));
  CHECK_FALSE(Contains(r.out, "        2\n"));

  // Connection failures exit 2.
  r = RunCommand({ShellPath(), "-X", "-h", "127.0.0.1", "-p", std::to_string(server.port()), "-U", "hearth", "-d",
                  "nosuchdb", "-c", "select 1"});
  CHECK(r.exit_code == 2);
  CHECK(Contains(r.err, "database \"nosuchdb\" does not exist"));
}

#endif  // HEARTH_HAVE_CLIENT
