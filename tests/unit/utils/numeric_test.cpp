#include <catch2/catch.hpp>

#include "test_util.h"
#include "utils/adt/numeric.h"
#include "utils/adt/type_catalog.h"

using hearth::types::Numeric;

namespace {
std::string S(const Numeric& n) { return n.ToString(); }
Numeric P(const char* s) { return Numeric::Parse(s); }
}  // namespace

TEST_CASE("numeric input keeps the written scale", "[numeric]") {
  CHECK(S(P("1.50")) == "1.50");
  CHECK(S(P("  -0.001 ")) == "-0.001");
  CHECK(S(P("007")) == "7");
  CHECK(S(P("1e3")) == "1000");
  CHECK(S(P("1.5e-3")) == "0.0015");
  CHECK(S(P(".5")) == "0.5");
  CHECK(S(P("-0.00")) == "0.00");
  CHECK(S(P("NaN")) == "NaN");
  CHECK(S(P("nan")) == "NaN");
  auto e = CatchDbError([] { P("1.2.3"); });
  CHECK(e.sqlstate() == "22P02");
  CHECK(e.message() == "invalid input syntax for type numeric: \"1.2.3\"");
  CHECK(CatchDbError([] { P(""); }).sqlstate() == "22P02");
  CHECK(CatchDbError([] { P("abc"); }).sqlstate() == "22P02");
}

TEST_CASE("numeric + - * follow PostgreSQL's result scales", "[numeric]") {
  CHECK(S(P("1.10").Add(P("2.205"))) == "3.305");
  CHECK(S(P("1.5").Sub(P("1.5"))) == "0.0");
  CHECK(S(P("-1.5").Add(P("0.25"))) == "-1.25");
  CHECK(S(P("1.10").Mul(P("2.205"))) == "2.42550");
  CHECK(S(P("99999999999999999999").Add(P("1"))) == "100000000000000000000");
  CHECK(S(P("123456789.123").Mul(P("-1000"))) == "-123456789123.000");
}

TEST_CASE("numeric division picks at least 16 significant digits", "[numeric]") {
  CHECK(S(P("10").Div(P("3"))) == "3.3333333333333333");
  CHECK(S(P("1").Div(P("3"))) == "0.33333333333333333333");
  CHECK(S(P("3").Div(P("3"))) == "1.00000000000000000000");
  CHECK(S(P("2").Div(P("3"))) == "0.66666666666666666667");
  CHECK(S(P("100000").Div(P("3"))) == "33333.333333333333");
  CHECK(S(P("1.000000000000000000000000").Div(P("3"))) == "0.333333333333333333333333");
  CHECK(S(P("-7").Div(P("2"))) == "-3.5000000000000000");
  auto e = CatchDbError([] { P("1").Div(P("0.0")); });
  CHECK(e.sqlstate() == "22012");
  CHECK(e.message() == "division by zero");
}

TEST_CASE("numeric mod, round, trunc, ceil, floor", "[numeric]") {
  CHECK(S(P("10").Mod(P("3"))) == "1");
  CHECK(S(P("-10.5").Mod(P("3"))) == "-1.5");
  CHECK(S(P("2.5").Round(0)) == "3");
  CHECK(S(P("-2.5").Round(0)) == "-3");
  CHECK(S(P("1234.5678").Round(2)) == "1234.57");
  CHECK(S(P("1234.5678").Round(-2)) == "1200");
  CHECK(S(P("1.5").Round(3)) == "1.500");
  CHECK(S(P("0.005").Round(2)) == "0.01");
  CHECK(S(P("0.004").Round(2)) == "0.00");
  CHECK(S(P("999.9").Round(0)) == "1000");
  CHECK(S(P("1234.5678").Trunc(2)) == "1234.56");
  CHECK(S(P("-1.5").Ceil()) == "-1");
  CHECK(S(P("1.2").Ceil()) == "2");
  CHECK(S(P("-1.2").Floor()) == "-2");
  CHECK(S(P("5.0").Floor()) == "5");
}

TEST_CASE("numeric power and sqrt", "[numeric]") {
  CHECK(S(P("2.0").Power(P("10"))) == "1024.0000000000000000");
  CHECK(S(P("2").Power(P("-2"))) == "0.2500000000000000");
  CHECK(S(P("2").Sqrt()) == "1.414213562373095");
  CHECK(S(P("100").Sqrt()) == "10.000000000000000");
  CHECK(CatchDbError([] { P("0").Power(P("-1")); }).sqlstate() == "2201F");
  CHECK(CatchDbError([] { P("-1").Sqrt(); }).sqlstate() == "2201F");
}

TEST_CASE("numeric compare orders NaN last", "[numeric]") {
  CHECK(Numeric::Compare(P("1.0"), P("1")) == 0);
  CHECK(Numeric::Compare(P("-2"), P("1")) < 0);
  CHECK(Numeric::Compare(P("-2"), P("-10")) > 0);
  CHECK(Numeric::Compare(P("NaN"), P("1e100")) > 0);
  CHECK(Numeric::Compare(P("NaN"), P("NaN")) == 0);
}

TEST_CASE("numeric typmod rounds and reports overflow", "[numeric]") {
  using hearth::types::NumericTypmod;
  CHECK(NumericTypmod(10, 2) == 655366);
  CHECK(S(P("3.14159").ApplyTypmod(NumericTypmod(5, 2))) == "3.14");
  CHECK(S(P("3").ApplyTypmod(NumericTypmod(5, 2))) == "3.00");
  auto e = CatchDbError([] { P("1000").ApplyTypmod(NumericTypmod(5, 2)); });
  CHECK(e.sqlstate() == "22003");
  CHECK(e.message() == "numeric field overflow");
  CHECK(e.detail() == "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
  auto e2 = CatchDbError([] { P("1").ApplyTypmod(NumericTypmod(2, 2)); });
  CHECK(e2.detail() == "A field with precision 2, scale 2 must round to an absolute value less than 1.");
  // 999.995 rounds up to 1000.00, which overflows numeric(5,2).
  CHECK(CatchDbError([] { P("999.995").ApplyTypmod(NumericTypmod(5, 2)); }).sqlstate() == "22003");
}

TEST_CASE("numeric conversions", "[numeric]") {
  CHECK(S(Numeric::FromInt64(INT64_MIN)) == "-9223372036854775808");
  CHECK(*P("2.5").ToInt64() == 3);
  CHECK(*P("-2.5").ToInt64() == -3);
  CHECK_FALSE(P("9223372036854775808").ToInt64().has_value());
  CHECK(S(Numeric::FromDouble(0.1 + 0.2)) == "0.3");
  CHECK(S(Numeric::FromDouble(1e20)) == "100000000000000000000");
  CHECK(P("0.5").ToDouble() == 0.5);
}
