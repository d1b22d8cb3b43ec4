// tests/unit/access/xlog_crc_test.cpp — CRC-32C known vectors (RFC 3720
// appendix B.4 and the common "123456789" check value), hardware vs table.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "access/transam/crc32c.h"

using namespace hearth::access;

TEST_CASE("crc32c known vectors", "[xlog][crc]") {
  CHECK(Crc32c("123456789", 9) == 0xE3069283u);
  CHECK(Crc32c("", 0) == 0x00000000u);
  std::vector<uint8_t> zeros(32, 0x00);
  CHECK(Crc32c(zeros.data(), zeros.size()) == 0x8A9136AAu);
  std::vector<uint8_t> ones(32, 0xFF);
  CHECK(Crc32c(ones.data(), ones.size()) == 0x62A8AB43u);
  std::vector<uint8_t> inc(32);
  for (int i = 0; i < 32; i++) inc[i] = static_cast<uint8_t>(i);
  CHECK(Crc32c(inc.data(), inc.size()) == 0x46DD794Eu);
  std::vector<uint8_t> dec(32);
  for (int i = 0; i < 32; i++) dec[i] = static_cast<uint8_t>(31 - i);
  CHECK(Crc32c(dec.data(), dec.size()) == 0x113FDB5Cu);
  CHECK(Crc32cFinish(Crc32cUpdateSoftware(kCrc32cInit, "123456789", 9)) == 0xE3069283u);
}

TEST_CASE("crc32c: pieces, alignment and hardware agree with the table", "[xlog][crc]") {
  std::mt19937 rng(7);
  std::vector<uint8_t> buf(5000);
  for (auto& b : buf) b = static_cast<uint8_t>(rng());
  for (size_t len : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 1000u, 4999u}) {
    for (size_t off : {0u, 1u, 3u}) {
      const uint8_t* p = buf.data() + off;
      const uint32_t whole = Crc32c(p, len);
      CHECK(whole == Crc32cFinish(Crc32cUpdateSoftware(kCrc32cInit, p, len)));
      const size_t cut = len / 3;
      const uint32_t split = Crc32cFinish(Crc32cUpdate(Crc32cUpdate(kCrc32cInit, p, cut), p + cut, len - cut));
      CHECK(split == whole);
    }
  }
  // A single flipped bit changes the CRC.
  const uint32_t before = Crc32c(buf.data(), buf.size());
  buf[1234] ^= 0x10;
  CHECK(Crc32c(buf.data(), buf.size()) != before);
  INFO("hardware crc32c: " << Crc32cUsesHardware());
}
