#include "expr_harness.h"

using namespace harness;
using namespace hearth::types;

TEST_CASE("literals get PostgreSQL's types", "[expr]") {
  CHECK(Run("1").type == kInt4Oid);
  CHECK(Run("2147483648").type == kInt8Oid);
  CHECK(Run("-2147483648").type == kInt4Oid);
  CHECK(Run("9223372036854775808").type == kNumericOid);
  CHECK(Run("1.50").type == kNumericOid);
  CHECK(Text("1.50") == "1.50");
  CHECK(Run("'abc'").type == kTextOid);
  CHECK(Text("'abc'") == "abc");
  CHECK(Run("true").type == kBoolOid);
  CHECK(Text("NULL") == "NULL");
}

TEST_CASE("arithmetic end to end", "[expr]") {
  Result r = Run("1+2");
  CHECK(r.text == "3");
  CHECK(r.type == kInt4Oid);
  CHECK(Text("7 / 2") == "3");
  CHECK(Text("7 % 3") == "1");
  CHECK(Text("-7 / 2") == "-3");
  CHECK(Text("2 * 3 + 4") == "10");
  CHECK(Text("1.10 + 2.205") == "3.305");
  CHECK(Text("10::numeric / 3") == "3.3333333333333333");
  CHECK(Text("2 ^ 10") == "1024");
  CHECK(Run("2 ^ 10").type == kFloat8Oid);
  CHECK(Text("0.1::float8 + 0.2::float8") == "0.30000000000000004");
  CHECK(Text("1::float4 / 3") == "0.3333333333333333");
  CHECK(Run("1::float4 / 3").type == kFloat8Oid);
  CHECK(Run("1::float4 + 1::float4").type == kFloat4Oid);
  CHECK(Text("5 / 2.0") == "2.5000000000000000");
  CHECK(Text("'1' + 2") == "3");
  CHECK(Run("'1' + 2").type == kInt4Oid);
  CHECK(Text("1 + 2::int8") == "3");
  CHECK(Run("1 + 2::int8").type == kInt8Oid);
  CHECK(Run("1 + 1.5").type == kNumericOid);
  CHECK(Text("1 + 1.5") == "2.5");
  CHECK(Text("- (3)") == "-3");
  CHECK(Text("abs(-4)") == "4");
  CHECK(Text("mod(10, 4)") == "2");
}

TEST_CASE("runtime errors carry PostgreSQL's SQLSTATEs", "[expr]") {
  auto e = Error("2147483647 + 1");
  CHECK(e.sqlstate() == "22003");
  CHECK(e.message() == "integer out of range");
  auto z = Error("1/0");
  CHECK(z.sqlstate() == "22012");
  CHECK(z.message() == "division by zero");
  CHECK(Error("1.0 / 0").sqlstate() == "22012");
  CHECK(Error("'abc'::int").message() == "invalid input syntax for type integer: \"abc\"");
  CHECK(Error("'abc'::int").position() == 8);
  CHECK(Error("'2026-13-01'::date").sqlstate() == "22008");
  auto lit = Error("substr('abc', 'x')");
  CHECK(lit.sqlstate() == "22P02");
  CHECK(lit.message() == "invalid input syntax for type integer: \"x\"");
  CHECK(lit.position() == 22);
  CHECK(Text("'abc'::varchar(2) || 'x'") == "abx");
}

TEST_CASE("bind errors carry positions", "[expr][errors]") {
  auto e = Error("1 + true");
  CHECK(e.sqlstate() == "42883");
  CHECK(e.message() == "operator does not exist: integer + boolean");
  CHECK(e.hint() ==
        "No operator matches the given name and argument types. You might need to add explicit "
        "type casts.");
  CHECK(e.position() == 10);  // at the operator, as PostgreSQL reports it
  auto c = Error("x");
  CHECK(c.sqlstate() == "42703");
  CHECK(c.message() == "column \"x\" does not exist");
  CHECK(c.position() == 8);
  auto f = Error("foo(1)");
  CHECK(f.sqlstate() == "42883");
  CHECK(f.message() == "function foo(integer) does not exist");
  CHECK(f.position() == 8);
  CHECK(Error("count(*)").sqlstate() == "0A000");
  CHECK(Error("'x'::nosuchtype").sqlstate() == "42704");
  CHECK(Error("'x'::nosuchtype").message() == "type \"nosuchtype\" does not exist");
  CHECK(Error("1 AND true").message() == "argument of AND must be type boolean, not type integer");
  CHECK(Error("CASE WHEN 1 THEN 2 END").sqlstate() == "42804");
  CHECK(Error("CASE WHEN true THEN 1 ELSE false END").message() ==
        "CASE types boolean and integer cannot be matched");
  CHECK(Error("true::date").message() == "cannot cast type boolean to date");
}

