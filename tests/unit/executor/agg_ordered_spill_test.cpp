// Aggregates that sort their input (agg(x ORDER BY y), DISTINCT with ORDER
// BY, WITHIN GROUP) beyond hash_mem: the hash aggregate spills groups by
// partition while each group's buffered input is sorted when it finishes,
// so with the smallest limit (64 kB) the results equal the in-memory run's
// and no temp file is left behind. Groups come out in key order (a Sort
// above the aggregate, as PostgreSQL's GroupAggregate), in both runs.
#include <algorithm>
#include <filesystem>

#include "sql_harness.h"

using sqlh::Db;
using hearth::types::Value;
namespace ty = hearth::types;

namespace {

constexpr int kRows = 20000;

// t(k, v, s): keys in [0, 3000), every 9th string long (heap-allocated).
void Fill(Db& db) {
  db.Create("CREATE TABLE t (k int, v int, s text)");
  uint32_t x = 4242;
  auto next = [&x] { return x = x * 1103515245u + 12345u; };
  for (int i = 0; i < kRows; ++i) {
    const uint32_t h = next() >> 8;
    std::string s = (i % 9 == 0 ? std::string(30, 'y') : std::string()) + std::to_string(h % 977);
    db.cat.AppendRow("t", {Value::Int4(static_cast<int32_t>(h % 3000)), Value::Int4(static_cast<int32_t>(h % 10007)),
                           Value::Text(s)});
  }
}

std::vector<std::string> Rows(Db& db, const std::string& sql, int64_t hash_mem) {
  db.ctx.hash_mem = hash_mem;
  return db.Rows(sql);
}

}  // namespace

TEST_CASE("ordered aggregates: spilled groups equal the in-memory ones, in key order", "[executor][hashspill]") {
  Db db;
  Fill(db);
  const std::string sql =
      "SELECT k, string_agg(s, ',' ORDER BY v DESC, s), string_agg(DISTINCT s, '' ORDER BY s), "
      "sum(v ORDER BY s), percentile_cont(0.5) WITHIN GROUP (ORDER BY v), "
      "percentile_disc(0.3) WITHIN GROUP (ORDER BY s), mode() WITHIN GROUP (ORDER BY v % 3), count(DISTINCT v % 7) "
      "FROM t GROUP BY k";
  db.ctx.work_mem = 1LL << 40;  // the Sort above the aggregate stays in memory
  const auto in_memory = Rows(db, sql, 1LL << 40);
  REQUIRE(in_memory.size() > 2900);
  REQUIRE_FALSE(std::filesystem::exists(db.temp_dir));  // created by the first spill file
  CHECK(std::is_sorted(in_memory.begin(), in_memory.end(), [](const std::string& a, const std::string& b) {
    return std::stoi(a) < std::stoi(b);
  }));
  const auto spilled = Rows(db, sql, 0);  // clamped to 64 kB
  CHECK(std::filesystem::exists(db.temp_dir));
  CHECK(spilled == in_memory);
  CHECK(db.TempFiles() == 0);
}

TEST_CASE("ordered aggregates: one group's sorted input over all rows", "[executor]") {
  Db db;
  Fill(db);
  auto rows = Rows(db, "SELECT count(*), min(v), max(v), percentile_disc(0) WITHIN GROUP (ORDER BY v), "
                       "percentile_disc(1) WITHIN GROUP (ORDER BY v) FROM t", 0);
  REQUIRE(rows.size() == 1);
  auto first = Rows(db, "SELECT min(v), max(v) FROM t", 0);
  // percentile_disc(0) / (1) are the extremes.
  REQUIRE(first.size() == 1);
  CHECK(rows[0] == "20000|" + first[0] + "|" + first[0]);
}
