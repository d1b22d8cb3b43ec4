// Several databases over the wire: each with its own catalogs and
// relations (the same table name holding different rows), CREATE / DROP /
// ALTER DATABASE with PostgreSQL 15's errors, CONNECT privilege checked at
// login, and kill -9 around CREATE and DROP DATABASE.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>

#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "crash_util.h"
#include "raw_session.h"
#include "role_sessions.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::ClientError;
using hearth::client::Connection;

namespace {

// psql -A -t -q on database `db`: output and exit code.
CommandResult PsqlOn(const TestServer& s, const std::string& db, const std::string& sql) {
  return RunCommandMerged({"psql", "-X", "-h", "127.0.0.1", "-p", std::to_string(s.port()), "-U", "hearth", "-d", db,
                           "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql});
}

std::string ValueOn(const TestServer& s, const std::string& db, const std::string& sql) {
  CommandResult r = PsqlOn(s, db, sql);
  INFO(sql << " on " << db << " -> " << r.out);
  REQUIRE(r.exit_code == 0);
  while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
  return r.out;
}

bool DirectoryExists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

hearth::client::ConnectOptions On(const TestServer& s, const std::string& user, const std::string& db) {
  hearth::client::ConnectOptions o = LoginAs(s, user);
  o.database = db;
  return o;
}

// The SQLSTATE of a failed login ("" when it succeeded).
std::string LoginState(const hearth::client::ConnectOptions& o, std::string* message = nullptr) {
  try {
    Connection c = Connection::Connect(o);
    return "";
  } catch (const ClientError& e) {
    if (message != nullptr) *message = e.what();
    return e.sqlstate();
  }
}

}  // namespace

TEST_CASE("databases: two databases keep their own tables", "[databases_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create database other"}).exit_code == 0);
  REQUIRE(ValueOn(server, "hearth", "create table t (v text); insert into t values ('one'); select v from t") == "one");
  REQUIRE(ValueOn(server, "other", "create table t (v text); insert into t values ('two'); select v from t") == "two");
  CHECK(ValueOn(server, "hearth", "select v from t") == "one");
  CHECK(ValueOn(server, "other", "select current_database() || ':' || v from t") == "other:two");
  // A table of one database is unknown in the other; \c switches.
  REQUIRE(ValueOn(server, "hearth", "create table only_here (x int)") == "");
  CHECK(PsqlOn(server, "other", "select * from only_here").out.find("relation \"only_here\" does not exist") !=
        std::string::npos);
  auto r = server.PsqlScript("\\c other\nselect v from t;\n", {"-A", "-t", "-q"});
  CHECK(r.out == "two\n");
  // pg_database is one shared catalog: every database lists all of them.
  const std::string list = "select string_agg(datname, ',' order by oid) from pg_database";
  CHECK(ValueOn(server, "other", list) == "template1,template0,hearth,other");
  CHECK(ValueOn(server, "hearth", list) == "template1,template0,hearth,other");
  // A new database copies template1, not the database CREATE ran in.
  REQUIRE(server.Psql({"-c", "create database third template template1"}).exit_code == 0);
  CHECK(PsqlOn(server, "third", "select * from t").out.find("relation \"t\" does not exist") != std::string::npos);
  // TEMPLATE other copies its tables and rows.
  REQUIRE(server.Psql({"-c", "create database copy_of_other template other"}).exit_code == 0);
  CHECK(ValueOn(server, "copy_of_other", "select v from t") == "two");
}

