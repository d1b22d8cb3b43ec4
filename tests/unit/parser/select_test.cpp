// tests/unit/parser/select_test.cpp: SELECT, VALUES, set operations, FROM.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseAs;

TEST_CASE("select: target list, aliases, star", "[parser][select]") {
  StmtPtr h;
  const auto& s = ParseAs<SelectStmt>("SELECT *, a AS x, b y, c \"Z\", t.* FROM t", h);
  REQUIRE(s.targets.size() == 5);
  CHECK(s.targets[0].expr->kind == ExprKind::kStar);
  CHECK(s.targets[1].alias == "x");
  CHECK(s.targets[2].alias == "y");
  CHECK(s.targets[3].alias == "Z");
  CHECK(s.targets[4].alias.empty());
  CHECK(s.targets[4].expr->As<ColumnRefExpr>().star);
  CHECK(s.targets[1].location == 10);
  // After AS any keyword is a label.
  const auto& s2 = ParseAs<SelectStmt>("SELECT 1 AS from, 2 AS select", h);
  CHECK(s2.targets[0].alias == "from");
  CHECK(s2.targets[1].alias == "select");
}

TEST_CASE("select: FROM with schema, alias and column aliases", "[parser][select]") {
  StmtPtr h;
  const auto& s = ParseAs<SelectStmt>("select a from public.t1 as x (c1, c2), t2 y, t3", h);
  REQUIRE(s.from.size() == 3);
  REQUIRE(s.from[0]->kind == FromKind::kTable);
  const auto& t1 = s.from[0]->As<TableRef>();
  CHECK(t1.table.schema == "public");
  CHECK(t1.table.name == "t1");
  CHECK(t1.alias.name == "x");
  CHECK(t1.alias.columns == std::vector<std::string>{"c1", "c2"});
  CHECK(s.from[1]->As<TableRef>().alias.name == "y");
  CHECK(s.from[2]->As<TableRef>().alias.name.empty());
  CHECK(s.from[2]->As<TableRef>().table.location == 45);
}

TEST_CASE("select: WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET", "[parser][select]") {
  StmtPtr h;
  const auto& s = ParseAs<SelectStmt>(
      "SELECT DISTINCT bid, sum(abalance) FROM pgbench_accounts WHERE aid > 10 "
      "GROUP BY bid HAVING count(*) > 1 ORDER BY 2 DESC NULLS LAST, bid LIMIT 10 OFFSET 5",
      h);
  CHECK(s.distinct);
  CHECK(s.distinct_on.empty());
  REQUIRE(s.where);
  CHECK(DumpExpr(*s.where) == "(aid > 10)");
  REQUIRE(s.group_by.size() == 1);
  CHECK(DumpExpr(*s.group_by[0]) == "bid");
  REQUIRE(s.having);
  REQUIRE(s.order_by.size() == 2);
  CHECK(DumpExpr(*s.order_by[0].expr) == "2");
  CHECK(s.order_by[0].dir == SortDir::kDesc);
  CHECK(s.order_by[0].nulls == NullsOrder::kLast);
  CHECK(s.order_by[1].dir == SortDir::kDefault);
  REQUIRE(s.limit);
  CHECK(DumpExpr(*s.limit) == "10");
  REQUIRE(s.offset);
  CHECK(DumpExpr(*s.offset) == "5");
}

TEST_CASE("select: LIMIT ALL, FETCH FIRST, DISTINCT ON, FOR UPDATE", "[parser][select]") {
  StmtPtr h;
  CHECK_FALSE(ParseAs<SelectStmt>("SELECT 1 LIMIT ALL", h).limit);
  const auto& f = ParseAs<SelectStmt>("SELECT a FROM t OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY", h);
  REQUIRE(f.limit);
  CHECK(DumpExpr(*f.limit) == "3");
  CHECK(DumpExpr(*f.offset) == "2");
  const auto& f1 = ParseAs<SelectStmt>("SELECT a FROM t FETCH NEXT ROW ONLY", h);
  CHECK(DumpExpr(*f1.limit) == "1");
  const auto& d = ParseAs<SelectStmt>("SELECT DISTINCT ON (a, b) a, c FROM t", h);
  CHECK(d.distinct);
  CHECK(d.distinct_on.size() == 2);
  const auto& u = ParseAs<SelectStmt>("SELECT * FROM t WHERE id = 1 FOR UPDATE OF t NOWAIT", h);
  REQUIRE(u.locking.size() == 1);
  CHECK(u.locking[0].strength == LockStrength::kUpdate);
  CHECK(u.locking[0].wait == LockWaitPolicy::kNoWait);
  CHECK(u.locking[0].tables.size() == 1);
  CHECK(ParseAs<SelectStmt>("SELECT 1 FOR SHARE", h).locking[0].strength == LockStrength::kShare);
  CHECK(ParseAs<SelectStmt>("SELECT 1 FOR NO KEY UPDATE SKIP LOCKED", h).locking[0].wait ==
        LockWaitPolicy::kSkipLocked);
}

