// Arrays in PostgreSQL's binary wire format, as drivers use it: binary
// array parameters (Bind) and results, COPY ... (FORMAT binary) writing
// PostgreSQL 15's exact bytes for int4[] (two dimensions with a NULL),
// text[] (lower bound 0), numeric[], bool[] and int8[] (empty and
// bigint-max) and loading them back, and array_recv's errors.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "copy_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// What PostgreSQL 15.18 writes for `copy ab to stdout (format binary)`
// after kCreate and kInsert below.
constexpr const char kPgBytesHex[] =
    "5047434f50590aff0d0a000000000000000000000500000038000000020000000100000017000000020000000100000002000000010000"
    "000400000001ffffffff00000004000000030000000400000004000000200000000100000000000000190000000200000000000000016100"
    "000003622063000000320000000100000000000006a400000002000000010000000c0002000000000001000113880000000a000100004000"
    "000000020000001e0000000100000000000000100000000200000001000000010100000001000000000c00000000000000000000001400"
    "05ffffffff000000180000000100000001000000190000000100000001ffffffff0000000c0000000000000000000006a4ffffffff00000020"
    "0000000100000000000000140000000100000001000000087fffffffffffffffffff";

constexpr const char kCreate[] = "create table ab (a int4[], t text[], n numeric[], b bool[], e int8[])";
constexpr const char kInsert[] =
    "insert into ab values ('{{1,NULL},{3,4}}', '[0:1]={a,\"b c\"}', '{1.5,-2}', '{t,f}', '{}'), "
    "(NULL, '{NULL}', '{}', NULL, '{9223372036854775807}')";

// '{{1,NULL},{3,4}}'::int4[] in array_send's layout.
constexpr const char kInt4ArrayHex[] =
    "000000020000000100000017000000020000000100000002000000010000000400000001ffffffff0000000400000003000000040000"
    "0004";

std::string Be32(uint32_t v) {
  std::string s;
  for (int k = 3; k >= 0; --k) s.push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
  return s;
}

// An int4[] of one dimension (lower bound 1; ndim 0 for '{}') in
// array_send's layout; a negative value stands for NULL. elem_type and
// ndim may be falsified.
std::string Int4Array(const std::vector<int>& items, uint32_t elem_type = 23, uint32_t ndim = 1) {
  bool has_null = false;
  for (int v : items) has_null |= v < 0;
  std::string s = Be32(ndim) + Be32(has_null ? 1 : 0) + Be32(elem_type);
  if (ndim != 0) s += Be32(static_cast<uint32_t>(items.size())) + Be32(1);
  for (int v : items) s += v < 0 ? Be32(0xFFFFFFFFu) : Be32(4) + Be32(static_cast<uint32_t>(v));
  return s;
}

// Runs `sql` with one binary parameter of type `param_oid` and all results
// in `result_format`; returns the messages up to ReadyForQuery.
std::vector<RawMessage> ExecBinary(RawConn& c, const std::string& sql, int32_t param_oid, const std::string& param,
                                   int16_t result_format) {
  REQUIRE(c.Send(ParseMsg("", sql, {param_oid}) + BindMsg("", "", {1}, {param}, {result_format}) +
                 ExecuteMsg("", 0) + SyncMsg()));
  return c.ReadUntilReady();
}

}  // namespace

TEST_CASE("array_binary: binary array parameters and results", "[array_binary_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');

  // A binary int4[] parameter, text results.
  auto msgs = ExecBinary(c, "select $1::text, $1[3], cardinality($1), 7 = any($1)", 1007, Int4Array({5, -1, 7}), 0);
  REQUIRE(FirstSqlstate(msgs) == "");
  auto row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 4);
  CHECK(row[0] == std::optional<std::string>("{5,NULL,7}"));
  CHECK(row[1] == std::optional<std::string>("7"));
  CHECK(row[2] == std::optional<std::string>("3"));
  CHECK(row[3] == std::optional<std::string>("t"));

  // Binary results: PostgreSQL's bytes, and what comes in goes back out.
  msgs = ExecBinary(c, "select $1::int4[] || '{{3,4}}'", 1007, Int4Array({1, -1}), 1);
  REQUIRE(FirstSqlstate(msgs) == "");
  row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 1);
  CHECK(row[0] == std::optional<std::string>(FromHex(kInt4ArrayHex)));
  msgs = ExecBinary(c, "select $1", 1007, Int4Array({}, 23, 0), 1);
  REQUIRE(FirstSqlstate(msgs) == "");
  CHECK(DataRowValues(*First(msgs, 'D'))[0] == std::optional<std::string>(Int4Array({}, 23, 0)));

  // array_recv's checks.
  msgs = ExecBinary(c, "select $1", 1007, Int4Array({1}, 25), 0);
  REQUIRE(FirstSqlstate(msgs) == "42804");
  CHECK(ErrorOf(*First(msgs, 'E')).message ==
        "binary data has array element type 25 (text) instead of expected 23 (integer)");
  msgs = ExecBinary(c, "select $1", 1007, Int4Array({1}, 23, 7), 0);
  REQUIRE(FirstSqlstate(msgs) == "54000");
  msgs = ExecBinary(c, "select $1", 1007, Int4Array({1, 2}).substr(0, 30), 0);
  REQUIRE(FirstSqlstate(msgs) == "22P03");
  CHECK(ErrorOf(*First(msgs, 'E')).message == "insufficient data left in message");
  // The session is still usable.
  CHECK(FirstColumn(c.Query("select ARRAY[1,2]")) == std::vector<std::string>{"{1,2}"});
}

TEST_CASE("array_binary: COPY binary writes PostgreSQL's bytes and loads them back", "[array_binary_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  RunOk(c, kCreate);
  RunOk(c, kInsert);
  const std::string bytes = CopyOut(c, "copy ab to stdout (format binary)", 5);
  CHECK(bytes == FromHex(kPgBytesHex));

  RunOk(c, "create table ab2 (a int4[], t text[], n numeric[], b bool[], e int8[])");
  auto r = CopyIn(c, "copy ab2 from stdin (format binary)", bytes, 7);
  REQUIRE(FirstSqlstate(r) == "");
  CHECK(FirstColumn(c.Query("select count(*) from ab2 x join ab y on x.a is not distinct from y.a and x.t = y.t "
                            "and x.n = y.n and x.b is not distinct from y.b and x.e = y.e")) ==
        std::vector<std::string>{"2"});
  CHECK(FirstColumn(c.Query("select t from ab2 order by t")) == std::vector<std::string>{"[0:1]={a,\"b c\"}", "{NULL}"});
}
