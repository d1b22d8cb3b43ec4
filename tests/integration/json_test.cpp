// json, jsonb and jsonpath over the wire as drivers use them: binary
// results (jsonb: version byte 1 + text, json: its text verbatim),
// binary and text parameters, RowDescription's type oids, the
// ErrorResponse fields of bad input (22P02 with DETAIL and CONTEXT),
// jsonb_recv's version check, and COPY (FORMAT binary) writing PostgreSQL
// 15's exact bytes and loading them back.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "copy_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// What PostgreSQL 15.18 writes for `copy jb to stdout (format binary)`
// after kCreate and kInsert below.
constexpr const char kPgBytesHex[] =
    "5047434f50590aff0d0a0000000000000000000003000000137b227a223a312c2020226122203a205b325d7d00000013017b2261223a"
    "205b325d2c20227a223a20317d0000001101242e2261225b2a5d3f2840203e2031290003ffffffff00000005016e756c6cffffffffffff";

constexpr const char kCreate[] = "create table jb (j json, b jsonb, p jsonpath)";
constexpr const char kInsert[] =
    "insert into jb values ('{\"z\":1,  \"a\" : [2]}', '{\"z\":1,  \"a\" : [2]}', '$.a[*] ? (@ > 1)'), "
    "(null, 'null', null)";

std::vector<RawMessage> Exec(RawConn& c, const std::string& sql, const std::vector<int32_t>& param_oids,
                             const std::vector<int16_t>& param_formats, const std::vector<std::optional<std::string>>& params,
                             int16_t result_format) {
  REQUIRE(c.Send(ParseMsg("", sql, param_oids) + BindMsg("", "", param_formats, params, {result_format}) +
                 DescribeMsg('P', "") + ExecuteMsg("", 0) + SyncMsg()));
  return c.ReadUntilReady();
}

}  // namespace

TEST_CASE("json: binary and text formats of json, jsonb and jsonpath", "[json_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');

  // Binary results: jsonb is version 1 + its normal form, json its text.
  auto msgs = Exec(c, "select '{\"b\":1,  \"a\":[1, 2.50]}'::jsonb, '{\"b\":1,  \"a\":2}'::json, '$.a'::jsonpath",
                   {}, {}, {}, 1);
  REQUIRE(FirstSqlstate(msgs) == "");
  auto desc = RowDescriptionOf(*First(msgs, 'T'));
  REQUIRE(desc.size() == 3);
  CHECK(desc[0].type_oid == 3802);
  CHECK(desc[1].type_oid == 114);
  CHECK(desc[2].type_oid == 4072);
  auto row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 3);
  CHECK(row[0] == std::optional<std::string>(std::string("\x01") + "{\"a\": [1, 2.50], \"b\": 1}"));
  CHECK(row[1] == std::optional<std::string>("{\"b\":1,  \"a\":2}"));
  CHECK(row[2] == std::optional<std::string>(std::string("\x01") + "$.\"a\""));

  // A binary jsonb parameter, text results.
  msgs = Exec(c, "select $1 -> 'x', $1 ->> 'y', jsonb_typeof($1)", {3802}, {1},
              {std::string("\x01") + "{\"y\": \"s\", \"x\": [1,2]}"}, 0);
  REQUIRE(FirstSqlstate(msgs) == "");
  row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 3);
  CHECK(row[0] == std::optional<std::string>("[1, 2]"));
  CHECK(row[1] == std::optional<std::string>("s"));
  CHECK(row[2] == std::optional<std::string>("object"));

  // Text parameters of declared type json and jsonb.
  msgs = Exec(c, "select $1::text, $2::text, $2 @> '{\"a\": 1}'", {114, 3802}, {0, 0},
              {"[1,  2]", "{\"a\": 1, \"a\": 1.0, \"b\": null}"}, 0);
  REQUIRE(FirstSqlstate(msgs) == "");
  row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 3);
  CHECK(row[0] == std::optional<std::string>("[1,  2]"));
  CHECK(row[1] == std::optional<std::string>("{\"a\": 1.0, \"b\": null}"));
  CHECK(row[2] == std::optional<std::string>("t"));

  // jsonb_recv refuses other versions; bad json text gets DETAIL and CONTEXT.
  msgs = Exec(c, "select $1", {3802}, {1}, {std::string("\x02") + "{}"}, 0);
  REQUIRE(FirstSqlstate(msgs) == "XX000");
  CHECK(ErrorOf(*First(msgs, 'E')).message == "unsupported jsonb version number 2");
  msgs = Exec(c, "select $1", {114}, {0}, {"{\"a\" 1}"}, 0);
  REQUIRE(FirstSqlstate(msgs) == "22P02");
  auto err = ErrorOf(*First(msgs, 'E'));
  CHECK(err.message == "invalid input syntax for type json");
  CHECK(err.detail == "Expected \":\", but found \"1\".");
  CHECK(err.where == "JSON data, line 1: {\"a\" 1...");
  // The session is still usable.
  CHECK(FirstColumn(c.Query("select '[1]'::jsonb || '2'")) == std::vector<std::string>{"[1, 2]"});
}

TEST_CASE("json: COPY binary writes PostgreSQL's bytes and loads them back", "[json_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  RunOk(c, kCreate);
  RunOk(c, kInsert);
  const std::string bytes = CopyOut(c, "copy jb to stdout (format binary)", 3);
  CHECK(bytes == FromHex(kPgBytesHex));

  RunOk(c, "create table jb2 (j json, b jsonb, p jsonpath)");
  auto r = CopyIn(c, "copy jb2 from stdin (format binary)", bytes, 5);
  REQUIRE(FirstSqlstate(r) == "");
  CHECK(FirstColumn(c.Query("select count(*) from jb2 x join jb y on x.b = y.b and x.j::text is not distinct from "
                            "y.j::text and x.p::text is not distinct from y.p::text")) ==
        std::vector<std::string>{"2"});
  CHECK(FirstColumn(c.Query("select j::text from jb2 where j is not null")) ==
        std::vector<std::string>{"{\"z\":1,  \"a\" : [2]}"});
}
