// tests/unit/parser/expr_test.cpp: expression trees and precedence.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::Dump;
using test::ParseExpr1;

TEST_CASE("expr: constants", "[parser][expr]") {
  auto e = ParseExpr1("42");
  REQUIRE(e->kind == ExprKind::kConst);
  CHECK(e->As<ConstExpr>().const_kind == ConstKind::kInteger);
  CHECK(e->As<ConstExpr>().value == "42");
  CHECK(e->location == 7);

  auto big = ParseExpr1("99999999999999999999");
  CHECK(big->As<ConstExpr>().const_kind == ConstKind::kInteger);
  CHECK(big->As<ConstExpr>().value == "99999999999999999999");

  auto n = ParseExpr1("1.5e3");
  CHECK(n->As<ConstExpr>().const_kind == ConstKind::kNumeric);
  CHECK(n->As<ConstExpr>().value == "1.5e3");

  auto s = ParseExpr1("'abc'");
  CHECK(s->As<ConstExpr>().const_kind == ConstKind::kString);
  CHECK(s->As<ConstExpr>().value == "abc");

  auto b = ParseExpr1("TRUE");
  CHECK(b->As<ConstExpr>().const_kind == ConstKind::kBool);
  CHECK(b->As<ConstExpr>().bool_value);
  CHECK_FALSE(ParseExpr1("false")->As<ConstExpr>().bool_value);

  CHECK(ParseExpr1("NULL")->As<ConstExpr>().const_kind == ConstKind::kNull);
}

TEST_CASE("expr: negative literals are folded", "[parser][expr]") {
  auto e = ParseExpr1("-2147483648");
  REQUIRE(e->kind == ExprKind::kConst);
  CHECK(e->As<ConstExpr>().value == "-2147483648");
  CHECK(e->location == 7);
  CHECK(Dump("- -5") == "5");
  CHECK(Dump("-x") == "(- x)");
  CHECK(Dump("-1.5") == "-1.5");
}

TEST_CASE("expr: arithmetic precedence", "[parser][expr]") {
  CHECK(Dump("1 + 2 * 3") == "(1 + (2 * 3))");
  CHECK(Dump("(1 + 2) * 3") == "((1 + 2) * 3)");
  CHECK(Dump("1 - 2 - 3") == "((1 - 2) - 3)");
  CHECK(Dump("8 / 4 % 3") == "((8 / 4) % 3)");
  CHECK(Dump("-2 ^ 2") == "(-2 ^ 2)");
  CHECK(Dump("2 ^ 3 ^ 2") == "((2 ^ 3) ^ 2)");
  CHECK(Dump("2 * 3 ^ 2") == "(2 * (3 ^ 2))");
  CHECK(Dump("- a ^ 2") == "((- a) ^ 2)");
  CHECK(Dump("a + -3861") == "(a + -3861)");
}

TEST_CASE("expr: boolean precedence", "[parser][expr]") {
  CHECK(Dump("a OR b AND c") == "(a OR (b AND c))");
  CHECK(Dump("a AND b OR c") == "((a AND b) OR c)");
  CHECK(Dump("NOT a AND b") == "((NOT a) AND b)");
  CHECK(Dump("NOT a = b") == "(NOT (a = b))");
  CHECK(Dump("a = 1 AND b <> 2") == "((a = 1) AND (b <> 2))");
  CHECK(Dump("a != b") == "(a <> b)");
  CHECK(Dump("a < b + 1") == "(a < (b + 1))");
  CHECK(Dump("a = b IS NULL") == "((a = b) IS NULL)");
}

TEST_CASE("expr: other operators bind between comparison and +", "[parser][expr]") {
  CHECK(Dump("a || b = c") == "((a || b) = c)");
  CHECK(Dump("a || b + 1") == "(a || (b + 1))");
  CHECK(Dump("a ~ 'x' AND b !~ 'y'") == "((a ~ 'x') AND (b !~ 'y'))");
  CHECK(Dump("a ~~ 'x%'") == "(a ~~ 'x%')");
  CHECK(Dump("c.relname OPERATOR(pg_catalog.~) '^(t)$'") == "(c.relname ~ '^(t)$')");
  CHECK(Dump("a LIKE b || 'x'") == "(a LIKE (b || 'x'))");
  CHECK(Dump("~ 5 + 1") == "(~ (5 + 1))");
  CHECK(Dump("~ a || b") == "((~ a) || b)");
  CHECK(Dump("1 + @ -5") == "(1 + (@ -5))");
}

