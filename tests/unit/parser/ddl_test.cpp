// tests/unit/parser/ddl_test.cpp: CREATE TABLE / INDEX, ALTER TABLE, DROP, TRUNCATE.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseAs;

TEST_CASE("create table: columns, types and column constraints", "[parser][ddl]") {
  StmtPtr h;
  const auto& s = ParseAs<CreateTableStmt>(
      "CREATE TABLE IF NOT EXISTS app.items (\n"
      "  id bigint PRIMARY KEY,\n"
      "  name varchar(40) NOT NULL UNIQUE,\n"
      "  price numeric(10,2) DEFAULT 0 CHECK (price >= 0),\n"
      "  owner int REFERENCES users(id) ON DELETE CASCADE,\n"
      "  note text NULL,\n"
      "  created timestamp with time zone DEFAULT now(),\n"
      "  flag boolean, r real, d double precision, c char(2), s smallint, k date, \"Key\" text\n"
      ")",
      h);
  CHECK(s.if_not_exists);
  CHECK(s.table.schema == "app");
  CHECK(s.table.name == "items");
  REQUIRE(s.columns.size() == 13);
  CHECK(s.columns[0].name == "id");
  CHECK(s.columns[0].type.name == "int8");
  REQUIRE(s.columns[0].constraints.size() == 1);
  CHECK(s.columns[0].constraints[0].kind == ConstraintKind::kPrimaryKey);
  CHECK(s.columns[1].type.name == "varchar");
  CHECK(s.columns[1].type.typmods == std::vector<int32_t>{40});
  REQUIRE(s.columns[1].constraints.size() == 2);
  CHECK(s.columns[1].constraints[0].kind == ConstraintKind::kNotNull);
  CHECK(s.columns[1].constraints[1].kind == ConstraintKind::kUnique);
  CHECK(s.columns[2].type.typmods == std::vector<int32_t>{10, 2});
  REQUIRE(s.columns[2].constraints.size() == 2);
  CHECK(s.columns[2].constraints[0].kind == ConstraintKind::kDefault);
  CHECK(DumpExpr(*s.columns[2].constraints[0].expr) == "0");
  CHECK(s.columns[2].constraints[1].kind == ConstraintKind::kCheck);
  CHECK(DumpExpr(*s.columns[2].constraints[1].expr) == "(price >= 0)");
  const Constraint& fk = s.columns[3].constraints[0];
  CHECK(fk.kind == ConstraintKind::kForeignKey);
  CHECK(fk.ref_table.name == "users");
  CHECK(fk.ref_columns == std::vector<std::string>{"id"});
  CHECK(fk.on_delete == FkAction::kCascade);
  CHECK(s.columns[4].constraints[0].kind == ConstraintKind::kNull);
  CHECK(s.columns[5].type.name == "timestamptz");
  CHECK(DumpExpr(*s.columns[5].constraints[0].expr) == "now()");
  CHECK(s.columns[6].type.name == "bool");
  CHECK(s.columns[7].type.name == "float4");
  CHECK(s.columns[8].type.name == "float8");
  CHECK(s.columns[9].type.name == "bpchar");
  CHECK(s.columns[9].type.typmods == std::vector<int32_t>{2});
  CHECK(s.columns[10].type.name == "int2");
  CHECK(s.columns[11].type.name == "date");
  CHECK(s.columns[12].name == "Key");
}

TEST_CASE("create table: DEFAULT then NOT NULL", "[parser][ddl]") {
  StmtPtr h;
  const auto& s = ParseAs<CreateTableStmt>("CREATE TABLE t (a int DEFAULT 1 + 2 NOT NULL, b text DEFAULT 'x')", h);
  REQUIRE(s.columns[0].constraints.size() == 2);
  CHECK(DumpExpr(*s.columns[0].constraints[0].expr) == "(1 + 2)");
  CHECK(s.columns[0].constraints[1].kind == ConstraintKind::kNotNull);
}

