// tests/unit/parser/pgbench_test.cpp: every statement pgbench 15 sends
// (its built-in TPC-B-like script and `pgbench -i`) must parse, with the right tree.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseAs;

TEST_CASE("pgbench -i statements parse", "[parser][pgbench]") {
  StmtPtr h;
  const auto& hist = ParseAs<CreateTableStmt>(
      "create table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22))",
      h);
  REQUIRE(hist.columns.size() == 6);
  CHECK(hist.columns[2].name == "aid");
  CHECK(hist.columns[4].type.name == "timestamp");
  CHECK(hist.columns[5].type.name == "bpchar");
  CHECK(hist.columns[5].type.typmods == std::vector<int32_t>{22});

  const auto& tel = ParseAs<CreateTableStmt>(
      "create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with "
      "(fillfactor=100)",
      h);
  REQUIRE(tel.columns.size() == 4);
  CHECK(tel.columns[0].type.name == "int4");
  REQUIRE(tel.columns[0].constraints.size() == 1);
  CHECK(tel.columns[0].constraints[0].kind == ConstraintKind::kNotNull);
  REQUIRE(tel.with_options.size() == 1);
  CHECK(tel.with_options[0].name == "fillfactor");
  CHECK(tel.with_options[0].value == "100");

  ParseAs<CreateTableStmt>(
      "create table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) with "
      "(fillfactor=100)",
      h);
  ParseAs<CreateTableStmt>(
      "create table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=100)",
      h);
  ParseAs<TransactionStmt>("begin", h);
  ParseAs<TruncateStmt>(
      "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers", h);
  const auto& ib = ParseAs<InsertStmt>("insert into pgbench_branches(bid,bbalance) values(1,0)", h);
  CHECK(ib.columns == std::vector<std::string>{"bid", "bbalance"});
  CHECK(ib.source->values_lists[0].size() == 2);
  ParseAs<InsertStmt>("insert into pgbench_tellers(tid,bid,tbalance) values (1,1,0)", h);
  const auto& copy = ParseAs<CopyStmt>("copy pgbench_accounts from stdin with (freeze on)", h);
  CHECK(copy.is_from);
  REQUIRE(copy.options.size() == 1);
  CHECK(copy.options[0].name == "freeze");
  CHECK(copy.options[0].value == "on");
  ParseAs<CopyStmt>("copy pgbench_accounts from stdin", h);
  ParseAs<TransactionStmt>("commit", h);
  for (const char* t : {"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history"}) {
    const auto& v = ParseAs<VacuumStmt>(std::string("vacuum analyze ") + t, h);
    CHECK(v.relations[0].table.name == t);
  }
  ParseAs<AlterTableStmt>("alter table pgbench_branches add primary key (bid)", h);
  ParseAs<AlterTableStmt>("alter table pgbench_tellers add primary key (tid)", h);
  ParseAs<AlterTableStmt>("alter table pgbench_accounts add primary key (aid)", h);
  ParseAs<AlterTableStmt>(
      "alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) "
      "references pgbench_branches",
      h);
  ParseAs<DropStmt>(
      "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers", h);
}

TEST_CASE("pgbench run statements parse", "[parser][pgbench]") {
  StmtPtr h;
  const auto& cnt = ParseAs<SelectStmt>("select count(*) from pgbench_branches", h);
  CHECK(cnt.targets[0].expr->As<FuncCallExpr>().star);
  ParseAs<VacuumStmt>("vacuum pgbench_branches", h);
  ParseAs<TruncateStmt>("truncate pgbench_history", h);

  auto v = ParseStatements("BEGIN;");
  REQUIRE(v.size() == 1);
  CHECK(v[0]->kind == StmtKind::kTransaction);
  CHECK(v[0]->text == "BEGIN");

  v = ParseStatements("UPDATE pgbench_accounts SET abalance = abalance + -3861 WHERE aid = 81302;");
  REQUIRE(v.size() == 1);
  REQUIRE(v[0]->kind == StmtKind::kUpdate);
  const auto& u = v[0]->As<UpdateStmt>();
  CHECK(u.table.name == "pgbench_accounts");
  REQUIRE(u.set.size() == 1);
  CHECK(u.set[0].column == "abalance");
  CHECK(DumpExpr(*u.set[0].value) == "(abalance + -3861)");
  const auto& plus = u.set[0].value->As<BinaryOpExpr>();
  CHECK(plus.right->As<ConstExpr>().value == "-3861");
  CHECK(DumpExpr(*u.where) == "(aid = 81302)");

  v = ParseStatements("SELECT abalance FROM pgbench_accounts WHERE aid = 81302;");
  REQUIRE(v.size() == 1);
  v = ParseStatements("UPDATE pgbench_tellers SET tbalance = tbalance + -3861 WHERE tid = 7;");
  REQUIRE(v.size() == 1);
  v = ParseStatements("UPDATE pgbench_branches SET bbalance = bbalance + 4411 WHERE bid = 1;");
  REQUIRE(v.size() == 1);

  v = ParseStatements(
      "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (7, 1, 81302, -3861, "
      "CURRENT_TIMESTAMP);");
  REQUIRE(v.size() == 1);
  REQUIRE(v[0]->kind == StmtKind::kInsert);
  const auto& ins = v[0]->As<InsertStmt>();
  CHECK(ins.columns.size() == 5);
  const auto& row = ins.source->values_lists.at(0);
  REQUIRE(row.size() == 5);
  CHECK(row[3]->As<ConstExpr>().value == "-3861");
  CHECK(row[4]->kind == ExprKind::kSqlValueFunction);

  v = ParseStatements("END;");
  REQUIRE(v.size() == 1);
  CHECK(v[0]->As<TransactionStmt>().txn_kind == TransactionKind::kCommit);
}

}  // namespace
}  // namespace hearth::parser
