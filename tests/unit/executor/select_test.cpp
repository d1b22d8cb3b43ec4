// Planner + executor: basic SELECT, WHERE, projections, DISTINCT, ORDER BY,
// LIMIT/OFFSET, VALUES, set operations and subqueries.
#include "sql_harness.h"

using hearth::executor::ExecContext;
using sqlh::Db;
using sqlh::V;
using hearth::types::Value;

namespace {
void Fill(Db& db) {
  db.Create("CREATE TABLE t (id int, name text, score numeric(6,2), grp int)");
  db.Exec("INSERT INTO t VALUES (1, 'ann', 10.5, 1), (2, 'bob', NULL, 1), (3, 'cid', 7, 2), "
          "(4, NULL, 12.25, 2), (5, 'eve', 7, NULL)");
}
}  // namespace

TEST_CASE("select: where, projection, expressions", "[planner]") {
  Db db;
  Fill(db);
  CHECK(db.Rows("SELECT id, name FROM t WHERE id > 3") == V{"4|NULL", "5|eve"});
  CHECK(db.Rows("SELECT id * 10 AS x, upper(name) FROM t WHERE name LIKE '%b%'") == V{"20|BOB"});
  CHECK(db.Rows("SELECT * FROM t WHERE score IS NULL") == V{"2|bob|NULL|1"});
  CHECK(db.Rows("SELECT t.* FROM t WHERE id = 1") == V{"1|ann|10.50|1"});
  CHECK(db.Rows("SELECT x.id FROM t AS x WHERE x.grp = 2 AND x.score > 10") == V{"4"});
  CHECK(db.Rows("SELECT 1 + 1, 'a' || 'b'") == V{"2|ab"});
  auto r = db.Exec("SELECT id, name AS n, id::text, count(*) FROM t GROUP BY id, name ORDER BY 1 LIMIT 1");
  CHECK(r.names == V{"id", "n", "id", "count"});
  CHECK(r.tag == "SELECT 1");
  CHECK(db.Rows("SELECT id FROM t WHERE id IN (1, 3, 99) OR name = 'eve'") == V{"1", "3", "5"});
}

TEST_CASE("select: order by, nulls, distinct, limit/offset", "[planner]") {
  Db db;
  Fill(db);
  CHECK(db.Rows("SELECT id FROM t ORDER BY score, id") == V{"3", "5", "1", "4", "2"});
  CHECK(db.Rows("SELECT id FROM t ORDER BY score DESC, id") == V{"2", "4", "1", "3", "5"});
  CHECK(db.Rows("SELECT id FROM t ORDER BY score NULLS FIRST, id DESC") == V{"2", "5", "3", "1", "4"});
  CHECK(db.Rows("SELECT id FROM t ORDER BY score DESC NULLS LAST, id") == V{"4", "1", "3", "5", "2"});
  CHECK(db.Rows("SELECT name FROM t ORDER BY 1") == V{"ann", "bob", "cid", "eve", "NULL"});
  CHECK(db.Rows("SELECT id AS k FROM t ORDER BY k DESC LIMIT 2") == V{"5", "4"});
  CHECK(db.Rows("SELECT id FROM t ORDER BY grp DESC, name") == V{"5", "3", "4", "1", "2"});
  CHECK(db.Rows("SELECT id FROM t ORDER BY grp DESC NULLS LAST, name") == V{"3", "4", "1", "2", "5"});
  CHECK(db.Rows("SELECT id FROM t ORDER BY id + 0 DESC OFFSET 3") == V{"2", "1"});
  CHECK(db.Rows("SELECT DISTINCT grp FROM t ORDER BY grp") == V{"1", "2", "NULL"});
  CHECK(db.Rows("SELECT DISTINCT score FROM t WHERE score = 7") == V{"7.00"});
  // LIMIT/OFFSET with parameters, the plan reused with different values.
  auto p = db.Plan("SELECT id FROM t ORDER BY id LIMIT $1 OFFSET $2");
  CHECK(p.param_types == std::vector<hearth::types::Oid>{hearth::types::kInt8Oid, hearth::types::kInt8Oid});
  CHECK(db.Run(p, {Value::Int8(2), Value::Int8(1)}).rows == V{"2", "3"});
  CHECK(db.Run(p, {Value::Int8(1), Value::Int8(4)}).rows == V{"5"});
  CHECK(db.Run(p, {Value::Null(hearth::types::kInt8Oid), Value::Int8(3)}).rows == V{"4", "5"});
  CHECK(db.Error("SELECT id FROM t LIMIT -1").sqlstate() == "2201W");
}

