// tests/unit/parser/error_test.cpp: error messages and positions, and
// multi-statement splitting (text and location of each statement).
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseError;

TEST_CASE("errors: syntax error at or near a token, 1-based position", "[parser][error]") {
  auto e = ParseError("SELECT 1 +;");
  CHECK(e.sqlstate == "42601");
  CHECK(e.message == "syntax error at or near \";\"");
  CHECK(e.position == 11);

  e = ParseError("SELEC 1");
  CHECK(e.message == "syntax error at or near \"SELEC\"");
  CHECK(e.position == 1);

  e = ParseError("SELECT * FROM select");
  CHECK(e.message == "syntax error at or near \"select\"");
  CHECK(e.position == 15);

  e = ParseError("SELECT a = b = c");
  CHECK(e.message == "syntax error at or near \"=\"");
  CHECK(e.position == 14);

  e = ParseError("CREATE TABLE t (a int,)");
  CHECK(e.message == "syntax error at or near \")\"");
  CHECK(e.position == 23);

  e = ParseError("SELECT 1; SELEC 2");
  CHECK(e.message == "syntax error at or near \"SELEC\"");
  CHECK(e.position == 11);

  e = ParseError("SELECT 1 2");
  CHECK(e.message == "syntax error at or near \"2\"");
  CHECK(e.position == 10);

  e = ParseError("SELECT (1; SELECT 2");
  CHECK(e.message == "syntax error at or near \";\"");
  CHECK(e.position == 10);
}

TEST_CASE("errors: end of input", "[parser][error]") {
  auto e = ParseError("SELECT (1");
  CHECK(e.sqlstate == "42601");
  CHECK(e.message == "syntax error at end of input");
  CHECK(e.position == 10);
  e = ParseError("SELECT 1 FROM  ");
  CHECK(e.message == "syntax error at end of input");
  CHECK(e.position == 16);
  e = ParseError("INSERT INTO");
  CHECK(e.message == "syntax error at end of input");
}

TEST_CASE("errors: positions count characters, not bytes", "[parser][error]") {
  auto e = ParseError("SELECT '\xc3\xa9' +;");
  CHECK(e.message == "syntax error at or near \";\"");
  CHECK(e.position == 13);
}

TEST_CASE("errors: ErrorPosition converts AST locations", "[parser][error]") {
  std::string sql = "SELECT '\xc3\xa9\xc3\xa9', x";
  StmtPtr s = test::ParseOne(sql);
  const auto& x = *s->As<SelectStmt>().targets[1].expr;
  CHECK(x.location == 15);
  CHECK(ErrorPosition(sql, x.location) == 14);
  CHECK(ErrorPosition(sql, -1) == 0);
}

TEST_CASE("errors: lexical errors", "[parser][error]") {
  auto e = ParseError("SELECT 'abc");
  CHECK(e.sqlstate == "42601");
  CHECK(e.message == "unterminated quoted string at or near \"'abc\"");
  CHECK(e.position == 8);

  e = ParseError("SELECT E'abc\\'");
  CHECK(e.message == "unterminated quoted string at or near \"E'abc\\'\"");
  CHECK(e.position == 8);

  e = ParseError("SELECT \"abc");
  CHECK(e.message == "unterminated quoted identifier at or near \"\"abc\"");

  e = ParseError("SELECT 1 /* x");
  CHECK(e.message == "unterminated /* comment at or near \"/* x\"");
  CHECK(e.position == 10);

  e = ParseError("SELECT $$abc");
  CHECK(e.message == "unterminated dollar-quoted string at or near \"$$abc\"");

  e = ParseError("SELECT 1abc");
  CHECK(e.message == "trailing junk after numeric literal at or near \"1abc\"");
  CHECK(e.position == 8);

  e = ParseError("SELECT \"\"");
  CHECK(e.message == "zero-length delimited identifier at or near \"\"\"\"");
}

TEST_CASE("errors: specific messages", "[parser][error]") {
  auto e = ParseError("SELECT 1 LIMIT 1, 2");
  CHECK(e.message == "LIMIT #,# syntax is not supported");
  CHECK(e.position == 10);
  e = ParseError("VALUES (1, 2), (3)");
  CHECK(e.message == "VALUES lists must all be the same length");
  CHECK(e.position == 17);
  e = ParseError("SELECT 1 ORDER BY 1 ORDER BY 1");
  CHECK(e.message == "syntax error at or near \"ORDER\"");
}

TEST_CASE("errors: deep nesting is rejected, not a crash", "[parser][error]") {
  std::string sql = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  auto e = ParseError(sql);
  CHECK(e.sqlstate == "54001");
}

TEST_CASE("multi: statements carry their own text and location", "[parser][multi]") {
  auto v = ParseStatements("SELECT 1; select 2 ;\n  BEGIN;UPDATE t SET a = ';' -- trailing\n");
  REQUIRE(v.size() == 4);
  CHECK(v[0]->text == "SELECT 1");
  CHECK(v[0]->location == 0);
  CHECK(v[1]->text == "select 2");
  CHECK(v[1]->location == 10);
  CHECK(v[2]->text == "BEGIN");
  CHECK(v[2]->location == 23);
  CHECK(v[2]->kind == StmtKind::kTransaction);
  CHECK(v[3]->text == "UPDATE t SET a = ';'");
  CHECK(v[3]->location == 29);
}

TEST_CASE("multi: leading comments are not part of the text", "[parser][multi]") {
  auto v = ParseStatements("/* hello */ -- x\n  COPY (SELECT 1 /* in */) TO STDOUT /* tail */ ;");
  REQUIRE(v.size() == 1);
  CHECK(v[0]->location == 19);
  CHECK(v[0]->text == "COPY (SELECT 1 /* in */) TO STDOUT");
  REQUIRE(v[0]->kind == StmtKind::kCopy);
  CHECK(v[0]->As<CopyStmt>().query->text == "SELECT 1");
}

TEST_CASE("multi: empty statements are skipped", "[parser][multi]") {
  CHECK(ParseStatements("").empty());
  CHECK(ParseStatements(";").empty());
  CHECK(ParseStatements("  ;; /* c */ ; -- x\n").empty());
  auto v = ParseStatements(";;SELECT 1;;");
  REQUIRE(v.size() == 1);
  CHECK(v[0]->text == "SELECT 1");
  CHECK(v[0]->location == 2);
}

TEST_CASE("keywords: reserved words need quoting, others do not", "[parser][error]") {
  StmtPtr h;
  const auto& s = test::ParseAs<CreateTableStmt>(
      "create table kv (key text, value text, name text, type int, date date, filler char(10), "
      "\"select\" int, \"table\" text)",
      h);
  REQUIRE(s.columns.size() == 8);
  CHECK(s.columns[6].name == "select");
  CHECK(s.columns[7].name == "table");
  auto e = ParseError("create table t (select int)");
  CHECK(e.message == "syntax error at or near \"select\"");
  CHECK(e.position == 17);
  e = ParseError("select * from table");
  CHECK(e.position == 15);
}

}  // namespace
}  // namespace hearth::parser
