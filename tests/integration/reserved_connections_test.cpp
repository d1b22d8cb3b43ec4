// superuser_reserved_connections over the wire: the last N slots of
// max_connections are for superusers; anyone else asking for one gets
// PostgreSQL's FATAL 53300, decided once the role is known (after
// authentication, as PostgreSQL).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

void AddPlainRole(const TestServer& server, const std::string& name) {
  server.PsqlValue("create role " + name + " login");
  REQUIRE(server.PsqlValue("select count(*) from pg_roles where rolname = '" + name + "' and not rolsuper") == "1");
}

// A session as `user`; returns the messages of its startup.
std::vector<RawMessage> Connect(std::vector<std::unique_ptr<RawConn>>& sessions, int port, const std::string& user) {
  sessions.push_back(std::make_unique<RawConn>(port));
  REQUIRE(sessions.back()->ok());
  auto msgs = sessions.back()->Startup(user, "hearth");
  if (const RawMessage* e = First(msgs, 'E')) UNSCOPED_INFO(user << ": " << ErrorOf(*e).message);
  return msgs;
}

// The walwriter, bgwriter, checkpointer and autovacuum launcher (started
// before the first accept; autovacuum is off, so no workers come and go).
constexpr size_t kAuxProcesses = 4;

// Waits until exactly `backends` sessions' processes remain, and stay so
// for a few polls (the readiness probe's connection may not even be
// accepted yet when the server is first up; refused ones take a moment to
// exit), so the slot count is known.
void WaitForBackends(const TestServer& server, size_t backends) {
  int stable = 0;
  REQUIRE(WaitFor([&] {
    stable = server.ChildPids().size() == kAuxProcesses + backends ? stable + 1 : 0;
    return stable >= 6;
  }, 10000));
}

}  // namespace

TEST_CASE("reserved connections: default is 3, and must be below max_connections", "[reserved_connections_test]") {
  TestServer server;
  CHECK(server.PsqlValue("show superuser_reserved_connections") == "3");
  REQUIRE(server.Stop(SIGTERM) == 0);
  CommandResult r = RunCommand({HearthdPath(), "-D", server.datadir(), "-c", "port=" + std::to_string(FreePort()), "-c",
                                "max_connections=3", "-c", "superuser_reserved_connections=3"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("superuser_reserved_connections (3) must be less than max_connections (3)") != std::string::npos);
}

TEST_CASE("reserved connections: the last slots refuse non-superusers with 53300", "[reserved_connections_test]") {
  TestServer server(Settings{{"max_connections", "4"}, {"superuser_reserved_connections", "2"},
                           {"autovacuum", "off"}});
  AddPlainRole(server, "alice");
  WaitForBackends(server, 0);
  std::vector<std::unique_ptr<RawConn>> sessions;
  // Two of four slots are for anyone.
  REQUIRE(LastStatus(Connect(sessions, server.port(), "alice")) == 'I');
  REQUIRE(LastStatus(Connect(sessions, server.port(), "alice")) == 'I');
  {
    std::vector<std::unique_ptr<RawConn>> refused;
    auto msgs = Connect(refused, server.port(), "alice");
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.severity_nonlocal == "FATAL");
    CHECK(e.sqlstate == "53300");
    CHECK(e.message == "remaining connection slots are reserved for non-replication superuser connections");
    CHECK(First(msgs, 'Z') == nullptr);
    refused.back()->DrainUntilEof(5000);
    CHECK(refused.back()->eof());
  }
  // psql sees the same (once the refused backend has freed its slot).
  WaitForBackends(server, 2);
  CommandResult r = server.Psql({"-U", "alice", "-c", "select 1"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("FATAL:  remaining connection slots are reserved for non-replication superuser connections") !=
        std::string::npos);
  // The reserved slots serve the superuser, to the last one.
  WaitForBackends(server, 2);
  REQUIRE(LastStatus(Connect(sessions, server.port(), "hearth")) == 'I');
  REQUIRE(LastStatus(Connect(sessions, server.port(), "hearth")) == 'I');
  {
    std::vector<std::unique_ptr<RawConn>> extra;
    auto msgs = Connect(extra, server.port(), "hearth");
    REQUIRE(First(msgs, 'E') != nullptr);
    CHECK(ErrorOf(*First(msgs, 'E')).message == "sorry, too many clients already");
  }
  // Everyone admitted still works.
  for (auto& s : sessions) CHECK(FirstColumn(s->Query("select 1")) == std::vector<std::string>{"1"});
  // Once the superusers and one plain session leave, a plain slot is free
  // again (2 taken, 2 left for superusers).
  while (sessions.size() > 1) {
    sessions.back()->Send(TerminateMsg());
    sessions.pop_back();
  }
  WaitForBackends(server, 1);
  REQUIRE(LastStatus(Connect(sessions, server.port(), "alice")) == 'I');
}
