// The security model end to end through two clients we did not write: psql
// and pgjdbc (java/JdbcSecurity.java). Both log in with SCRAM (right, wrong
// and unknown-user passwords fail with the same 28P01 text), meet NOLOGIN
// (28000) and a pg_hba.conf reject line, are refused tables, columns and
// schemas (42501) until granted and again after REVOKE, may not COPY from
// /etc/passwd, and connect over TLS with sslmode=require and verify-full
// against a CA made at test time (and refuse a certificate from another CA);
// SCRAM-SHA-256-PLUS binds the login to the server certificate (psql's
// channel_binding=require, and python/scram_plus.py for what libpq never
// sends: a wrong binding, a 'y' flag).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "test_server.h"
#include "server_files.h"

using namespace hearth::testing;

namespace {

constexpr char kJdbcJar[] = "/usr/share/java/postgresql.jar";

bool Contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

const char kSetup[] =
    "create role alice login password 'secret';"
    "create role nl password 'x';"
    "create role app login password 'pw';"
    "create role tlsuser login password 'tls';"
    "create table secret (v int); insert into secret values (42);"
    "create table staff (id int, salary int); insert into staff values (1, 100);"
    "create schema s; create table s.t (v int); insert into s.t values (5);";

const char kHba[] =
    "host all hearth 127.0.0.1/32 trust\n"
    "hostssl all tlsuser 127.0.0.1/32 scram-sha-256\n"
    "host all tlsuser 127.0.0.1/32 reject\n"
    "host all all 127.0.0.1/32 scram-sha-256\n";

// A server with kSetup's roles and objects, kHba, ssl = on and a
// certificate signed by the test CA in its data directory.
void Prepare(TestServer& server) {
  REQUIRE(server.Psql({"-c", kSetup}).exit_code == 0);
  MakeTestCa(server.datadir());
  ReloadServerConfig(server, "ssl = on\n", kHba);
}

constexpr char kPsql1520[] = "/opt/pg1520/root/usr/lib/postgresql/15/bin/psql";
constexpr char kPsql1520Libs[] = "/opt/pg1520/root/usr/lib/x86_64-linux-gnu";

// psql -w as `user` with PGPASSWORD and extra conninfo words: the merged
// output (a value or the error text). `psql` is the program (the one on
// PATH by default).
std::string PsqlAs(const TestServer& s, const std::string& user, const std::string& password, const std::string& sql,
                   const std::string& conninfo = "sslmode=disable", const std::string& psql = "psql") {
  std::vector<std::string> argv = {"env", "PGPASSWORD=" + password};
  if (psql != "psql") argv.push_back(std::string("LD_LIBRARY_PATH=") + kPsql1520Libs);
  argv.insert(argv.end(), {psql, "-X", "-w", "-A", "-t", "-q",
                           "host=127.0.0.1 port=" + std::to_string(s.port()) + " user=" + user + " dbname=hearth " +
                               conninfo,
                           "-c", sql});
  return RunCommandMerged(argv).out;
}

// The psql programs to try: the one on PATH and 15.20 when installed.
std::vector<std::string> Psqls() {
  std::vector<std::string> out = {"psql"};
  if (std::filesystem::exists(kPsql1520)) out.push_back(kPsql1520);
  return out;
}

}  // namespace

TEST_CASE("security: pgjdbc logs in, is refused and granted, and verifies the server over TLS", "[security_test]") {
  REQUIRE(std::filesystem::exists(kJdbcJar));
  TestServer server;
  Prepare(server);
  const std::string dir = server.datadir();
  CommandResult r = RunCommand({"java", "-cp", kJdbcJar, SourceDir() + "/tests/integration/java/JdbcSecurity.java",
                                std::to_string(server.port()), dir + "/ca.crt", dir + "/other_ca.crt"},
                               "", 180);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err << "\nserver log:\n" << server.log());
  CHECK(r.exit_code == 0);
  CHECK(Contains(r.out, "ALL OK"));
  CHECK_FALSE(Contains(r.out, "MISMATCH"));
  for (const char* line :
       {"right password: connected as alice\n",
        "wrong password: 28P01 FATAL: password authentication failed for user \"alice\"\n",
        "unknown user: 28P01 FATAL: password authentication failed for user \"ghost\"\n",
        "nologin: 28000 FATAL: role \"nl\" is not permitted to log in\n",
        "table before grant: 42501 ERROR: permission denied for table secret\n", "table after grant: 42\n",
        "table after revoke: 42501 ERROR: permission denied for table secret\n", "granted column: 1\n",
        "schema before grant: 42501 ERROR: permission denied for schema s\n", "schema after grant: 5\n",
        "copy from /etc/passwd: 42501 ERROR: must be superuser or have privileges of the pg_read_server_files role "
        "to COPY from a file\n",
        "invisible in hearth: 42P01 ERROR: relation \"only_there\" does not exist\n",
        "sslmode=require: connected as tlsuser\n", "sslmode=verify-full: connected as tlsuser\n",
        "verify-full, another CA refused: refused\n"}) {
    INFO(line);
    CHECK(Contains(r.out, line));
  }
}