TEST_CASE("expr: column references", "[parser][expr]") {
  auto e = ParseExpr1("s.t.col");
  REQUIRE(e->kind == ExprKind::kColumnRef);
  CHECK(e->As<ColumnRefExpr>().fields == std::vector<std::string>{"s", "t", "col"});
  CHECK_FALSE(e->As<ColumnRefExpr>().star);
  auto star = ParseExpr1("t.*");
  CHECK(star->As<ColumnRefExpr>().fields == std::vector<std::string>{"t"});
  CHECK(star->As<ColumnRefExpr>().star);
  CHECK(Dump("\"Quoted Col\"") == "Quoted Col");
  // Non-reserved keywords and type names are fine as column names.
  CHECK(Dump("name + key + value + type + filler + text + date") ==
        "((((((name + key) + value) + type) + filler) + text) + date)");
  CHECK(Dump("time") == "time");
}

TEST_CASE("expr: parameters", "[parser][expr]") {
  auto e = ParseExpr1("$3");
  REQUIRE(e->kind == ExprKind::kParamRef);
  CHECK(e->As<ParamRefExpr>().number == 3);
}

TEST_CASE("expr: casts and typed literals", "[parser][expr]") {
  CHECK(Dump("x::int") == "CAST(x AS int4)");
  CHECK(Dump("x::integer::text") == "CAST(CAST(x AS int4) AS text)");
  CHECK(Dump("CAST(x AS varchar(10))") == "CAST(x AS varchar(10))");
  CHECK(Dump("'1'::numeric(10,2)") == "CAST('1' AS numeric(10,2))");
  CHECK(Dump("x::double precision") == "CAST(x AS float8)");
  CHECK(Dump("x::character varying") == "CAST(x AS varchar)");
  CHECK(Dump("x::char(3)") == "CAST(x AS bpchar(3))");
  CHECK(Dump("x::timestamp with time zone") == "CAST(x AS timestamptz)");
  CHECK(Dump("x::timestamp without time zone") == "CAST(x AS timestamp)");
  CHECK(Dump("x::int[]") == "CAST(x AS int4[])");
  CHECK(Dump("oid::pg_catalog.regclass") == "CAST(oid AS pg_catalog.regclass)");
  CHECK(Dump("-x::int") == "(- CAST(x AS int4))");
  CHECK(Dump("date '2026-01-01'") == "CAST('2026-01-01' AS date)");
  CHECK(Dump("timestamp '2026-01-01 10:00'") == "CAST('2026-01-01 10:00' AS timestamp)");
  CHECK(Dump("interval '1 day'") == "CAST('1 day' AS interval)");
  CHECK(Dump("integer '5'") == "CAST('5' AS int4)");
  CHECK(Dump("boolean 't'") == "CAST('t' AS bool)");
  CHECK(Dump("x::float(10)") == "CAST(x AS float4)");
  CHECK(Dump("x::bigint + 1::smallint") == "(CAST(x AS int8) + CAST(1 AS int2))");

  auto e = ParseExpr1("x::pg_catalog.regclass");
  REQUIRE(e->kind == ExprKind::kCast);
  CHECK(e->As<CastExpr>().type.name == "regclass");
  CHECK(e->As<CastExpr>().type.schema == "pg_catalog");
  CHECK(e->location == 8);  // the '::'
}