TEST_CASE("create table: table constraints, options, TEMP, UNLOGGED", "[parser][ddl]") {
  StmtPtr h;
  const auto& s = ParseAs<CreateTableStmt>(
      "CREATE TEMP TABLE t (a int, b int, CONSTRAINT t_pk PRIMARY KEY (a, b), UNIQUE (b), "
      "FOREIGN KEY (b) REFERENCES u (x) ON UPDATE SET NULL, CHECK (a > b)) WITH (fillfactor=70, "
      "autovacuum_enabled = false)",
      h);
  CHECK(s.temp);
  REQUIRE(s.constraints.size() == 4);
  CHECK(s.constraints[0].name == "t_pk");
  CHECK(s.constraints[0].kind == ConstraintKind::kPrimaryKey);
  CHECK(s.constraints[0].columns == std::vector<std::string>{"a", "b"});
  CHECK(s.constraints[1].kind == ConstraintKind::kUnique);
  CHECK(s.constraints[2].kind == ConstraintKind::kForeignKey);
  CHECK(s.constraints[2].columns == std::vector<std::string>{"b"});
  CHECK(s.constraints[2].ref_table.name == "u");
  CHECK(s.constraints[2].on_update == FkAction::kSetNull);
  CHECK(s.constraints[3].kind == ConstraintKind::kCheck);
  REQUIRE(s.with_options.size() == 2);
  CHECK(s.with_options[0].name == "fillfactor");
  CHECK(s.with_options[0].value == "70");
  CHECK(s.with_options[1].value == "false");
  CHECK(ParseAs<CreateTableStmt>("CREATE UNLOGGED TABLE t (a int)", h).unlogged);
  CHECK(ParseAs<CreateTableStmt>("CREATE TABLE t ()", h).columns.empty());
}

TEST_CASE("create table as", "[parser][ddl]") {
  StmtPtr h;
  const auto& s = ParseAs<CreateTableAsStmt>("CREATE TABLE t2 (x, y) AS SELECT a, b FROM t WITH NO DATA", h);
  CHECK(s.table.name == "t2");
  CHECK(s.column_names == std::vector<std::string>{"x", "y"});
  REQUIRE(s.query);
  CHECK(s.query->targets.size() == 2);
  CHECK_FALSE(s.with_data);
  CHECK(ParseAs<CreateTableAsStmt>("CREATE TABLE t2 AS TABLE t", h).with_data);
  CHECK(std::string(StatementName(*h)) == "CREATE TABLE AS");
}

TEST_CASE("create index", "[parser][ddl]") {
  StmtPtr h;
  const auto& s = ParseAs<CreateIndexStmt>(
      "CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ix ON s.t USING btree (a DESC NULLS FIRST, "
      "(lower(b)), c text_pattern_ops) WHERE a > 0",
      h);
  CHECK(s.unique);
  CHECK(s.concurrently);
  CHECK(s.if_not_exists);
  CHECK(s.name == "ix");
  CHECK(s.table.schema == "s");
  CHECK(s.method == "btree");
  REQUIRE(s.elems.size() == 3);
  CHECK(s.elems[0].column == "a");
  CHECK(s.elems[0].dir == SortDir::kDesc);
  CHECK(s.elems[0].nulls == NullsOrder::kFirst);
  REQUIRE(s.elems[1].expr);
  CHECK(DumpExpr(*s.elems[1].expr) == "lower(b)");
  CHECK(s.elems[2].opclass == std::vector<std::string>{"text_pattern_ops"});
  REQUIRE(s.where);
  const auto& n = ParseAs<CreateIndexStmt>("create index on t (a, lower(b))", h);
  CHECK(n.name.empty());
  CHECK_FALSE(n.unique);
  REQUIRE(n.elems.size() == 2);
  CHECK(n.elems[1].expr);
  CHECK(std::string(StatementName(*h)) == "CREATE INDEX");
}

