#include <catch2/catch.hpp>

#include <cmath>

#include "test_util.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

using namespace hearth::types;

namespace {
std::string RoundTrip(Oid t, const char* in, int32_t typmod = kNoTypmod) {
  return OutputValue(InputValue(t, typmod, in));
}
}  // namespace

TEST_CASE("integer input trims whitespace and checks range", "[types][int]") {
  CHECK(RoundTrip(kInt4Oid, "  42  ") == "42");
  CHECK(RoundTrip(kInt4Oid, "-2147483648") == "-2147483648");
  CHECK(RoundTrip(kInt8Oid, "-9223372036854775808") == "-9223372036854775808");
  CHECK(RoundTrip(kInt2Oid, "+7") == "7");
  auto e = CatchDbError([] { InputValue(kInt4Oid, -1, "abc"); });
  CHECK(e.sqlstate() == "22P02");
  CHECK(e.message() == "invalid input syntax for type integer: \"abc\"");
  auto e2 = CatchDbError([] { InputValue(kInt4Oid, -1, "99999999999"); });
  CHECK(e2.sqlstate() == "22003");
  CHECK(e2.message() == "value \"99999999999\" is out of range for type integer");
  CHECK(CatchDbError([] { InputValue(kInt2Oid, -1, "32768"); }).message() ==
        "value \"32768\" is out of range for type smallint");
  CHECK(CatchDbError([] { InputValue(kInt8Oid, -1, "9223372036854775808"); }).message() ==
        "value \"9223372036854775808\" is out of range for type bigint");
  CHECK(CatchDbError([] { InputValue(kInt4Oid, -1, ""); }).message() ==
        "invalid input syntax for type integer: \"\"");
  CHECK(CatchDbError([] { InputValue(kInt4Oid, -1, "1 2"); }).sqlstate() == "22P02");
  CHECK(CatchDbError([] { InputValue(kInt4Oid, -1, "1.5"); }).sqlstate() == "22P02");
}

TEST_CASE("boolean input and output", "[types][bool]") {
  for (const char* t : {"t", "true", "TRUE", " yes ", "on", "1", "y", "tr"}) {
    CHECK(RoundTrip(kBoolOid, t) == "t");
  }
  for (const char* f : {"f", "false", "no", "off", "0", "n", "OF"}) {
    CHECK(RoundTrip(kBoolOid, f) == "f");
  }
  auto e = CatchDbError([] { InputValue(kBoolOid, -1, "o"); });
  CHECK(e.sqlstate() == "22P02");
  CHECK(e.message() == "invalid input syntax for type boolean: \"o\"");
  CHECK(CatchDbError([] { InputValue(kBoolOid, -1, "maybe"); }).sqlstate() == "22P02");
}

TEST_CASE("float output is the shortest round-trip text", "[types][float]") {
  CHECK(OutputValue(Value::Float8(0.1 + 0.2)) == "0.30000000000000004");
  CHECK(OutputValue(Value::Float8(1.5)) == "1.5");
  CHECK(OutputValue(Value::Float8(100)) == "100");
  CHECK(OutputValue(Value::Float8(1e15)) == "1e+15");
  CHECK(OutputValue(Value::Float8(123456789012345.0)) == "123456789012345");
  CHECK(OutputValue(Value::Float8(1.2345678901234568e17)) == "1.2345678901234568e+17");
  CHECK(OutputValue(Value::Float8(0.0001)) == "0.0001");
  CHECK(OutputValue(Value::Float8(0.00001)) == "1e-05");
  CHECK(OutputValue(Value::Float8(-2.5e-7)) == "-2.5e-07");
  CHECK(OutputValue(Value::Float8(std::nan(""))) == "NaN");
  CHECK(OutputValue(Value::Float8(HUGE_VAL)) == "Infinity");
  CHECK(OutputValue(Value::Float8(-HUGE_VAL)) == "-Infinity");
  CHECK(OutputValue(Value::Float8(0.0)) == "0");
  CHECK(OutputValue(Value::Float(kFloat4Oid, 0.1f)) == "0.1");
  CHECK(OutputValue(Value::Float(kFloat4Oid, 1e6f)) == "1e+06");
  CHECK(OutputValue(Value::Float(kFloat4Oid, 123456.f)) == "123456");
  CHECK(RoundTrip(kFloat8Oid, " 1.25 ") == "1.25");
  CHECK(RoundTrip(kFloat8Oid, "-Infinity") == "-Infinity");
  CHECK(RoundTrip(kFloat8Oid, "nan") == "NaN");
  CHECK(RoundTrip(kFloat8Oid, "1e300") == "1e+300");
  auto e = CatchDbError([] { InputValue(kFloat8Oid, -1, "x1"); });
  CHECK(e.sqlstate() == "22P02");
  CHECK(e.message() == "invalid input syntax for type double precision: \"x1\"");
  auto e2 = CatchDbError([] { InputValue(kFloat8Oid, -1, "1e400"); });
  CHECK(e2.sqlstate() == "22003");
  CHECK(e2.message() == "\"1e400\" is out of range for type double precision");
  CHECK(CatchDbError([] { InputValue(kFloat4Oid, -1, "1e40"); }).message() ==
        "\"1e40\" is out of range for type real");
}

TEST_CASE("numeric text i/o with typmod", "[types][numeric]") {
  CHECK(RoundTrip(kNumericOid, "1.50") == "1.50");
  CHECK(RoundTrip(kNumericOid, "1.555", NumericTypmod(10, 2)) == "1.56");
  CHECK(RoundTrip(kNumericOid, "NaN") == "NaN");
  CHECK(CatchDbError([] { InputValue(kNumericOid, NumericTypmod(3, 1), "100"); }).sqlstate() ==
        "22003");
}