TEST_CASE("expr: IN lists and subqueries", "[parser][expr]") {
  auto e = ParseExpr1("a IN (1, 2, 3)");
  REQUIRE(e->kind == ExprKind::kInList);
  CHECK(e->As<InListExpr>().items.size() == 3);
  CHECK_FALSE(e->As<InListExpr>().negated);
  CHECK(Dump("a NOT IN ('x')") == "(a NOT IN ('x'))");
  CHECK(Dump("relkind IN ('r','p','')") == "(relkind IN ('r', 'p', ''))");

  auto sub = ParseExpr1("a IN (SELECT b FROM t)");
  REQUIRE(sub->kind == ExprKind::kSubLink);
  CHECK(sub->As<SubLinkExpr>().sublink_kind == SubLinkKind::kAny);
  CHECK(sub->As<SubLinkExpr>().op == "=");
  REQUIRE(sub->As<SubLinkExpr>().subselect);
  CHECK(sub->As<SubLinkExpr>().subselect->from.size() == 1);
  CHECK(Dump("a NOT IN (SELECT 1)") == "(NOT (a = ANY(SELECT ...)))");
  CHECK(Dump("EXISTS (SELECT 1)") == "EXISTS(SELECT ...)");
  CHECK(Dump("(SELECT max(x) FROM t) + 1") == "((SELECT ...) + 1)");
  CHECK(Dump("a > ALL (SELECT 1)") == "(a > ALL(SELECT ...))");
  CHECK(Dump("a = ANY (SELECT 1)") == "(a = ANY(SELECT ...))");
  CHECK(Dump("oid = ANY($1)") == "(oid = ANY($1))");
  CHECK(Dump("ARRAY(SELECT 1)") == "ARRAY(SELECT ...)");
}

TEST_CASE("expr: BETWEEN, LIKE, IS", "[parser][expr]") {
  CHECK(Dump("a BETWEEN 1 AND 2 AND b") == "((a BETWEEN 1 AND 2) AND b)");
  CHECK(Dump("a NOT BETWEEN SYMMETRIC 1 AND 2 + 3") == "(a NOT BETWEEN SYMMETRIC 1 AND (2 + 3))");
  CHECK(Dump("a LIKE 'x%' ESCAPE '!'") == "(a LIKE 'x%' ESCAPE '!')");
  CHECK(Dump("a NOT ILIKE 'x'") == "(a NOT ILIKE 'x')");
  CHECK(Dump("a IS NULL") == "(a IS NULL)");
  CHECK(Dump("a IS NOT NULL OR b ISNULL") == "((a IS NOT NULL) OR (b IS NULL))");
  CHECK(Dump("a NOTNULL") == "(a IS NOT NULL)");
  CHECK(Dump("a IS TRUE") == "(a IS TRUE)");
  CHECK(Dump("a IS NOT UNKNOWN") == "(a IS NOT UNKNOWN)");
  CHECK(Dump("a IS DISTINCT FROM b + 1") == "(a IS DISTINCT FROM (b + 1))");
  CHECK(Dump("a IS NOT DISTINCT FROM NULL") == "(a IS NOT DISTINCT FROM NULL)");
  CHECK(Dump("a SIMILAR TO 'x'") == "(a ~ similar_to_escape('x'))");
  CHECK(Dump("a ILIKE ANY (ARRAY['x', 'y'])") == "(a ~~* ANY(ARRAY['x', 'y']))");
  CHECK(Dump("a NOT LIKE ALL (b)") == "(a !~~ ALL(b))");
  CHECK(Dump("interval '2' day") == "CAST('2 day' AS interval)");
  CHECK(Dump("interval '1-2' year to month") == "CAST('1-2' AS interval)");
}

TEST_CASE("expr: CASE", "[parser][expr]") {
  auto e = ParseExpr1("CASE WHEN a > 1 THEN 'x' WHEN a IS NULL THEN 'y' ELSE 'z' END");
  REQUIRE(e->kind == ExprKind::kCase);
  const auto& c = e->As<CaseExpr>();
  CHECK_FALSE(c.operand);
  CHECK(c.whens.size() == 2);
  REQUIRE(c.else_result);
  CHECK(Dump("CASE x WHEN 1 THEN 2 END") == "CASE x WHEN 1 THEN 2 END");
  CHECK(Dump("CASE WHEN a THEN b ELSE c END + 1") == "(CASE WHEN a THEN b ELSE c END + 1)");
}