TEST_CASE("security: psql as a logged-in role is refused and granted, and verifies the server over TLS",
          "[security_test]") {
  TestServer server;
  Prepare(server);
  const std::string dir = server.datadir();
  // Passwords and NOLOGIN (psql's own cases are in auth_test as well).
  CHECK(PsqlAs(server, "alice", "secret", "select current_user") == "alice\n");
  const std::string wrong = PsqlAs(server, "alice", "wrong", "select 1");
  const std::string unknown = PsqlAs(server, "ghost", "wrong", "select 1");
  CHECK(Contains(wrong, "FATAL:  password authentication failed for user \"alice\""));
  CHECK(Contains(unknown, "FATAL:  password authentication failed for user \"ghost\""));
  CHECK(Contains(PsqlAs(server, "nl", "x", "select 1"), "FATAL:  role \"nl\" is not permitted to log in"));

  // Tables, columns, schemas: 42501, then allowed after GRANT, then 42501
  // again after REVOKE.
  const std::string denied_table = "ERROR:  permission denied for table secret";
  CHECK(Contains(PsqlAs(server, "app", "pw", "select v from secret"), denied_table));
  REQUIRE(server.Psql({"-c", "grant select on secret to app"}).exit_code == 0);
  CHECK(PsqlAs(server, "app", "pw", "select v from secret") == "42\n");
  REQUIRE(server.Psql({"-c", "revoke select on secret from app"}).exit_code == 0);
  CHECK(Contains(PsqlAs(server, "app", "pw", "select v from secret"), denied_table));

  REQUIRE(server.Psql({"-c", "grant select (id), update (salary) on staff to app"}).exit_code == 0);
  CHECK(PsqlAs(server, "app", "pw", "select id from staff") == "1\n");
  CHECK(Contains(PsqlAs(server, "app", "pw", "select salary from staff"), "permission denied for table staff"));
  CHECK(PsqlAs(server, "app", "pw", "update staff set salary = 7") == "");
  REQUIRE(server.Psql({"-c", "revoke select (id) on staff from app"}).exit_code == 0);
  CHECK(Contains(PsqlAs(server, "app", "pw", "select id from staff"), "permission denied for table staff"));

  const std::string denied_schema = "ERROR:  permission denied for schema s";
  CHECK(Contains(PsqlAs(server, "app", "pw", "select v from s.t"), denied_schema));
  REQUIRE(server.Psql({"-c", "grant usage on schema s to app"}).exit_code == 0);
  CHECK(Contains(PsqlAs(server, "app", "pw", "select v from s.t"), "permission denied for table t"));
  REQUIRE(server.Psql({"-c", "grant select on s.t to app"}).exit_code == 0);
  CHECK(PsqlAs(server, "app", "pw", "select v from s.t") == "5\n");
  CHECK(Contains(PsqlAs(server, "app", "pw", "create table s.mine (x int)"), denied_schema));
  REQUIRE(server.Psql({"-c", "revoke usage on schema s from app"}).exit_code == 0);
  CHECK(Contains(PsqlAs(server, "app", "pw", "select v from s.t"), denied_schema));

  // A non-superuser may not read server files.
  REQUIRE(PsqlAs(server, "app", "pw", "create table mine (line text)") == "");
  CHECK(Contains(PsqlAs(server, "app", "pw", "copy mine from '/etc/passwd'"),
                 "ERROR:  must be superuser or have privileges of the pg_read_server_files role to COPY from a file"));
  CHECK(PsqlAs(server, "app", "pw", "select count(*) from mine") == "0\n");

  // TLS: hostssl lets tlsuser in over TLS only; verify-full checks the
  // certificate chain and the host name against the test CA.
  CHECK(Contains(PsqlAs(server, "tlsuser", "tls", "select 1"), "pg_hba.conf rejects connection"));
  CHECK(PsqlAs(server, "tlsuser", "tls", "select current_user", "sslmode=require") == "tlsuser\n");
  CHECK(PsqlAs(server, "tlsuser", "tls", "select current_user",
               "sslmode=verify-full sslrootcert=" + dir + "/ca.crt") == "tlsuser\n");
  CHECK(Contains(PsqlAs(server, "tlsuser", "tls", "select 1", "sslmode=verify-full sslrootcert=" + dir + "/other_ca.crt"),
                 "certificate verify failed"));
}

