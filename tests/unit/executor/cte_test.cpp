// WITH queries at the executor level: a materialized query's rows belong to
// each execution (interleaved runs of one plan do not share them) and are
// computed once per execution however many CTE Scans read them.
#include <algorithm>

#include "sql_harness.h"

using hearth::executor::ExecContext;
using hearth::types::Value;
using sqlh::Db;
using sqlh::V;

namespace {

void FillCte(Db& db) {
  db.Create("CREATE TABLE t (id int, grp int)");
  db.Exec("INSERT INTO t VALUES (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)");
}

}  // namespace

TEST_CASE("cte: interleaved executions keep their own WITH query rows", "[planner]") {
  Db db;
  FillCte(db);
  auto p = db.Plan("WITH x AS MATERIALIZED (SELECT id FROM t WHERE id > $1) SELECT a.id FROM x a, x b WHERE a.id = b.id");
  std::vector<Value> params = {Value::Int4(3)};
  ExecContext c = db.ctx;
  c.params = params.data();
  c.nparams = params.size();
  hearth::executor::Execution first(p, c);
  params[0] = Value::Int4(0);
  hearth::executor::Execution second(p, c);
  hearth::executor::Row row;
  std::vector<std::string> got, got2;
  for (bool more = true, more2 = true; more || more2;) {
    if (more && (more = first.Next(row))) got.push_back(sqlh::RowText(row));
    if (more2 && (more2 = second.Next(row))) got2.push_back(sqlh::RowText(row));
  }
  std::sort(got.begin(), got.end());
  std::sort(got2.begin(), got2.end());
  CHECK(got == V{"4", "5"});
  CHECK(got2 == V{"1", "2", "3", "4", "5"});
}

TEST_CASE("cte: a volatile WITH query read twice is computed once", "[planner]") {
  Db db;
  CHECK(db.Rows("WITH r AS (SELECT random() AS x) SELECT count(*) FROM r a, r b WHERE a.x = b.x") == V{"1"});
  CHECK(db.Explain("WITH r AS (SELECT 1 AS x) SELECT * FROM r a, r b") ==
        V{"Nested Loop", "  CTE r", "    ->  Result", "  ->  CTE Scan on r a", "  ->  CTE Scan on r b"});
}

TEST_CASE("cte: recursive union over the working table", "[planner]") {
  Db db;
  FillCte(db);
  CHECK(db.Rows("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 4) SELECT * FROM c") ==
        V{"1", "2", "3", "4"});
  // UNION ends the cycle 1 → 2 → 1.
  CHECK(db.Rows("WITH RECURSIVE c(n) AS (SELECT 1 UNION SELECT 3 - n FROM c) SELECT * FROM c") == V{"1", "2"});
  CHECK(db.Error("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n FROM t LEFT JOIN c ON true) SELECT 1").sqlstate() ==
        "42P19");
}

TEST_CASE("cte: a WITH query's rows spill beyond work_mem; readers keep their own place", "[planner]") {
  Db db;
  db.ctx.work_mem = 64 * 1024;
  auto p = db.Plan(
      "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000), "
      "x AS MATERIALIZED (SELECT n, repeat('x', 30) AS pad FROM s) "
      "SELECT a.n, b.n FROM x a JOIN x b ON a.n = b.n + 1");
  {
    hearth::executor::Execution ex(p, db.ctx);
    hearth::executor::Row row;
    int64_t count = 0, sum = 0;
    bool saw_files = false;
    while (ex.Next(row)) {
      ++count;
      sum += row[0].i - row[1].i;
      saw_files = saw_files || db.TempFiles() > 0;
    }
    CHECK(count == 19999);
    CHECK(sum == 19999);
    CHECK(saw_files);
  }
  CHECK(db.TempFiles() == 0);  // the store's file goes with the execution
  // A working table beyond work_mem (10000 rows per round).
  CHECK(db.Rows("WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000), "
                "w(n, k) AS (SELECT n, 0 FROM s UNION ALL SELECT n, k + 1 FROM w WHERE k < 2) "
                "SELECT count(*), sum(k), sum(n) FROM w") == V{"30000|30000|150015000"});
}
