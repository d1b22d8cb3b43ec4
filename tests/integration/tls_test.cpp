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
#include "server_files.h"

using namespace hearth::testing;

namespace {

bool Contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

CommandResult PsqlSsl(const TestServer& s, const std::string& user, const std::string& sslmode,
                      const std::string& password = "", const std::string& sql = "select current_user") {
  return RunCommandMerged({"env", "PGPASSWORD=" + password, "psql", "-X", "-w", "-A", "-t",
                           "host=127.0.0.1 port=" + std::to_string(s.port()) + " user=" + user +
                               " dbname=hearth sslmode=" + sslmode,
                           "-c", sql});
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

  MakeSelfSignedCertificate(server.datadir());
  REQUIRE(server.Psql({"-c", "create role alice login password 'secret'"}).exit_code == 0);
  ReloadServerConfig(server, "ssl = on\n",
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
  ReloadServerConfig(server, "ssl_cert_file = 'nosuch.crt'\n", "");
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
