// The postmaster as an operator sees it: connection limits, crash reset,
// the lock file, shutdown modes, reload, and `hearthd init`.
//
// Messages and SQLSTATEs are PostgreSQL 15's (too many clients, shutdown,
// crash of another process).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "test_server.h"

using namespace hearth::testing;
namespace fs = std::filesystem;

namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A new connection that starts up and answers `select 1`.
bool ServerAnswers(int port) {
  RawConn c(port);
  if (!c.ok()) return false;
  if (LastStatus(c.Startup()) != 'I') return false;
  auto msgs = c.Query("select 1");
  return FirstColumn(msgs) == std::vector<std::string>{"1"} && LastStatus(msgs) == 'I';
}

bool ProcessAlive(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  // A zombie is dead for our purposes.
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_s, comm, state;
  in >> pid_s >> comm >> state;
  return state != "Z";
}

// The readiness probe's short-lived backend may still be coming or going:
// returns the child count once it has been stable for 250 ms.
size_t WaitForStableChildren(const TestServer& server) {
  size_t count = server.ChildPids().size();
  for (int stable = 0, i = 0; stable < 5 && i < 100; i++) {
    SleepMs(50);
    const size_t now = server.ChildPids().size();
    stable = now == count ? stable + 1 : 0;
    count = now;
  }
  return count;
}

void AppendToFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app);
  out << text;
}

// Runs hearthd with `args` for at most `timeout_s`; anything it forked is
// killed afterwards (through the unique data directory path).
CommandResult RunHearthd(const std::vector<std::string>& args, const std::string& datadir, int timeout_s = 10) {
  std::vector<std::string> argv = {HearthdPath()};
  argv.insert(argv.end(), args.begin(), args.end());
  CommandResult r = RunCommand(argv, "", timeout_s);
  KillProcessesMentioning(datadir);
  return r;
}

}  // namespace

TEST_CASE("postmaster: max_connections refuses the extra client with 53300", "[postmaster_test]") {
  TestServer server(Settings{{"max_connections", "3"}, {"superuser_reserved_connections", "0"}});
  // TestServer's readiness probe (connect, close) may still hold a backend;
  // wait for it to leave before counting connections.
  WaitForStableChildren(server);
  std::vector<std::unique_ptr<RawConn>> sessions;
  for (int i = 0; i < 3; i++) {
    sessions.push_back(std::make_unique<RawConn>(server.port()));
    REQUIRE(sessions.back()->ok());
    REQUIRE(LastStatus(sessions.back()->Startup()) == 'I');
  }
  {
    RawConn extra(server.port());
    REQUIRE(extra.ok());
    auto msgs = extra.Startup();
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.severity_nonlocal == "FATAL");
    CHECK(e.sqlstate == "53300");
    CHECK(e.message == "sorry, too many clients already");
    CHECK(First(msgs, 'Z') == nullptr);
    extra.DrainUntilEof(5000);
    CHECK(extra.eof());
  }
  // psql sees the same refusal.
  CommandResult r = server.Psql({"-c", "select 1"});
  CHECK(r.exit_code == 2);
  CHECK(Contains(r.err, "FATAL:  sorry, too many clients already"));

  // Nobody else was disturbed.
  for (auto& s : sessions) CHECK(FirstColumn(s->Query("select 1")) == std::vector<std::string>{"1"});

  // When one session leaves, its slot is free again (once its backend exits).
  sessions.back()->Send(TerminateMsg());
  sessions.pop_back();
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 5000));
  CHECK(FirstColumn(sessions[0]->Query("select 2")) == std::vector<std::string>{"2"});
}

TEST_CASE("postmaster: a crash reset frees every connection slot", "[postmaster_test]") {
  TestServer server(Settings{{"max_connections", "3"}, {"superuser_reserved_connections", "0"}});
  WaitForStableChildren(server);
  {
    std::vector<std::unique_ptr<RawConn>> sessions;
    for (int i = 0; i < 3; i++) {
      sessions.push_back(std::make_unique<RawConn>(server.port()));
      REQUIRE(LastStatus(sessions.back()->Startup()) == 'I');
    }
    REQUIRE(kill(sessions[0]->backend_pid(), SIGKILL) == 0);
    for (auto& s : sessions) {
      s->DrainUntilEof(10000);
      CHECK(s->eof());
    }
  }
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 15000));
  WaitForStableChildren(server);
  std::vector<std::unique_ptr<RawConn>> sessions;
  for (int i = 0; i < 3; i++) {
    sessions.push_back(std::make_unique<RawConn>(server.port()));
    auto msgs = sessions.back()->Startup();
    INFO("session " << i << ": " << FirstSqlstate(msgs));
    CHECK(LastStatus(msgs) == 'I');
  }
  RawConn extra(server.port());
  CHECK(FirstSqlstate(extra.Startup()) == "53300");
}

