// Client authentication over the wire, as PostgreSQL 15 does it: pg_hba.conf
// methods (scram-sha-256, md5, password, trust, reject) with the real psql
// (PGPASSWORD; 15.18 and, when installed, 15.20) and with our client;
// failures that look the same whether or not the role exists (including a
// mock SCRAM exchange with a stable fake salt); NOLOGIN, CONNECTION LIMIT
// and VALID UNTIL; pg_hba.conf reloaded on SIGHUP, a bad file keeping the
// old rules; authentication_timeout during the exchange.
#include <signal.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "client/client.h"
#include "common/auth/crypto.h"
#include "common/auth/scram.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::ClientError;
using hearth::client::ConnectOptions;
using hearth::client::Connection;

namespace {

constexpr char kPsql1520[] = "/opt/pg1520/root/usr/lib/postgresql/15/bin/psql";
constexpr char kPsql1520Libs[] = "/opt/pg1520/root/usr/lib/x86_64-linux-gnu";

// The psql binaries to try: the one on PATH and 15.20 when present.
std::vector<std::vector<std::string>> PsqlCommands() {
  std::vector<std::vector<std::string>> out = {{"psql"}};
  if (std::ifstream(kPsql1520).good()) {
    out.push_back({"env", std::string("LD_LIBRARY_PATH=") + kPsql1520Libs, kPsql1520});
  }
  return out;
}

// psql -w as `user` with PGPASSWORD = `password`: the bare result or the
// error text.
CommandResult PsqlAs(const std::vector<std::string>& psql, const TestServer& s, const std::string& user,
                     const std::string& password, const std::string& sql = "select current_user") {
  std::vector<std::string> argv = {"env", "PGPASSWORD=" + password};
  argv.insert(argv.end(), psql.begin(), psql.end());
  for (const char* a : {"-X", "-w", "-A", "-t", "-h", "127.0.0.1"}) argv.push_back(a);
  argv.insert(argv.end(), {"-p", std::to_string(s.port()), "-U", user, "-d", "hearth", "-c", sql});
  return RunCommandMerged(argv);
}

bool Contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// Replaces pg_hba.conf and reloads; returns once the postmaster has read
// it (it logs "received SIGHUP" before re-reading, in the same step that
// must finish before it accepts another connection).
void ReloadHba(const TestServer& s, const std::string& content) {
  const size_t before = Count(s.log(), "received SIGHUP");
  {
    std::ofstream out(s.datadir() + "/pg_hba.conf", std::ios::trunc);
    out << content;
  }
  REQUIRE(kill(s.pid(), SIGHUP) == 0);
  REQUIRE(WaitFor([&] { return Count(s.log(), "received SIGHUP") > before; }, 20000));
}

ConnectOptions As(const TestServer& s, const std::string& user, const std::string& password) {
  ConnectOptions o;
  o.port = static_cast<uint16_t>(s.port());
  o.user = user;
  o.database = "hearth";
  o.password = password;
  return o;
}

std::string ClientFailure(const ConnectOptions& o) {
  try {
    Connection::Connect(o);
  } catch (const ClientError& e) {
    return e.sqlstate() + " " + e.what();
  }
  return "connected";
}

const char kRoles[] =
    "create role alice login password 'secret';"
    "create role pw login password 'plain';"
    "create role nl password 'x';"
    "create role cl login connection limit 1 password 'x';"
    "create role old login password 'x' valid until '2001-01-01';"
    "create role gone login password 'x';"
    "create role staff; grant staff to alice;"
    "set password_encryption = 'md5';"
    "create role m login password 'mpw';";

const char kHba[] =
    "# tests\n"
    "host all hearth 127.0.0.1/32 trust\n"
    "host \"hearth\" m 127.0.0.1 255.255.255.255 md5\n"
    "host all pw 127.0.0.1/32 password  # options after the method are ignored\n"
    "host all rej 127.0.0.1/32 reject\n"
    "hostssl all all 0.0.0.0/0 trust\n"
    "host all +staff 127.0.0.1/32 scram-sha-256\n"
    "host sameuser all 127.0.0.1/32 trust\n"
    "host all all 127.0.0.1/32 scram-sha-256\n";

// The raw SCRAM server-first-message a user gets (salt and iterations).
std::string ServerFirst(int port, const std::string& user) {
  RawConn c(port);
  REQUIRE(c.SendStartup({{"user", user}, {"database", "hearth"}}));
  auto sasl = c.Read();
  REQUIRE(sasl);
  REQUIRE(sasl->type == 'R');
  REQUIRE(sasl->body.substr(0, 4) == std::string("\0\0\0\x0a", 4));
  const std::string data = "n,,n=,r=clientnonce";
  std::string body = "SCRAM-SHA-256";
  body.push_back('\0');
  const uint32_t len = static_cast<uint32_t>(data.size());
  body += std::string{static_cast<char>(len >> 24), static_cast<char>(len >> 16), static_cast<char>(len >> 8),
                      static_cast<char>(len)};
  body += data;
  const uint32_t total = static_cast<uint32_t>(body.size() + 4);
  std::string frame = "p";
  frame += std::string{static_cast<char>(total >> 24), static_cast<char>(total >> 16),
                       static_cast<char>(total >> 8), static_cast<char>(total)};
  REQUIRE(c.Send(frame + body));
  auto cont = c.Read();
  REQUIRE(cont);
  REQUIRE(cont->type == 'R');
  REQUIRE(cont->body.substr(0, 4) == std::string("\0\0\0\x0b", 4));
  const std::string server_first = cont->body.substr(4);
  // A wrong proof: the same failure a real user with a wrong password gets.
  const std::string nonce(*hearth::auth::ScramAttribute(server_first, 'r'));
  const std::string final_msg = "c=biws,r=" + nonce + ",p=" + hearth::auth::Base64Encode(std::string(32, 'x'));
  const uint32_t flen = static_cast<uint32_t>(final_msg.size() + 4);
  std::string fframe = "p";
  fframe += std::string{static_cast<char>(flen >> 24), static_cast<char>(flen >> 16), static_cast<char>(flen >> 8),
                        static_cast<char>(flen)};
  REQUIRE(c.Send(fframe + final_msg));
  auto msgs = c.DrainUntilEof();
  REQUIRE(First(msgs, 'E') != nullptr);
  auto e = ErrorOf(*First(msgs, 'E'));
  CHECK(e.sqlstate == "28P01");
  CHECK(e.message == "password authentication failed for user \"" + user + "\"");
  return server_first.substr(server_first.find(",s="));
}

}  // namespace

