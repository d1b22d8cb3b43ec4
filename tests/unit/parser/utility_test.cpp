// tests/unit/parser/utility_test.cpp: transactions, SET/SHOW/RESET, EXPLAIN,
// VACUUM, PREPARE/EXECUTE, databases, roles, DISCARD, statement names.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseAs;
using test::ParseOne;

TEST_CASE("transactions", "[parser][utility]") {
  StmtPtr h;
  const auto& b = ParseAs<TransactionStmt>(
      "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY, NOT DEFERRABLE", h);
  CHECK(b.txn_kind == TransactionKind::kBegin);
  CHECK(b.options.isolation == IsolationLevel::kRepeatableRead);
  REQUIRE(b.options.read_only.has_value());
  CHECK(*b.options.read_only);
  REQUIRE(b.options.deferrable.has_value());
  CHECK_FALSE(*b.options.deferrable);
  CHECK(ParseAs<TransactionStmt>("begin work", h).options.isolation == IsolationLevel::kDefault);
  const auto& st = ParseAs<TransactionStmt>("START TRANSACTION ISOLATION LEVEL SERIALIZABLE READ WRITE", h);
  CHECK(st.txn_kind == TransactionKind::kStart);
  CHECK(st.options.isolation == IsolationLevel::kSerializable);
  CHECK_FALSE(*st.options.read_only);
  CHECK(ParseAs<TransactionStmt>("BEGIN TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", h)
            .options.isolation == IsolationLevel::kReadUncommitted);
  CHECK(ParseAs<TransactionStmt>("begin isolation level read committed", h).options.isolation ==
        IsolationLevel::kReadCommitted);

  CHECK(ParseAs<TransactionStmt>("COMMIT", h).txn_kind == TransactionKind::kCommit);
  CHECK(ParseAs<TransactionStmt>("END", h).txn_kind == TransactionKind::kCommit);
  CHECK(ParseAs<TransactionStmt>("end transaction", h).txn_kind == TransactionKind::kCommit);
  CHECK(ParseAs<TransactionStmt>("commit work", h).txn_kind == TransactionKind::kCommit);
  CHECK(ParseAs<TransactionStmt>("ROLLBACK", h).txn_kind == TransactionKind::kRollback);
  CHECK(ParseAs<TransactionStmt>("ABORT", h).txn_kind == TransactionKind::kRollback);
  CHECK(ParseAs<TransactionStmt>("COMMIT AND CHAIN", h).chain);

  const auto& sp = ParseAs<TransactionStmt>("SAVEPOINT sp1", h);
  CHECK(sp.txn_kind == TransactionKind::kSavepoint);
  CHECK(sp.savepoint == "sp1");
  CHECK(ParseAs<TransactionStmt>("RELEASE SAVEPOINT sp1", h).txn_kind == TransactionKind::kRelease);
  CHECK(ParseAs<TransactionStmt>("RELEASE sp1", h).savepoint == "sp1");
  const auto& rt = ParseAs<TransactionStmt>("ROLLBACK WORK TO SAVEPOINT sp1", h);
  CHECK(rt.txn_kind == TransactionKind::kRollbackTo);
  CHECK(rt.savepoint == "sp1");
  CHECK(ParseAs<TransactionStmt>("rollback to sp2", h).savepoint == "sp2");
  CHECK(std::string(StatementName(*h)) == "ROLLBACK");
}

