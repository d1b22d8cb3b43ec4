// COPY ... FROM STDIN (FREEZE) over the wire: refused with PostgreSQL 15's
// 55000 unless the transaction created or truncated the table; otherwise
// the rows are written frozen, which a repeatable-read snapshot taken
// before the load can see (as in PostgreSQL: frozen rows are visible to
// every snapshot), while a plain load stays invisible to it. A rolled-back
// FREEZE load leaves no table.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

void Exec(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql);
  INFO(sql << " -> " << (First(msgs, 'E') ? ErrorOf(*First(msgs, 'E')).message : ""));
  REQUIRE(FirstSqlstate(msgs) == "");
}

std::vector<std::string> Col(RawConn& c, const std::string& sql) { return FirstColumn(c.Query(sql)); }

// Rows "i\ti*10\n" for i in [1, n].
std::string Rows(int n) {
  std::string d;
  for (int i = 1; i <= n; i++) d += std::to_string(i) + "\t" + std::to_string(i * 10) + "\n";
  return d;
}

// COPY ... FROM STDIN with `data`; returns the server's answer. When the
// server refuses before CopyInResponse, nothing is sent.
std::vector<RawMessage> CopyIn(RawConn& c, const std::string& sql, const std::string& data) {
  REQUIRE(c.Send(QueryMsg(sql)));
  auto first = c.Read();
  REQUIRE(first.has_value());
  if (first->type != 'G') {
    std::vector<RawMessage> msgs{*first};
    auto rest = c.ReadUntilReady();
    msgs.insert(msgs.end(), rest.begin(), rest.end());
    return msgs;
  }
  REQUIRE(c.Send(CopyDataMsg(data) + CopyDoneMsg()));
  return c.ReadUntilReady();
}

}  // namespace

TEST_CASE("copy_freeze: a table not created or truncated in the transaction is 55000", "[copy_freeze_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  Exec(c, "create table old_t (a int, b int)");
  auto r = CopyIn(c, "copy old_t from stdin (freeze)", Rows(3));
  REQUIRE(FirstSqlstate(r) == "55000");
  CHECK(ErrorOf(*First(r, 'E')).message ==
        "cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction");
  // Inside a transaction that did not create it: the same.
  Exec(c, "begin");
  r = CopyIn(c, "copy old_t from stdin with (freeze true)", Rows(3));
  CHECK(FirstSqlstate(r) == "55000");
  Exec(c, "rollback");
  // FREEZE false is a plain load.
  r = CopyIn(c, "copy old_t from stdin (freeze false)", Rows(3));
  REQUIRE(FirstSqlstate(r) == "");
  CHECK(Col(c, "select count(*) from old_t") == std::vector<std::string>{"3"});
}

TEST_CASE("copy_freeze: rows loaded frozen are correct and visible to an older snapshot", "[copy_freeze_test]") {
  TestServer server;
  RawConn c(server.port());
  RawConn reader(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(LastStatus(reader.Startup()) == 'I');
  Exec(c, "create table other (x int)");
  Exec(c, "create table plain_t (a int, b int)");
  Exec(c, "create table trunc_t (a int, b int)");
  Exec(c, "insert into trunc_t values (-1, -1)");

  // The reader's snapshot predates every load below.
  Exec(reader, "begin isolation level repeatable read");
  CHECK(Col(reader, "select count(*) from other") == std::vector<std::string>{"0"});

  Exec(c, "begin");
  Exec(c, "create table fresh (a int, b int)");
  auto r = CopyIn(c, "copy fresh from stdin (freeze)", Rows(3000));
  REQUIRE(FirstSqlstate(r) == "");
  CHECK(CommandTag(*First(r, 'C')) == "COPY 3000");
  CHECK(Col(c, "select count(*) from fresh") == std::vector<std::string>{"3000"});
  Exec(c, "commit");

  Exec(c, "begin");
  Exec(c, "truncate trunc_t");
  r = CopyIn(c, "copy trunc_t from stdin (freeze)", Rows(5));
  REQUIRE(FirstSqlstate(r) == "");
  Exec(c, "commit");

  r = CopyIn(c, "copy plain_t from stdin", Rows(5));
  REQUIRE(FirstSqlstate(r) == "");

  CHECK(Col(c, "select count(*), sum(a), sum(b) from fresh") == std::vector<std::string>{"3000"});
  CHECK(Col(c, "select sum(a)::text || '/' || sum(b)::text from fresh") == std::vector<std::string>{"4501500/45015000"});
  CHECK(Col(c, "select count(*) from trunc_t where a = b / 10") == std::vector<std::string>{"5"});
  CHECK(Col(c, "select count(*) from trunc_t where a < 0") == std::vector<std::string>{"0"});
  // Frozen rows are visible to every snapshot; a plain load is not visible
  // to a snapshot taken before it committed.
  CHECK(Col(reader, "select count(*) from fresh") == std::vector<std::string>{"3000"});
  CHECK(Col(reader, "select count(*) from trunc_t where a > 0") == std::vector<std::string>{"5"});
  CHECK(Col(reader, "select count(*) from plain_t") == std::vector<std::string>{"0"});
  Exec(reader, "commit");
  CHECK(Col(reader, "select count(*) from plain_t") == std::vector<std::string>{"5"});

  // Frozen rows behave as ordinary rows afterwards.
  Exec(c, "update fresh set b = 0 where a <= 10");
  Exec(c, "delete from fresh where a > 2990");
  CHECK(Col(c, "select count(*) from fresh where b = 0") == std::vector<std::string>{"10"});
  CHECK(Col(c, "select count(*) from fresh") == std::vector<std::string>{"2990"});
}

TEST_CASE("copy_freeze: a rolled-back FREEZE load leaves no table", "[copy_freeze_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  Exec(c, "begin");
  Exec(c, "create table gone (a int, b int)");
  auto r = CopyIn(c, "copy gone from stdin (freeze)", Rows(2000));
  REQUIRE(FirstSqlstate(r) == "");
  Exec(c, "rollback");
  r = c.Query("select count(*) from gone");
  CHECK(FirstSqlstate(r) == "42P01");
  // A truncate-and-freeze that rolls back keeps the old rows.
  Exec(c, "create table kept (a int, b int)");
  Exec(c, "insert into kept values (7, 70)");
  Exec(c, "begin");
  Exec(c, "truncate kept");
  r = CopyIn(c, "copy kept from stdin (freeze)", Rows(100));
  REQUIRE(FirstSqlstate(r) == "");
  Exec(c, "rollback");
  CHECK(Col(c, "select a from kept") == std::vector<std::string>{"7"});
}
