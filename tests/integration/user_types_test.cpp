// Enum and domain types over the wire across a clean restart and across a
// kill -9 (crash recovery replays the catalog rows like any others): the
// types, their labels (including one added and one renamed), stored values,
// index order and domain checks are all there afterwards; a type created by
// a transaction that never committed is not.
#include <catch2/catch.hpp>

#include <csignal>

#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

void Exec(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
}

std::vector<std::string> Column(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  return FirstColumn(msgs);
}

std::string SqlstateOf(RawConn& c, const std::string& sql) { return FirstSqlstate(c.Query(sql, 30000)); }

void CreateSchemaWithTypes(RawConn& c) {
  Exec(c, "create type mood as enum ('sad', 'ok', 'happy')");
  Exec(c, "alter type mood add value 'meh' before 'ok'");
  Exec(c, "alter type mood rename value 'sad' to 'blue'");
  Exec(c, "create domain posint as integer not null check (value > 0)");
  Exec(c, "create table person (id posint primary key, m mood, ms mood[])");
  Exec(c, "create index person_m on person (m)");
  Exec(c, "insert into person values (1, 'happy', '{ok,meh}'), (2, 'blue', null), (3, 'meh', '{happy}')");
}

void CheckSchemaWithTypes(RawConn& c) {
  CHECK(Column(c, "select enum_range(null::mood)::text") == std::vector<std::string>{"{blue,meh,ok,happy}"});
  CHECK(Column(c, "select id::text || ':' || m::text from person order by m") ==
        std::vector<std::string>{"2:blue", "3:meh", "1:happy"});
  Exec(c, "set enable_seqscan = off");
  CHECK(Column(c, "select id::text from person where m >= 'meh' order by m desc") ==
        std::vector<std::string>{"1", "3"});
  Exec(c, "reset enable_seqscan");
  CHECK(Column(c, "select ms::text from person where id = 1") == std::vector<std::string>{"{ok,meh}"});
  CHECK(SqlstateOf(c, "select 'sad'::mood") == "22P02");
  CHECK(SqlstateOf(c, "insert into person values (0, 'ok', null)") == "23514");
  CHECK(SqlstateOf(c, "insert into person values (null, 'ok', null)") == "23502");
  CHECK(SqlstateOf(c, "drop type mood") == "2BP01");
  CHECK(Column(c, "select count(*)::text from pg_enum") == std::vector<std::string>{"4"});
}

}  // namespace

TEST_CASE("enum and domain types survive a restart", "[user_types_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    CreateSchemaWithTypes(c);
    Exec(c, "begin");
    Exec(c, "create type never as enum ('x')");
    Exec(c, "rollback");
  }
  REQUIRE(server.Stop(SIGTERM) == 0);
  REQUIRE_NOTHROW(server.Start());
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  CheckSchemaWithTypes(c);
  CHECK(SqlstateOf(c, "select 'x'::never") == "42704");
}

TEST_CASE("enum and domain types survive a crash", "[user_types_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    Exec(c, "checkpoint");
    CreateSchemaWithTypes(c);
    // Left open at the crash: must not be visible afterwards.
    Exec(c, "begin");
    Exec(c, "create type never as enum ('x')");
    REQUIRE(KillServerHard(server));
  }
  REQUIRE_NOTHROW(server.Start());
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  CheckSchemaWithTypes(c);
  CHECK(SqlstateOf(c, "select 'x'::never") == "42704");
}
