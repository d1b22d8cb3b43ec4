#include <catch2/catch.hpp>

#include "common/protocol/wire.h"

using namespace hearth::protocol;

TEST_CASE("MessageWriter frames carry type and self-inclusive length", "[wire]") {
  MessageWriter w('Z');
  w.Byte('I');
  const std::string& f = w.Finish();
  REQUIRE(f.size() == 6);
  CHECK(f[0] == 'Z');
  CHECK(ReadInt32BE(f.data() + 1) == 5);
  CHECK(f[5] == 'I');
}

TEST_CASE("MessageWriter and MessageReader round-trip every field kind", "[wire]") {
  MessageWriter w('X');
  w.Int16(-2).Int32(123456789).Int64(-5000000000LL).CString("hello").Bytes("raw").Byte(7);
  std::string f = w.Finish();
  MessageReader r(std::string_view(f).substr(5));
  CHECK(*r.Int16() == -2);
  CHECK(*r.Int32() == 123456789);
  CHECK(*r.Int64() == -5000000000LL);
  CHECK(*r.CString() == "hello");
  CHECK(*r.Bytes(3) == "raw");
  CHECK(*r.Byte() == 7);
  CHECK(r.AtEnd());
}

TEST_CASE("MessageReader refuses to read past a truncated body", "[wire]") {
  std::string body("\x00\x01", 2);
  MessageReader r(body);
  CHECK_FALSE(r.Int32().has_value());
  CHECK(r.failed());
  // Once failed, every later read fails too.
  CHECK_FALSE(r.Byte().has_value());

  MessageReader unterminated("abc");
  CHECK_FALSE(unterminated.CString().has_value());

  MessageReader big("ab");
  CHECK_FALSE(big.Bytes(3).has_value());
}

TEST_CASE("Startup packet has no type byte", "[wire]") {
  MessageWriter w('\0');
  w.Int32(kProtocolVersion3).CString("user").CString("bob").Byte(0);
  const std::string& f = w.Finish();
  CHECK(ReadInt32BE(f.data()) == static_cast<int32_t>(f.size()));
  CHECK(ReadInt32BE(f.data() + 4) == kProtocolVersion3);
}

TEST_CASE("Error fields round-trip and unknown codes are skipped", "[wire]") {
  ErrorFields in;
  in.severity = "ERROR";
  in.sqlstate = "42P01";
  in.message = "relation \"nosuch\" does not exist";
  in.position = "15";
  std::string frame = EncodeErrorFields('E', in);
  auto out = DecodeErrorFields(std::string_view(frame).substr(5));
  REQUIRE(out);
  CHECK(out->severity == "ERROR");
  CHECK(out->severity_nonlocal == "ERROR");
  CHECK(out->sqlstate == "42P01");
  CHECK(out->message == in.message);
  CHECK(out->position == "15");
  CHECK(out->detail.empty());

  std::string odd("Xsomething\0Mmsg\0\0", 17);
  auto o2 = DecodeErrorFields(odd);
  REQUIRE(o2);
  CHECK(o2->message == "msg");
  CHECK_FALSE(DecodeErrorFields(std::string("Mno-terminator", 14)).has_value());
}