TEST_CASE("postmaster: log lines carry timestamp, pid and level", "[postmaster_test]") {
  TestServer server;
  CHECK(ServerAnswers(server.port()));
  const std::string log = server.log();
  INFO(log);
  const std::string first = log.substr(0, log.find('\n'));
  // "YYYY-MM-DD HH:MM:SS..." then the postmaster's pid somewhere on the line.
  REQUIRE(first.size() > 20);
  CHECK(std::isdigit(static_cast<unsigned char>(first[0])));
  CHECK(first[4] == '-');
  CHECK(first[7] == '-');
  CHECK(first[10] == ' ');
  CHECK(first[13] == ':');
  CHECK(Contains(log, std::to_string(server.pid())));
  CHECK(Contains(log, "ready to accept connections"));
}

TEST_CASE("postmaster: backends exit when their clients leave", "[postmaster_test]") {
  TestServer server;
  const size_t baseline = WaitForStableChildren(server);
  {
    std::vector<std::unique_ptr<RawConn>> sessions;
    for (int i = 0; i < 5; i++) {
      sessions.push_back(std::make_unique<RawConn>(server.port()));
      REQUIRE(LastStatus(sessions.back()->Startup()) == 'I');
    }
    CHECK(WaitFor([&] { return server.ChildPids().size() == baseline + 5; }, 2000));
    sessions[0]->Send(TerminateMsg());  // orderly
    // the others just close their sockets
  }
  CHECK(WaitFor([&] { return server.ChildPids().size() == baseline; }, 5000));
}

TEST_CASE("postmaster: a backend killed with SIGKILL triggers a reset, then service resumes", "[postmaster_test]") {
  TestServer server;
  const pid_t postmaster = server.pid();
  RawConn victim(server.port());
  REQUIRE(victim.ok());
  REQUIRE(LastStatus(victim.Startup()) == 'I');
  RawConn bystander(server.port());
  REQUIRE(bystander.ok());
  REQUIRE(LastStatus(bystander.Startup()) == 'I');
  REQUIRE(victim.backend_pid() > 0);
  const auto before = server.ChildPids();
  REQUIRE(std::find(before.begin(), before.end(), victim.backend_pid()) != before.end());

  REQUIRE(kill(victim.backend_pid(), SIGKILL) == 0);
  victim.DrainUntilEof(5000);
  CHECK(victim.eof());

  // The other sessions are terminated as part of the reset (PostgreSQL sends
  // WARNING 57P02 "terminating connection because of crash of another
  // server process" first).
  auto msgs = bystander.DrainUntilEof(10000);
  CHECK(bystander.eof());
  if (const RawMessage* n = First(msgs, 'N')) CHECK(ErrorOf(*n).sqlstate == "57P02");
  if (const RawMessage* e = First(msgs, 'E')) CHECK(ErrorOf(*e).sqlstate == "57P02");

  // New connections work again after the reset; the postmaster survived.
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 15000));
  CHECK(ProcessAlive(postmaster));
  CHECK(server.running());
  CommandResult r = server.Psql({"-A", "-t", "-c", "select 1+2"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "3\n");
  // Auxiliary processes were restarted: there are children besides backends.
  CHECK(WaitFor([&] { return !server.ChildPids().empty(); }, 5000));

  // A second crash is handled the same way.
  RawConn victim2(server.port());
  REQUIRE(LastStatus(victim2.Startup()) == 'I');
  REQUIRE(kill(victim2.backend_pid(), SIGKILL) == 0);
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 15000));
}

TEST_CASE("postmaster: a second server on the same data directory is refused", "[postmaster_test]") {
  TestServer server;
  REQUIRE(fs::exists(server.datadir() + "/postmaster.pid"));
  CommandResult r = RunSecondServer(server.datadir());
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);  // it exited by itself rather than running until killed
  const std::string all = r.out + r.err + server.log();
  CHECK(Contains(all, "postmaster.pid"));
  CHECK(Contains(all, "lock file"));
  // The first server is untouched and its lock file still names it.
  CHECK(ServerAnswers(server.port()));
  std::ifstream pidfile(server.datadir() + "/postmaster.pid");
  pid_t recorded = 0;
  pidfile >> recorded;
  CHECK(recorded == server.pid());
}

