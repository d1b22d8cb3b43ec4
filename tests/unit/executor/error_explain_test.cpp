// Planner: name-resolution and typing errors exactly as PostgreSQL reports
// them, and EXPLAIN text.
#include "sql_harness.h"

using sqlh::Db;
using sqlh::V;

namespace {
void Fill(Db& db) {
  db.Create("CREATE TABLE a (id int, x int, name text)");
  db.Create("CREATE TABLE b (id int, x int)");
}
}  // namespace

TEST_CASE("errors: names, ambiguity, ordinals, types", "[planner][errors]") {
  Db db;
  Fill(db);
  auto e = db.Error("SELECT * FROM nosuch");
  CHECK(e.sqlstate() == "42P01");
  CHECK(e.message() == "relation \"nosuch\" does not exist");
  CHECK(e.position() == 15);
  e = db.Error("SELECT nope FROM a");
  CHECK(e.sqlstate() == "42703");
  CHECK(e.message() == "column \"nope\" does not exist");
  CHECK(e.position() == 8);
  e = db.Error("SELECT a.nope FROM a");
  CHECK(e.message() == "column a.nope does not exist");
  CHECK(e.position() == 8);
  e = db.Error("SELECT x FROM a, b");
  CHECK(e.sqlstate() == "42702");
  CHECK(e.message() == "column reference \"x\" is ambiguous");
  CHECK(e.position() == 8);
  e = db.Error("SELECT c.x FROM a");
  CHECK(e.sqlstate() == "42P01");
  CHECK(e.message() == "missing FROM-clause entry for table \"c\"");
  e = db.Error("SELECT id FROM a ORDER BY 3");
  CHECK(e.sqlstate() == "42P10");
  CHECK(e.message() == "ORDER BY position 3 is not in select list");
  CHECK(e.position() == 27);
  e = db.Error("SELECT *");
  CHECK(e.sqlstate() == "42601");
  CHECK(e.message() == "SELECT * with no tables specified is not valid");
  e = db.Error("SELECT * FROM a WHERE id");
  CHECK(e.sqlstate() == "42804");
  CHECK(e.message() == "argument of WHERE must be type boolean, not type integer");
  CHECK(db.Error("SELECT * FROM a, a").sqlstate() == "42712");
  CHECK(db.Error("SELECT * FROM (SELECT 1)").message() == "subquery in FROM must have an alias");
  CHECK(db.Error("SELECT DISTINCT id FROM a ORDER BY x").sqlstate() == "42P10");
  CHECK(db.Error("SELECT id FROM a JOIN b ON a.id").sqlstate() == "42804");
  CHECK(db.Rows("SELECT a.x, b.x FROM a, b").empty());
}

TEST_CASE("explain: enable_hashjoin = off plans nested loops", "[planner][explain]") {
  Db db;
  Fill(db);
  auto stmts = hearth::parser::ParseStatements("SELECT * FROM a JOIN b ON a.id = b.id");
  hearth::planner::PlannerOptions options;
  options.enable_hashjoin = false;
  auto plan = hearth::planner::PlanStatement(*stmts[0], db.cat, {}, options);
  CHECK(hearth::planner::ExplainLines(plan) ==
        V{"Nested Loop", "  Join Filter: (a.id = b.id)", "  ->  Seq Scan on a", "  ->  Seq Scan on b"});
  CHECK(db.Run(plan).rows == db.Rows("SELECT * FROM a JOIN b ON a.id = b.id"));
}

TEST_CASE("explain: plan text", "[planner][explain]") {
  Db db;
  Fill(db);
  CHECK(db.Explain("SELECT id FROM a WHERE x > 1") == V{"Seq Scan on a", "  Filter: (x > 1)"});
  CHECK(db.Explain("SELECT * FROM a JOIN b ON a.id = b.id") ==
        V{"Hash Join", "  Hash Cond: (a.id = b.id)", "  ->  Seq Scan on a", "  ->  Hash",
          "        ->  Seq Scan on b"});
  CHECK(db.Explain("SELECT * FROM a LEFT JOIN b bb ON a.x < bb.x") ==
        V{"Nested Loop Left Join", "  Join Filter: (a.x < bb.x)", "  ->  Seq Scan on a", "  ->  Seq Scan on b bb"});
  CHECK(db.Explain("SELECT x, count(*) FROM a WHERE id > $1 GROUP BY x HAVING count(*) > 1 ORDER BY x DESC LIMIT 3") ==
        V{"Limit", "  ->  Sort", "        Sort Key: x DESC", "        ->  HashAggregate", "              Group Key: x",
          "              Filter: (count(*) > 1)", "              ->  Seq Scan on a",
          "                    Filter: (id > $1)"});
  CHECK(db.Explain("SELECT count(*) FROM a") == V{"Aggregate", "  ->  Seq Scan on a"});
  // Comma join: the equality becomes the hash key, single-table conditions
  // filter their scan (printed unqualified, as PostgreSQL does).
  CHECK(db.Explain("SELECT * FROM a, b WHERE a.id = b.id AND a.x > 5 AND b.x < a.x") ==
        V{"Hash Join", "  Hash Cond: (a.id = b.id)", "  Join Filter: (b.x < a.x)", "  ->  Seq Scan on a",
          "        Filter: (x > 5)", "  ->  Hash", "        ->  Seq Scan on b"});
  CHECK(db.Explain("SELECT * FROM a, b") == V{"Nested Loop", "  ->  Seq Scan on a", "  ->  Seq Scan on b"});
  CHECK(db.Explain("SELECT 1") == V{"Result"});
  CHECK(db.Explain("SELECT id FROM a ORDER BY name NULLS FIRST, x") ==
        V{"Sort", "  Sort Key: name NULLS FIRST, x", "  ->  Seq Scan on a"});
  CHECK(db.Explain("INSERT INTO a VALUES (1, 2, 'x')") == V{"Insert on a", "  ->  Result"});
  CHECK(db.Explain("INSERT INTO a VALUES (1, 2, 'x'), (3, 4, 'y')") ==
        V{"Insert on a", "  ->  Values Scan on \"*VALUES*\""});
  CHECK(db.Explain("UPDATE a SET x = x + 1 WHERE id = 1") ==
        V{"Update on a", "  ->  Seq Scan on a", "        Filter: (id = 1)"});
  CHECK(db.Explain("DELETE FROM a") == V{"Delete on a", "  ->  Seq Scan on a"});
  CHECK(db.Explain("SELECT id FROM a WHERE x = (SELECT max(x) FROM b)") ==
        V{"Seq Scan on a", "  Filter: (x = (SubPlan))",
          "  InitPlan 1 (returns $1)", "    ->  Aggregate", "          ->  Seq Scan on b"});
  auto r = db.Exec("EXPLAIN SELECT 1");
  CHECK(r.names == V{"QUERY PLAN"});
  CHECK(r.tag == "EXPLAIN");
}