TEST_CASE("select: joins", "[parser][select]") {
  StmtPtr h;
  const auto& s = ParseAs<SelectStmt>(
      "SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (id) CROSS JOIN d", h);
  REQUIRE(s.from.size() == 1);
  REQUIRE(s.from[0]->kind == FromKind::kJoin);
  const auto& cross = s.from[0]->As<JoinRef>();
  CHECK(cross.join_type == JoinType::kCross);
  CHECK(cross.right->As<TableRef>().table.name == "d");
  const auto& left = cross.left->As<JoinRef>();
  CHECK(left.join_type == JoinType::kLeft);
  CHECK(left.using_cols == std::vector<std::string>{"id"});
  const auto& inner = left.left->As<JoinRef>();
  CHECK(inner.join_type == JoinType::kInner);
  REQUIRE(inner.on);
  CHECK(DumpExpr(*inner.on) == "(a.id = b.id)");
  CHECK(inner.left->As<TableRef>().table.name == "a");

  const auto& r = ParseAs<SelectStmt>("SELECT * FROM a RIGHT JOIN b ON true FULL JOIN c ON false", h);
  CHECK(r.from[0]->As<JoinRef>().join_type == JoinType::kFull);
  CHECK(r.from[0]->As<JoinRef>().left->As<JoinRef>().join_type == JoinType::kRight);
  const auto& n = ParseAs<SelectStmt>("SELECT * FROM a NATURAL JOIN b, (c INNER JOIN d ON x) j", h);
  REQUIRE(n.from.size() == 2);
  CHECK(n.from[0]->As<JoinRef>().natural);
  CHECK(n.from[1]->As<JoinRef>().alias.name == "j");
}

TEST_CASE("select: subqueries and functions in FROM, LATERAL", "[parser][select]") {
  StmtPtr h;
  const auto& s = ParseAs<SelectStmt>(
      "SELECT * FROM (SELECT 1 AS x) AS sub, LATERAL (SELECT sub.x) l, generate_series(1, 3) g(n)",
      h);
  REQUIRE(s.from.size() == 3);
  REQUIRE(s.from[0]->kind == FromKind::kSubquery);
  CHECK(s.from[0]->As<SubqueryRef>().alias.name == "sub");
  CHECK(s.from[0]->As<SubqueryRef>().subquery->targets[0].alias == "x");
  CHECK_FALSE(s.from[0]->As<SubqueryRef>().lateral);
  CHECK(s.from[1]->As<SubqueryRef>().lateral);
  REQUIRE(s.from[2]->kind == FromKind::kFunction);
  const auto& f = s.from[2]->As<FunctionRef>();
  CHECK(DumpExpr(*f.call) == "generate_series(1, 3)");
  CHECK(f.alias.name == "g");
  CHECK(f.alias.columns == std::vector<std::string>{"n"});
}

TEST_CASE("select: set operations", "[parser][select]") {
  StmtPtr h;
  const auto& s = ParseAs<SelectStmt>("SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3 ORDER BY 1", h);
  CHECK(s.set_op == SetOpKind::kUnion);
  CHECK(s.set_all);
  CHECK(s.order_by.size() == 1);
  REQUIRE(s.rarg);
  CHECK(s.rarg->set_op == SetOpKind::kIntersect);
  CHECK_FALSE(s.rarg->set_all);
  CHECK(s.larg->set_op == SetOpKind::kNone);

  const auto& e = ParseAs<SelectStmt>("SELECT 1 EXCEPT SELECT 2 UNION SELECT 3", h);
  CHECK(e.set_op == SetOpKind::kUnion);
  CHECK(e.larg->set_op == SetOpKind::kExcept);

  const auto& p = ParseAs<SelectStmt>("(SELECT 1 ORDER BY 1 LIMIT 1) UNION (SELECT 2)", h);
  CHECK(p.set_op == SetOpKind::kUnion);
  CHECK(p.larg->limit);
  CHECK(p.order_by.empty());
}