TEST_CASE("postmaster: a stale postmaster.pid after a crash does not block a restart", "[postmaster_test]") {
  TestServer server;
  REQUIRE(ServerAnswers(server.port()));
  RawConn session(server.port());
  REQUIRE(LastStatus(session.Startup()) == 'I');
  const auto children = server.ChildPids();
  REQUIRE(!children.empty());
  // kill -9 the postmaster and everything it started.
  server.Stop(SIGKILL);
  for (pid_t p : children) kill(p, SIGKILL);
  CHECK(WaitFor([&] {
    for (pid_t p : children) {
      if (ProcessAlive(p)) return false;
    }
    return true;
  }, 5000));
  REQUIRE(fs::exists(server.datadir() + "/postmaster.pid"));  // left behind

  REQUIRE_NOTHROW(server.Start());
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 10000));
  std::ifstream pidfile(server.datadir() + "/postmaster.pid");
  pid_t recorded = 0;
  pidfile >> recorded;
  CHECK(recorded == server.pid());
}

TEST_CASE("postmaster: SIGTERM is a fast shutdown", "[postmaster_test]") {
  TestServer server;
  RawConn idle(server.port());
  REQUIRE(LastStatus(idle.Startup()) == 'I');
  RawConn in_block(server.port());
  REQUIRE(LastStatus(in_block.Startup()) == 'I');
  REQUIRE(LastStatus(in_block.Query("begin")) == 'T');
  const auto children = server.ChildPids();
  const std::string datadir = server.datadir();

  auto start = std::chrono::steady_clock::now();
  int status = server.Stop(SIGTERM);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string log_after_stop = server.log();
  INFO("server log:\n" << log_after_stop);
  CHECK(took < 10.0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  for (RawConn* c : {&idle, &in_block}) {
    auto msgs = c->DrainUntilEof(5000);
    CHECK(c->eof());
    REQUIRE(First(msgs, 'E') != nullptr);
    auto e = ErrorOf(*First(msgs, 'E'));
    CHECK(e.severity_nonlocal == "FATAL");
    CHECK(e.sqlstate == "57P01");
    CHECK(e.message == "terminating connection due to administrator command");
  }
  for (pid_t p : children) CHECK_FALSE(ProcessAlive(p));
  CHECK_FALSE(fs::exists(datadir + "/postmaster.pid"));
  CHECK_FALSE(WaitFor([&] { return RawConn(server.port()).ok(); }, 200));

  // And it starts again on the same directory.
  REQUIRE_NOTHROW(server.Start());
  CHECK(ServerAnswers(server.port()));
}

TEST_CASE("postmaster: SIGINT is a smart shutdown that waits for sessions", "[postmaster_test]") {
  TestServer server;
  auto session = std::make_unique<RawConn>(server.port());
  REQUIRE(LastStatus(session->Startup()) == 'I');

  std::atomic<bool> exited{false};
  int status = -1;
  auto start = std::chrono::steady_clock::now();
  std::thread stopper([&] {
    status = server.Stop(SIGINT);
    exited = true;
  });
  SleepMs(700);
  CHECK_FALSE(exited.load());
  // The existing session still works ...
  CHECK(FirstColumn(session->Query("select 1")) == std::vector<std::string>{"1"});
  // ... but new ones are turned away.
  {
    RawConn late(server.port());
    // (No REQUIRE while the stopper thread runs: a throw would terminate.)
    if (late.ok()) {
      auto msgs = late.Startup();
      CHECK(FirstSqlstate(msgs) == "57P03");
      if (const RawMessage* e = First(msgs, 'E')) {
        CHECK(ErrorOf(*e).message == "the database system is shutting down");
      }
    }
  }
  CHECK_FALSE(exited.load());
  session->Send(TerminateMsg());
  session.reset();
  CHECK(WaitFor([&] { return exited.load(); }, 10000));
  stopper.join();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(took < 10.0);
  CHECK(WIFEXITED(status));
  if (WIFEXITED(status)) CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("postmaster: SIGQUIT is an immediate shutdown", "[postmaster_test]") {
  TestServer server;
  RawConn session(server.port());
  REQUIRE(LastStatus(session.Startup()) == 'I');
  const auto children = server.ChildPids();
  auto start = std::chrono::steady_clock::now();
  server.Stop(SIGQUIT);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(took < 5.0);
  session.DrainUntilEof(5000);
  CHECK(session.eof());
  CHECK(WaitFor([&] {
    for (pid_t p : children) {
      if (ProcessAlive(p)) return false;
    }
    return true;
  }, 5000));
  // The next start recovers.
  REQUIRE_NOTHROW(server.Start());
  CHECK(WaitFor([&] { return ServerAnswers(server.port()); }, 10000));
}

TEST_CASE("postmaster: SIGHUP reloads hearth.conf", "[postmaster_test]") {
  TestServer server;
  CHECK(server.PsqlValue("show bgwriter_delay") == "200ms");
  CHECK(server.PsqlValue("show statement_timeout") == "0");
  RawConn existing(server.port());
  REQUIRE(LastStatus(existing.Startup()) == 'I');

  AppendToFile(server.datadir() + "/hearth.conf",
               "\n# added by postmaster_test\nbgwriter_delay = 300ms\nstatement_timeout = '7s'\n"
               "max_connections = 7   # needs a restart: ignored by reload\n");
  REQUIRE(kill(server.pid(), SIGHUP) == 0);
  CHECK(WaitFor([&] { return server.PsqlValue("show bgwriter_delay") == "300ms"; }, 5000));
  CHECK(server.PsqlValue("show statement_timeout") == "7s");
  CHECK(server.PsqlValue("show max_connections") == "100");
  // An existing session picks the change up at its next command.
  CHECK(FirstColumn(existing.Query("show bgwriter_delay")) == std::vector<std::string>{"300ms"});
  CHECK(FirstColumn(existing.Query("show statement_timeout")) == std::vector<std::string>{"7s"});
  // A session's own SET wins over the file.
  CHECK(LastStatus(existing.Query("set statement_timeout = '1min'")) == 'I');
  REQUIRE(kill(server.pid(), SIGHUP) == 0);
  SleepMs(300);
  CHECK(FirstColumn(existing.Query("show statement_timeout")) == std::vector<std::string>{"1min"});
  CHECK(ServerAnswers(server.port()));
}

TEST_CASE("postmaster: hearthd init and bad start-up settings", "[postmaster_test]") {
  char tmpl[] = "/tmp/hearth-init-test-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string root = tmpl;
  const std::string dir = root + "/data";

  CommandResult r = RunHearthd({"init", "-D", dir}, dir);
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(dir + "/hearth.conf"));
  CHECK(fs::exists(dir + "/HEARTH_VERSION"));

  // Init again on the (now non-empty) directory fails and changes nothing.
  r = RunHearthd({"init", "-D", dir}, dir);
  CHECK(r.exit_code != 0);
  CHECK(!r.err.empty());
  CHECK(Contains(r.err, dir));

  // A non-empty directory that is not ours, too.
  const std::string other = root + "/other";
  fs::create_directories(other);
  AppendToFile(other + "/somefile", "x");
  r = RunHearthd({"init", "-D", other}, other);
  CHECK(r.exit_code != 0);

  // Starting on a directory that is not a data directory fails clearly.
  r = RunHearthd({"-D", other, "-c", "port=" + std::to_string(FreePort())}, other);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);

  const std::string port = "port=" + std::to_string(FreePort());
  // Bad values on the command line: the server refuses to start, naming it.
  r = RunHearthd({"-D", dir, "-c", port, "-c", "max_connections=abc"}, dir);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);
  CHECK(Contains(r.err + r.out, "invalid value for parameter \"max_connections\": \"abc\""));

  r = RunHearthd({"-D", dir, "-c", port, "-c", "max_connections=0"}, dir);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);
  CHECK(Contains(r.err + r.out, "max_connections"));

  r = RunHearthd({"-D", dir, "-c", port, "-c", "no_such_setting=1"}, dir);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);
  CHECK(Contains(r.err + r.out, "unrecognized configuration parameter \"no_such_setting\""));

  // A bad line in hearth.conf also stops the start.
  AppendToFile(dir + "/hearth.conf", "\nshared_buffers = lots\n");
  r = RunHearthd({"-D", dir, "-c", port}, dir);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != 137);
  CHECK(Contains(r.err + r.out, "shared_buffers"));

  std::error_code ec;
  fs::remove_all(root, ec);
}

TEST_CASE("postmaster: init with another user and database name", "[postmaster_test]") {
  TestServer server({}, {"--username", "alice", "--dbname", "shop"}, 0);
  RawConn c(server.port());
  REQUIRE(c.ok());
  auto msgs = c.Startup("alice", "shop");
  REQUIRE(LastStatus(msgs) == 'I');
  auto row = c.Query("select current_user, current_database()");
  REQUIRE(First(row, 'D') != nullptr);
  auto vals = DataRowValues(*First(row, 'D'));
  REQUIRE(vals.size() == 2);
  CHECK(vals[0] == std::optional<std::string>("alice"));
  CHECK(vals[1] == std::optional<std::string>("shop"));

  RawConn d(server.port());
  msgs = d.Startup("hearth", "shop");
  CHECK(FirstSqlstate(msgs) == "28000");
  RawConn e(server.port());
  msgs = e.Startup("alice", "hearth");
  CHECK(FirstSqlstate(msgs) == "3D000");
}