TEST_CASE("auth: pg_hba.conf methods with psql and our client", "[auth_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", kRoles}).exit_code == 0);
  ReloadHba(server, kHba);

  for (const auto& psql : PsqlCommands()) {
    INFO(psql.back());
    // scram-sha-256 (through +staff): right, wrong, missing role.
    auto r = PsqlAs(psql, server, "alice", "secret");
    CHECK(r.exit_code == 0);
    CHECK(r.out == "alice\n");
    r = PsqlAs(psql, server, "alice", "wrong");
    CHECK(r.exit_code != 0);
    CHECK(Contains(r.out, "FATAL:  password authentication failed for user \"alice\""));
    r = PsqlAs(psql, server, "nobody", "secret");
    CHECK(Contains(r.out, "FATAL:  password authentication failed for user \"nobody\""));
    // md5 role; password method against a SCRAM verifier.
    r = PsqlAs(psql, server, "m", "mpw");
    CHECK(r.out == "m\n");
    CHECK(Contains(PsqlAs(psql, server, "m", "bad").out, "password authentication failed for user \"m\""));
    CHECK(PsqlAs(psql, server, "pw", "plain").out == "pw\n");
    CHECK(Contains(PsqlAs(psql, server, "pw", "Plain").out, "password authentication failed for user \"pw\""));
    // reject, NOLOGIN, VALID UNTIL in the past, trust for the superuser.
    CHECK(Contains(PsqlAs(psql, server, "rej", "x").out,
                   "FATAL:  pg_hba.conf rejects connection for host \"127.0.0.1\", user \"rej\", database \"hearth\", "
                   "no encryption"));
    CHECK(Contains(PsqlAs(psql, server, "nl", "x").out, "FATAL:  role \"nl\" is not permitted to log in"));
    CHECK(Contains(PsqlAs(psql, server, "old", "x").out, "password authentication failed for user \"old\""));
    CHECK(PsqlAs(psql, server, "hearth", "").out == "hearth\n");
  }

  // Our client speaks the same methods.
  Connection alice = Connection::Connect(As(server, "alice", "secret"));
  auto rs = alice.SimpleQuery("select current_user, session_user");
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("alice"));
  CHECK(Connection::Connect(As(server, "m", "mpw")).is_open());
  CHECK(Connection::Connect(As(server, "pw", "plain")).is_open());
  CHECK(ClientFailure(As(server, "alice", "nope")).rfind("28P01", 0) == 0);
  CHECK(ClientFailure(As(server, "ghost", "nope")).rfind("28P01", 0) == 0);

  // CONNECTION LIMIT 1: a second session of the role is refused.
  Connection first = Connection::Connect(As(server, "cl", "x"));
  const std::string second = ClientFailure(As(server, "cl", "x"));
  CHECK(second.rfind("53300", 0) == 0);
  CHECK(Contains(second, "too many connections for role \"cl\""));
  first.Close();

  // The server log (never the client) says why, and which line matched.
  CHECK(Contains(server.log(), "Role \"nobody\" does not exist. Connection matched pg_hba.conf line 9: "
                               "\"host all all 127.0.0.1/32 scram-sha-256\""));
  CHECK(Contains(server.log(), "Password does not match for user \"alice\"."));
  CHECK(Contains(server.log(), "User \"old\" has an expired password."));

  // A dropped role fails like a missing one, not with "does not exist".
  REQUIRE(server.Psql({"-c", "drop role gone"}).exit_code == 0);
  CHECK(Contains(PsqlAs(PsqlCommands()[0], server, "gone", "x").out,
                 "password authentication failed for user \"gone\""));
}

