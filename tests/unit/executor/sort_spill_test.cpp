// External merge sort: ORDER BY over 100k rows with a tiny work_mem spills
// sorted runs to temp files, merges them in order, and removes every temp
// file afterwards — also when the interrupt hook cancels mid-sort.
#include <algorithm>

#include "executor/nodes/scan_nodes.h"
#include "executor/nodes/sort_node.h"
#include "sql_harness.h"

using sqlh::Db;
using sqlh::V;
using hearth::types::Value;
using hearth::executor::Row;

namespace {

constexpr int kRows = 100000;

void FillBig(Db& db, std::vector<std::pair<int, std::string>>* expect) {
  db.Create("CREATE TABLE big (k int, s text)");
  uint32_t x = 12345;
  for (int i = 0; i < kRows; ++i) {
    x = x * 1103515245u + 12345u;
    int k = static_cast<int>((x >> 8) % 5000);
    std::string s = "row-" + std::to_string(i % 977);
    if (i % 1000 == 7) {
      db.cat.AppendRow("big", {Value::Null(hearth::types::kInt4Oid), Value::Text(s)});
      continue;
    }
    db.cat.AppendRow("big", {Value::Int4(k), Value::Text(s)});
    expect->emplace_back(k, s);
  }
}

}  // namespace

TEST_CASE("sort: spills to disk beyond work_mem and merges correctly", "[planner][sort]") {
  Db db;
  std::vector<std::pair<int, std::string>> expect;
  FillBig(db, &expect);
  std::sort(expect.begin(), expect.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  db.ctx.work_mem = 64 * 1024;
  auto plan = db.Plan("SELECT k, s FROM big ORDER BY k DESC NULLS LAST, s");
  {
    hearth::executor::Execution ex(plan, db.ctx);
    CHECK(db.TempFiles() > 0);  // runs are on disk while the result is read
    Row row;
    size_t n = 0;
    bool in_order = true;
    size_t nulls = 0;
    while (ex.Next(row)) {
      if (row[0].is_null) {
        ++nulls;
        continue;
      }
      if (nulls > 0 || n >= expect.size() || row[0].i != expect[n].first || row[1].str != expect[n].second) {
        in_order = false;
      }
      ++n;
    }
    CHECK(in_order);
    CHECK(n == expect.size());
    CHECK(nulls == kRows / 1000);
    CHECK(ex.CommandTag() == "SELECT " + std::to_string(kRows));
    // More runs than one merge takes: intermediate merge passes ran too.
    CHECK(static_cast<const hearth::executor::SortNode&>(ex.root()).runs_spilled() >
          hearth::executor::SortNode::kMaxFanIn);
  }
  CHECK(db.TempFiles() == 0);
  // Same plan again (prepared re-use), in memory this time.
  db.ctx.work_mem = 64 * 1024 * 1024;
  auto r = db.Run(plan);
  CHECK(r.rows.size() == static_cast<size_t>(kRows));
  CHECK(r.rows.front() == std::to_string(expect.front().first) + "|" + expect.front().second);
  CHECK(r.rows.back().rfind("NULL|row-", 0) == 0);
  CHECK(db.TempFiles() == 0);
}

TEST_CASE("sort: cancel while consuming input or merging leaves no temp files", "[planner][sort]") {
  Db db;
  std::vector<std::pair<int, std::string>> expect;
  FillBig(db, &expect);
  db.ctx.work_mem = 64 * 1024;
  auto plan = db.Plan("SELECT s, k FROM big ORDER BY s, k");
  int calls = 0;
  int limit = 0;
  db.ctx.check_interrupts = [&] {
    if (limit > 0 && ++calls > limit) throw hearth::DbError("57014", "canceling statement due to user request");
  };
  SECTION("during input") {
    limit = kRows + kRows / 2;  // the scan and the sort both check per row
    bool files_seen = false;
    auto hook = db.ctx.check_interrupts;
    db.ctx.check_interrupts = [&] {
      if (calls == limit - 1) files_seen = db.TempFiles() > 0;
      hook();
    };
    try {
      hearth::executor::Execution ex(plan, db.ctx);
      FAIL("not cancelled");
    } catch (const hearth::DbError& e) {
      CHECK(e.sqlstate() == "57014");
    }
    CHECK(files_seen);
    CHECK(db.TempFiles() == 0);
  }
  SECTION("during merge") {
    limit = 0;
    hearth::executor::Execution ex(plan, db.ctx);
    CHECK(db.TempFiles() > 0);
    Row row;
    for (int i = 0; i < 10; ++i) REQUIRE(ex.Next(row));
    calls = 0;
    limit = 100;
    try {
      while (ex.Next(row)) {
      }
      FAIL("not cancelled");
    } catch (const hearth::DbError& e) {
      CHECK(e.sqlstate() == "57014");
    }
    CHECK(db.TempFiles() == 0);  // Execution closes the plan on error
  }
}

TEST_CASE("sort node: multi-key, stable, drops junk columns", "[executor][sort]") {
  using hearth::executor::OutputColumn;
  std::vector<Row> rows = {
      {Value::Int4(2), Value::Text("b"), Value::Int4(1)},
      {Value::Null(hearth::types::kInt4Oid), Value::Text("n"), Value::Int4(2)},
      {Value::Int4(1), Value::Text("a"), Value::Int4(3)},
      {Value::Int4(2), Value::Text("a"), Value::Int4(4)},
  };
  std::vector<OutputColumn> cols = {{"k", hearth::types::kInt4Oid, -1},
                                    {"s", hearth::types::kTextOid, -1},
                                    {"junk", hearth::types::kInt4Oid, -1}};
  auto scan = std::make_unique<hearth::executor::ValuesScanNode>(rows, cols);
  std::vector<hearth::executor::SortKey> keys(1);
  keys[0].column = 0;
  keys[0].nulls_first = true;
  hearth::executor::SortNode sort(std::move(scan), keys, 2);
  hearth::executor::ExecContext ctx;
  sort.Open(ctx);
  Row r;
  std::vector<std::string> out;
  while (sort.Next(r)) out.push_back(sqlh::RowText(r));
  sort.Close();
  CHECK(out == V{"NULL|n", "1|a", "2|b", "2|a"});  // ties keep input order
  CHECK(sort.runs_spilled() == 0);
}
