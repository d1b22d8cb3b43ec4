// Hash aggregation, DISTINCT, set operations and hash joins beyond
// hash_mem: with the smallest limit (64 kB) they spill partitions to temp
// files, yet return exactly the rows (as a multiset) of the same plan run
// with a limit large enough to stay in memory — every join kind with NULL
// keys, duplicates, long strings and a join filter, every aggregate kind,
// DISTINCT, UNION, INTERSECT and EXCEPT [ALL] — and leave no temp file
// behind, also when cancelled mid-spill.
#include <algorithm>
#include <filesystem>

#include "sql_harness.h"

using sqlh::Db;
using hearth::types::Value;
namespace ty = hearth::types;

namespace {

constexpr int kRows = 20000;

// l(k, v, s) and r(k, w, t): keys in [0, 4000) with ~3% NULL, so keys repeat
// on both sides; every 7th string is long (heap-allocated).
void Fill(Db& db) {
  db.Create("CREATE TABLE l (k int, v int, s text)");
  db.Create("CREATE TABLE r (k int, w int, t text)");
  uint32_t x = 777;
  auto next = [&x] { return x = x * 1103515245u + 12345u; };
  for (const char* table : {"l", "r"}) {
    for (int i = 0; i < kRows; ++i) {
      const uint32_t h = next() >> 8;
      Value k = h % 31 == 0 ? Value::Null(ty::kInt4Oid) : Value::Int4(static_cast<int32_t>(h % 4000));
      std::string s = (i % 7 == 0 ? std::string(40, 'x') : std::string()) + std::to_string(i % 1234);
      db.cat.AppendRow(table, {k, Value::Int4(i), Value::Text(s)});
    }
  }
}

// Rows of sql, sorted, with hash_mem = `hash_mem` bytes.
std::vector<std::string> SortedRows(Db& db, const std::string& sql, int64_t hash_mem) {
  db.ctx.hash_mem = hash_mem;
  auto rows = db.Rows(sql);
  std::sort(rows.begin(), rows.end());
  return rows;
}

constexpr int64_t kTiny = 0;            // clamped to 64 kB: spills
constexpr int64_t kHuge = 1LL << 40;    // never spills

}  // namespace

TEST_CASE("hash spill: every join kind returns the in-memory rows", "[executor][hashspill]") {
  Db db;
  Fill(db);
  CHECK(SortedRows(db, "SELECT l.v FROM l JOIN r ON l.k = r.k", kHuge).size() > static_cast<size_t>(kRows));
  REQUIRE_FALSE(std::filesystem::exists(db.temp_dir));  // created by the first spill file
  for (const char* kind : {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
    for (const char* filter : {"", " AND l.v % 3 <> 0"}) {
      const std::string sql = std::string("SELECT l.k, l.v, l.s, r.k, r.w, r.t FROM l ") + kind +
                              " r ON l.k = r.k" + filter;
      INFO(sql);
      REQUIRE(db.Explain(sql).front().rfind("Hash", 0) == 0);
      const auto spilled = SortedRows(db, sql, kTiny);
      CHECK(std::filesystem::exists(db.temp_dir));
      CHECK(spilled == SortedRows(db, sql, kHuge));
      CHECK(spilled.size() > static_cast<size_t>(kRows));
      CHECK(db.TempFiles() == 0);
    }
  }
  // Two key columns of different integer widths hash together.
  const std::string two = "SELECT l.v, r.w FROM l JOIN r ON l.k = r.k AND l.v % 5 = (r.w % 5)::int8";
  CHECK(SortedRows(db, two, kTiny) == SortedRows(db, two, kHuge));
}

TEST_CASE("hash spill: every aggregate kind returns the in-memory groups", "[executor][hashspill]") {
  Db db;
  Fill(db);
  const std::string sql =
      "SELECT k, v % 3, count(*), count(s), sum(v), avg(v), sum(v::numeric / 7), avg(v::numeric), min(s), "
      "max(s), count(DISTINCT s), sum(v) FILTER (WHERE v % 2 = 0), bool_and(v % 5 <> 0), bool_or(v % 11 = 0) "
      "FROM l GROUP BY k, v % 3";
  // count(DISTINCT): groups come out sorted by key, as PostgreSQL's
  // GroupAggregate; that Sort stays in memory here.
  db.ctx.work_mem = kHuge;
  const auto plan = db.Explain(sql);
  REQUIRE(plan.front() == "Sort");
  REQUIRE(std::find(plan.begin(), plan.end(), "  ->  HashAggregate") != plan.end());
  CHECK(SortedRows(db, sql, kHuge).size() > 9000);
  REQUIRE_FALSE(std::filesystem::exists(db.temp_dir));  // created by the first spill file
  const auto spilled = SortedRows(db, sql, kTiny);
  CHECK(std::filesystem::exists(db.temp_dir));
  CHECK(spilled == SortedRows(db, sql, kHuge));
  CHECK(db.TempFiles() == 0);
  // A plain aggregate over a spilled GROUP BY.
  const std::string outer = "SELECT count(*), sum(c) FROM (SELECT s, count(*) c FROM l GROUP BY s) g";
  CHECK(SortedRows(db, outer, kTiny) == SortedRows(db, outer, kHuge));
}

TEST_CASE("hash spill: DISTINCT and UNION return the in-memory rows", "[executor][hashspill]") {
  Db db;
  Fill(db);
  for (const char* sql : {"SELECT DISTINCT k, s FROM l", "SELECT k, s FROM l UNION SELECT k, t FROM r",
                          "SELECT DISTINCT v % 5000, s FROM l"}) {
    INFO(sql);
    const auto in_memory = SortedRows(db, sql, kHuge);
    CHECK(in_memory.size() > 5000);
    CHECK(std::adjacent_find(in_memory.begin(), in_memory.end()) == in_memory.end());
    CHECK(SortedRows(db, sql, kTiny) == in_memory);
    CHECK(db.TempFiles() == 0);
  }
  CHECK(std::filesystem::exists(db.temp_dir));  // something spilled
}

TEST_CASE("hash spill: INTERSECT and EXCEPT [ALL] return the in-memory rows", "[executor][hashspill]") {
  Db db;
  Fill(db);
  for (const char* op : {"INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}) {
    const std::string sql = std::string("SELECT k, v % 300 FROM l ") + op + " SELECT k, w % 300 FROM r";
    INFO(sql);
    const auto in_memory = SortedRows(db, sql, kHuge);
    CHECK(in_memory.size() > 100);
    CHECK(SortedRows(db, sql, kTiny) == in_memory);
    CHECK(db.TempFiles() == 0);
  }
  CHECK(std::filesystem::exists(db.temp_dir));  // something spilled
}

TEST_CASE("hash spill: a cancel mid-spill leaves no temp file", "[executor][hashspill]") {
  Db db;
  Fill(db);
  db.ctx.hash_mem = kTiny;
  for (const char* sql : {"SELECT k, count(*) FROM l GROUP BY k, v",
                          "SELECT count(*) FROM l FULL JOIN r ON l.k = r.k",
                          "SELECT count(*) FROM (SELECT DISTINCT v, s FROM l) d",
                          "SELECT count(*) FROM (SELECT k, s FROM l EXCEPT SELECT k, t FROM r) e"}) {
    int calls = 0;
    db.ctx.check_interrupts = [&calls] {
      // Past the input: the spill files exist by then.
      if (++calls == kRows + 5000) throw hearth::DbError("57014", "canceling statement due to user request");
    };
    INFO(sql);
    CHECK(db.Error(sql).sqlstate() == "57014");
    CHECK(db.TempFiles() == 0);
  }
}
