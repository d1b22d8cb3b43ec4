// TOAST over the wire: values far wider than a page go in by INSERT and
// COPY and come back byte for byte; an UPDATE of another column keeps the
// out-of-line value (the table does not grow); DELETE + VACUUM make its
// space reusable; compressible values are compressed; a kill -9 during a
// load of wide rows loses no committed row and shows no uncommitted one.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// `n` pseudo-random printable bytes (no quote, backslash or tab): lz4
// cannot shrink them much, so they must go out of line.
std::string Incompressible(size_t n, uint32_t seed) {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-*/=_.,;:!?()[]{}<>@#$%^&";
  const uint32_t m = sizeof(kAlphabet) - 1;
  std::string s(n, ' ');
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    s[i] = kAlphabet[(x >> 16) % m];
  }
  return s;
}

std::string Body(RawConn& c, const std::string& where) {
  auto msgs = c.Query("select body from big where " + where, 60000);
  INFO(FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  std::vector<std::string> col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return col[0];
}

constexpr size_t kTenMb = 10 * 1024 * 1024;

// COPY ... FROM STDIN (text format): `data` in CopyData messages of `chunk`
// bytes; returns the server's answer after CopyDone.
std::vector<RawMessage> CopyTextIn(RawConn& c, const std::string& sql, const std::string& data, size_t chunk) {
  REQUIRE(c.Send(QueryMsg(sql)));
  auto g = c.Read();
  REQUIRE(g.has_value());
  REQUIRE(g->type == 'G');
  for (size_t at = 0; at < data.size(); at += chunk) {
    REQUIRE(c.Send(CopyDataMsg(std::string_view(data).substr(at, chunk))));
  }
  REQUIRE(c.Send(CopyDoneMsg()));
  return c.ReadUntilReady(120000);
}

}  // namespace

TEST_CASE("toast: 10 MB text by INSERT and COPY reads back identically", "[toast_test]") {
  TestServer server;
  RawConn c(server.port());
  RequireStartup(c);
  REQUIRE(Exec(c, "create table big (id int primary key, note text, body text)"));
  const std::string a = Incompressible(kTenMb, 1);
  const std::string b = Incompressible(kTenMb, 2);
  REQUIRE(Exec(c, "insert into big values (1, 'by insert', '" + a + "')", 120000));
  auto copied = CopyTextIn(c, "copy big from stdin", "2\tby copy\t" + b + "\n", 65536);
  INFO(FirstSqlstate(copied));
  REQUIRE(Ok(copied));
  CHECK(Body(c, "id = 1") == a);
  CHECK(Body(c, "id = 2") == b);
  CHECK(QueryValue(c, "select length(body) from big where id = 2") == std::to_string(kTenMb));
  CHECK(QueryValue(c, "select substr(body, 5000000, 20) from big where id = 1") == a.substr(4999999, 20));
  // The heap keeps pointers; the data is in the toast relation.
  CHECK(QueryNumber(c, "select pg_relation_size('big')") < 64 * 1024);
  CHECK(QueryNumber(c, "select pg_total_relation_size('big')") > 2 * static_cast<int64_t>(kTenMb));
  // COPY TO gives the value back too.
  auto out = c.Query("copy (select body from big where id = 2) to stdout", 60000);
  REQUIRE(Ok(out));
  std::string copy_text;
  for (const RawMessage& m : out) {
    if (m.type == 'd') copy_text += m.body;
  }
  CHECK(copy_text == b + "\n");
}

