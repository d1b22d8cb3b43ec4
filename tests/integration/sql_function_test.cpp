// User-defined SQL functions over the wire: a committed CREATE FUNCTION
// survives a clean restart and kill -9 of the whole server (hearth_proc is
// WAL-logged like every catalog), an uncommitted one does not, a function
// created by one session is called from another, and CREATE OR REPLACE in
// one session is seen by another's next statement (its cached plan of the
// body is dropped).
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

std::string QueryOne(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const auto col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return col[0];
}

}  // namespace

TEST_CASE("sql functions survive restart and kill -9; uncommitted ones do not", "[sql_function_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    Exec(c, "create table t (id int primary key, v text)");
    Exec(c, "insert into t values (1, 'one'), (2, 'two')");
    Exec(c, "create function name_of(i int) returns text language sql stable as $$ select v from t where id = i $$");
    Exec(c, "create function twice(x int) returns int language sql immutable strict return x * 2");
    Exec(c, "begin");
    Exec(c, "create function never_committed() returns int language sql as 'select 1'");
    REQUIRE(QueryOne(c, "select never_committed()") == "1");
    // The connection closes with the transaction open: it aborts.
  }
  server.Stop(SIGTERM);  // a clean shutdown
  server.Start();
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    REQUIRE(QueryOne(c, "select name_of(2)") == "two");
    REQUIRE(QueryOne(c, "select twice(21)") == "42");
    REQUIRE(FirstSqlstate(c.Query("select never_committed()", 30000)) == "42883");
    Exec(c, "create or replace function twice(x int) returns int language sql immutable strict return x + x + 1");
  }
  REQUIRE(KillServerHard(server));
  server.Start();
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(QueryOne(c, "select twice(1)") == "3");
  REQUIRE(QueryOne(c, "select count(*) from pg_proc where proname in ('name_of', 'twice', 'never_committed')") == "2");
}

TEST_CASE("sql functions: another session sees CREATE OR REPLACE and DROP", "[sql_function_test]") {
  TestServer server;
  RawConn a(server.port());
  RawConn b(server.port());
  REQUIRE(LastStatus(a.Startup()) == 'I');
  REQUIRE(LastStatus(b.Startup()) == 'I');
  Exec(a, "create function f() returns int language sql as 'select 1'");
  REQUIRE(QueryOne(b, "select f()") == "1");  // b plans and caches the body
  Exec(a, "create or replace function f() returns int language sql as 'select 2'");
  REQUIRE(QueryOne(b, "select f()") == "2");
  Exec(b, "prepare p as select f()");
  Exec(a, "drop function f()");
  REQUIRE(FirstSqlstate(b.Query("select f()", 30000)) == "42883");
  REQUIRE(FirstSqlstate(b.Query("execute p", 30000)) == "42883");
}
