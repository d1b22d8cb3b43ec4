#include <catch2/catch.hpp>

#include "test_util.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/text_io.h"

using namespace hearth::types;

namespace {
std::string Bin(const Value& v) {
  std::string s;
  AppendBinary(v, &s);
  return s;
}
std::string Hex(const std::string& s) {
  static const char* k = "0123456789abcdef";
  std::string h;
  for (unsigned char c : s) {
    h.push_back(k[c >> 4]);
    h.push_back(k[c & 15]);
  }
  return h;
}
std::string RoundTrip(Oid t, const char* text) {
  return OutputValue(ReceiveBinary(t, -1, Bin(InputValue(t, -1, text))));
}
}  // namespace

TEST_CASE("fixed-width binary formats are network byte order", "[binary]") {
  CHECK(Hex(Bin(Value::Int4(1))) == "00000001");
  CHECK(Hex(Bin(Value::Int4(-2))) == "fffffffe");
  CHECK(Hex(Bin(Value::Int(kInt2Oid, 258))) == "0102");
  CHECK(Hex(Bin(Value::Int8(1))) == "0000000000000001");
  CHECK(Hex(Bin(Value::Bool(true))) == "01");
  CHECK(Hex(Bin(Value::Float8(1.0))) == "3ff0000000000000");
  CHECK(Hex(Bin(Value::Float(kFloat4Oid, 1.0f))) == "3f800000");
  CHECK(Hex(Bin(InputValue(kDateOid, -1, "2000-01-02"))) == "00000001");
  CHECK(Hex(Bin(InputValue(kTimestampOid, -1, "2000-01-01 00:00:01"))) == "00000000000f4240");
  for (const char* v : {"0", "-1", "2147483647", "-2147483648"}) CHECK(RoundTrip(kInt4Oid, v) == v);
  CHECK(RoundTrip(kFloat8Oid, "0.1") == "0.1");
  CHECK(RoundTrip(kDateOid, "1999-12-31") == "1999-12-31");
  CHECK(RoundTrip(kTimestampOid, "2026-11-30 12:34:56.789") == "2026-11-30 12:34:56.789");
  CHECK(RoundTrip(kTextOid, "héllo") == "héllo");
  auto e = CatchDbError([] { ReceiveBinary(kInt4Oid, -1, std::string("\x01\x02", 2)); });
  CHECK(e.sqlstate() == "22P03");
  CHECK(e.message() == "insufficient data left in message");
  CHECK(CatchDbError([] { ReceiveBinary(kInt2Oid, -1, std::string(3, '\0')); }).message() ==
        "incorrect binary data format");
}

TEST_CASE("numeric binary format uses base-10000 digits", "[binary][numeric]") {
  // 1234.5600: ndigits 2, weight 0, sign +, dscale 4, digits 1234 5600.
  CHECK(Hex(Bin(InputValue(kNumericOid, -1, "1234.5600"))) == "000200000000000404d215e0");
  // -0.01: ndigits 1, weight -1, sign -, dscale 2, digit 100.
  CHECK(Hex(Bin(InputValue(kNumericOid, -1, "-0.01"))) == "0001ffff400000020064");
  // 0: no digits.
  CHECK(Hex(Bin(InputValue(kNumericOid, -1, "0"))) == "0000000000000000");
  // 10000: one digit (1) with weight 1.
  CHECK(Hex(Bin(InputValue(kNumericOid, -1, "10000"))) == "0001000100000000" "0001");
  CHECK(Hex(Bin(InputValue(kNumericOid, -1, "NaN"))) == "00000000c0000000");
  for (const char* v : {"1234.5600", "-0.01", "0", "0.000", "10000", "123456789.987654321",
                        "NaN", "-5"}) {
    CHECK(RoundTrip(kNumericOid, v) == v);
  }
}