TEST_CASE("NULL semantics and three-valued logic", "[expr][null]") {
  CHECK(Text("NULL IS NULL") == "t");
  CHECK(Text("1 IS NULL") == "f");
  CHECK(Text("NULL IS NOT NULL") == "f");
  CHECK(Text("NULL + 1") == "NULL");
  CHECK(Text("NULL = NULL") == "NULL");
  CHECK(Text("NULL AND false") == "f");
  CHECK(Text("NULL AND true") == "NULL");
  CHECK(Text("NULL OR true") == "t");
  CHECK(Text("NULL OR false") == "NULL");
  CHECK(Text("NOT NULL::bool") == "NULL");
  CHECK(Text("NOT false") == "t");
  CHECK(Text("NULL IS DISTINCT FROM 1") == "t");
  CHECK(Text("NULL IS NOT DISTINCT FROM NULL") == "t");
  CHECK(Text("1 IS DISTINCT FROM 1") == "f");
  CHECK(Text("NULL::bool IS UNKNOWN") == "t");
  CHECK(Text("true IS NOT TRUE") == "f");
}

TEST_CASE("IN, BETWEEN, CASE, COALESCE, NULLIF, GREATEST", "[expr]") {
  CHECK(Text("1 IN (2, 3, NULL)") == "NULL");
  CHECK(Text("1 IN (1, NULL)") == "t");
  CHECK(Text("1 NOT IN (2, 3)") == "t");
  CHECK(Text("1 NOT IN (2, NULL)") == "NULL");
  CHECK(Text("2 IN (1.5, 2.0)") == "t");
  CHECK(Text("'b' IN ('a', 'b')") == "t");
  CHECK(Text("5 BETWEEN 1 AND 10") == "t");
  CHECK(Text("5 NOT BETWEEN 1 AND 10") == "f");
  CHECK(Text("5 BETWEEN 10 AND 1") == "f");
  CHECK(Text("5 BETWEEN SYMMETRIC 10 AND 1") == "t");
  CHECK(Text("CASE WHEN null THEN 1 ELSE 2 END") == "2");
  CHECK(Text("CASE WHEN 1 > 0 THEN 'pos' ELSE 'neg' END") == "pos");
  CHECK(Run("CASE WHEN true THEN 1 ELSE 2.5 END").type == kNumericOid);
  CHECK(Text("CASE WHEN false THEN 1 END") == "NULL");
  CHECK(Text("CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END") == "two");
  CHECK(Text("CASE 3 WHEN 1 THEN 'one' ELSE 'other' END") == "other");
  CHECK(Text("CASE 1 WHEN 1 THEN CASE 2 WHEN 2 THEN 'inner' END END") == "inner");
  CHECK(Text("COALESCE(NULL, 2, 3)") == "2");
  CHECK(Run("COALESCE(NULL, 2, 3.5)").type == kNumericOid);
  CHECK(Text("COALESCE(NULL, NULL)") == "NULL");
  CHECK(Text("NULLIF(1, 1)") == "NULL");
  CHECK(Text("NULLIF(1, 2)") == "1");
  CHECK(Text("GREATEST(1, 5, NULL, 3)") == "5");
  CHECK(Text("LEAST(4, 2.5)") == "2.5");
}

TEST_CASE("strings, LIKE and casts end to end", "[expr][string]") {
  CHECK(Text("'abc' LIKE 'a%'") == "t");
  CHECK(Text("'abc' NOT LIKE 'a%'") == "f");
  CHECK(Text("'ABC' ILIKE 'a%'") == "t");
  CHECK(Text("'a%c' LIKE 'a#%c' ESCAPE '#'") == "t");
  CHECK(Text("'abc' LIKE NULL") == "NULL");
  CHECK(Text("'ab' || 'cd'") == "abcd");
  CHECK(Text("'n=' || 42") == "n=42");
  CHECK(Text("1::text") == "1");
  CHECK(Text("'abcdef'::varchar(3)") == "abc");
  CHECK(Text("'ab'::char(4) || '|'") == "ab|");
  CHECK(Text("'ab'::char(4) = 'ab'") == "t");
  CHECK(Text("length('héllo')") == "5");
  CHECK(Text("upper('abc')") == "ABC");
  CHECK(Text("substring('hello' from 2 for 3)") == "ell");
  CHECK(Text("position('ll' in 'hello')") == "3");
  CHECK(Text("trim('  x  ')") == "x");
  CHECK(Text("concat('a', 1, NULL, 2.50)") == "a12.50");
  CHECK(Text("3.7::int") == "4");
  CHECK(Text("2.5::float8::int") == "2");
  CHECK(Text("true::int") == "1");
  CHECK(Text("date '2026-11-30'") == "2026-11-30");
  CHECK(Text("date '2026-11-30' + 1") == "2026-12-01");
  CHECK(Text("date '2026-11-30' - date '2026-11-01'") == "29");
  CHECK(Text("'2026-11-30 10:00'::timestamp") == "2026-11-30 10:00:00");
  CHECK(Text("'2026-11-30'::date < '2026-11-30 00:00:01'::timestamp") == "t");
  CHECK(Text("round(2.567, 2)") == "2.57");
  CHECK(Text("'1.5'::numeric(5,2)") == "1.50");
  CHECK(Error("123.456::numeric(4,2)").message() == "numeric field overflow");
}