TEST_CASE("auth: a missing role gets a stable mock SCRAM salt", "[auth_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c",
                       "create role known login password "
                       "'SCRAM-SHA-256$4096:c2FsdHNhbHRzYWx0c2FsdA==$4Xf3E3LxPOIbS9PLs5pJVWlNe93YpwmJ8ZvlYsVS0Rg=:"
                       "1b3JXf3ZgTR5GH3hUm5oMBNEzrJbNFuLnwbRi7G9vbE='"})
              .exit_code == 0);
  ReloadHba(server, "host all hearth 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n");
  // The stored salt and count for a real role; for a missing one a salt
  // that is the same on every attempt and differs between names.
  CHECK(ServerFirst(server.port(), "known") == ",s=c2FsdHNhbHRzYWx0c2FsdA==,i=4096");
  const std::string ghost = ServerFirst(server.port(), "ghost");
  CHECK(ghost == ServerFirst(server.port(), "ghost"));
  CHECK(ghost != ServerFirst(server.port(), "phantom"));
  CHECK(Contains(ghost, ",i=4096"));
}

TEST_CASE("auth: pg_hba.conf reloads on SIGHUP and a bad file keeps the old rules", "[auth_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create role alice login password 'secret'"}).exit_code == 0);
  const std::vector<std::string> psql = PsqlCommands()[0];
  // Trust by default (hearthd init's file).
  CHECK(PsqlAs(psql, server, "alice", "").out == "alice\n");

  ReloadHba(server, "host all hearth 127.0.0.1/32 trust\n");
  auto r = PsqlAs(psql, server, "alice", "secret");
  CHECK(Contains(r.out, "FATAL:  no pg_hba.conf entry for host \"127.0.0.1\", user \"alice\", database \"hearth\", "
                        "no encryption"));

  ReloadHba(server, "host all hearth 127.0.0.1/32 trust\nhost all alice 127.0.0.1/32 scram-sha-256\n");
  CHECK(PsqlAs(psql, server, "alice", "secret").out == "alice\n");
  CHECK(Contains(PsqlAs(psql, server, "alice", "").out, "no password supplied"));

  // A broken file is refused and logged; the rules in force stay.
  ReloadHba(server, "host all all 127.0.0.1/99 trust\n");
  CHECK(WaitFor([&] { return Contains(server.log(), "pg_hba.conf was not reloaded"); }, 20000));
  CHECK(Contains(server.log(), "invalid CIDR mask in address \"127.0.0.1/99\" on line 1"));
  CHECK(PsqlAs(psql, server, "alice", "secret").out == "alice\n");
  CHECK(Contains(PsqlAs(psql, server, "alice", "wrong").out, "password authentication failed"));
}

TEST_CASE("auth: authentication_timeout ends a stalled password exchange", "[auth_test]") {
  TestServer server(Settings{{"authentication_timeout", "1s"}});
  REQUIRE(server.Psql({"-c", "create role alice login password 'secret'"}).exit_code == 0);
  ReloadHba(server, "host all hearth 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n");
  RawConn c(server.port());
  REQUIRE(c.SendStartup({{"user", "alice"}, {"database", "hearth"}}));
  auto sasl = c.Read();
  REQUIRE(sasl);
  CHECK(sasl->type == 'R');
  // Never answer: the backend gives up and says why.
  auto msgs = c.DrainUntilEof(20000);
  CHECK(c.eof());
  REQUIRE(First(msgs, 'E') != nullptr);
  CHECK(ErrorOf(*First(msgs, 'E')).sqlstate == "57014");
  CHECK(ErrorOf(*First(msgs, 'E')).message == "canceling authentication due to timeout");
  // The slot was released properly: the server still serves.
  CHECK(server.PsqlValue("select 1") == "1");
}