TEST_CASE("SET", "[parser][utility]") {
  StmtPtr h;
  const auto& s = ParseAs<SetStmt>("SET search_path TO \"$user\", public, 'x'", h);
  CHECK(s.name == "search_path");
  CHECK(s.set_kind == SetKind::kValue);
  REQUIRE(s.values.size() == 3);
  CHECK(s.values[0].text == "$user");
  CHECK(s.values[0].quoted);
  CHECK(s.values[1].text == "public");
  CHECK_FALSE(s.values[1].quoted);
  CHECK(s.values[2].quoted);

  const auto& n = ParseAs<SetStmt>("SET SESSION extra_float_digits = -3", h);
  CHECK(n.values[0].text == "-3");
  CHECK_FALSE(n.is_local);
  const auto& l = ParseAs<SetStmt>("SET LOCAL statement_timeout = '5s'", h);
  CHECK(l.is_local);
  CHECK(l.values[0].text == "5s");
  CHECK(ParseAs<SetStmt>("set synchronous_commit to OFF", h).values[0].text == "off");
  CHECK(ParseAs<SetStmt>("SET enable_seqscan = true", h).values[0].text == "true");
  CHECK(ParseAs<SetStmt>("SET work_mem TO DEFAULT", h).set_kind == SetKind::kDefault);
  CHECK(ParseAs<SetStmt>("SET myapp.setting = 1.5", h).name == "myapp.setting");

  const auto& tz = ParseAs<SetStmt>("SET TIME ZONE 'UTC'", h);
  CHECK(tz.name == "timezone");
  CHECK(tz.values[0].text == "UTC");
  CHECK(ParseAs<SetStmt>("SET TIME ZONE LOCAL", h).set_kind == SetKind::kDefault);
  CHECK(ParseAs<SetStmt>("SET TIME ZONE -8", h).values[0].text == "-8");
  const auto& names = ParseAs<SetStmt>("SET NAMES 'UTF8'", h);
  CHECK(names.name == "client_encoding");
  CHECK(names.values[0].text == "UTF8");

  const auto& tr = ParseAs<SetStmt>("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", h);
  CHECK(tr.set_kind == SetKind::kTransaction);
  CHECK(tr.txn_options.isolation == IsolationLevel::kSerializable);
  const auto& sc = ParseAs<SetStmt>(
      "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ", h);
  CHECK(sc.set_kind == SetKind::kSessionCharacteristics);
  CHECK(sc.txn_options.isolation == IsolationLevel::kRepeatableRead);
}

TEST_CASE("SHOW and RESET", "[parser][utility]") {
  StmtPtr h;
  CHECK(ParseAs<ShowStmt>("SHOW server_version", h).name == "server_version");
  CHECK(ParseAs<ShowStmt>("SHOW ALL", h).all);
  CHECK(ParseAs<ShowStmt>("SHOW TIME ZONE", h).name == "timezone");
  CHECK(ParseAs<ShowStmt>("SHOW TRANSACTION ISOLATION LEVEL", h).name == "transaction_isolation");
  CHECK(ParseAs<ShowStmt>("show \"DateStyle\"", h).name == "DateStyle");
  CHECK(ParseAs<ResetStmt>("RESET work_mem", h).name == "work_mem");
  CHECK(ParseAs<ResetStmt>("RESET ALL", h).all);
  CHECK(ParseAs<ResetStmt>("reset time zone", h).name == "timezone");
}

TEST_CASE("EXPLAIN", "[parser][utility]") {
  StmtPtr h;
  const auto& e = ParseAs<ExplainStmt>("EXPLAIN ANALYZE VERBOSE SELECT * FROM t", h);
  REQUIRE(e.options.size() == 2);
  CHECK(e.options[0].name == "analyze");
  CHECK(e.options[1].name == "verbose");
  REQUIRE(e.query);
  CHECK(e.query->kind == StmtKind::kSelect);
  CHECK(e.query->text == "SELECT * FROM t");
  CHECK(e.query->location == 24);
  const auto& p = ParseAs<ExplainStmt>("EXPLAIN (ANALYZE, BUFFERS false, FORMAT json) UPDATE t SET a = 1", h);
  REQUIRE(p.options.size() == 3);
  CHECK_FALSE(p.options[0].has_value);
  CHECK(p.options[1].value == "false");
  CHECK(p.options[2].value == "json");
  CHECK(p.query->kind == StmtKind::kUpdate);
  CHECK(ParseAs<ExplainStmt>("EXPLAIN EXECUTE p(1)", h).query->kind == StmtKind::kExecute);
}

