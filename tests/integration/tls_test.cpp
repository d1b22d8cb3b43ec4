// TLS as PostgreSQL 15 configures it: ssl, ssl_cert_file, ssl_key_file
// (reloaded on SIGHUP), SSLRequest answered 'S' then a handshake, hostssl /
// hostnossl lines matching by encryption, SCRAM over TLS, and a server that
// refuses to start with ssl = on and no usable certificate.
#include <signal.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// Appends to hearth.conf / replaces pg_hba.conf, then reloads and waits
// until the postmaster has re-read its files.
void Reload(const TestServer& s, const std::string& conf_lines, const std::string& hba) {
  const size_t before = Count(s.log(), "received SIGHUP");
  if (!conf_lines.empty()) {
    std::ofstream conf(s.datadir() + "/hearth.conf", std::ios::app);
    conf << conf_lines;
  }
  if (!hba.empty()) {
    std::ofstream out(s.datadir() + "/pg_hba.conf", std::ios::trunc);
    out << hba;
  }
  REQUIRE(kill(s.pid(), SIGHUP) == 0);
  REQUIRE(WaitFor([&] { return Count(s.log(), "received SIGHUP") > before; }, 20000));
}

CommandResult PsqlSsl(const TestServer& s, const std::string& user, const std::string& sslmode,
                      const std::string& password = "", const std::string& sql = "select current_user") {
  return RunCommandMerged({"env", "PGPASSWORD=" + password, "psql", "-X", "-w", "-A", "-t",
                           "host=127.0.0.1 port=" + std::to_string(s.port()) + " user=" + user +
                               " dbname=hearth sslmode=" + sslmode,
                           "-c", sql});
}

void MakeCertificate(const std::string& dir) {
  auto r = RunCommand({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                       "-keyout", dir + "/server.key", "-out", dir + "/server.crt", "-days", "2"});
  REQUIRE(r.exit_code == 0);
  REQUIRE(RunCommand({"chmod", "600", dir + "/server.key"}).exit_code == 0);
}

}  // namespace

TEST_CASE("tls: SSLRequest, hostssl and SCRAM over TLS", "[tls_test]") {
  TestServer server;
  // ssl = off: 'N', and psql's sslmode=require gives up.
  {
    RawConn c(server.port());
    REQUIRE(c.Send(SslRequestMsg()));
    CHECK(c.ReadByte() == 'N');
  }
  CHECK(Contains(PsqlSsl(server, "hearth", "require").out, "server does not support SSL"));

  MakeCertificate(server.datadir());
  REQUIRE(server.Psql({"-c", "create role alice login password 'secret'"}).exit_code == 0);
  Reload(server, "ssl = on\n",
         "hostssl all alice 127.0.0.1/32 scram-sha-256\n"
         "hostnossl all hearth 127.0.0.1/32 trust\n"
         "hostssl all hearth 127.0.0.1/32 trust\n");
  {
    RawConn c(server.port());
    REQUIRE(c.Send(SslRequestMsg()));
    CHECK(c.ReadByte() == 'S');
  }
  for (const char* psql_mode : {"require", "prefer"}) {
    INFO(psql_mode);
    auto r = PsqlSsl(server, "alice", psql_mode, "secret");
    CHECK(r.out == "alice\n");
    CHECK(Contains(PsqlSsl(server, "alice", psql_mode, "wrong").out,
                   "password authentication failed for user \"alice\""));
  }
  // hostssl does not match a plain connection; hostnossl does.
  CHECK(Contains(PsqlSsl(server, "alice", "disable", "secret").out,
                 "no pg_hba.conf entry for host \"127.0.0.1\", user \"alice\", database \"hearth\", no encryption"));
  CHECK(PsqlSsl(server, "hearth", "disable").out == "hearth\n");
  CHECK(PsqlSsl(server, "hearth", "require").out == "hearth\n");
  // Large results and COPY travel in many TLS records.
  auto big = PsqlSsl(server, "hearth", "require", "",
                     "create table big as select repeat('x', 1000) as t from (values (1),(2),(3),(4),(5),(6),(7),"
                     "(8),(9),(10)) a, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) b, (values (1),(2),(3),"
                     "(4),(5),(6),(7),(8),(9),(10)) c; select count(*), sum(length(t)) from big");
  CHECK(Contains(big.out, "\n1000|1000000\n"));

  // A certificate that cannot be read on reload: the old context stays.
  Reload(server, "ssl_cert_file = 'nosuch.crt'\n", "");
  CHECK(WaitFor([&] { return Contains(server.log(), "SSL configuration was not reloaded"); }, 20000));
  CHECK(PsqlSsl(server, "alice", "require", "secret").out == "alice\n");

  // At start the same mistake is fatal.
  REQUIRE(server.Stop(SIGTERM) != -1);
  auto start = RunCommandMerged({std::string(HEARTH_BINARY_DIR) + "/hearthd", "-D", server.datadir(), "-c",
                                 "port=" + std::to_string(server.port()), "-c", "listen_addresses=127.0.0.1"},
                                "", 60);
  CHECK(start.exit_code != 0);
  CHECK(Contains(start.out, "could not load server certificate file"));
}
