// tests/integration/cursor_test.cpp
//
// SQL cursors over the wire: psycopg2's named-cursor sequence (BEGIN,
// DECLARE "c" CURSOR WITHOUT HOLD FOR ..., FETCH FORWARD 2000 FROM "c"
// until a short batch, CLOSE, COMMIT) with its command tags, a cursor
// keeping its DECLARE's snapshot while another session commits, WITH HOLD
// cursors read after their transaction committed (no lock left: another
// session drops the table meanwhile), DECLARE in a multi-statement Query
// outside BEGIN, the extended protocol (DECLARE with a parameter, FETCH
// described as the cursor's columns), and the errors with their SQLSTATEs
// and HINT.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 10000;

std::vector<RawMessage> SqlOk(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }
std::vector<std::string> Column(RawConn& c, const std::string& sql) { return FirstColumn(SqlOk(c, sql)); }

// items(id) holding 1..n.
void MakeItems(RawConn& c, int n) {
  SqlOk(c, "create table items (id int primary key, pad text)");
  std::string values;
  for (int i = 1; i <= n; ++i) values += (i > 1 ? "," : "") + ("(" + std::to_string(i) + ", 'x')");
  SqlOk(c, "insert into items values " + values);
}

}  // namespace

TEST_CASE("cursor: psycopg2's named cursor reads a table in batches", "[cursor_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeItems(*a, 4500);
  SqlOk(*a, "BEGIN");
  CHECK(LastCommandTag(SqlOk(*a, "DECLARE \"c\" CURSOR WITHOUT HOLD FOR select id from items order by id")) ==
        "DECLARE CURSOR");
  std::vector<std::string> ids;
  std::vector<std::string> tags;
  for (;;) {
    auto batch = SqlOk(*a, "FETCH FORWARD 2000 FROM \"c\"");
    tags.push_back(LastCommandTag(batch));
    REQUIRE(First(batch, 'T') != nullptr);  // described even when empty
    auto got = FirstColumn(batch);
    ids.insert(ids.end(), got.begin(), got.end());
    if (got.size() < 2000) break;
  }
  CHECK(tags == std::vector<std::string>{"FETCH 2000", "FETCH 2000", "FETCH 500"});
  REQUIRE(ids.size() == 4500);
  CHECK(ids.front() == "1");
  CHECK(ids.back() == "4500");
  CHECK(LastCommandTag(SqlOk(*a, "CLOSE \"c\"")) == "CLOSE CURSOR");
  CHECK(Value(*a, "select count(*) from pg_cursors") == "0");
  SqlOk(*a, "COMMIT");
}

TEST_CASE("cursor: rows come from the DECLARE's snapshot", "[cursor_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  MakeItems(*a, 5);
  SqlOk(*a, "begin");
  SqlOk(*a, "declare c cursor for select id from items order by id");
  CHECK(Column(*a, "fetch 2 from c") == std::vector<std::string>{"1", "2"});
  SqlOk(*b, "delete from items where id = 4");
  SqlOk(*b, "insert into items values (6, 'new')");
  SqlOk(*b, "vacuum items");
  // The next statement of a's transaction sees b's commit; the cursor not.
  CHECK(Value(*a, "select count(*) from items") == "5");
  CHECK(Column(*a, "fetch all from c") == std::vector<std::string>{"3", "4", "5"});
  CHECK(Column(*a, "fetch absolute 4 from c") == std::vector<std::string>{"4"});
  SqlOk(*a, "commit");
}