TEST_CASE("VACUUM and ANALYZE", "[parser][utility]") {
  StmtPtr h;
  const auto& v = ParseAs<VacuumStmt>("vacuum analyze pgbench_branches", h);
  CHECK(v.is_vacuum);
  REQUIRE(v.options.size() == 1);
  CHECK(v.options[0].name == "analyze");
  REQUIRE(v.relations.size() == 1);
  CHECK(v.relations[0].table.name == "pgbench_branches");
  const auto& f = ParseAs<VacuumStmt>("VACUUM FULL FREEZE VERBOSE a, b (x, y)", h);
  CHECK(f.options.size() == 3);
  REQUIRE(f.relations.size() == 2);
  CHECK(f.relations[1].columns == std::vector<std::string>{"x", "y"});
  const auto& p = ParseAs<VacuumStmt>("VACUUM (VERBOSE, ANALYZE) t", h);
  CHECK(p.options.size() == 2);
  CHECK(ParseAs<VacuumStmt>("VACUUM", h).relations.empty());
  const auto& a = ParseAs<VacuumStmt>("ANALYZE VERBOSE t", h);
  CHECK_FALSE(a.is_vacuum);
  CHECK(a.options.size() == 1);
  CHECK(std::string(StatementName(*h)) == "ANALYZE");
}

TEST_CASE("PREPARE / EXECUTE / DEALLOCATE / CHECKPOINT / DISCARD", "[parser][utility]") {
  StmtPtr h;
  const auto& p = ParseAs<PrepareStmt>("PREPARE q (int, text) AS SELECT $1, $2", h);
  CHECK(p.name == "q");
  REQUIRE(p.arg_types.size() == 2);
  CHECK(p.arg_types[0].name == "int4");
  CHECK(p.arg_types[1].name == "text");
  CHECK(p.query->kind == StmtKind::kSelect);
  CHECK(p.query->text == "SELECT $1, $2");
  const auto& e = ParseAs<ExecuteStmt>("EXECUTE q (1, 'a')", h);
  CHECK(e.name == "q");
  CHECK(e.params.size() == 2);
  CHECK(ParseAs<ExecuteStmt>("EXECUTE q", h).params.empty());
  CHECK(ParseAs<DeallocateStmt>("DEALLOCATE PREPARE q", h).name == "q");
  CHECK(ParseAs<DeallocateStmt>("DEALLOCATE ALL", h).all);
  ParseAs<CheckpointStmt>("CHECKPOINT", h);
  CHECK(ParseAs<DiscardStmt>("DISCARD ALL", h).target == DiscardTarget::kAll);
  CHECK(std::string(StatementName(*h)) == "DISCARD ALL");
}

