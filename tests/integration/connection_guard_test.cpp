// Connections that hold a slot without using it: sockets that never send a
// startup packet are dropped after authentication_timeout, and a backend
// notices (client_connection_check_interval) that its client went away in
// the middle of a query instead of running it to the end.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool ServerAnswers(int port) {
  RawConn c(port);
  if (!c.ok() || LastStatus(c.Startup()) != 'I') return false;
  return FirstColumn(c.Query("select 1")) == std::vector<std::string>{"1"};
}

// Reads until the server closes the connection (false if it does not
// within timeout_ms).
bool ServerHangsUp(RawConn& c, int timeout_ms) {
  return WaitFor([&] {
    c.ReadByte(50);
    return c.eof();
  }, timeout_ms);
}

}  // namespace

TEST_CASE("connection guard: silent sockets are dropped after authentication_timeout", "[connection_guard_test]") {
  TestServer server(Settings{{"max_connections", "2"}, {"superuser_reserved_connections", "0"}, {"authentication_timeout", "1s"}});
  // Two silent sockets take both slots; a third is a dead-end child.
  std::vector<std::unique_ptr<RawConn>> silent;
  for (int i = 0; i < 3; i++) {
    silent.push_back(std::make_unique<RawConn>(server.port()));
    REQUIRE(silent.back()->ok());
  }
  for (auto& s : silent) CHECK(ServerHangsUp(*s, 20000));
  // The slots are free again.
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 10000));
  // A client that does start up in time is not affected by the timer.
  RawConn ok(server.port());
  REQUIRE(LastStatus(ok.Startup()) == 'I');
  auto msgs = ok.Query("select pg_sleep(1.5), 7");
  CHECK(LastStatus(msgs) == 'I');
  CHECK(!ok.eof());
}

TEST_CASE("connection guard: a backend whose client disconnects mid-query ends the query", "[connection_guard_test]") {
  TestServer server;
  auto c = std::make_unique<RawConn>(server.port());
  REQUIRE(LastStatus(c->Startup()) == 'I');
  const pid_t backend = c->backend_pid();
  REQUIRE(First(c->Query("set client_connection_check_interval = 100"), 'E') == nullptr);
  REQUIRE(c->Send(QueryMsg("select pg_sleep(600)")));
  c.reset();  // the client goes away while the query runs
  CHECK(WaitFor([&] { return ProcessGone(backend); }, 20000));
  // An orderly exit: no crash reset, the server goes on.
  CHECK(ServerAnswers(server.port()));
  CHECK(server.log().find("terminated by signal") == std::string::npos);

  // A client that is still there is not disturbed by the checks.
  RawConn still(server.port());
  REQUIRE(LastStatus(still.Startup()) == 'I');
  REQUIRE(First(still.Query("set client_connection_check_interval = 50"), 'E') == nullptr);
  auto msgs = still.Query("select pg_sleep(0.3), 1");
  CHECK(First(msgs, 'E') == nullptr);
  CHECK(LastStatus(msgs) == 'I');
}

TEST_CASE("connection guard: a backend stops streaming rows to a client that is gone", "[connection_guard_test]") {
  TestServer server;
  auto c = std::make_unique<RawConn>(server.port());
  REQUIRE(LastStatus(c->Startup()) == 'I');
  const pid_t backend = c->backend_pid();
  std::string values;
  for (int i = 0; i < 300; i++) values += (i ? ",(" : "(") + std::to_string(i) + ")";
  REQUIRE(First(c->Query("create table t (a int)"), 'E') == nullptr);
  REQUIRE(First(c->Query("insert into t values " + values), 'E') == nullptr);
  // 300^4 rows: far more than any test could wait for.
  REQUIRE(c->Send(QueryMsg("select * from t a, t b, t c, t d")));
  REQUIRE(c->Read().has_value());  // rows are flowing
  c.reset();
  // The default client_connection_check_interval (0) is enough here: the
  // failed send itself ends the session at the next row.
  CHECK(WaitFor([&] { return ProcessGone(backend); }, 20000));
  CHECK(ServerAnswers(server.port()));
}