TEST_CASE("varchar and bpchar length rules", "[types][string]") {
  CHECK(RoundTrip(kVarcharOid, "abc", CharTypmod(5)) == "abc");
  CHECK(RoundTrip(kVarcharOid, "abcde   ", CharTypmod(5)) == "abcde");
  auto e = CatchDbError([] { InputValue(kVarcharOid, CharTypmod(5), "abcdef"); });
  CHECK(e.sqlstate() == "22001");
  CHECK(e.message() == "value too long for type character varying(5)");
  CHECK(CatchDbError([] { InputValue(kBpcharOid, CharTypmod(3), "abcd"); }).message() ==
        "value too long for type character(3)");
  CHECK(RoundTrip(kBpcharOid, "ab", CharTypmod(4)) == "ab  ");
  // Lengths count characters, not bytes.
  CHECK(RoundTrip(kVarcharOid, "héllo", CharTypmod(5)) == "héllo");
  CHECK(RoundTrip(kTextOid, "anything at all") == "anything at all");
}

TEST_CASE("date input/output", "[types][date]") {
  CHECK(RoundTrip(kDateOid, "2026-11-30") == "2026-11-30");
  CHECK(InputValue(kDateOid, -1, "2000-01-01").i == 0);
  CHECK(InputValue(kDateOid, -1, "1999-12-31").i == -1);
  CHECK(InputValue(kDateOid, -1, "1970-01-01").i == -10957);
  CHECK(RoundTrip(kDateOid, " 2024-02-29 ") == "2024-02-29");
  CHECK(RoundTrip(kDateOid, "11/30/2026") == "2026-11-30");
  CHECK(RoundTrip(kDateOid, "20261130") == "2026-11-30");
  CHECK(RoundTrip(kDateOid, "2026-11-30 13:45:00") == "2026-11-30");
  CHECK(RoundTrip(kDateOid, "infinity") == "infinity");
  CHECK(RoundTrip(kDateOid, "0044-03-15 BC") == "0044-03-15 BC");
  auto e = CatchDbError([] { InputValue(kDateOid, -1, "x"); });
  CHECK(e.sqlstate() == "22007");
  CHECK(e.message() == "invalid input syntax for type date: \"x\"");
  auto e2 = CatchDbError([] { InputValue(kDateOid, -1, "2026-13-01"); });
  CHECK(e2.sqlstate() == "22008");
  CHECK(e2.message() == "date/time field value out of range: \"2026-13-01\"");
  CHECK(CatchDbError([] { InputValue(kDateOid, -1, "2023-02-29"); }).sqlstate() == "22008");
}

TEST_CASE("timestamp input/output", "[types][timestamp]") {
  CHECK(RoundTrip(kTimestampOid, "2026-11-30 12:34:56") == "2026-11-30 12:34:56");
  CHECK(RoundTrip(kTimestampOid, "2026-11-30 12:34:56.500") == "2026-11-30 12:34:56.5");
  CHECK(RoundTrip(kTimestampOid, "2026-11-30T01:02:03.123456") == "2026-11-30 01:02:03.123456");
  CHECK(RoundTrip(kTimestampOid, "2026-11-30") == "2026-11-30 00:00:00");
  CHECK(RoundTrip(kTimestampOid, "2026-11-30 12:00") == "2026-11-30 12:00:00");
  CHECK(InputValue(kTimestampOid, -1, "2000-01-01 00:00:01").i == 1000000);
  CHECK(RoundTrip(kTimestampTzOid, "2026-11-30 12:00:00+02") == "2026-11-30 10:00:00+00");
  CHECK(RoundTrip(kTimestampTzOid, "2026-11-30 12:00:00") == "2026-11-30 12:00:00+00");
  CHECK(RoundTrip(kTimestampOid, "1999-12-31 23:59:59.999999") == "1999-12-31 23:59:59.999999");
  auto e = CatchDbError([] { InputValue(kTimestampOid, -1, "yesterday-ish"); });
  CHECK(e.sqlstate() == "22007");
  CHECK(e.message() == "invalid input syntax for type timestamp: \"yesterday-ish\"");
  CHECK(CatchDbError([] { InputValue(kTimestampOid, -1, "2026-01-01 25:00:00"); }).sqlstate() ==
        "22008");
}

TEST_CASE("type catalog lookups", "[types][catalog]") {
  CHECK(LookupTypeByName("integer")->oid == kInt4Oid);
  CHECK(LookupTypeByName("INT4")->oid == kInt4Oid);
  CHECK(LookupTypeByName("varchar")->oid == kVarcharOid);
  CHECK(LookupTypeByName("character varying")->oid == kVarcharOid);
  CHECK(LookupTypeByName("double precision")->oid == kFloat8Oid);
  CHECK(LookupTypeByName("pg_catalog.regclass")->oid == kRegclassOid);
  CHECK(LookupTypeByName("nosuchtype") == nullptr);
  CHECK(LookupType(kNameOid)->typlen == 64);
  CHECK(TypeLength(kDateOid) == 4);
  CHECK(TypeLength(kNumericOid) == -1);
  CHECK(FormatType(kVarcharOid, CharTypmod(5)) == "character varying(5)");
  CHECK(FormatType(kNumericOid, NumericTypmod(10, 2)) == "numeric(10,2)");
  CHECK(FormatType(kBoolOid) == "boolean");
  CHECK(IsPreferredType(kFloat8Oid));
  CHECK_FALSE(IsPreferredType(kInt4Oid));
  int32_t mods[] = {10, 2};
  CHECK(TypmodFromModifiers(kNumericOid, mods, 2) == 655366);
  int32_t zero[] = {0};
  CHECK(CatchDbError([&] { TypmodFromModifiers(kVarcharOid, zero, 1); }).message() ==
        "length for type varchar must be at least 1");
}