TEST_CASE("databases: errors as PostgreSQL 15", "[databases_test]") {
  TestServer server;
  auto r = server.PsqlScript(
      "create database hearth;\n"
      "create database x template nosuch;\n"
      "begin;\ncreate database y;\nrollback;\n"
      "drop database nosuch;\n"
      "drop database if exists nosuch;\n"
      "drop database hearth;\n"
      "drop database template1;\n"
      "alter database nosuch rename to z;\n");
  CHECK(r.out.find("ERROR:  database \"hearth\" already exists") != std::string::npos);
  CHECK(r.out.find("ERROR:  template database \"nosuch\" does not exist") != std::string::npos);
  CHECK(r.out.find("ERROR:  CREATE DATABASE cannot run inside a transaction block") != std::string::npos);
  CHECK(r.out.find("ERROR:  database \"nosuch\" does not exist") != std::string::npos);
  CHECK(r.out.find("NOTICE:  database \"nosuch\" does not exist, skipping") != std::string::npos);
  CHECK(r.out.find("ERROR:  cannot drop the currently open database") != std::string::npos);
  CHECK(r.out.find("ERROR:  cannot drop a template database") != std::string::npos);
  // Unknown database at login: 3D000.
  std::string message;
  CHECK(LoginState(On(server, "hearth", "nosuch"), &message) == "3D000");
  CHECK(message.find("database \"nosuch\" does not exist") != std::string::npos);
  // template0 takes no connections.
  CHECK(LoginState(On(server, "hearth", "template0"), &message) == "55000");
}

TEST_CASE("databases: DROP DATABASE is refused while someone is connected", "[databases_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create database busy"}).exit_code == 0);
  const std::string oid = server.PsqlValue("select oid from pg_database where datname = 'busy'");
  REQUIRE(DirectoryExists(server.datadir() + "/base/" + oid));
  {
    Connection c = Connection::Connect(On(server, "hearth", "busy"));
    auto r = server.PsqlScript("drop database busy;\n");
    CHECK(r.out.find("ERROR:  database \"busy\" is being accessed by other users\n"
                     "DETAIL:  There is 1 other session using the database.") != std::string::npos);
    CHECK(server.PsqlValue("select count(*) from pg_database where datname = 'busy'") == "1");
  }
  // Once the session is gone the drop goes through (it waits for a backend
  // still exiting) and the files go with it.
  REQUIRE(server.Psql({"-c", "drop database busy"}).exit_code == 0);
  CHECK(!DirectoryExists(server.datadir() + "/base/" + oid));
  CHECK(LoginState(On(server, "hearth", "busy")) == "3D000");
  // WITH (FORCE) ends the other sessions first.
  REQUIRE(server.Psql({"-c", "create database forced"}).exit_code == 0);
  Connection c = Connection::Connect(On(server, "hearth", "forced"));
  CHECK(server.Psql({"-c", "drop database forced with (force)"}).exit_code == 0);
  CHECK(server.PsqlValue("select count(*) from pg_database where datname = 'forced'") == "0");
}

TEST_CASE("databases: CONNECT privilege is checked at login", "[databases_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create database guarded"}).exit_code == 0);
  REQUIRE(server.Psql({"-c", "create role app login password 'pw'"}).exit_code == 0);
  CHECK(LoginState(On(server, "app", "guarded")) == "");
  REQUIRE(server.Psql({"-c", "revoke connect on database guarded from public"}).exit_code == 0);
  CHECK(server.PsqlValue("select datacl from pg_database where datname = 'guarded'") ==
        "{=T/hearth,hearth=CTc/hearth}");
  std::string message;
  CHECK(LoginState(On(server, "app", "guarded"), &message) == "42501");
  CHECK(message.find("permission denied for database \"guarded\"") != std::string::npos);
  CHECK(server.PsqlValue("select has_database_privilege('app', 'guarded', 'CONNECT')") == "f");
  REQUIRE(server.Psql({"-c", "grant connect on database guarded to app"}).exit_code == 0);
  CHECK(LoginState(On(server, "app", "guarded")) == "");
  CHECK(server.PsqlValue("select has_database_privilege('app', 'guarded', 'CONNECT')") == "t");
  // The owner may rename and change settings; others may not.
  Connection app = Connection::Connect(On(server, "app", "hearth"));
  CHECK(StateOf(app, "alter database guarded connection limit 3") == "42501");
  REQUIRE(server.Psql({"-c", "alter database guarded connection limit 3"}).exit_code == 0);
  CHECK(server.PsqlValue("select datconnlimit from pg_database where datname = 'guarded'") == "3");
  REQUIRE(server.Psql({"-c", "alter database guarded rename to kept"}).exit_code == 0);
  CHECK(LoginState(On(server, "app", "kept")) == "");
  REQUIRE(server.Psql({"-c", "alter database kept set work_mem = '8MB'"}).exit_code == 0);
  CHECK(ValueOn(server, "kept", "show work_mem") == "8MB");
}

