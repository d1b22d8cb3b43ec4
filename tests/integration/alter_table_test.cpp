// tests/integration/alter_table_test.cpp
//
// ALTER TABLE end to end on a real hearthd: committed column changes and
// table rewrites (new file, indexes rebuilt) survive kill -9 with their
// rows, while an ALTER whose transaction never committed leaves nothing;
// ALTER TABLE's AccessExclusiveLock makes it wait for a reader's
// transaction and makes readers wait for its own.
#include <catch2/catch.hpp>

#include <string>

#include "raw_session.h"
#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 30000;

std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }
void Run(RawConn& c, const std::string& sql) { QueryOk(c, sql, kReplyMs); }

// Column names of `table` in attnum order, comma-separated.
std::string Columns(RawConn& c, const std::string& table) {
  return Value(c, "select string_agg(attname || ':' || format_type(atttypid, atttypmod), ',' order by attnum) "
                  "from pg_attribute where attrelid = '" + table + "'::regclass and attnum > 0");
}

}  // namespace

TEST_CASE("alter_table: committed ALTERs survive kill -9 with their rows, an uncommitted one leaves nothing",
          "[alter_table_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "30min"}});
  {
    auto c = StartedSession(server);
    Run(*c, "create table t (id int primary key, v text, w int)");
    Run(*c, "create index t_w on t (w)");
    Run(*c, "insert into t select g, 'v' || g, g % 10 from generate_series(1, 3000) g");
    // A checkpoint first: the rewrites below must be recovered from WAL.
    Run(*c, "checkpoint");
    Run(*c, "alter table t add column d int default 7 not null, add column n text");
    Run(*c, "alter table t drop column v");
    Run(*c, "alter table t alter column w type bigint using w * 100");
    Run(*c, "alter table t rename column d to dd");
    Run(*c, "alter table t alter column n set default 'x'");
    Run(*c, "alter table t rename to t2");
    Run(*c, "insert into t2 (id, w) values (3001, 5)");
    // In flight at the crash: an uncommitted rewrite and rename.
    Run(*c, "begin");
    Run(*c, "alter table t2 add column lost int default 1, alter column id type text");
    Run(*c, "alter table t2 rename to t3");
    CrashAndRestart(server);
  }
  auto c = StartedSession(server);
  CHECK(Columns(*c, "t2") == "id:integer,w:bigint,dd:integer,n:text");
  CHECK(Value(*c, "select count(*) from pg_class where relname = 't3'") == "0");
  CHECK(Value(*c, "select count(*) || ' ' || sum(w) || ' ' || sum(dd) || ' ' || count(n) from t2") ==
        "3001 1350005 21007 1");
  CHECK(Value(*c, "select n from t2 where id = 3001") == "x");
  // Both indexes were rebuilt on the new file and are used.
  Run(*c, "set enable_seqscan = off");
  CHECK(Value(*c, "select w from t2 where id = 2999") == "900");
  CHECK(Value(*c, "select count(*) from t2 where w = 300") == "300");
  CHECK(Value(*c, "select count(*) from pg_indexes where tablename = 't2'") == "2");
  // The table stays writable, with its unique index enforced.
  auto dup = c->Query("insert into t2 (id, w) values (1, 1)", kReplyMs);
  CHECK(FirstSqlstate(dup) == "23505");
}

TEST_CASE("alter_table: ALTER TABLE takes AccessExclusiveLock", "[alter_table_test]") {
  TestServer server;
  auto reader = StartedSession(server);
  auto alterer = StartedSession(server);
  auto observer = StartedSession(server);
  Run(*reader, "create table t (a int)");
  Run(*reader, "insert into t values (1), (2)");

  SECTION("it waits for a reader's transaction") {
    Run(*reader, "begin");
    CHECK(Value(*reader, "select count(*) from t") == "2");
    SendAndAwaitBlocked(*alterer, *observer, "alter table t add column b int default 3", kReplyMs);
    Run(*reader, "commit");
    auto msgs = alterer->ReadUntilReady(kReplyMs);
    CHECK(LastCommandTag(msgs) == "ALTER TABLE");
    CHECK(Value(*reader, "select sum(b) from t") == "6");
  }
  SECTION("readers wait for its transaction and then see the new column") {
    Run(*alterer, "begin");
    Run(*alterer, "alter table t alter column a type text using a::text || '!'");
    SendAndAwaitBlocked(*reader, *observer, "select string_agg(a, ',' order by a) from t", kReplyMs);
    Run(*alterer, "commit");
    auto msgs = reader->ReadUntilReady(kReplyMs);
    REQUIRE(FirstColumn(msgs).size() == 1);
    CHECK(FirstColumn(msgs)[0] == "1!,2!");
  }
}
