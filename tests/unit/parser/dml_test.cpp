// tests/unit/parser/dml_test.cpp: INSERT, UPDATE, DELETE, COPY.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseAs;

TEST_CASE("insert: column list and multi-row VALUES with DEFAULT", "[parser][dml]") {
  StmtPtr h;
  const auto& s = ParseAs<InsertStmt>(
      "INSERT INTO s.t (a, \"B\") VALUES (1, DEFAULT), (2, 'x') RETURNING a, b AS bee", h);
  CHECK(s.table.schema == "s");
  CHECK(s.table.name == "t");
  CHECK(s.columns == std::vector<std::string>{"a", "B"});
  REQUIRE(s.source);
  REQUIRE(s.source->values_lists.size() == 2);
  CHECK(s.source->values_lists[0][1]->kind == ExprKind::kDefault);
  CHECK(DumpExpr(*s.source->values_lists[1][1]) == "'x'");
  REQUIRE(s.returning.size() == 2);
  CHECK(s.returning[1].alias == "bee");
  CHECK_FALSE(s.default_values);
}

TEST_CASE("insert: SELECT source, DEFAULT VALUES, ON CONFLICT DO NOTHING", "[parser][dml]") {
  StmtPtr h;
  const auto& s = ParseAs<InsertStmt>(
      "insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / 100000 + 1, 0, "
      "'' from generate_series(1, 100000) as aid",
      h);
  REQUIRE(s.source);
  CHECK(s.source->targets.size() == 4);
  CHECK(s.source->from[0]->kind == FromKind::kFunction);
  const auto& d = ParseAs<InsertStmt>("INSERT INTO t DEFAULT VALUES", h);
  CHECK(d.default_values);
  CHECK_FALSE(d.source);
  const auto& p = ParseAs<InsertStmt>("INSERT INTO t (SELECT * FROM u)", h);
  CHECK(p.columns.empty());
  REQUIRE(p.source);
  CHECK(p.source->from.size() == 1);
  const auto& oc = ParseAs<InsertStmt>("INSERT INTO t VALUES (1) ON CONFLICT (a) DO NOTHING", h);
  REQUIRE(oc.on_conflict);
  CHECK(oc.on_conflict->action == OnConflictAction::kNothing);
  CHECK(oc.on_conflict->target.size() == 1);
  const auto& ou = ParseAs<InsertStmt>(
      "INSERT INTO t AS x VALUES (1) ON CONFLICT (a, b COLLATE \"C\" text_pattern_ops) WHERE a > 0 "
      "DO UPDATE SET b = excluded.b, (c, d) = (1, 2) WHERE x.b <> 0 RETURNING *",
      h);
  REQUIRE(ou.on_conflict);
  CHECK(ou.alias == "x");
  CHECK(ou.on_conflict->action == OnConflictAction::kUpdate);
  CHECK(ou.on_conflict->target.size() == 2);
  CHECK(ou.on_conflict->target_where);
  CHECK(ou.on_conflict->set.size() == 3);
  CHECK(ou.on_conflict->where);
  CHECK(ou.returning.size() == 1);
  const auto& on = ParseAs<InsertStmt>("INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING", h);
  REQUIRE(on.on_conflict);
  CHECK(on.on_conflict->constraint == "t_pkey");
  const auto& w = ParseAs<InsertStmt>("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", h);
  CHECK(w.with.size() == 1);
}

TEST_CASE("update: SET list, FROM, WHERE, RETURNING, alias", "[parser][dml]") {
  StmtPtr h;
  const auto& s = ParseAs<UpdateStmt>(
      "UPDATE t AS x SET a = a + 1, b = DEFAULT, name = 'n' FROM u WHERE x.id = u.id RETURNING *", h);
  CHECK(s.table.name == "t");
  CHECK(s.alias == "x");
  REQUIRE(s.set.size() == 3);
  CHECK(s.set[0].column == "a");
  CHECK(DumpExpr(*s.set[0].value) == "(a + 1)");
  CHECK(s.set[1].value->kind == ExprKind::kDefault);
  CHECK(s.set[2].column == "name");
  CHECK(s.from.size() == 1);
  REQUIRE(s.where);
  CHECK(s.returning.size() == 1);
  CHECK(ParseAs<UpdateStmt>("UPDATE t y SET a = 1", h).alias == "y");
  CHECK(ParseAs<UpdateStmt>("UPDATE t SET a = 1", h).alias.empty());
}

