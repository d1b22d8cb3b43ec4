// Set-returning functions: FunctionScan (generate_series, ROWS FROM, WITH
// ORDINALITY, scalar functions in FROM), ProjectSet (lockstep SRFs in the
// select list), LATERAL nested loops; plans re-run as prototypes.
#include "sql_harness.h"

#include "executor/executor.h"
#include "utils/adt/srf_registry.h"

using sqlh::Db;
using sqlh::V;
using hearth::types::Value;

TEST_CASE("srf: generate_series streams through SrfCall", "[srf]") {
  using namespace hearth::types;
  ResolvedFunc r = ResolveFunction("generate_series", {kInt4Oid, kInt4Oid, kInt4Oid}, FuncKind::kSetReturning);
  const SrfDef& def = LookupSrf(r.sig);
  Value args[3] = {Value::Int4(2147483640), Value::Int4(2147483647), Value::Int4(5)};
  FuncCallContext fctx;
  auto call = def.start(args, 3, fctx);
  Value v;
  std::vector<int64_t> got;
  while (call->Next(&v)) got.push_back(v.i);
  CHECK(got == std::vector<int64_t>{2147483640, 2147483645});  // ends instead of overflowing
  args[2] = Value::Int4(0);
  CHECK_THROWS_AS(def.start(args, 3, fctx), hearth::DbError);
}

TEST_CASE("srf: functions in FROM", "[srf][planner]") {
  Db db;
  CHECK(db.Rows("SELECT * FROM generate_series(1, 3) g WHERE g <> 2") == V{"1", "3"});
  auto r = db.Exec("SELECT * FROM generate_series(5, 1, -2) WITH ORDINALITY");
  CHECK(r.names == V{"generate_series", "ordinality"});
  CHECK(r.rows == V{"5|1", "3|2", "1|3"});
  CHECK(db.Rows("SELECT * FROM ROWS FROM (generate_series(1, 2), generate_series(7, 9)) r") ==
        V{"1|7", "2|8", "NULL|9"});
  CHECK(db.Exec("SELECT * FROM upper('a') u").names == V{"u"});
  CHECK(db.Rows("SELECT * FROM generate_series(1.5, 2.5, 0.5)") == V{"1.5", "2.0", "2.5"});
  CHECK(db.Error("SELECT * FROM generate_series(1, 2, 0)").sqlstate() == "22023");
  CHECK(db.Error("SELECT * FROM nosuch(1)").sqlstate() == "42883");
  CHECK(db.Explain("SELECT * FROM generate_series(1, 3) g") == V{"Function Scan on generate_series g"});
}

TEST_CASE("srf: select-list SRFs run in lockstep", "[srf][planner]") {
  Db db;
  db.Create("CREATE TABLE t (a int, n int)");
  db.Exec("INSERT INTO t VALUES (1, 2), (2, 0), (3, 1)");
  CHECK(db.Rows("SELECT generate_series(1, 3), generate_series(1, 2)") == V{"1|1", "2|2", "3|NULL"});
  CHECK(db.Rows("SELECT a, generate_series(1, n) FROM t ORDER BY 1, 2") == V{"1|1", "1|2", "3|1"});
  CHECK(db.Rows("SELECT count(*), generate_series(1, 2) FROM t") == V{"3|1", "3|2"});
  CHECK(db.Error("SELECT coalesce(generate_series(1, 2), 0)").sqlstate() == "0A000");
  CHECK(db.Error("SELECT 1 FROM t WHERE generate_series(1, 2) = 1").sqlstate() == "0A000");
  CHECK(db.Explain("SELECT generate_series(1, 3) FROM t") == V{"ProjectSet", "  ->  Seq Scan on t"});
}

TEST_CASE("srf: lateral re-runs the inner side per outer row; plans are prototypes", "[srf][planner]") {
  Db db;
  db.Create("CREATE TABLE t (a int, n int)");
  db.Exec("INSERT INTO t VALUES (1, 2), (2, 0), (3, 1)");
  const char* q = "SELECT t.a, g FROM t, generate_series(1, t.n) g ORDER BY 1, 2";
  auto plan = db.Plan(q);
  CHECK(db.Run(plan).rows == V{"1|1", "1|2", "3|1"});
  CHECK(db.Run(plan).rows == V{"1|1", "1|2", "3|1"});
  CHECK(db.Rows("SELECT t.a, s.x FROM t LEFT JOIN LATERAL (SELECT t.n * 10 AS x WHERE t.n > 0) s ON true "
                "ORDER BY 1") == V{"1|20", "2|NULL", "3|10"});
  CHECK(db.Error("SELECT * FROM t, (SELECT t.a) s").sqlstate() == "42P01");
  // Two executions of one plan open at once keep their own series state.
  auto p2 = db.Plan("SELECT * FROM generate_series(1, 3)");
  hearth::executor::Execution e1(p2, db.ctx), e2(p2, db.ctx);
  hearth::executor::Row r1, r2;
  REQUIRE(e1.Next(r1));
  REQUIRE(e2.Next(r2));
  REQUIRE(e1.Next(r1));
  CHECK(r1[0].i == 2);
  REQUIRE(e2.Next(r2));
  CHECK(r2[0].i == 2);
}