TEST_CASE("databases: kill -9 after CREATE and DROP DATABASE", "[databases_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create database durable"}).exit_code == 0);
  REQUIRE(ValueOn(server, "durable", "create table k (v int); insert into k values (7); select v from k") == "7");
  // The template changes after the copy: recovery must not copy it again.
  REQUIRE(ValueOn(server, "template1", "create table later (v int); select count(*) from later") == "0");
  CrashAndRestart(server);
  CHECK(ValueOn(server, "durable", "select v from k") == "7");
  CHECK(ValueOn(server, "durable", "select count(*) from pg_class where relname = 'later'") == "0");
  const std::string oid = server.PsqlValue("select oid from pg_database where datname = 'durable'");
  REQUIRE(server.Psql({"-c", "drop database durable"}).exit_code == 0);
  CrashAndRestart(server);
  CHECK(server.PsqlValue("select count(*) from pg_database where datname = 'durable'") == "0");
  CHECK(!DirectoryExists(server.datadir() + "/base/" + oid));
}

TEST_CASE("databases: kill -9 while CREATE DATABASE runs leaves no half database", "[databases_test]") {
  TestServer server;
  // The crash lands somewhere in the copy or just after it: afterwards the
  // database either is listed and fully usable, or is not listed at all.
  std::thread create([&] { (void)server.Psql({"-c", "create database racing"}); });
  REQUIRE(KillServerHard(server));
  create.join();
  REQUIRE_NOTHROW(server.Start());
  const std::string listed = server.PsqlValue("select count(*) from pg_database where datname = 'racing'");
  if (listed == "1") {
    CHECK(ValueOn(server, "racing", "create table ok (v int); insert into ok values (1); select v from ok") == "1");
  } else {
    CHECK(listed == "0");
    CHECK(LoginState(On(server, "hearth", "racing")) == "3D000");
    REQUIRE(server.Psql({"-c", "create database racing"}).exit_code == 0);
  }
}

TEST_CASE("databases: USAGE and CREATE on a schema", "[databases_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c",
                       "create role app login password 'pw';"
                       "create schema s; create table s.t (v int); insert into s.t values (5);"
                       "grant select on s.t to app"})
              .exit_code == 0);
  Connection app = Connection::Connect(LoginAs(server, "app"));
  // A new schema is its owner's alone: no USAGE, no CREATE for others.
  auto rs = app.SimpleQuery("select v from s.t");
  REQUIRE(!rs.empty());
  REQUIRE(!rs[0].ok());
  CHECK(rs[0].error->sqlstate == "42501");
  CHECK(rs[0].error->message == "permission denied for schema s");
  CHECK(StateOf(app, "create table s.mine (x int)") == "42501");
  CHECK(server.PsqlValue("select has_schema_privilege('app', 's', 'USAGE')") == "f");
  REQUIRE(server.Psql({"-c", "grant usage on schema s to app"}).exit_code == 0);
  CHECK(StateOf(app, "select v from s.t") == "");
  CHECK(StateOf(app, "create table s.mine (x int)") == "42501");
  REQUIRE(server.Psql({"-c", "grant create on schema s to app"}).exit_code == 0);
  CHECK(StateOf(app, "create table s.mine (x int)") == "");
  CHECK(server.PsqlValue("select nspacl from pg_namespace where nspname = 's'") ==
        "{hearth=UC/hearth,app=UC/hearth}");
  REQUIRE(server.Psql({"-c", "revoke usage on schema s from app"}).exit_code == 0);
  CHECK(StateOf(app, "select v from s.t") == "42501");
  CHECK(server.PsqlValue("select has_schema_privilege('app', 's', 'USAGE')") == "f");
  // CREATE SCHEMA needs CREATE on the database.
  CHECK(StateOf(app, "create schema mine") == "42501");
  REQUIRE(server.Psql({"-c", "grant create on database hearth to app"}).exit_code == 0);
  CHECK(StateOf(app, "create schema mine") == "");
}
