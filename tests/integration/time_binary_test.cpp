// time and timetz in PostgreSQL's binary wire format: binary parameters
// (Bind) and results carry PostgreSQL 15's exact bytes (time_send /
// timetz_send: µs int64, then the zone in seconds west as int32), a time(p)
// parameter is rounded, and time_recv/timetz_recv reject out-of-range
// values with 22008/22009 leaving the session usable.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "copy_helpers.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// What PostgreSQL 15 sends for time '04:05:06.789', timetz
// '04:05:06.789+05:30' and timetz '24:00:00-15:59'.
constexpr const char kTimeHex[] = "000000036c97ca88";
constexpr const char kTimeTzHex[] = "000000036c97ca88ffffb2a8";
constexpr const char kTimeTzMaxHex[] = "000000141dd760000000e0c4";

std::vector<RawMessage> ExecBinary(RawConn& c, const std::string& sql, int32_t param_oid, const std::string& param,
                                   int16_t result_format) {
  REQUIRE(c.Send(ParseMsg("", sql, {param_oid}) + BindMsg("", "", {1}, {param}, {result_format}) +
                 ExecuteMsg("", 0) + SyncMsg()));
  return c.ReadUntilReady();
}

std::optional<std::string> OneValue(const std::vector<RawMessage>& msgs) {
  REQUIRE(FirstSqlstate(msgs) == "");
  auto row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 1);
  return row[0];
}

}  // namespace

TEST_CASE("time_binary: time and timetz binary parameters and results", "[time_binary_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');

  // Binary parameters read as PostgreSQL's bytes.
  CHECK(OneValue(ExecBinary(c, "select $1::text", 1083, FromHex(kTimeHex), 0)) == "04:05:06.789");
  CHECK(OneValue(ExecBinary(c, "select $1::text", 1266, FromHex(kTimeTzHex), 0)) == "04:05:06.789+05:30");
  CHECK(OneValue(ExecBinary(c, "select $1::text", 1266, FromHex(kTimeTzMaxHex), 0)) == "24:00:00-15:59");
  CHECK(OneValue(ExecBinary(c, "select $1::time(1)::text", 1083, FromHex(kTimeHex), 0)) == "04:05:06.8");

  // Binary results are PostgreSQL's bytes.
  CHECK(OneValue(ExecBinary(c, "select $1::time", 25, "04:05:06.789", 1)) == FromHex(kTimeHex));
  CHECK(OneValue(ExecBinary(c, "select $1::timetz", 25, "04:05:06.789+05:30", 1)) == FromHex(kTimeTzHex));

  // Out-of-range values are refused, and the session goes on.
  auto msgs = ExecBinary(c, "select $1", 1083, FromHex("000000141dd76001"), 0);  // 24:00:00.000001
  REQUIRE(FirstSqlstate(msgs) == "22008");
  CHECK(ErrorOf(*First(msgs, 'E')).message == "time out of range");
  msgs = ExecBinary(c, "select $1", 1266, FromHex("000000036c97ca880000e100"), 0);  // zone 16 hours
  REQUIRE(FirstSqlstate(msgs) == "22009");
  msgs = ExecBinary(c, "select $1", 1083, FromHex("0000"), 0);
  REQUIRE(FirstSqlstate(msgs) == "22P03");
  CHECK(FirstColumn(c.Query("select time '04:05' + interval '1 hour'")) == std::vector<std::string>{"05:05:00"});
}
