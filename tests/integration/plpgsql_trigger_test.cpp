// PL/pgSQL and triggers over the wire: an audit-log trigger under two
// concurrent sessions (each session's audit rows appear exactly when its
// transaction commits, a rolled-back update leaves none, an update that
// waited for another session's row lock fires on the row version it
// updates), an EXCEPTION block rolling back only its own changes inside an
// open transaction, and triggers surviving a kill -9 of the server
// (hearth_trigger is WAL-logged like every catalog).
#include <catch2/catch.hpp>

#include <csignal>
#include <string>

#include "session_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr int kReplyMs = 30000;

void Ok(RawConn& c, const std::string& sql) { QueryOk(c, sql, kReplyMs); }
std::string Value(RawConn& c, const std::string& sql) { return SingleValue(c, sql, kReplyMs); }

void CreateAuditedTable(RawConn& c) {
  Ok(c, "create table acct (id int primary key, balance int)");
  Ok(c, "create table audit (who int, op text, old_balance int, new_balance int)");
  Ok(c, "insert into acct values (1, 100), (2, 200)");
  Ok(c, R"(create function audit_it() returns trigger language plpgsql as $$
begin
  insert into audit values (pg_backend_pid(), tg_op, old.balance, new.balance);
  return new;
end $$)");
  Ok(c, "create trigger acct_audit after insert or update on acct for each row execute function audit_it()");
}

}  // namespace

TEST_CASE("plpgsql: an audit trigger under two concurrent sessions", "[plpgsql_trigger_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto b = StartedSession(server);
  auto obs = StartedSession(server);
  CreateAuditedTable(*a);

  // Separate rows: each session's audit row is visible to others only after its commit.
  Ok(*a, "begin");
  Ok(*a, "update acct set balance = balance + 1 where id = 1");
  Ok(*b, "begin");
  Ok(*b, "update acct set balance = balance + 2 where id = 2");
  CHECK(Value(*obs, "select count(*) from audit") == "0");
  CHECK(Value(*a, "select count(*) from audit") == "1");  // its own row only
  Ok(*b, "commit");
  CHECK(Value(*obs, "select string_agg(op || ':' || old_balance || '->' || new_balance, ',') from audit") ==
        "UPDATE:200->202");
  Ok(*a, "rollback");
  CHECK(Value(*obs, "select count(*) from audit") == "1");

  // The same row: b waits for a's row lock, then updates (and audits) the new version.
  Ok(*a, "begin");
  Ok(*a, "update acct set balance = balance + 10 where id = 1");
  SendAndAwaitBlocked(*b, *obs, "update acct set balance = balance + 5 where id = 1", kReplyMs);
  Ok(*a, "commit");
  CHECK(LastCommandTag(b->ReadUntilReady(kReplyMs)) == "UPDATE 1");
  CHECK(Value(*obs, "select balance from acct where id = 1") == "115");
  CHECK(Value(*obs,
              "select string_agg(old_balance || '->' || new_balance, ',' order by new_balance) from audit "
              "where old_balance >= 100 and old_balance < 200") == "100->110,110->115");
}

TEST_CASE("plpgsql: an EXCEPTION block rolls back only its own changes", "[plpgsql_trigger_test]") {
  TestServer server;
  auto a = StartedSession(server);
  auto obs = StartedSession(server);
  Ok(*a, "create table items (id int primary key, note text)");
  Ok(*a, R"(create function add_items(first int) returns text language plpgsql as $$
declare
  outcome text := 'none';
begin
  insert into items values (first, 'outer');
  begin
    insert into items values (first + 1, 'inner');
    insert into items values (first, 'duplicate');
  exception when unique_violation then
    outcome := 'caught ' || sqlstate;
  end;
  return outcome;
end $$)");
  Ok(*a, "begin");
  CHECK(Value(*a, "select add_items(10)") == "caught 23505");
  // The transaction is still usable, and sees the outer insert only.
  CHECK(Value(*a, "select string_agg(id || note, ',' order by id) from items") == "10outer");
  CHECK(Value(*obs, "select count(*) from items") == "0");
  Ok(*a, "insert into items values (11, 'after')");
  Ok(*a, "commit");
  CHECK(Value(*obs, "select string_agg(id || note, ',' order by id) from items") == "10outer,11after");
}

TEST_CASE("plpgsql: triggers and functions survive kill -9", "[plpgsql_trigger_test]") {
  TestServer server;
  {
    auto a = StartedSession(server);
    CreateAuditedTable(*a);
    Ok(*a, "begin");
    Ok(*a, "create trigger never_committed before insert on acct for each row execute function audit_it()");
    // The connection closes with the transaction open: it aborts.
  }
  REQUIRE(KillServerHard(server));
  server.Start();
  auto c = StartedSession(server);
  CHECK(Value(*c, "select string_agg(tgname, ',') from pg_trigger") == "acct_audit");
  Ok(*c, "insert into acct values (3, 300)");
  CHECK(Value(*c, "select op || new_balance from audit") == "INSERT300");
}
