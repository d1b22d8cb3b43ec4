// COPY ... (FORMAT binary) over the wire with a raw protocol client:
// COPY TO writes PostgreSQL 15's exact bytes for int4, int8, text, numeric,
// bool, date, timestamp and NULLs (also for COPY (query)); COPY FROM of
// those bytes, split across CopyData messages at every awkward point,
// loads the same rows; a bad signature and a wrong field count are 22P04.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "copy_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// What PostgreSQL 15.18 writes for `copy src to stdout (format binary)`
// after kCreate and kInsert below.
constexpr const char kPgBytesHex[] =
    "5047434f50590aff0d0a000000000000000000000700000004000000010000000800000002540be4000000000568656c6c6f0000000c"
    "0002000000000004007b119400000001010000000400002279000000080002b58341728608000700000004fffffff9ffffffff0000"
    "00000000000a0001ffff40000003000a000000010000000004ffffffff00000008fffca2fec4c820000007ffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffff0007000000047fffffff00000008ffffffffffffffff0000000c7461625c746865726520"
    "c3bc0000000a0001000500000000000100000001010000000400000000000000080000000000000001ffff";

constexpr const char kCreate[] =
    "create table src (a int4, b int8, c text, d numeric, e bool, f date, g timestamp)";
constexpr const char kInsert[] =
    "insert into src values (1, 10000000000, 'hello', 123.4500, true, '2024-02-29', '2024-02-29 12:34:56.789'), "
    "(-7, null, '', -0.001, false, '1999-12-31', '1970-01-01 00:00:00'), "
    "(null, null, null, null, null, null, null), "
    "(2147483647, -1, 'tab\\there ü', 1e20, true, '2000-01-01', '2000-01-01 00:00:00.000001')";

}  // namespace

TEST_CASE("copy_binary: COPY TO writes PostgreSQL's bytes and COPY FROM loads them back", "[copy_binary_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  RunOk(c, kCreate);
  RunOk(c, kInsert);
  const std::string pg = FromHex(kPgBytesHex);

  const std::string bytes = CopyOut(c, "copy src to stdout (format binary)", 7);
  CHECK(bytes == pg);
  CHECK(CopyOut(c, "copy (select * from src) to stdout with (format binary)", 7) == pg);

  RunOk(c, "create table dst (a int4, b int8, c text, d numeric, e bool, f date, g timestamp)");
  for (size_t chunk : {bytes.size(), size_t{1}, size_t{7}}) {
    INFO("chunk " << chunk);
    RunOk(c, "truncate dst");
    auto r = CopyIn(c, "copy dst from stdin (format binary)", bytes, chunk);
    REQUIRE(FirstSqlstate(r) == "");
    REQUIRE(First(r, 'C') != nullptr);
    CHECK(CommandTag(*First(r, 'C')) == "COPY 4");
    CHECK(FirstColumn(c.Query("select count(*) from (select * from src except all select * from dst) x")) ==
          std::vector<std::string>{"0"});
    CHECK(FirstColumn(c.Query("select count(*) from (select * from dst except all select * from src) x")) ==
          std::vector<std::string>{"0"});
  }
  CHECK(FirstColumn(c.Query("select count(*) from dst where a is null and g is null")) == std::vector<std::string>{"1"});
  // A column list moves only those columns, the others take defaults.
  RunOk(c, "create table two (a int4, c text, z int default 5)");
  const std::string ac = CopyOut(c, "copy src (a, c) to stdout (format binary)", 2);
  auto r = CopyIn(c, "copy two (a, c) from stdin (format binary)", ac, 5);
  REQUIRE(FirstSqlstate(r) == "");
  CHECK(FirstColumn(c.Query("select count(*) from two t join src s on s.a = t.a and s.c = t.c and t.z = 5")) ==
        std::vector<std::string>{"3"});
}

TEST_CASE("copy_binary: a bad signature, a wrong field count and truncated data are 22P04", "[copy_binary_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  RunOk(c, "create table t1 (a int)");

  auto r = CopyIn(c, "copy t1 from stdin (format binary)", "garbage\n", 100);
  REQUIRE(FirstSqlstate(r) == "22P04");
  CHECK(ErrorOf(*First(r, 'E')).message == "COPY file signature not recognized");

  const std::string header = std::string("PGCOPY\n\377\r\n\0", 11) + std::string(8, '\0');
  const std::string one_row = std::string("\0\1\0\0\0\4\0\0\0\7", 10);
  const std::string two_fields = std::string("\0\2\0\0\0\4\0\0\0\1\0\0\0\4\0\0\0\1", 18);
  r = CopyIn(c, "copy t1 from stdin (format binary)", header + one_row + two_fields, 100);
  REQUIRE(FirstSqlstate(r) == "22P04");
  CHECK(ErrorOf(*First(r, 'E')).message == "row field count is 2, expected 1");
  CHECK(ErrorOf(*First(r, 'E')).where == "COPY t1, line 2");

  r = CopyIn(c, "copy t1 from stdin (format binary)", header + one_row + one_row.substr(0, 7), 3);
  REQUIRE(FirstSqlstate(r) == "22P04");
  CHECK(ErrorOf(*First(r, 'E')).message == "unexpected EOF in COPY data");

  // A value of the wrong size for its type: the receive function's error,
  // naming the row and column.
  r = CopyIn(c, "copy t1 from stdin (format binary)", header + std::string("\0\1\0\0\0\2\0\7", 8), 100);
  REQUIRE(FirstSqlstate(r) == "22P03");
  CHECK(ErrorOf(*First(r, 'E')).where == "COPY t1, line 1, column a");
  CHECK(FirstColumn(c.Query("select count(*) from t1")) == std::vector<std::string>{"0"});
  // The connection is still in step: a good load works.
  r = CopyIn(c, "copy t1 from stdin (format binary)", header + one_row + std::string("\xff\xff", 2), 100);
  REQUIRE(FirstSqlstate(r) == "");
  CHECK(FirstColumn(c.Query("select a from t1")) == std::vector<std::string>{"7"});
}