TEST_CASE("cursor: WITH HOLD outlives its transaction and keeps no lock", "[cursor_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  MakeItems(*a, 6);
  SqlOk(*a, "begin");
  SqlOk(*a, "declare h scroll cursor with hold for select id from items order by id");
  CHECK(Column(*a, "fetch 2 from h") == std::vector<std::string>{"1", "2"});
  SqlOk(*a, "commit");
  // Materialised at commit: dropping the table does not wait for a.
  SqlOk(*b, "drop table items");
  CHECK(Column(*a, "fetch 2 from h") == std::vector<std::string>{"3", "4"});
  CHECK(Column(*a, "fetch backward 3 from h") == std::vector<std::string>{"3", "2", "1"});
  CHECK(Column(*a, "fetch last from h") == std::vector<std::string>{"6"});
  CHECK(Value(*a, "select is_holdable::text from pg_cursors where name = 'h'") == "true");
  // A rollback of a later transaction leaves it alone.
  SqlOk(*a, "begin");
  CHECK(Column(*a, "fetch first from h") == std::vector<std::string>{"1"});
  SqlOk(*a, "rollback");
  CHECK(Column(*a, "fetch next from h") == std::vector<std::string>{"2"});
  SqlOk(*a, "close h");
  CHECK(FirstSqlstate(a->Query("fetch h")) == "34000");
}

TEST_CASE("cursor: DECLARE in a multi-statement Query outside BEGIN", "[cursor_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeItems(*a, 3);
  auto msgs = a->Query("declare c cursor for select id from items order by id; fetch 2 from c");
  CHECK(FirstSqlstate(msgs) == "");
  CHECK(FirstColumn(msgs) == std::vector<std::string>{"1", "2"});
  // The implicit transaction ended: the cursor with it.
  CHECK(FirstSqlstate(a->Query("fetch c")) == "34000");
  CHECK(FirstSqlstate(a->Query("declare c cursor for select 1")) == "25P01");
}

TEST_CASE("cursor: errors and NO SCROLL's hint", "[cursor_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeItems(*a, 3);
  SqlOk(*a, "begin");
  SqlOk(*a, "declare n no scroll cursor for select id from items order by id");
  CHECK(Column(*a, "fetch 2 from n") == std::vector<std::string>{"1", "2"});
  auto back = a->Query("fetch prior from n");
  REQUIRE(First(back, 'E') != nullptr);
  const auto err = ErrorOf(*First(back, 'E'));
  CHECK(err.sqlstate == "55000");
  CHECK(err.message == "cursor can only scan forward");
  CHECK(err.hint == "Declare it with SCROLL option to enable backward scan.");
  SqlOk(*a, "rollback");
  SqlOk(*a, "begin");
  SqlOk(*a, "declare d cursor for select 1");
  CHECK(FirstSqlstate(a->Query("declare d cursor for select 2")) == "42P03");
  SqlOk(*a, "rollback");
  CHECK(FirstSqlstate(a->Query("close nope")) == "34000");
  CHECK(FirstSqlstate(a->Query("move next in nope")) == "34000");
}

TEST_CASE("cursor: the extended protocol declares with a parameter and fetches", "[cursor_test]") {
  TestServer server;
  auto a = StartedSession(server);
  MakeItems(*a, 10);
  SqlOk(*a, "begin");
  REQUIRE(a->Send(ParseMsg("", "declare p cursor for select id from items where id > $1 order by id", {23}) +
                  BindMsg("", "", {}, {std::string("7")}, {}) + ExecuteMsg("", 0) + SyncMsg()));
  auto declared = a->ReadUntilReady(kReplyMs);
  CHECK(FirstSqlstate(declared) == "");
  CHECK(LastCommandTag(declared) == "DECLARE CURSOR");
  REQUIRE(a->Send(ParseMsg("f", "fetch 2 from p") + BindMsg("", "f", {}, {}, {}) + DescribeMsg('P', "") +
                  ExecuteMsg("", 0) + SyncMsg()));
  auto fetched = a->ReadUntilReady(kReplyMs);
  CHECK(FirstSqlstate(fetched) == "");
  REQUIRE(First(fetched, 'T') != nullptr);
  CHECK(RowDescriptionOf(*First(fetched, 'T')).at(0).name == "id");
  CHECK(FirstColumn(fetched) == std::vector<std::string>{"8", "9"});
  CHECK(LastCommandTag(fetched) == "FETCH 2");
  SqlOk(*a, "commit");
}