TEST_CASE("select: VALUES, TABLE, parenthesized, WITH", "[parser][select]") {
  StmtPtr h;
  const auto& v = ParseAs<SelectStmt>("VALUES (1, 'a'), (2, 'b') ORDER BY 1", h);
  REQUIRE(v.values_lists.size() == 2);
  CHECK(v.values_lists[1].size() == 2);
  CHECK(DumpExpr(*v.values_lists[1][1]) == "'b'");
  CHECK(v.order_by.size() == 1);

  const auto& t = ParseAs<SelectStmt>("TABLE pgbench_branches", h);
  CHECK(t.targets[0].expr->kind == ExprKind::kStar);
  CHECK(t.from[0]->As<TableRef>().table.name == "pgbench_branches");

  const auto& p = ParseAs<SelectStmt>("((SELECT 1))", h);
  CHECK(p.targets.size() == 1);

  const auto& w = ParseAs<SelectStmt>("WITH x(a) AS (SELECT 1), y AS (SELECT 2) SELECT * FROM x, y", h);
  REQUIRE(w.with.size() == 2);
  CHECK(w.with[0].name == "x");
  CHECK(w.with[0].columns == std::vector<std::string>{"a"});
  CHECK(w.with[1].query->kind == StmtKind::kSelect);
  CHECK(w.from.size() == 2);
  CHECK(ParseAs<SelectStmt>("WITH RECURSIVE r AS (SELECT 1) SELECT 1", h).with_recursive);
}

TEST_CASE("select: no FROM, empty target list", "[parser][select]") {
  StmtPtr h;
  CHECK(ParseAs<SelectStmt>("SELECT", h).targets.empty());
  CHECK(ParseAs<SelectStmt>("SELECT FROM t", h).from.size() == 1);
}

TEST_CASE("select: psql catalog queries (best effort)", "[parser][select]") {
  StmtPtr h;
  ParseAs<SelectStmt>(
      "SELECT c.oid,\n  n.nspname,\n  c.relname\nFROM pg_catalog.pg_class c\n"
      "     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
      "WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default\n"
      "  AND pg_catalog.pg_table_is_visible(c.oid)\nORDER BY 2, 3;",
      h);
  ParseAs<SelectStmt>(
      "SELECT n.nspname as \"Schema\",\n  c.relname as \"Name\",\n"
      "  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' END as \"Type\",\n"
      "  pg_catalog.pg_get_userbyid(c.relowner) as \"Owner\"\n"
      "FROM pg_catalog.pg_class c\n     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
      "     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"
      "WHERE c.relkind IN ('r','p','')\n      AND n.nspname <> 'pg_catalog'\n"
      "      AND n.nspname !~ '^pg_toast'\n      AND n.nspname <> 'information_schema'\n"
      "  AND pg_catalog.pg_table_is_visible(c.oid)\nORDER BY 1,2;",
      h);
  ParseAs<SelectStmt>(
      "SELECT d.datname as \"Name\", pg_catalog.array_to_string(d.datacl, E'\\n') AS \"Access "
      "privileges\" FROM pg_catalog.pg_database d ORDER BY 1;",
      h);
  ParseAs<SelectStmt>(
      "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),\n"
      "  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)\n"
      "   FROM pg_catalog.pg_attrdef d\n"
      "   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),\n"
      "  a.attnotnull,\n"
      "  (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t\n"
      "   WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) "
      "AS attcollation,\n  a.attidentity,\n  a.attgenerated\nFROM pg_catalog.pg_attribute a\n"
      "WHERE a.attrelid = '16384' AND a.attnum > 0 AND NOT a.attisdropped\nORDER BY a.attnum;",
      h);
  ParseAs<SelectStmt>(
      "select o.n, p.partstrat, pg_catalog.count(i.inhparent) from pg_catalog.pg_class as c "
      "join pg_catalog.pg_namespace as n on (n.oid = c.relnamespace) "
      "cross join lateral (select pg_catalog.array_position(pg_catalog.current_schemas(true), "
      "n.nspname)) as o(n) left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) "
      "left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) "
      "where c.relname = 'pgbench_accounts' and o.n is not null "
      "group by 1, 2 order by 1 asc limit 1",
      h);
  ParseAs<SelectStmt>(
      "SELECT relkind FROM pg_catalog.pg_class WHERE oid=$1::pg_catalog.regclass", h);
}

}  // namespace
}  // namespace hearth::parser