TEST_CASE("security: SCRAM-SHA-256-PLUS binds the login to the server certificate over TLS", "[security_test]") {
  TestServer server;
  Prepare(server);
  const std::string ca = "sslrootcert=" + server.datadir() + "/ca.crt";
  for (const std::string& psql : Psqls()) {
    INFO(psql);
    // libpq chooses SCRAM-SHA-256-PLUS (tls-server-end-point) when the
    // server offers it; channel_binding=require fails unless it happened.
    CHECK(PsqlAs(server, "alice", "secret", "select current_user", "sslmode=require channel_binding=require", psql) ==
          "alice\n");
    CHECK(PsqlAs(server, "alice", "secret", "select current_user",
                 "sslmode=verify-full channel_binding=require " + ca, psql) == "alice\n");
    CHECK(Contains(PsqlAs(server, "alice", "wrong", "select 1", "sslmode=require channel_binding=require", psql),
                   "FATAL:  password authentication failed for user \"alice\""));
    CHECK(Contains(PsqlAs(server, "ghost", "wrong", "select 1", "sslmode=require channel_binding=require", psql),
                   "FATAL:  password authentication failed for user \"ghost\""));
    // Without TLS there is nothing to bind to: only SCRAM-SHA-256 is offered.
    CHECK(Contains(PsqlAs(server, "alice", "secret", "select 1", "sslmode=disable channel_binding=require", psql),
                   "channel binding required"));
    CHECK(PsqlAs(server, "alice", "secret", "select current_user", "sslmode=disable channel_binding=prefer", psql) ==
          "alice\n");
    CHECK(PsqlAs(server, "alice", "secret", "select current_user", "sslmode=require channel_binding=disable", psql) ==
          "alice\n");
  }
  // What libpq never sends, from a client written from the RFCs
  // (python/scram_plus.py): a wrong binding, as a relayed exchange would
  // carry, and a client told the server cannot bind.
  auto scram_plus = [&](const std::string& user, const std::string& password, const std::string& mode) {
    CommandResult r = RunCommandMerged({"python3", SourceDir() + "/tests/integration/python/scram_plus.py",
                                        std::to_string(server.port()), user, password, mode});
    INFO(r.out);
    return r.out;
  };
  CHECK(scram_plus("alice", "secret", "good") == "mechanisms: SCRAM-SHA-256-PLUS,SCRAM-SHA-256\nok\n");
  CHECK(scram_plus("alice", "secret", "tampered") ==
        "mechanisms: SCRAM-SHA-256-PLUS,SCRAM-SHA-256\nerror 08P01 SCRAM channel binding check failed\n");
  CHECK(scram_plus("alice", "secret", "yflag") ==
        "mechanisms: SCRAM-SHA-256-PLUS,SCRAM-SHA-256\nerror 08P01 SCRAM channel binding negotiation error\n");
  CHECK(scram_plus("alice", "wrong", "good") ==
        "mechanisms: SCRAM-SHA-256-PLUS,SCRAM-SHA-256\nerror 28P01 password authentication failed for user "
        "\"alice\"\n");
  CHECK(scram_plus("alice", "secret", "plain") == "mechanisms: SCRAM-SHA-256\n");
}
