// B-tree entry hints over the wire: an index scan that finds an entry's heap
// tuples dead to every snapshot marks it LP_DEAD; an insert that would split
// that leaf removes the marked entries instead (a WAL-logged delete, redone
// after kill -9); an older snapshot keeps the entries alive and visible.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "crash_util.h"
#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// Rows (i, v_sign * i) for i in [from, to], in one statement.
void InsertRows(RawConn& c, const std::string& table, int from, int to, int v_sign) {
  std::string sql = "insert into " + table + " values ";
  for (int i = from; i <= to; ++i) {
    sql += (i > from ? ", (" : "(") + std::to_string(i) + ", " + std::to_string(v_sign * i) + ")";
  }
  REQUIRE(Exec(c, sql));
}

int64_t IndexPages(RawConn& c, const std::string& index) {
  return QueryNumber(c, "select pg_relation_size('" + index + "') / 8192");
}

// `table` (k int, v int) with k = v = 1..2000 and an index built afterwards
// (leaves 90% full), then k of rows 1..300 moved far right by a non-HOT
// update: the first leaf keeps 300 entries whose tuples are dead.
void MakeTableWithDeadEntries(RawConn& c, const std::string& table) {
  REQUIRE(Exec(c, "create table " + table + " (k int, v int)"));
  InsertRows(c, table, 1, 2000, 1);
  REQUIRE(Exec(c, "create index " + table + "_k on " + table + " (k)"));
  REQUIRE(Exec(c, "update " + table + " set k = k + 100000 where k <= 300"));
}

// The rows an index scan on k in [1, 400] sees, as "count|sum(v)".
std::string RangeSummary(RawConn& c, const std::string& table) {
  return QueryValue(c, "select count(*) || '|' || sum(v) from " + table + " where k between 1 and 400");
}

}  // namespace

TEST_CASE("index hints: entries a scan found dead are removed instead of splitting their leaf; redo after kill -9",
          "[index_hint_test]") {
  TestServer server;
  RawConn c(server.port());
  RequireStartup(c);
  MakeTableWithDeadEntries(c, "hinted");
  MakeTableWithDeadEntries(c, "unhinted");
  // The plan the checks below rely on: an index scan.
  auto plan = c.Query("explain select count(*) from hinted where k between 1 and 400");
  REQUIRE(Ok(plan));
  bool index_scan = false;
  for (const std::string& line : FirstColumn(plan)) index_scan |= line.find("Index Scan using hinted_k") != std::string::npos;
  REQUIRE(index_scan);

  // No older snapshot exists: this scan marks the 300 dead entries.
  CHECK(RangeSummary(c, "hinted") == "100|35050");
  CHECK(RangeSummary(c, "hinted") == "100|35050");  // skipping them changes nothing
  CHECK(QueryValue(c, "select hearth_index_check('hinted_k')") == "ok");  // marked entries keep the order
  const int64_t hinted0 = IndexPages(c, "hinted_k"), unhinted0 = IndexPages(c, "unhinted_k");
  // 300 new entries for the same leaf.
  InsertRows(c, "hinted", 1, 300, -1);
  InsertRows(c, "unhinted", 1, 300, -1);
  CHECK(IndexPages(c, "hinted_k") == hinted0);      // the marked entries made room
  CHECK(IndexPages(c, "unhinted_k") > unhinted0);  // without the scan the leaf split
  const std::string expected = "400|-10100";         // -(1 + ... + 300) + (301 + ... + 400)
  CHECK(RangeSummary(c, "hinted") == expected);
  CHECK(RangeSummary(c, "unhinted") == expected);
  CHECK(QueryValue(c, "select hearth_index_check('hinted_k')") == "ok");

  // The delete record (and the inserts after it) are replayed.
  CrashAndRestart(server);
  RawConn r(server.port());
  RequireStartup(r);
  CHECK(RangeSummary(r, "hinted") == expected);
  CHECK(QueryValue(r, "select hearth_index_check('hinted_k')") == "ok");
  CHECK(IndexPages(r, "hinted_k") == hinted0);
  CHECK(QueryNumber(r, "select count(*) from hinted where k > 100000") == 300);
  CHECK(QueryNumber(r, "select count(*) from hinted") == 2300);
}

TEST_CASE("index hints: an older snapshot keeps dead entries visible to it and unmarked", "[index_hint_test]") {
  TestServer server;
  RawConn c(server.port());
  RequireStartup(c);
  REQUIRE(Exec(c, "create table t (k int, v int)"));
  InsertRows(c, "t", 1, 2000, 1);
  REQUIRE(Exec(c, "create index t_k on t (k)"));
  // A repeatable-read snapshot taken before the update.
  RawConn old(server.port());
  RequireStartup(old);
  REQUIRE(Exec(old, "begin isolation level repeatable read"));
  REQUIRE(RangeSummary(old, "t") == "400|80200");
  REQUIRE(Exec(c, "update t set k = k + 100000 where k <= 300"));
  CHECK(RangeSummary(c, "t") == "100|35050");  // must not mark: `old` can still see them
  const int64_t pages0 = IndexPages(c, "t_k");
  InsertRows(c, "t", 1, 300, -1);
  CHECK(IndexPages(c, "t_k") > pages0);  // nothing could be removed: the leaf split
  CHECK(RangeSummary(old, "t") == "400|80200");
  REQUIRE(Exec(old, "commit"));
  CHECK(RangeSummary(old, "t") == "400|-10100");
  CHECK(QueryValue(c, "select hearth_index_check('t_k')") == "ok");
}
