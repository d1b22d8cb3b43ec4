// WindowAgg beyond work_mem: a partition larger than work_mem goes to a
// temp file and is read back by position (frames reaching back and ahead,
// lag, running and whole-partition aggregates); the results equal the
// in-memory ones and no temp file survives the execution or a cancel.
#include <string>
#include <vector>

#include "sql_harness.h"

using sqlh::Db;
using hearth::types::Value;
using hearth::executor::Row;

namespace {

constexpr int kRows = 20000;

std::vector<int64_t> FillBig(Db& db) {
  db.Create("CREATE TABLE big (k int, s text)");
  std::vector<int64_t> ks;
  uint32_t x = 777;
  for (int i = 0; i < kRows; ++i) {
    x = x * 1103515245u + 12345u;
    const auto k = static_cast<int64_t>((x >> 8) % 1000);
    ks.push_back(k);
    db.cat.AppendRow("big", {Value::Int4(static_cast<int32_t>(k)), Value::Text("pad-" + std::to_string(i))});
  }
  return ks;
}

// No PARTITION BY / ORDER BY: no Sort below the windows, so every temp
// file seen belongs to a WindowAgg's partition store.
constexpr const char* kQuery =
    "SELECT k, count(*) OVER (), sum(k) OVER (ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING), "
    "first_value(s) OVER (ROWS BETWEEN 100 PRECEDING AND CURRENT ROW), lag(k, 50) OVER (), "
    "sum(k) OVER () FROM big";

std::string Expected(const std::vector<int64_t>& ks, int i) {
  int64_t win = 0, total = 0;
  for (int j = std::max(0, i - 3); j <= std::min(kRows - 1, i + 3); ++j) win += ks[static_cast<size_t>(j)];
  for (int64_t k : ks) total += k;
  const int first = std::max(0, i - 100);
  return std::to_string(ks[static_cast<size_t>(i)]) + "|" + std::to_string(kRows) + "|" + std::to_string(win) +
         "|pad-" + std::to_string(first) + "|" +
         (i >= 50 ? std::to_string(ks[static_cast<size_t>(i - 50)]) : std::string("NULL")) + "|" +
         std::to_string(total);
}

}  // namespace

TEST_CASE("window: a partition beyond work_mem spills and reads back by position", "[planner][window]") {
  Db db;
  const std::vector<int64_t> ks = FillBig(db);
  auto plan = db.Plan(kQuery);
  db.ctx.work_mem = 64 * 1024;
  std::vector<std::string> spilled;
  {
    hearth::executor::Execution ex(plan, db.ctx);
    Row row;
    bool first = true;
    bool files_seen = false;
    while (ex.Next(row)) {
      if (first) files_seen = db.TempFiles() > 0;  // the partition is on disk while it is read
      first = false;
      spilled.push_back(sqlh::RowText(row));
    }
    CHECK(files_seen);
  }
  CHECK(db.TempFiles() == 0);
  REQUIRE(spilled.size() == static_cast<size_t>(kRows));
  bool all_equal = true;
  for (int i = 0; i < kRows && all_equal; ++i) {
    if (spilled[static_cast<size_t>(i)] != Expected(ks, i)) {
      all_equal = false;
      CHECK(spilled[static_cast<size_t>(i)] == Expected(ks, i));
    }
  }
  CHECK(all_equal);
  // The same plan in memory gives the same rows.
  db.ctx.work_mem = 64 * 1024 * 1024;
  auto r = db.Run(plan);
  CHECK(r.rows == spilled);
  CHECK(db.TempFiles() == 0);
}

TEST_CASE("window: sorted partitions spill one at a time with peers and RANGE frames", "[planner][window]") {
  Db db;
  FillBig(db);
  const char* q =
      "SELECT k % 3, k, rank() OVER w, sum(k) OVER w, count(*) OVER (w RANGE BETWEEN 10 PRECEDING AND 5 FOLLOWING), "
      "max(s) OVER (w GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) "
      "FROM big WINDOW w AS (PARTITION BY k % 3 ORDER BY k) ORDER BY 1, 2, 3, 4, 5, 6";
  auto plan = db.Plan(q);
  db.ctx.work_mem = 64 * 1024;
  auto small = db.Run(plan);
  db.ctx.work_mem = 64 * 1024 * 1024;
  auto big = db.Run(plan);
  CHECK(small.rows.size() == static_cast<size_t>(kRows));
  CHECK(small.rows == big.rows);
  CHECK(db.TempFiles() == 0);
}

TEST_CASE("window: cancel while a spilled partition is read leaves no temp files", "[planner][window]") {
  Db db;
  FillBig(db);
  auto plan = db.Plan(kQuery);
  db.ctx.work_mem = 64 * 1024;
  int calls = 0;
  db.ctx.check_interrupts = [&] {
    if (++calls > kRows + kRows / 2) throw hearth::DbError("57014", "canceling statement due to user request");
  };
  bool canceled = false;
  try {
    db.Run(plan);
  } catch (const hearth::DbError& e) {
    canceled = std::string(e.sqlstate()) == "57014";
  }
  CHECK(canceled);
  CHECK(db.TempFiles() == 0);
}
