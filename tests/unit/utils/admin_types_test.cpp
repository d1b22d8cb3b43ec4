// pg_lsn and regclass text I/O without a server (no relation-name hooks).
#include <catch2/catch.hpp>

#include "test_util.h"
#include "utils/adt/compare.h"
#include "utils/adt/pg_lsn.h"
#include "utils/adt/regclass.h"
#include "utils/adt/text_io.h"

using namespace hearth::types;

TEST_CASE("pg_lsn reads and prints X/Y and compares unsigned", "[types][pg_lsn]") {
  CHECK(OutputValue(InputValue(kPgLsnOid, kNoTypmod, "16/b374d848")) == "16/B374D848");
  CHECK(OutputValue(InputValue(kPgLsnOid, kNoTypmod, "00000000/00000001")) == "0/1");
  CHECK(ParseLsn("FFFFFFFF/FFFFFFFF") == ~uint64_t{0});
  for (const char* bad : {"", "/", "1/", "/1", "123456789/0", "0/123456789", " 0/0", "0/0 ", "0//0", "g/0"}) {
    INFO(bad);
    CHECK(CatchDbError([&] { ParseLsn(bad); }).sqlstate() == "22P02");
  }
  CHECK(CatchDbError([] { ParseLsn("x"); }).message() == "invalid input syntax for type pg_lsn: \"x\"");
  // Above 2^63 the signed payload is negative; ordering must not be.
  CHECK(CompareValues(LsnValue(~uint64_t{0}), LsnValue(1)) > 0);
  CHECK(LsnDiff(0, 0x16B374D848) == "-97500059720");
  CHECK(LsnDiff(~uint64_t{0}, 0) == "18446744073709551615");
}

TEST_CASE("regclass without a catalog takes OIDs only", "[types][regclass]") {
  CHECK(OutputValue(InputValue(kRegclassOid, kNoTypmod, "16384")) == "16384");
  CHECK(OutputValue(InputValue(kRegclassOid, kNoTypmod, "-")) == "-");
  auto e = CatchDbError([] { InputValue(kRegclassOid, kNoTypmod, "Some_Table"); });
  CHECK(e.sqlstate() == "42P01");
  CHECK(e.message() == "relation \"some_table\" does not exist");
  CHECK(CatchDbError([] { InputValue(kRegclassOid, kNoTypmod, "s.\"T\""); }).message() ==
        "relation \"s.T\" does not exist");
  CHECK(CatchDbError([] { InputValue(kRegclassOid, kNoTypmod, "a..b"); }).sqlstate() == "42602");
  CHECK(CatchDbError([] { InputValue(kRegclassOid, kNoTypmod, "\"open"); }).sqlstate() == "42602");
  CHECK(QuoteIdentifier("plain_1") == "plain_1");
  CHECK(QuoteIdentifier("Mixed") == "\"Mixed\"");
  CHECK(QuoteIdentifier("a\"b") == "\"a\"\"b\"");
}