TEST_CASE("delete: alias, USING, WHERE, RETURNING", "[parser][dml]") {
  StmtPtr h;
  const auto& s = ParseAs<DeleteStmt>("DELETE FROM t x USING u WHERE x.a = u.a RETURNING x.a", h);
  CHECK(s.table.name == "t");
  CHECK(s.alias == "x");
  CHECK(s.using_items.size() == 1);
  REQUIRE(s.where);
  CHECK(s.returning.size() == 1);
  CHECK_FALSE(ParseAs<DeleteStmt>("DELETE FROM t", h).where);
}

TEST_CASE("copy: FROM STDIN with modern options", "[parser][dml][copy]") {
  StmtPtr h;
  const auto& s = ParseAs<CopyStmt>(
      "COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER, DELIMITER ';', NULL 'x', FREEZE on, "
      "QUOTE '\"', ESCAPE '\\', ENCODING 'UTF8', FORCE_NOT_NULL (a, b))",
      h);
  CHECK(s.table.name == "t");
  CHECK(s.columns == std::vector<std::string>{"a", "b"});
  CHECK(s.is_from);
  CHECK(s.filename.empty());
  REQUIRE(s.options.size() == 9);
  CHECK(s.options[0].name == "format");
  CHECK(s.options[0].value == "csv");
  CHECK(s.options[1].name == "header");
  CHECK_FALSE(s.options[1].has_value);
  CHECK(s.options[2].value == ";");
  CHECK(s.options[3].name == "null");
  CHECK(s.options[3].value == "x");
  CHECK(s.options[4].name == "freeze");
  CHECK(s.options[4].value == "on");
  CHECK(s.options[5].value == "\"");
  CHECK(s.options[6].value == "\\");
  CHECK(s.options[7].value == "UTF8");
  CHECK(s.options[8].name == "force_not_null");
  CHECK(s.options[8].value == "a,b");
}

TEST_CASE("copy: TO STDOUT, query source, files", "[parser][dml][copy]") {
  StmtPtr h;
  const auto& s = ParseAs<CopyStmt>("COPY (SELECT * FROM t WHERE a > 1) TO STDOUT (FORMAT binary)", h);
  CHECK_FALSE(s.is_from);
  REQUIRE(s.query);
  CHECK(s.query->kind == StmtKind::kSelect);
  CHECK(s.options[0].value == "binary");
  const auto& f = ParseAs<CopyStmt>("copy t to '/tmp/x.csv' csv", h);
  CHECK(f.filename == "/tmp/x.csv");
  CHECK(f.options[0].name == "format");
  CHECK(f.options[0].value == "csv");
}

TEST_CASE("copy: legacy option syntax", "[parser][dml][copy]") {
  StmtPtr h;
  const auto& s =
      ParseAs<CopyStmt>("COPY t FROM STDIN WITH CSV HEADER DELIMITER ',' NULL '' QUOTE AS '\"'", h);
  REQUIRE(s.options.size() == 5);
  CHECK(s.options[0].name == "format");
  CHECK(s.options[0].value == "csv");
  CHECK(s.options[1].name == "header");
  CHECK(s.options[2].name == "delimiter");
  CHECK(s.options[2].value == ",");
  CHECK(s.options[3].name == "null");
  CHECK(s.options[3].value.empty());
  CHECK(s.options[3].has_value);
  CHECK(s.options[4].value == "\"");
  const auto& b = ParseAs<CopyStmt>("COPY BINARY t FROM STDIN", h);
  REQUIRE(b.options.size() == 1);
  CHECK(b.options[0].value == "binary");
  const auto& fr = ParseAs<CopyStmt>("COPY t FROM STDIN FREEZE BINARY", h);
  REQUIRE(fr.options.size() == 2);
  CHECK(fr.options[0].name == "freeze");
  CHECK(fr.options[1].value == "binary");
  const auto& fq = ParseAs<CopyStmt>("COPY t TO STDOUT CSV FORCE QUOTE *", h);
  CHECK(fq.options[1].name == "force_quote");
  CHECK(fq.options[1].value == "*");
}

}  // namespace
}  // namespace hearth::parser
