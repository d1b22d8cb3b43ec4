// Planner + executor: joins of every kind (NULL keys never match), GROUP BY
// / HAVING / aggregates with PostgreSQL's result types.
#include "sql_harness.h"

using sqlh::Db;
using sqlh::V;

namespace {
void Fill(Db& db) {
  db.Create("CREATE TABLE a (id int, v text)");
  db.Create("CREATE TABLE b (aid int, w text)");
  db.Exec("INSERT INTO a VALUES (1, 'a1'), (2, 'a2'), (NULL, 'anull'), (4, 'a4')");
  db.Exec("INSERT INTO b VALUES (1, 'b1'), (1, 'b1x'), (3, 'b3'), (NULL, 'bnull')");
}
}  // namespace

TEST_CASE("joins: inner/left/right/full/cross with NULL keys", "[planner][join]") {
  Db db;
  Fill(db);
  CHECK(db.Rows("SELECT a.v, b.w FROM a JOIN b ON a.id = b.aid") == V{"a1|b1", "a1|b1x"});
  CHECK(db.Rows("SELECT a.v, b.w FROM a, b WHERE b.aid = a.id") == V{"a1|b1", "a1|b1x"});
  CHECK(db.Rows("SELECT v, w FROM a LEFT JOIN b ON a.id = b.aid") ==
        V{"a1|b1", "a1|b1x", "a2|NULL", "anull|NULL", "a4|NULL"});
  CHECK(db.Rows("SELECT v, w FROM a RIGHT JOIN b ON a.id = b.aid") ==
        V{"a1|b1", "a1|b1x", "NULL|b3", "NULL|bnull"});
  CHECK(db.Rows("SELECT v, w FROM a FULL JOIN b ON a.id = b.aid") ==
        V{"a1|b1", "a1|b1x", "a2|NULL", "anull|NULL", "a4|NULL", "NULL|b3", "NULL|bnull"});
  CHECK(db.Rows("SELECT count(*) FROM a CROSS JOIN b") == V{"16"});
  CHECK(db.Rows("SELECT count(*) FROM a, b") == V{"16"});
  // Non-equi condition → nested loop; extra ON conjunct on an outer join.
  CHECK(db.Rows("SELECT v, w FROM a JOIN b ON a.id < b.aid ORDER BY v, w") == V{"a1|b3", "a2|b3"});
  CHECK(db.Rows("SELECT v, w FROM a LEFT JOIN b ON a.id = b.aid AND b.w <> 'b1' WHERE a.id < 3") ==
        V{"a1|b1x", "a2|NULL"});
  CHECK(db.Rows("SELECT v, w FROM a LEFT JOIN b ON a.id > b.aid AND a.id > 3") ==
        V{"a1|NULL", "a2|NULL", "anull|NULL", "a4|b1", "a4|b1x", "a4|b3"});
  // USING merges the column.
  db.Create("CREATE TABLE c (id int, z int)");
  db.Exec("INSERT INTO c VALUES (2, 20), (4, 40)");
  CHECK(db.Rows("SELECT * FROM a JOIN c USING (id)") == V{"2|a2|20", "4|a4|40"});
  CHECK(db.Rows("SELECT id, z FROM a NATURAL JOIN c WHERE z > 30") == V{"4|40"});
  // Three-way join, written order.
  CHECK(db.Rows("SELECT a.v, b.w, c.z FROM a, b, c WHERE a.id = b.aid AND c.id = a.id + 1") ==
        V{"a1|b1|20", "a1|b1x|20"});
  // int4 = int8 still hashes.
  db.Create("CREATE TABLE d (k bigint)");
  db.Exec("INSERT INTO d VALUES (2), (2), (5)");
  CHECK(db.Rows("SELECT v FROM a JOIN d ON a.id = d.k") == V{"a2", "a2"});
}

TEST_CASE("aggregates: group by, having, result types", "[planner][agg]") {
  Db db;
  db.Create("CREATE TABLE s (g text, x int, y numeric, f float8)");
  db.Exec("INSERT INTO s VALUES ('a', 1, 1.5, 1), ('a', 2, NULL, 2), ('b', 3, 2, NULL), (NULL, 4, 3, 4), ('b', NULL, 1, 5)");
  auto r = db.Exec("SELECT count(*), count(x), sum(x), avg(x), min(g), max(y), sum(y), avg(f) FROM s");
  CHECK(r.rows == V{"5|4|10|2.5000000000000000|a|3|7.5|3"});
  CHECK(r.types == std::vector<hearth::types::Oid>{20, 20, 20, 1700, 25, 1700, 1700, 701});
  CHECK(db.Rows("SELECT count(*), sum(x), avg(x), max(g) FROM s WHERE x > 100") == V{"0|NULL|NULL|NULL"});
  CHECK(db.Rows("SELECT g, count(*), sum(x) FROM s GROUP BY g ORDER BY g") ==
        V{"a|2|3", "b|2|3", "NULL|1|4"});
  CHECK(db.Rows("SELECT g, count(*) FROM s GROUP BY g HAVING sum(x) > 3 OR g IS NULL ORDER BY 1") == V{"NULL|1"});
  CHECK(db.Rows("SELECT g, sum(x) FROM s GROUP BY 1 HAVING count(*) > 1 ORDER BY sum(x) DESC, g") ==
        V{"a|3", "b|3"});
  CHECK(db.Rows("SELECT x % 2 AS parity, count(*) FROM s WHERE x IS NOT NULL GROUP BY x % 2 ORDER BY parity") ==
        V{"0|2", "1|2"});
  CHECK(db.Rows("SELECT x % 2 AS parity, count(*) FROM s WHERE x IS NOT NULL GROUP BY parity ORDER BY 1") ==
        V{"0|2", "1|2"});
  CHECK(db.Rows("SELECT count(DISTINCT g), count(*) FILTER (WHERE x > 1) FROM s") == V{"2|3"});
  CHECK(db.Rows("SELECT g FROM s GROUP BY g ORDER BY count(*) DESC, g NULLS FIRST") == V{"a", "b", "NULL"});
  CHECK(db.Rows("SELECT 1 HAVING false").empty());
  CHECK(db.Rows("SELECT sum(x) + 1, max(x) - min(x) FROM s") == V{"11|3"});
  auto e = db.Error("SELECT g, x FROM s GROUP BY g");
  CHECK(e.sqlstate() == "42803");
  CHECK(e.message() == "column \"s.x\" must appear in the GROUP BY clause or be used in an aggregate function");
  CHECK(e.position() == 11);
  CHECK(db.Error("SELECT x FROM s WHERE count(*) > 1").message() == "aggregate functions are not allowed in WHERE");
  CHECK(db.Error("SELECT sum(count(*)) FROM s").message() == "aggregate function calls cannot be nested");
  CHECK(db.Error("SELECT x, count(*) FROM s").sqlstate() == "42803");
}
