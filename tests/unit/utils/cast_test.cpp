#include <catch2/catch.hpp>

#include <cmath>

#include "test_util.h"
#include "utils/adt/cast.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

using namespace hearth::types;

namespace {
constexpr CoercionContext kE = CoercionContext::kExplicit;
constexpr CoercionContext kA = CoercionContext::kAssignment;
constexpr CoercionContext kI = CoercionContext::kImplicit;

std::string Cast(const Value& v, Oid to, int32_t typmod = kNoTypmod, CoercionContext c = kE) {
  return OutputValue(CastValue(v, to, typmod, c));
}
Value Num(const char* s) { return InputValue(kNumericOid, -1, s); }
}  // namespace

TEST_CASE("cast contexts mirror pg_cast", "[cast]") {
  CHECK(CanCoerce(kInt4Oid, kInt8Oid, kI));
  CHECK(CanCoerce(kInt4Oid, kNumericOid, kI));
  CHECK(CanCoerce(kNumericOid, kFloat8Oid, kI));
  CHECK_FALSE(CanCoerce(kFloat8Oid, kNumericOid, kI));
  CHECK(CanCoerce(kFloat8Oid, kNumericOid, kA));
  CHECK_FALSE(CanCoerce(kInt8Oid, kInt4Oid, kI));
  CHECK(CanCoerce(kInt8Oid, kInt4Oid, kA));
  CHECK_FALSE(CanCoerce(kBoolOid, kInt4Oid, kA));
  CHECK(CanCoerce(kBoolOid, kInt4Oid, kE));
  CHECK(CanCoerce(kUnknownOid, kDateOid, kI));
  CHECK(CanCoerce(kInt4Oid, kTextOid, kA));
  CHECK_FALSE(CanCoerce(kInt4Oid, kTextOid, kI));
  CHECK(CanCoerce(kTextOid, kInt4Oid, kE));
  CHECK_FALSE(CanCoerce(kTextOid, kInt4Oid, kA));
  CHECK(CanCoerce(kDateOid, kTimestampOid, kI));
  CHECK_FALSE(CanCoerce(kBoolOid, kDateOid, kE));
}

TEST_CASE("numeric casts round like PostgreSQL", "[cast]") {
  // float → int rounds half to even (rint); numeric → int half away from zero.
  CHECK(Cast(Value::Float8(2.5), kInt4Oid) == "2");
  CHECK(Cast(Value::Float8(3.5), kInt4Oid) == "4");
  CHECK(Cast(Value::Float8(-2.5), kInt4Oid) == "-2");
  CHECK(Cast(Num("2.5"), kInt4Oid) == "3");
  CHECK(Cast(Num("-2.5"), kInt4Oid) == "-3");
  CHECK(Cast(Value::Float8(0.1 + 0.2), kNumericOid) == "0.3");
  CHECK(Cast(Value::Int4(42), kNumericOid) == "42");
  CHECK(Cast(Value::Int4(42), kFloat8Oid) == "42");
  CHECK(Cast(Num("1.5"), kFloat8Oid) == "1.5");
  CHECK(Cast(Num("3.14159"), kNumericOid, NumericTypmod(4, 2)) == "3.14");
  auto e = CatchDbError([] { CastValue(Value::Int8(70000), kInt2Oid, -1, kA); });
  CHECK(e.sqlstate() == "22003");
  CHECK(e.message() == "smallint out of range");
  CHECK(CatchDbError([] { CastValue(Value::Float8(1e10), kInt4Oid, -1, kE); }).message() ==
        "integer out of range");
  CHECK(CatchDbError([] { CastValue(Value::Float8(std::nan("")), kInt8Oid, -1, kE); }).message() ==
        "bigint out of range");
  CHECK(CatchDbError([] { CastValue(Num("99999999999"), kInt4Oid, -1, kE); }).message() ==
        "integer out of range");
  CHECK(CatchDbError([] { CastValue(Value::Float8(1e300), kFloat4Oid, -1, kA); }).message() ==
        "value out of range: overflow");
  CHECK(CatchDbError([] { CastValue(Value::Float8(1e-300), kFloat4Oid, -1, kA); }).message() ==
        "value out of range: underflow");
}

TEST_CASE("string casts: typmods, bpchar padding and trimming", "[cast]") {
  Value t = Value::Text("abcdef");
  // Explicit casts truncate silently; assignment raises 22001.
  CHECK(Cast(t, kVarcharOid, CharTypmod(3), kE) == "abc");
  auto e = CatchDbError([&] { CastValue(t, kVarcharOid, CharTypmod(3), kA); });
  CHECK(e.sqlstate() == "22001");
  CHECK(e.message() == "value too long for type character varying(3)");
  CHECK(Cast(Value::Text("ab"), kBpcharOid, CharTypmod(4)) == "ab  ");
  Value bp = CastValue(Value::Text("ab"), kBpcharOid, CharTypmod(4), kE);
  CHECK(Cast(bp, kTextOid) == "ab");  // trailing blanks vanish
  CHECK(Cast(Value::Int4(-17), kTextOid) == "-17");
  // bool → text is booltext(): "true"/"false", unlike the output function.
  CHECK(Cast(Value::Bool(true), kTextOid) == "true");
  CHECK(Cast(Value::Bool(false), kVarcharOid) == "false");
  CHECK(Cast(Value::Text(" 12 "), kInt4Oid) == "12");
  CHECK(CatchDbError([] { CastValue(Value::Text("abc"), kInt4Oid, -1, kE); }).sqlstate() ==
        "22P02");
  CHECK(Cast(Value::Bytes(kUnknownOid, "2026-11-30"), kDateOid, -1, kI) == "2026-11-30");
}

TEST_CASE("bool, date and timestamp casts", "[cast]") {
  CHECK(Cast(Value::Bool(true), kInt4Oid) == "1");
  CHECK(Cast(Value::Int4(0), kBoolOid) == "f");
  CHECK(Cast(Value::Int4(5), kBoolOid) == "t");
  Value d = InputValue(kDateOid, -1, "2026-11-30");
  CHECK(Cast(d, kTimestampOid) == "2026-11-30 00:00:00");
  Value ts = InputValue(kTimestampOid, -1, "2026-11-30 23:59:59");
  CHECK(Cast(ts, kDateOid) == "2026-11-30");
  Value before = InputValue(kTimestampOid, -1, "1999-12-31 23:00:00");
  CHECK(Cast(before, kDateOid) == "1999-12-31");
  auto e = CatchDbError([&] { CastValue(d, kBoolOid, -1, kE); });
  CHECK(e.sqlstate() == "42846");
  CHECK(e.message() == "cannot cast type date to boolean");
  CHECK(CastValue(Value::Null(kInt4Oid), kTextOid, -1, kE).is_null);
  CHECK(CastValue(Value::Null(kInt4Oid), kTextOid, -1, kE).type == kTextOid);
}
