// tests/unit/catalog/index_plan_test.cpp
//
// The planner and executor over heap tables with B-tree indexes: index
// scans are chosen for =, ranges, BETWEEN, IN and ORDER BY ... LIMIT
// (forward and backward), EXPLAIN names them, and they return exactly the
// rows a sequential scan of an unindexed copy returns.
#include <algorithm>

#include "catalog/index_ddl.h"
#include "catalog_test_util.h"
#include "executor/executor.h"
#include "planner/planner.h"
#include "utils/adt/text_io.h"

namespace hearth::catalog::testing {
namespace {

using types::Value;

std::string RowText(const executor::Row& r) {
  std::string s;
  for (size_t i = 0; i < r.size(); ++i) {
    if (i) s += "|";
    s += r[i].is_null ? "NULL" : types::OutputValue(r[i]);
  }
  return s;
}

// Runs one statement as the server would (statement snapshot, then CCI).
std::vector<std::string> Run(const std::string& sql, const std::vector<Value>& params = {},
                             const std::vector<types::Oid>& ptypes = {}) {
  auto stmts = parser::ParseStatements(sql);
  REQUIRE(stmts.size() == 1);
  std::vector<std::string> rows;
  if (stmts[0]->kind == parser::StmtKind::kCreateTable) {
    CreateTableWithConstraints(stmts[0]->As<parser::CreateTableStmt>());
    return rows;
  }
  if (stmts[0]->kind == parser::StmtKind::kCreateIndex) {
    CreateIndex(stmts[0]->As<parser::CreateIndexStmt>());
    return rows;
  }
  HeapTableProvider prov;
  prov.StartStatement();
  executor::PlannedStatement plan = planner::PlanStatement(*stmts[0], prov, ptypes);
  executor::ExecContext ctx;
  ctx.tables = &prov;
  ctx.params = params.data();
  ctx.nparams = params.size();
  ctx.temp_dir = "/tmp";
  executor::RunPlan(plan, ctx, [&](const executor::Row& row) { rows.push_back(RowText(row)); });
  access::CommandCounterIncrement();
  return rows;
}

std::vector<std::string> Explain(const std::string& sql) { return Run("explain " + sql); }

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Same query on the indexed table t and its unindexed copy s.
void SameRows(const std::string& query_on_t, bool ordered) {
  std::string on_s = query_on_t;
  for (size_t p = on_s.find(" t "); p != std::string::npos; p = on_s.find(" t ", p + 1)) on_s[p + 1] = 's';
  if (on_s.size() >= 2 && on_s.compare(on_s.size() - 2, 2, " t") == 0) on_s.back() = 's';
  std::vector<std::string> a = Run(query_on_t), b = Run(on_s);
  INFO(query_on_t << " vs " << on_s);
  if (ordered) {
    CHECK(a == b);
  } else {
    CHECK(Sorted(a) == Sorted(b));
  }
}

void Load() {
  Run("create table t (a int primary key, b int, c text)");
  Run("create table s (a int, b int, c text)");
  std::string values;
  for (int i = 1; i <= 600; ++i) {
    if (!values.empty()) values += ", ";
    const int b = (i * 37) % 101;
    values += "(" + std::to_string(i) + ", " + (i % 50 == 0 ? std::string("null") : std::to_string(b)) + ", 'r" +
              std::to_string(i) + "')";
  }
  Run("insert into t values " + values);
  Run("insert into s values " + values);
  Run("create index t_b_desc on t (b desc)");
}

TEST_CASE("index scans are chosen and agree with sequential scans", "[catalog][index][planner]") {
  CatalogCluster cluster;
  InTransaction(Load);
  InTransaction([] {
    CHECK(Explain("select * from t where a = 1") ==
          std::vector<std::string>{"Index Scan using t_pkey on t", "  Index Cond: (a = 1)"});
    CHECK(Run("select c from t where a = 7") == std::vector<std::string>{"r7"});
    CHECK(Explain("select * from t where b = 5 and c <> 'x'") ==
          std::vector<std::string>{"Index Scan using t_b_desc on t", "  Index Cond: (b = 5)", "  Filter: (c <> 'x')"});
    CHECK(Explain("select * from t where c = 'r1'") ==
          std::vector<std::string>{"Seq Scan on t", "  Filter: (c = 'r1')"});
    for (const char* q : {"select * from t where a = 5", "select * from t where a < 10",
                          "select * from t where a <= 10 and a > 3", "select * from t where a >= 590",
                          "select * from t where a between 100 and 120", "select * from t where 20 > a",
                          "select * from t where a in (3, 1, 3, 700, null)", "select * from t where b = 7",
                          "select * from t where b < 3", "select * from t where b between 10 and 12",
                          "select * from t where b in (1, 2) and a > 100", "select * from t where a = 1 and a = 2",
                          "select * from t where b is null"}) {
      SameRows(q, false);
    }
    CHECK(Explain("select * from t where a in (1, 2)")[0] == "Index Scan using t_pkey on t");
    CHECK(Explain("select * from t where a between 1 and 5")[0] == "Index Scan using t_pkey on t");
    CHECK(Explain("select * from t where b < 3")[0] == "Index Scan using t_b_desc on t");
  });
}

TEST_CASE("ORDER BY ... LIMIT reads an index forward or backward", "[catalog][index][planner]") {
  CatalogCluster cluster;
  InTransaction(Load);
  InTransaction([] {
    CHECK(Explain("select a from t order by a limit 3") ==
          std::vector<std::string>{"Limit", "  ->  Index Scan using t_pkey on t"});
    CHECK(Explain("select a from t order by a desc limit 3") ==
          std::vector<std::string>{"Limit", "  ->  Index Scan Backward using t_pkey on t"});
    CHECK(Run("select a from t order by a desc limit 3") == std::vector<std::string>{"600", "599", "598"});
    CHECK(Run("select c from t order by a limit 2 offset 1") == std::vector<std::string>{"r2", "r3"});
    // Without LIMIT (and no WHERE on the column) the sort stays.
    CHECK(Explain("select a from t order by a")[0] == "Sort");
    // A range condition on the index column delivers the order too.
    CHECK(Explain("select a from t where a > 590 order by a desc")[0] == "Index Scan Backward using t_pkey on t");
    CHECK(Run("select a from t where a > 596 order by a desc") == std::vector<std::string>{"600", "599", "598", "597"});
    // DESC index: ORDER BY b DESC is forward, ORDER BY b is backward.
    CHECK(Explain("select b from t order by b desc limit 1")[1] == "  ->  Index Scan using t_b_desc on t");
    CHECK(Explain("select b from t order by b limit 1")[1] == "  ->  Index Scan Backward using t_b_desc on t");
    // Mismatched NULLS order: sort.
    CHECK(Explain("select b from t order by b nulls first limit 1")[1] == "  ->  Sort");
    for (const char* q : {"select a, b from t order by a limit 10", "select a from t order by a desc limit 7",
                          "select a, b from t order by b desc, a limit 20", "select b from t order by b limit 60",
                          "select b from t order by b desc limit 60", "select b from t where b in (5, 3) order by b limit 50",
                          "select a from t where a between 10 and 20 order by a desc limit 5",
                          "select c from t order by a limit 5"}) {
      SameRows(q, true);
    }
  });
}

TEST_CASE("parameters, UPDATE and DELETE use the index", "[catalog][index][planner]") {
  CatalogCluster cluster;
  InTransaction(Load);
  InTransaction([] {
    CHECK(Run("select c from t where a = $1", {Value::Int4(42)}, {types::kInt4Oid}) ==
          std::vector<std::string>{"r42"});
    CHECK(Run("select c from t where a = $1", {Value::Null(types::kInt4Oid)}, {types::kInt4Oid}).empty());
    CHECK(Explain("update t set b = 0 where a = 3")[1] == "  ->  Index Scan using t_pkey on t");
    Run("update t set a = 1000 where a = 3");
    CHECK(Run("select c from t where a = 1000") == std::vector<std::string>{"r3"});
    CHECK(Run("select c from t where a = 3").empty());
    Run("delete from t where a = 4");
    CHECK(Run("select c from t where a = 4").empty());
    CHECK(Run("select count(*) from t where a < 10") == std::vector<std::string>{"7"});
  });
  // Duplicate through SQL: exact error.
  InTransaction([] {
    try {
      Run("insert into t values (5, 1, 'dup')");
      FAIL("expected 23505");
    } catch (const DbError& e) {
      CHECK(e.sqlstate() == "23505");
      CHECK(e.message() == "duplicate key value violates unique constraint \"t_pkey\"");
      CHECK(e.detail() == "Key (a)=(5) already exists.");
    }
  });
}

}  // namespace
}  // namespace hearth::catalog::testing
