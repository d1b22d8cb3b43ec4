// Planner + executor: assorted shapes that must neither crash nor give
// wrong answers, and the unsupported constructs that must say so (0A000).
#include "sql_harness.h"

using sqlh::Db;
using sqlh::V;

namespace {
void Fill(Db& db) {
  db.Create("CREATE TABLE a (id int, x int)");
  db.Create("CREATE TABLE b (id int, y text)");
  db.Exec("INSERT INTO a VALUES (1, 10), (2, 20), (3, NULL)");
  db.Exec("INSERT INTO b VALUES (1, 'one'), (3, 'three'), (5, 'five')");
}
}  // namespace

TEST_CASE("misc: assorted query shapes", "[planner][misc]") {
  Db db;
  Fill(db);
  CHECK(db.Rows("SELECT count(*) FROM a JOIN b ON true") == V{"9"});
  CHECK(db.Rows("SELECT * FROM a LEFT JOIN b USING (id)") == V{"1|10|one", "2|20|NULL", "3|NULL|three"});
  CHECK(db.Rows("SELECT a.*, b.* FROM a RIGHT JOIN b USING (id)") ==
        V{"1|10|1|one", "3|NULL|3|three", "NULL|NULL|5|five"});
  CHECK(db.Rows("SELECT count(*) FROM (SELECT DISTINCT x FROM a) s") == V{"3"});
  CHECK(db.Rows("SELECT x FROM a GROUP BY x ORDER BY x LIMIT 1 OFFSET 1") == V{"20"});
  CHECK(db.Rows("SELECT 1 FROM a HAVING count(*) > 0") == V{"1"});
  CHECK(db.Rows("SELECT NULL UNION SELECT 1 ORDER BY 1") == V{"1", "NULL"});
  CHECK(db.Rows("SELECT 'a' UNION ALL SELECT 'b'") == V{"a", "b"});
  CHECK(db.Exec("SELECT '1' UNION SELECT 2").types == std::vector<hearth::types::Oid>{hearth::types::kInt4Oid});
  CHECK(db.Exec("SELECT 'a' UNION SELECT NULL").types == std::vector<hearth::types::Oid>{hearth::types::kTextOid});
  CHECK(db.Rows("SELECT x AS y FROM a ORDER BY x DESC") == V{"NULL", "20", "10"});
  CHECK(db.Rows("SELECT a.x FROM a ORDER BY x NULLS FIRST") == V{"NULL", "10", "20"});
  CHECK(db.Rows("SELECT id FROM a WHERE x IN (SELECT x FROM a a2 WHERE a2.id = a.id)") == V{"1", "2"});
  CHECK(db.Rows("SELECT (SELECT (SELECT 1))") == V{"1"});
  CHECK(db.Rows("SELECT id, x FROM a WHERE x IS DISTINCT FROM 10 ORDER BY id") == V{"2|20", "3|NULL"});
  CHECK(db.Rows("SELECT id FROM a WHERE (SELECT count(*) FROM b) = 3 AND id = 1") == V{"1"});
  CHECK(db.Rows("SELECT CASE WHEN x > 15 THEN 'big' ELSE 'small' END AS size, count(*) FROM a "
                "GROUP BY 1 ORDER BY 1") == V{"big|1", "small|2"});
  CHECK(db.Rows("SELECT * FROM (VALUES (1, 'x'), (2, 'y')) v(n, s) WHERE n > 1") == V{"2|y"});
  CHECK(db.Rows("SELECT s.* FROM (SELECT id, x * 2 AS dbl FROM a) s ORDER BY dbl DESC NULLS LAST") ==
        V{"2|40", "1|20", "3|NULL"});
  CHECK(db.Rows("SELECT max(y), min(y) FROM a JOIN b ON a.id = b.id WHERE a.x IS NULL OR a.x < 15") ==
        V{"three|one"});
  CHECK(db.Exec("INSERT INTO a SELECT * FROM a").tag == "INSERT 0 3");
  CHECK(db.Rows("SELECT count(*), count(DISTINCT id) FROM a") == V{"6|3"});
  CHECK(db.Exec("UPDATE a SET x = -x WHERE id IN (SELECT id FROM b)").tag == "UPDATE 4");
  CHECK(db.Rows("SELECT sum(x) FROM a") == V{"20"});
  CHECK(db.Rows("SELECT *, id FROM a ORDER BY id DESC LIMIT 1") == V{"3|NULL|3"});
  CHECK(db.Error("SELECT id, x AS id FROM a ORDER BY id").message() == "ORDER BY \"id\" is ambiguous");
  CHECK(db.Error("SELECT 1/0").sqlstate() == "22012");
  CHECK(db.Error("SELECT * FROM a LIMIT 'x'").sqlstate() == "22P02");
}

TEST_CASE("misc: unsupported constructs report 0A000", "[planner][misc]") {
  Db db;
  Fill(db);
  for (const char* sql : {"WITH RECURSIVE q(n) AS (SELECT 1 UNION ALL SELECT n FROM q ORDER BY 1) SELECT * FROM q",
                          "EXPLAIN ANALYZE SELECT 1", "CREATE TABLE z (i int)"}) {
    INFO(sql);
    CHECK(db.Error(sql).sqlstate() == "0A000");
  }
}

TEST_CASE("misc: ON CONFLICT on a table without unique indexes", "[planner][misc]") {
  Db db;
  Fill(db);
  // Nothing can conflict: DO NOTHING inserts; a target matches no index.
  CHECK(db.Exec("INSERT INTO a VALUES (9) ON CONFLICT DO NOTHING").tag == "INSERT 0 1");
  CHECK(db.Error("INSERT INTO a VALUES (9) ON CONFLICT (id) DO NOTHING").sqlstate() == "42P10");
  CHECK(db.Error("INSERT INTO a VALUES (9) ON CONFLICT DO UPDATE SET x = 1").sqlstate() == "42601");
}