TEST_CASE("databases and roles", "[parser][utility]") {
  StmtPtr h;
  const auto& d = ParseAs<CreateDatabaseStmt>(
      "CREATE DATABASE bench WITH OWNER = bob TEMPLATE template0 ENCODING 'UTF8' CONNECTION LIMIT 10", h);
  CHECK(d.name == "bench");
  REQUIRE(d.options.size() == 4);
  CHECK(d.options[0].name == "owner");
  CHECK(d.options[0].value == "bob");
  CHECK(d.options[2].value == "UTF8");
  CHECK(d.options[3].name == "connection_limit");
  CHECK(d.options[3].value == "10");

  const auto& r = ParseAs<CreateRoleStmt>(
      "CREATE USER alice WITH SUPERUSER LOGIN PASSWORD 'secret' CONNECTION LIMIT 5 IN ROLE a, b", h);
  CHECK(r.role_kind == RoleStmtKind::kUser);
  CHECK(r.name == "alice");
  REQUIRE(r.options.size() == 5);
  CHECK(r.options[0].name == "superuser");
  CHECK(r.options[2].name == "password");
  CHECK(r.options[2].value == "secret");
  CHECK(r.options[3].value == "5");
  CHECK(r.options[4].name == "in_role");
  CHECK(r.options[4].value == "a,b");
  CHECK(ParseAs<CreateRoleStmt>("CREATE ROLE r", h).options.empty());

  const auto& a = ParseAs<AlterRoleStmt>("ALTER ROLE alice WITH NOLOGIN ENCRYPTED PASSWORD 'x'", h);
  REQUIRE(a.options.size() == 2);
  CHECK(a.options[1].name == "password");
  const auto& a2 = ParseAs<AlterRoleStmt>("ALTER USER alice SET work_mem TO '64MB'", h);
  CHECK(a2.options[0].name == "set work_mem");
  CHECK(a2.options[0].value == "64MB");
  CHECK(ParseAs<AlterRoleStmt>("ALTER ROLE a RENAME TO b", h).options[0].value == "b");
  const auto& dr = ParseAs<DropStmt>("DROP ROLE IF EXISTS alice", h);
  CHECK(dr.object_type == ObjectType::kRole);
  CHECK(dr.objects[0].name == "alice");
}

TEST_CASE("statement names", "[parser][utility]") {
  CHECK(std::string(StatementName(*ParseOne("select 1"))) == "SELECT");
  CHECK(std::string(StatementName(*ParseOne("values (1)"))) == "SELECT");
  CHECK(std::string(StatementName(*ParseOne("insert into t values (1)"))) == "INSERT");
  CHECK(std::string(StatementName(*ParseOne("update t set a = 1"))) == "UPDATE");
  CHECK(std::string(StatementName(*ParseOne("delete from t"))) == "DELETE");
  CHECK(std::string(StatementName(*ParseOne("create table t (a int)"))) == "CREATE TABLE");
  CHECK(std::string(StatementName(*ParseOne("alter table t add primary key (a)"))) == "ALTER TABLE");
  CHECK(std::string(StatementName(*ParseOne("copy t from stdin"))) == "COPY");
  CHECK(std::string(StatementName(*ParseOne("begin"))) == "BEGIN");
  CHECK(std::string(StatementName(*ParseOne("start transaction"))) == "START TRANSACTION");
  CHECK(std::string(StatementName(*ParseOne("end"))) == "COMMIT");
  CHECK(std::string(StatementName(*ParseOne("set a = 1"))) == "SET");
  CHECK(std::string(StatementName(*ParseOne("show a"))) == "SHOW");
  CHECK(std::string(StatementName(*ParseOne("reset a"))) == "RESET");
  CHECK(std::string(StatementName(*ParseOne("explain select 1"))) == "EXPLAIN");
  CHECK(std::string(StatementName(*ParseOne("vacuum"))) == "VACUUM");
  CHECK(std::string(StatementName(*ParseOne("checkpoint"))) == "CHECKPOINT");
  CHECK(std::string(StatementName(*ParseOne("prepare p as select 1"))) == "PREPARE");
  CHECK(std::string(StatementName(*ParseOne("execute p"))) == "EXECUTE");
  CHECK(std::string(StatementName(*ParseOne("deallocate p"))) == "DEALLOCATE");
  CHECK(std::string(StatementName(*ParseOne("create database d"))) == "CREATE DATABASE");
  CHECK(std::string(StatementName(*ParseOne("drop database d"))) == "DROP DATABASE");
  CHECK(std::string(StatementName(*ParseOne("create role r"))) == "CREATE ROLE");
  CHECK(std::string(StatementName(*ParseOne("alter role r login"))) == "ALTER ROLE");
  CHECK(std::string(StatementName(*ParseOne("savepoint s"))) == "SAVEPOINT");
  CHECK(std::string(StatementName(*ParseOne("release s"))) == "RELEASE");
}

}  // namespace
}  // namespace hearth::parser
