// Views over the wire: a view survives a clean restart and a kill -9 (its
// catalog rows are WAL-logged like any), another session sees a view
// created, replaced and dropped by a concurrent one (relcache
// invalidation), and a view's dependency on its table holds across
// sessions (DROP TABLE waits for nothing and answers 2BP01).
#include <catch2/catch.hpp>

#include <string>

#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

TEST_CASE("a view survives a clean restart and a crash", "[views_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    RequireStartup(c);
    REQUIRE(Exec(c, "create table vt (a int, b text)"));
    REQUIRE(Exec(c, "insert into vt select g, 'r' || g from generate_series(1, 50) g"));
    REQUIRE(Exec(c, "create view v_even (n, label) as select a, b from vt where a % 2 = 0"));
  }
  REQUIRE(server.Stop(SIGTERM) == 0);
  REQUIRE_NOTHROW(server.Start());
  {
    RawConn c(server.port());
    RequireStartup(c);
    REQUIRE(QueryValue(c, "select count(*) from v_even") == "25");
    REQUIRE(QueryValue(c, "select label from v_even where n = 10") == "r10");
    REQUIRE(Exec(c, "create or replace view v_even (n, label, twice) as select a, b, a * 2 from vt where a % 2 = 0"));
    REQUIRE(Exec(c, "create view v_small as select n from v_even where n < 10"));
  }
  CrashAndRestart(server);
  RawConn c(server.port());
  RequireStartup(c);
  REQUIRE(QueryValue(c, "select sum(twice) from v_even where n <= 4") == "12");
  REQUIRE(QueryValue(c, "select count(*) from v_small") == "4");
  REQUIRE(QueryValue(c, "select relkind from pg_class where relname = 'v_small'") == "v");
  REQUIRE(QueryValue(c, "drop table vt") == "<error 2BP01>");
  REQUIRE(QueryValue(c, "select count(*) from pg_views where viewname like 'v\\_%'") == "2");
}

TEST_CASE("other sessions see views created, replaced and dropped", "[views_test]") {
  TestServer server;
  RawConn a(server.port());
  RawConn b(server.port());
  RequireStartup(a);
  RequireStartup(b);
  REQUIRE(Exec(a, "create table st (x int)"));
  REQUIRE(Exec(a, "insert into st values (1), (2), (3)"));
  REQUIRE(QueryValue(b, "select count(*) from sv") == "<error 42P01>");
  REQUIRE(Exec(a, "create view sv as select x from st where x > 1"));
  REQUIRE(QueryValue(b, "select count(*) from sv") == "2");
  REQUIRE(Exec(b, "prepare q as select count(*) from sv"));
  REQUIRE(QueryValue(b, "execute q") == "2");
  REQUIRE(Exec(a, "create or replace view sv as select x from st where x > 2"));
  REQUIRE(QueryValue(b, "select count(*) from sv") == "1");
  REQUIRE(QueryValue(b, "execute q") == "1");
  // Through the view, the table changes.
  REQUIRE(Exec(b, "insert into sv values (10)"));
  REQUIRE(QueryValue(a, "select count(*) from st") == "4");
  REQUIRE(Exec(a, "drop view sv"));
  REQUIRE(QueryValue(b, "select count(*) from sv") == "<error 42P01>");
  REQUIRE(Exec(a, "drop table st"));
}