TEST_CASE("expr: function calls", "[parser][expr]") {
  auto e = ParseExpr1("count(*)");
  REQUIRE(e->kind == ExprKind::kFuncCall);
  CHECK(e->As<FuncCallExpr>().star);
  CHECK(e->As<FuncCallExpr>().args.empty());
  CHECK(e->As<FuncCallExpr>().name == std::vector<std::string>{"count"});

  auto d = ParseExpr1("COUNT(DISTINCT a)");
  CHECK(d->As<FuncCallExpr>().distinct);
  CHECK(d->As<FuncCallExpr>().args.size() == 1);

  CHECK(Dump("pg_catalog.count(i.inhparent)") == "pg_catalog.count(i.inhparent)");
  CHECK(Dump("now()") == "now()");
  CHECK(Dump("left(s, 3)") == "left(s, 3)");
  CHECK(Dump("coalesce(a, b, 0)") == "coalesce(a, b, 0)");
  CHECK(Dump("NULLIF(a, '')") == "nullif(a, '')");
  CHECK(Dump("greatest(1, 2)") == "greatest(1, 2)");
  CHECK(Dump("least(1, 2)") == "least(1, 2)");
  CHECK(Dump("string_agg(x, ',' ORDER BY y)") == "string_agg(x, ',' ORDER BY y)");
  CHECK(Dump("sum(x) FILTER (WHERE x > 0)") == "sum(x) FILTER((x > 0))");
  CHECK(Dump("row_number() OVER (PARTITION BY a ORDER BY b)") == "row_number() OVER(...)");
  CHECK(Dump("extract(year FROM d)") == "extract('year', d)");
  CHECK(Dump("position('b' IN s)") == "position(s, 'b')");
  CHECK(Dump("substring(s FROM 2 FOR 3)") == "substring(s, 2, 3)");
  CHECK(Dump("substring(s, 2)") == "substring(s, 2)");
  CHECK(Dump("trim(both 'x' FROM s)") == "btrim(s, 'x')");
  CHECK(Dump("trim(leading FROM s)") == "ltrim(s)");
  CHECK(Dump("trim(s)") == "btrim(s)");
  CHECK(Dump("current_schema()") == "current_schema()");
  CHECK(Dump("ts AT TIME ZONE 'UTC'") == "timezone('UTC', ts)");
}

TEST_CASE("expr: SQL value functions", "[parser][expr]") {
  auto e = ParseExpr1("CURRENT_TIMESTAMP");
  REQUIRE(e->kind == ExprKind::kSqlValueFunction);
  CHECK(e->As<SqlValueFunctionExpr>().op == SqlValueFunctionOp::kCurrentTimestamp);
  CHECK(Dump("current_date") == "CURRENT_DATE");
  CHECK(Dump("current_time") == "CURRENT_TIME");
  CHECK(Dump("localtimestamp") == "LOCALTIMESTAMP");
  CHECK(Dump("current_user") == "CURRENT_USER");
  CHECK(Dump("session_user") == "SESSION_USER");
  CHECK(Dump("user") == "USER");
  CHECK(Dump("current_catalog") == "CURRENT_CATALOG");
  CHECK(Dump("current_schema") == "CURRENT_SCHEMA");
  CHECK(Dump("current_timestamp(3)") == "CURRENT_TIMESTAMP(3)");
}

TEST_CASE("expr: collate, arrays, rows, subscripts", "[parser][expr]") {
  CHECK(Dump("a COLLATE \"C\"") == "(a COLLATE C)");
  CHECK(Dump("'^(t)$' COLLATE pg_catalog.default") == "('^(t)$' COLLATE pg_catalog.default)");
  CHECK(Dump("ARRAY[1, 2]") == "ARRAY[1, 2]");
  CHECK(Dump("ARRAY[[1], [2]]") == "ARRAY[ARRAY[1], ARRAY[2]]");
  CHECK(Dump("ROW(1, 'a')") == "ROW(1, 'a')");
  CHECK(Dump("(1, 2)") == "ROW(1, 2)");
  CHECK(Dump("a[1]") == "a[1]");
  CHECK(Dump("a[1:2]") == "a[1:2]");
  CHECK(Dump("(a)[2]") == "a[2]");
}

TEST_CASE("expr: locations point at operators and first tokens", "[parser][expr]") {
  auto e = ParseExpr1("a + b");
  CHECK(e->location == 9);
  CHECK(e->As<BinaryOpExpr>().left->location == 7);
  CHECK(e->As<BinaryOpExpr>().right->location == 11);
  auto f = ParseExpr1("f(x)");
  CHECK(f->location == 7);
  CHECK(f->As<FuncCallExpr>().args[0]->location == 9);
}

}  // namespace
}  // namespace hearth::parser