TEST_CASE("session functions use the eval context", "[expr][session]") {
  hearth::types::SessionCallbacks cb;
  cb.database_name = [] { return std::string("bench"); };
  cb.current_user = [] { return std::string("bob"); };
  cb.transaction_timestamp = [] { return int64_t{0}; };
  cb.get_setting = [](std::string_view n) -> std::optional<std::string> {
    if (n == "server_version") return std::string("15.0");
    return std::nullopt;
  };
  cb.backend_pid = [] { return 77; };
  EvalContext ectx;
  ectx.func.session = &cb;
  CHECK(Run("current_database()", nullptr, &ectx).text == "bench");
  CHECK(Run("current_user", nullptr, &ectx).text == "bob");
  CHECK(Run("current_user", nullptr, &ectx).type == kNameOid);
  CHECK(Run("now()", nullptr, &ectx).text == "2000-01-01 00:00:00+00");
  CHECK(Run("CURRENT_TIMESTAMP", nullptr, &ectx).type == kTimestampTzOid);
  CHECK(Run("current_date", nullptr, &ectx).text == "2000-01-01");
  CHECK(Run("current_setting('server_version')", nullptr, &ectx).text == "15.0");
  CHECK(Run("pg_backend_pid()", nullptr, &ectx).text == "77");
  CHECK(Run("version()", nullptr, &ectx).text.rfind("PostgreSQL 15", 0) == 0);
}

TEST_CASE("output column names follow PostgreSQL", "[expr][names]") {
  auto name = [](const std::string& e) { return hearth::executor::OutputColumnName(Parse(e).expr()); };
  CHECK(name("abalance") == "abalance");
  CHECK(name("t.abalance") == "abalance");
  CHECK(name("count(*)") == "count");
  CHECK(name("lower('X')") == "lower");
  CHECK(name("1::text") == "text");
  CHECK(name("'x'::varchar(5)") == "varchar");
  CHECK(name("1::integer") == "int4");
  CHECK(name("'x'::char") == "bpchar");
  CHECK(name("a::text") == "a");
  CHECK(name("CASE WHEN true THEN 1 END") == "case");
  CHECK(name("1 + 2") == "?column?");
  CHECK(name("$1") == "?column?");
  CHECK(name("current_timestamp") == "current_timestamp");
  CHECK(name("true") == "?column?");  // PostgreSQL 15 (checked on 15.18)
  CHECK(name("coalesce(a, 1)") == "coalesce");
}

TEST_CASE("column references go through the resolver", "[expr][columns]") {
  BindContext b;
  b.resolve_column = [](const hearth::parser::ColumnRefExpr& c) -> std::optional<hearth::executor::ColumnBinding> {
    if (c.fields.back() == "abalance") return hearth::executor::ColumnBinding{1, kInt4Oid, -1};
    if (c.fields.back() == "filler") return hearth::executor::ColumnBinding{0, kBpcharOid, CharTypmod(4)};
    return std::nullopt;
  };
  Value row[2] = {Value::Bytes(kBpcharOid, "ab  "), Value::Int4(100)};
  EvalContext e;
  e.row = row;
  e.nrow = 2;
  CHECK(Run("abalance + -3861", &b, &e).text == "-3761");
  CHECK(Run("abalance > 50 AND filler = 'ab'", &b, &e).text == "t");
  auto err = Error("nosuch + 1");
  CHECK(err.sqlstate() == "42703");
  hearth::executor::BindContext b2 = b;
  try {
    Run("nosuch", &b2, &e);
    FAIL("expected 42703");
  } catch (const hearth::DbError& ex) {
    CHECK(ex.sqlstate() == "42703");
    CHECK(ex.position() == 8);
  }
  Parsed p = Parse("filler");
  auto bound = hearth::executor::BindExpr(p.expr(), b);
  auto rc = hearth::executor::DescribeResult(*bound);
  CHECK(rc.type == kBpcharOid);
  CHECK(rc.typmod == 8);
  CHECK(rc.typlen == -1);
}