TEST_CASE("alter table", "[parser][ddl]") {
  StmtPtr h;
  const auto& pk = ParseAs<AlterTableStmt>("alter table pgbench_branches add primary key (bid)", h);
  CHECK(pk.table.name == "pgbench_branches");
  REQUIRE(pk.cmds.size() == 1);
  CHECK(pk.cmds[0].kind == AlterTableCmdKind::kAddConstraint);
  REQUIRE(pk.cmds[0].constraint);
  CHECK(pk.cmds[0].constraint->kind == ConstraintKind::kPrimaryKey);
  CHECK(pk.cmds[0].constraint->columns == std::vector<std::string>{"bid"});

  const auto& fk = ParseAs<AlterTableStmt>(
      "alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) "
      "references pgbench_branches",
      h);
  CHECK(fk.cmds[0].constraint->name == "pgbench_tellers_bid_fkey");
  CHECK(fk.cmds[0].constraint->kind == ConstraintKind::kForeignKey);
  CHECK(fk.cmds[0].constraint->ref_table.name == "pgbench_branches");
  CHECK(fk.cmds[0].constraint->ref_columns.empty());

  const auto& m = ParseAs<AlterTableStmt>(
      "ALTER TABLE IF EXISTS t ADD COLUMN c int NOT NULL DEFAULT 0, ADD d text, DROP COLUMN e CASCADE, "
      "DROP f, ALTER COLUMN g TYPE bigint, ALTER h SET DEFAULT 1, ALTER h DROP NOT NULL, "
      "ALTER h SET NOT NULL, DROP CONSTRAINT IF EXISTS k, SET (fillfactor = 50)",
      h);
  CHECK(m.if_exists);
  REQUIRE(m.cmds.size() == 10);
  CHECK(m.cmds[0].kind == AlterTableCmdKind::kAddColumn);
  CHECK(m.cmds[0].column->name == "c");
  CHECK(m.cmds[0].column->constraints.size() == 2);
  CHECK(m.cmds[1].kind == AlterTableCmdKind::kAddColumn);
  CHECK(m.cmds[2].kind == AlterTableCmdKind::kDropColumn);
  CHECK(m.cmds[2].behavior == DropBehavior::kCascade);
  CHECK(m.cmds[3].name == "f");
  CHECK(m.cmds[4].kind == AlterTableCmdKind::kAlterColumnType);
  CHECK(m.cmds[4].type.name == "int8");
  CHECK(m.cmds[5].kind == AlterTableCmdKind::kSetDefault);
  CHECK(m.cmds[6].kind == AlterTableCmdKind::kDropNotNull);
  CHECK(m.cmds[7].kind == AlterTableCmdKind::kSetNotNull);
  CHECK(m.cmds[8].kind == AlterTableCmdKind::kDropConstraint);
  CHECK(m.cmds[8].if_exists);
  CHECK(m.cmds[9].kind == AlterTableCmdKind::kSetOptions);

  const auto& r = ParseAs<AlterTableStmt>("ALTER TABLE t RENAME COLUMN a TO b", h);
  CHECK(r.cmds[0].kind == AlterTableCmdKind::kRenameColumn);
  CHECK(r.cmds[0].name == "a");
  CHECK(r.cmds[0].new_name == "b");
  CHECK(ParseAs<AlterTableStmt>("ALTER TABLE t RENAME TO u", h).cmds[0].new_name == "u");

  const auto& ri = ParseAs<AlterTableStmt>("ALTER INDEX IF EXISTS s.i RENAME TO j", h);
  CHECK(ri.object_type == ObjectType::kIndex);
  CHECK(ri.if_exists);
  CHECK(ri.table.schema == "s");
  REQUIRE(ri.cmds.size() == 1);
  CHECK(ri.cmds[0].kind == AlterTableCmdKind::kRenameTable);
  CHECK(ri.cmds[0].new_name == "j");
  CHECK(std::string(StatementName(*h)) == "ALTER INDEX");
  CHECK(ParseAs<AlterTableStmt>("ALTER SEQUENCE q RENAME TO r", h).object_type == ObjectType::kSequence);
  CHECK(ParseAs<AlterTableStmt>("ALTER TABLE t ADD c int", h).object_type == ObjectType::kTable);
  // RENAME stands alone, as in PostgreSQL's grammar.
  CHECK_THROWS_AS(parser::ParseStatements("ALTER TABLE t ADD c int, RENAME TO u"), DbError);
  CHECK_THROWS_AS(parser::ParseStatements("ALTER TABLE t RENAME a TO b, ADD c int"), DbError);
}

TEST_CASE("drop and truncate", "[parser][ddl]") {
  StmtPtr h;
  const auto& d = ParseAs<DropStmt>(
      "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers", h);
  CHECK(d.object_type == ObjectType::kTable);
  CHECK(d.if_exists);
  REQUIRE(d.objects.size() == 4);
  CHECK(d.objects[3].name == "pgbench_tellers");
  CHECK(std::string(StatementName(*h)) == "DROP TABLE");
  const auto& i = ParseAs<DropStmt>("DROP INDEX s.ix CASCADE", h);
  CHECK(i.object_type == ObjectType::kIndex);
  CHECK(i.objects[0].schema == "s");
  CHECK(i.behavior == DropBehavior::kCascade);
  CHECK(std::string(StatementName(*h)) == "DROP INDEX");
  const auto& db = ParseAs<DropStmt>("DROP DATABASE IF EXISTS foo WITH (FORCE)", h);
  CHECK(db.object_type == ObjectType::kDatabase);
  CHECK(db.force);
  CHECK(ParseAs<DropStmt>("DROP USER a, b", h).objects.size() == 2);

  const auto& t = ParseAs<TruncateStmt>(
      "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers", h);
  CHECK(t.tables.size() == 4);
  CHECK_FALSE(t.restart_identity);
  const auto& t2 = ParseAs<TruncateStmt>("TRUNCATE a RESTART IDENTITY CASCADE", h);
  CHECK(t2.restart_identity);
  CHECK(t2.behavior == DropBehavior::kCascade);
  CHECK(std::string(StatementName(*h)) == "TRUNCATE TABLE");
}

}  // namespace
}  // namespace hearth::parser
