// psql-style error display. Expected strings were produced by psql 15.18
// against PostgreSQL 15 for the same query and error position.
#include <catch2/catch.hpp>

#include "client/shell/error_format.h"

using hearth::client::ErrorFields;
using hearth::client::FormatErrorPosition;
using hearth::client::FormatServerMessage;

namespace {

int PositionOf(const std::string& query, const std::string& needle) {
  // 1-based character position (queries here are ASCII before the needle).
  return static_cast<int>(query.find(needle)) + 1;
}

}  // namespace

TEST_CASE("caret under the error on a single line", "[client][error]") {
  CHECK(FormatErrorPosition("select * from nosuch", 15) ==
        "LINE 1: select * from nosuch\n"
        "                      ^\n");
  CHECK(FormatErrorPosition("select 1; select * from nosuch; select 2", 25) ==
        "LINE 1: select 1; select * from nosuch; select 2\n"
        "                                ^\n");
}

TEST_CASE("caret on a later line", "[client][error]") {
  CHECK(FormatErrorPosition("select 1,\n 2 from\nnosuch", 19) ==
        "LINE 3: nosuch\n"
        "        ^\n");
}

TEST_CASE("long lines are cut around the error", "[client][error]") {
  const std::string q1 = "select '" + std::string(71, 'a') + "', * from nosuch, " + std::string(41, 'b');
  CHECK(FormatErrorPosition(q1, PositionOf(q1, "nosuch")) ==
        "LINE 1: ..." + std::string(40, 'a') + "', * from nosuch, bb...\n" +
            std::string(61, ' ') + "^\n");
  const std::string q2 = "select * from nosuch, " + std::string(78, 'b');
  CHECK(FormatErrorPosition(q2, 15) ==
        "LINE 1: select * from nosuch, " + std::string(38, 'b') + "...\n" +
            std::string(22, ' ') + "^\n");
}

TEST_CASE("caret accounts for wide characters", "[client][error]") {
  // select '日本語é', * from nosuch  (position 23, counted in characters)
  const std::string q = "select '\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xc3\xa9', * from nosuch";
  CHECK(FormatErrorPosition(q, 23) == "LINE 1: " + q + "\n" + std::string(33, ' ') + "^\n");
}

TEST_CASE("positions outside the query print nothing", "[client][error]") {
  CHECK(FormatErrorPosition("select", 0).empty());
  CHECK(FormatErrorPosition("select", 99).empty());
  CHECK(FormatErrorPosition("", 1).empty());
}

TEST_CASE("full message: severity, LINE, DETAIL, HINT, CONTEXT, prefix", "[client][error]") {
  ErrorFields e;
  e.severity = "ERROR";
  e.sqlstate = "42P01";
  e.message = "relation \"nosuch\" does not exist";
  e.position = "15";
  CHECK(FormatServerMessage(e, "select * from nosuch", "hearth:f.sql:2: ") ==
        "hearth:f.sql:2: ERROR:  relation \"nosuch\" does not exist\n"
        "LINE 1: select * from nosuch\n"
        "                      ^\n");
  ErrorFields d;
  d.severity = "ERROR";
  d.message = "duplicate key value violates unique constraint \"t2_pkey\"";
  d.detail = "Key (a)=(1) already exists.";
  d.hint = "try another";
  d.where = "PL/pgSQL function inline_code_block line 1 at PERFORM";
  CHECK(FormatServerMessage(d, "insert into t2 values (1)") ==
        "ERROR:  duplicate key value violates unique constraint \"t2_pkey\"\n"
        "DETAIL:  Key (a)=(1) already exists.\n"
        "HINT:  try another\n"
        "CONTEXT:  PL/pgSQL function inline_code_block line 1 at PERFORM\n");
  ErrorFields n;
  n.severity = "NOTICE";
  n.message = "table \"zz\" does not exist, skipping";
  n.where = "ignored for notices";
  CHECK(FormatServerMessage(n, "", "", false) == "NOTICE:  table \"zz\" does not exist, skipping\n");
}
