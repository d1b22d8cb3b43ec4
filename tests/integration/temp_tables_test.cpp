// tests/integration/temp_tables_test.cpp
//
// Temporary tables across sessions: each session's pg_temp_N is its own
// (same names do not collide, others' are not found unqualified or listed
// as visible), and a session's temporary tables are dropped when it ends.
#include <catch2/catch.hpp>

#include <string>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

std::string Value(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  const auto col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return col[0];
}

}  // namespace

TEST_CASE("temp tables: per-session namespaces, visibility, drop at session end", "[temp_tables_test]") {
  TestServer server;
  RawConn a(server.port()), b(server.port());
  REQUIRE(LastStatus(a.Startup()) == 'I');
  REQUIRE(LastStatus(b.Startup()) == 'I');
  REQUIRE(Ok(a.Query("create table t (v text)")));
  REQUIRE(Ok(a.Query("insert into t values ('public')")));

  // The same temporary name in two sessions: two tables.
  REQUIRE(Ok(a.Query("create temp table t (v text)")));
  REQUIRE(Ok(b.Query("create temp table t (v text)")));
  REQUIRE(Ok(a.Query("insert into t values ('a'), ('a')")));
  REQUIRE(Ok(b.Query("insert into t values ('b')")));
  CHECK(Value(a, "select count(*) || max(v) from t") == "2a");
  CHECK(Value(b, "select count(*) || max(v) from t") == "1b");
  CHECK(Value(b, "select v from public.t") == "public");

  const std::string a_ns = Value(a, "select relnamespace from pg_class where oid = 't'::regclass");
  const std::string b_ns = Value(b, "select relnamespace from pg_class where oid = 't'::regclass");
  CHECK(a_ns != b_ns);
  // A session sees its own temporary t, not the other's and not the public
  // one it hides.
  CHECK(Value(a, "select count(*) from pg_class where relname = 't' and pg_table_is_visible(oid)") == "1");
  CHECK(Value(a, "select relnamespace from pg_class where relname = 't' and pg_table_is_visible(oid)") == a_ns);
  // An unqualified name in a third session finds the public table.
  {
    RawConn c(server.port());
    REQUIRE(LastStatus(c.Startup()) == 'I');
    CHECK(Value(c, "select v from t") == "public");
    CHECK(Value(c, "select count(*) from pg_class where relname = 't' and pg_table_is_visible(oid)") == "1");
  }

  // Session a ends: its temporary table (and its namespace's rows) go.
  REQUIRE(a.Send(TerminateMsg()));
  CHECK(WaitFor([&] { return Value(b, "select count(*) from pg_class where relnamespace = " + a_ns) == "0"; },
                30000));
  CHECK(Value(b, "select count(*) from t") == "1");
  CHECK(Value(b, "select count(*) from public.t") == "1");
}