TEST_CASE("toast: UPDATE of another column keeps the value; DELETE + VACUUM free its space", "[toast_test]") {
  TestServer server;
  RawConn c(server.port());
  RequireStartup(c);
  REQUIRE(Exec(c, "create table big (id int primary key, note text, body text)"));
  const std::string a = Incompressible(kTenMb, 3);
  REQUIRE(Exec(c, "insert into big values (1, 'first', '" + a + "')", 120000));
  const std::string md5 = QueryValue(c, "select md5(body) from big");
  const int64_t loaded = QueryNumber(c, "select pg_total_relation_size('big')");
  for (int i = 0; i < 3; ++i) REQUIRE(Exec(c, "update big set note = 'note " + std::to_string(i) + "'"));
  CHECK(QueryValue(c, "select note from big") == "note 2");
  CHECK(QueryValue(c, "select md5(body) from big") == md5);
  CHECK(Body(c, "id = 1") == a);
  // The value was not stored again by any of the updates.
  CHECK(QueryNumber(c, "select pg_total_relation_size('big')") < loaded + 1024 * 1024);

  // Changing the value itself stores the new one and drops the old.
  REQUIRE(Exec(c, "update big set body = body || 'x'", 120000));
  CHECK(QueryValue(c, "select right(body, 3) from big") == a.substr(a.size() - 2) + "x");
  REQUIRE(Exec(c, "delete from big"));
  REQUIRE(Exec(c, "vacuum big", 120000));
  const int64_t after_vacuum = QueryNumber(c, "select pg_total_relation_size('big')");
  // Loading the same amount again reuses the freed pages.
  REQUIRE(Exec(c, "insert into big values (2, 'again', '" + a + "')", 120000));
  CHECK(QueryNumber(c, "select pg_total_relation_size('big')") < after_vacuum + 1024 * 1024);
  CHECK(Body(c, "id = 2") == a);
}

TEST_CASE("toast: compressible values are compressed inline or out of line", "[toast_test]") {
  TestServer server;
  RawConn c(server.port());
  RequireStartup(c);
  REQUIRE(Exec(c, "create table z (id int, body text)"));
  REQUIRE(Exec(c, "insert into z select g, repeat('abc' || g, 100000) from generate_series(1, 3) g"));
  REQUIRE(Exec(c, "insert into z values (4, repeat('y', 5000))"));
  // 'abc' || g is four characters for g = 1..3.
  CHECK(QueryValue(c, "select sum(length(body)) from z") == std::to_string(3 * 400000 + 5000));
  CHECK(QueryValue(c, "select count(*) from z where body = repeat('abc' || id, 100000)") == "3");
  // 1.2 MB of text in well under 200 kB.
  CHECK(QueryNumber(c, "select pg_total_relation_size('z')") < 200 * 1024);
  // An index on a wide compressible column: its keys are the values.
  CHECK(Exec(c, "create table w (t text)"));
  CHECK(Exec(c, "insert into w values (repeat('q', 3000))"));
  CHECK(QueryValue(c, "select length(t) from w") == "3000");
}

TEST_CASE("toast: kill -9 during a load of wide rows keeps committed rows only", "[toast_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    RequireStartup(c);
    REQUIRE(Exec(c, "create table big (id int primary key, note text, body text)"));
    for (int i = 1; i <= 4; ++i) {
      REQUIRE(Exec(c, "insert into big values (" + std::to_string(i) + ", 'c', '" +
                          Incompressible(1024 * 1024, 10 + static_cast<uint32_t>(i)) + "')", 60000));
    }
    // An open transaction in the middle of its load when the server dies.
    REQUIRE(Exec(c, "begin"));
    for (int i = 100; i < 103; ++i) {
      REQUIRE(Exec(c, "insert into big values (" + std::to_string(i) + ", 'u', '" +
                          Incompressible(1024 * 1024, static_cast<uint32_t>(i)) + "')", 60000));
    }
    CrashAndRestart(server);
  }
  RawConn c(server.port());
  RequireStartup(c);
  CHECK(QueryValue(c, "select count(*) from big") == "4");
  for (int i = 1; i <= 4; ++i) {
    CHECK(Body(c, "id = " + std::to_string(i)) == Incompressible(1024 * 1024, 10 + static_cast<uint32_t>(i)));
  }
  // The table keeps working after recovery.
  REQUIRE(Exec(c, "insert into big values (5, 'after', repeat('z', 100000) || 'end')"));
  CHECK(QueryValue(c, "select right(body, 3) from big where id = 5") == "end");
}
