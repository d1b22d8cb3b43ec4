// tests/integration/update_from_test.cpp
//
// UPDATE ... FROM and DELETE ... USING against concurrent writers of the
// target row, two sessions on one hearthd (driven as in concurrency_test:
// a statement expected to block is sent without reading its reply). Under
// Read Committed the waiting statement re-checks the target's newest
// version with the same FROM row, as PostgreSQL 15 does.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kQuietMs = 600;    // "still blocked": nothing may arrive this long
constexpr int kReplyMs = 10000;  // an unblocked statement must answer within this

std::vector<RawMessage> Ok(RawConn& c, const std::string& sql) { return QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }

bool StillBlocked(RawConn& c) {
  auto m = c.Read(kQuietMs);
  return !m.has_value() && !c.eof();
}

// acct(id, balance) = (1, 100), (2, 50); moves(acct_id, amount) = (1, 10), (2, 5).
void MakeTables(RawConn& c) {
  Ok(c, "drop table if exists acct, moves");
  Ok(c, "create table acct (id int primary key, balance int)");
  Ok(c, "create table moves (acct_id int, amount int)");
  Ok(c, "insert into acct values (1, 100), (2, 50)");
  Ok(c, "insert into moves values (1, 10), (2, 5)");
}

}  // namespace

TEST_CASE("update_from: a waiting UPDATE ... FROM applies its change on the newest version",
          "[update_from_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  MakeTables(*a);

  Ok(*a, "begin");
  Ok(*a, "update acct set balance = balance + 1000 where id = 1");
  REQUIRE(b->Send(QueryMsg(
      "update acct set balance = balance + m.amount from moves m where m.acct_id = acct.id returning acct.id, "
      "acct.balance")));
  CHECK(StillBlocked(*b));

  SECTION("A commits: B adds on top of A's value") {
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(FirstSqlstate(msgs).empty());
    CHECK(LastCommandTag(msgs) == "UPDATE 2");
    CHECK(Value(*a, "select balance from acct where id = 1") == "1110");
  }
  SECTION("A rolls back: B updates the original row") {
    Ok(*a, "rollback");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(LastCommandTag(msgs) == "UPDATE 2");
    CHECK(Value(*a, "select balance from acct where id = 1") == "110");
  }
  CHECK(Value(*a, "select balance from acct where id = 2") == "55");
}

TEST_CASE("update_from: the re-check uses the joined row and drops rows that no longer qualify",
          "[update_from_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  MakeTables(*a);

  SECTION("A changes the target so the join condition fails") {
    Ok(*a, "begin");
    Ok(*a, "update acct set id = 7 where id = 1");
    REQUIRE(b->Send(QueryMsg("update acct set balance = 0 from moves m where m.acct_id = acct.id")));
    CHECK(StillBlocked(*b));
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(LastCommandTag(msgs) == "UPDATE 1");  // only id 2 still joins
    CHECK(Value(*a, "select balance from acct where id = 7") == "100");
    CHECK(Value(*a, "select balance from acct where id = 2") == "0");
  }
  SECTION("A deletes the target row: DELETE ... USING skips it") {
    Ok(*a, "begin");
    Ok(*a, "delete from acct where id = 1");
    REQUIRE(b->Send(QueryMsg("delete from acct using moves m where m.acct_id = acct.id returning acct.id")));
    CHECK(StillBlocked(*b));
    Ok(*a, "commit");
    auto msgs = b->ReadUntilReady(kReplyMs);
    CHECK(LastCommandTag(msgs) == "DELETE 1");
    CHECK(Value(*a, "select count(*) from acct") == "0");
  }
}
