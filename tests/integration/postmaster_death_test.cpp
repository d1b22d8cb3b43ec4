// Postmaster death: when the postmaster is killed -9, every process it
// started exits at once, an open session acknowledges nothing more, and a
// new server refuses the data directory while any old process is still
// attached to it (PostgreSQL's check of its old shared memory segment).
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

std::vector<std::string> Ids(int port) {
  RawConn c(port);
  REQUIRE(LastStatus(c.Startup()) == 'I');
  auto msgs = c.Query("select id from t order by id");
  REQUIRE(Ok(msgs));
  return FirstColumn(msgs);
}

// Starts the session up and commits table t with the single row 1.
void StartWithOneRow(RawConn& session) {
  REQUIRE(LastStatus(session.Startup()) == 'I');
  REQUIRE(Ok(session.Query("create table t (id int primary key)")));
  REQUIRE(Ok(session.Query("insert into t values (1)")));
}

bool AllGone(const std::vector<pid_t>& pids) {
  for (pid_t p : pids) {
    if (!ProcessGone(p)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("postmaster death: children exit at once and the open session commits nothing more",
          "[postmaster_death_test]") {
  TestServer server;
  RawConn session(server.port());
  StartWithOneRow(session);
  const auto children = server.ChildPids();
  REQUIRE(children.size() >= 4);  // the session's backend and the auxiliaries

  server.Stop(SIGKILL);
  // Every child notices on its own; nobody kills them for us.
  CHECK(WaitFor([&] { return AllGone(children); }, 10000));

  // The session's next statement is not acknowledged: the connection is gone.
  auto msgs = session.Query("insert into t values (2)", 5000);
  CHECK(First(msgs, 'C') == nullptr);
  CHECK(LastStatus(msgs) == 0);

  // A new server starts on the directory at once (nobody is attached) and
  // has exactly what was acknowledged.
  REQUIRE_NOTHROW(server.Start());
  CHECK(Ids(server.port()) == std::vector<std::string>{"1"});
}

TEST_CASE("postmaster death: a commit racing the kill is either refused or kept", "[postmaster_death_test]") {
  TestServer server;
  RawConn session(server.port());
  REQUIRE(LastStatus(session.Startup()) == 'I');
  REQUIRE(Ok(session.Query("create table t (id int primary key)")));
  // The insert goes out together with the kill: whichever wins, an
  // acknowledged row must survive the restart.
  REQUIRE(session.Send(QueryMsg("insert into t values (7)")));
  server.Stop(SIGKILL);
  auto msgs = session.ReadUntilReady(5000);
  const bool acknowledged = First(msgs, 'C') != nullptr && LastStatus(msgs) == 'I';
  KillProcessesMentioning(server.datadir());
  REQUIRE_NOTHROW(server.Start());
  const auto ids = Ids(server.port());
  if (acknowledged) CHECK(ids == std::vector<std::string>{"7"});
  // Whatever happened, the session cannot go on.
  CHECK(LastStatus(session.Query("select 1", 5000)) == 0);
}

TEST_CASE("postmaster death: a new server is refused while an old backend is still attached",
          "[postmaster_death_test]") {
  TestServer server;
  RawConn session(server.port());
  StartWithOneRow(session);
  const pid_t backend = session.backend_pid();
  REQUIRE(backend > 0);
  // A stopped backend cannot act on the postmaster's death until resumed:
  // the shape of a process stuck in uninterruptible I/O.
  REQUIRE(kill(backend, SIGSTOP) == 0);
  const auto children = server.ChildPids();
  server.Stop(SIGKILL);

  CommandResult r = RunSecondServer(server.datadir());
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);  // it refused by itself rather than running until killed
  const std::string all = r.out + r.err;
  INFO(all);
  CHECK(Contains(all, "postmaster.pid"));
  CHECK(Contains(all, "old server"));
  CHECK(!ProcessGone(backend));

  // Resumed, the backend sees the postmaster's death and exits; then the
  // directory is free and the acknowledged row is there.
  REQUIRE(kill(backend, SIGCONT) == 0);
  CHECK(WaitFor([&] { return ProcessGone(backend); }, 10000));
  CHECK(WaitFor([&] { return AllGone(children); }, 10000));
  REQUIRE_NOTHROW(server.Start());
  CHECK(Ids(server.port()) == std::vector<std::string>{"1"});
}