TEST_CASE("select: values, set operations", "[planner]") {
  Db db;
  Fill(db);
  auto r = db.Exec("VALUES (1, 'a'), (2, NULL)");
  CHECK(r.rows == V{"1|a", "2|NULL"});
  CHECK(r.names == V{"column1", "column2"});
  CHECK(db.Rows("VALUES (3), (1), (2) ORDER BY 1 DESC") == V{"3", "2", "1"});
  CHECK(db.Rows("SELECT grp FROM t UNION SELECT 7 ORDER BY 1") == V{"1", "2", "7", "NULL"});
  CHECK(db.Rows("SELECT grp FROM t WHERE grp = 1 UNION ALL SELECT 1") == V{"1", "1", "1"});
  CHECK(db.Rows("SELECT grp FROM t INTERSECT SELECT 2") == V{"2"});
  CHECK(db.Rows("SELECT grp FROM t EXCEPT SELECT 2 ORDER BY grp") == V{"1", "NULL"});
  CHECK(db.Rows("SELECT 1 UNION SELECT 2.5 ORDER BY 1") == V{"1", "2.5"});
  CHECK(db.Error("SELECT 1 UNION SELECT 1, 2").sqlstate() == "42601");
}

TEST_CASE("select: subqueries", "[planner]") {
  Db db;
  Fill(db);
  CHECK(db.Rows("SELECT id FROM t WHERE score = (SELECT max(score) FROM t)") == V{"4"});
  CHECK(db.Rows("SELECT (SELECT count(*) FROM t), (SELECT name FROM t WHERE id = 99)") == V{"5|NULL"});
  CHECK(db.Rows("SELECT id FROM t WHERE grp IN (SELECT grp FROM t WHERE id >= 3)") == V{"3", "4"});
  // NOT IN over a set containing NULL is never true.
  CHECK(db.Rows("SELECT id FROM t WHERE id NOT IN (SELECT grp FROM t)").empty());
  CHECK(db.Rows("SELECT id FROM t WHERE id NOT IN (SELECT grp FROM t WHERE grp IS NOT NULL)") == V{"3", "4", "5"});
  CHECK(db.Rows("SELECT 1 WHERE EXISTS (SELECT 1 FROM t WHERE id = 5)") == V{"1"});
  CHECK(db.Rows("SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM t WHERE id = 5)").empty());
  CHECK(db.Rows("SELECT s.n, s.c FROM (SELECT grp AS n, count(*) AS c FROM t GROUP BY grp) s WHERE s.c > 1 "
                "ORDER BY n") == V{"1|2", "2|2"});
  CHECK(db.Rows("SELECT x FROM (SELECT id FROM t) AS s(x) WHERE x < 3") == V{"1", "2"});
  auto e = db.Error("SELECT (SELECT id FROM t)");
  CHECK(e.sqlstate() == "21000");
  CHECK(e.message() == "more than one row returned by a subquery used as an expression");
  CHECK(db.Error("SELECT id FROM t WHERE id = (SELECT 1, 2)").sqlstate() == "42601");
  // Correlated subqueries re-run per outer row.
  CHECK(db.Rows("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.id = t.id + 1 AND u.grp = t.grp)") ==
        V{"1", "3"});
  CHECK(db.Rows("SELECT id, (SELECT count(*) FROM t u WHERE u.grp = t.grp) FROM t ORDER BY id") ==
        V{"1|2", "2|2", "3|2", "4|2", "5|0"});
  CHECK(db.Rows("SELECT id FROM t WHERE score = (SELECT max(score) FROM t u WHERE u.grp = t.grp)") == V{"1", "4"});
  CHECK(db.Rows("SELECT id FROM t WHERE id IN (SELECT u.id + 1 FROM t u WHERE u.grp = t.grp)") == V{"2", "4"});
  CHECK(db.Rows("SELECT grp, (SELECT max(u.id) FROM t u WHERE u.grp = t.grp) FROM t GROUP BY grp ORDER BY 1") ==
        V{"1|2", "2|4", "NULL|NULL"});
  CHECK(db.Rows("SELECT a.id FROM t a, t b WHERE a.id = b.id AND "
                "b.score > (SELECT min(score) FROM t c WHERE c.grp = a.grp) ORDER BY 1") == V{"4"});
  // Two levels deep: the innermost subquery reads the outermost row.
  CHECK(db.Rows("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.id = (SELECT 1 FROM t v WHERE v.id = t.id)) "
                "ORDER BY 1") == V{"1", "2", "3", "4", "5"});
  CHECK(db.Rows("SELECT id FROM t WHERE id > ALL (SELECT u.id FROM t u WHERE u.grp = t.grp AND u.id <> t.id) "
                "ORDER BY 1") == V{"2", "4", "5"});
  CHECK(db.Error("SELECT id, (SELECT name) FROM t GROUP BY id").sqlstate() == "42803");
  // Correlated by an equality at the top of WHERE: a semi join.
  auto ex = db.Explain("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.id = t.id)");
  CHECK(ex == V{"Hash Semi Join", "  Hash Cond: (t.id = u.id)", "  ->  Seq Scan on t", "  ->  Hash",
                "        ->  Seq Scan on t u"});
  // Any other correlation: a subplan run per row.
  ex = db.Explain("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.id < t.id)");
  CHECK(ex == V{"Seq Scan on t", "  Filter: (EXISTS (SubPlan))", "  SubPlan 1", "    ->  Seq Scan on t u",
                "          Filter: (id < t.id)"});
  // Subquery parameters are shared with the outer statement.
  auto p = db.Plan("SELECT id FROM t WHERE id > (SELECT min(id) FROM t WHERE grp = $1) ORDER BY id");
  CHECK(db.Run(p, {Value::Int4(2)}).rows == V{"4", "5"});
  CHECK(db.Run(p, {Value::Int4(1)}).rows == V{"2", "3", "4", "5"});
}

TEST_CASE("execution: runs of one plan interleave; params are copied", "[planner]") {
  Db db;
  Fill(db);
  auto p = db.Plan("SELECT id FROM t WHERE id > $1 ORDER BY id");
  hearth::executor::Row row;
  {
    std::vector<Value> params = {Value::Int4(3)};
    ExecContext c = db.ctx;
    c.params = params.data();
    c.nparams = params.size();
    hearth::executor::Execution ex(p, c);
    params[0] = Value::Int4(1);  // the Execution keeps its own copy
    hearth::executor::Execution second(p, c);
    std::vector<std::string> got, got2;
    // Alternate between the two: each has its own sort state.
    for (bool more = true, more2 = true; more || more2;) {
      if (more && (more = ex.Next(row))) got.push_back(sqlh::RowText(row));
      if (more2 && (more2 = second.Next(row))) got2.push_back(sqlh::RowText(row));
    }
    CHECK(got == V{"4", "5"});
    CHECK(got2 == V{"2", "3", "4", "5"});
    CHECK_FALSE(ex.Next(row));
  }
  CHECK(db.Run(p, {Value::Int4(4)}).rows == V{"5"});
}
