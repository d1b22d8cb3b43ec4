// client/md5.cpp
//
// Principal entry points: Md5Digest, Md5Hex, PgMd5PasswordResponse.
// Written from RFC 1321 section 3: 512-bit blocks, four rounds of 16
// operations, little-endian words, length appended in bits.
#include "client/md5.h"

#include <cstring>

namespace hearth::client {
namespace {

// Per-operation left-rotation amounts, four per round (RFC 1321 3.4).
constexpr uint32_t kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

// T[i] = floor(2^32 * |sin(i + 1)|), precomputed (RFC 1321 3.4).
constexpr uint32_t kSine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
    0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
    0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
    0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
    0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
    0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
    0xeb86d391};

inline uint32_t Rotl(uint32_t x, uint32_t n) { return (x << n) | (x >> (32 - n)); }

void ProcessBlock(uint32_t state[4], const uint8_t* block) {
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = static_cast<uint32_t>(block[i * 4]) | (static_cast<uint32_t>(block[i * 4 + 1]) << 8) |
           (static_cast<uint32_t>(block[i * 4 + 2]) << 16) |
           (static_cast<uint32_t>(block[i * 4 + 3]) << 24);
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t f;
    uint32_t g;
    const uint32_t round = i / 16;
    switch (round) {
      case 0: f = (b & c) | (~b & d); g = i; break;
      case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
      case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
      default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
    }
    const uint32_t next_b = b + Rotl(a + f + kSine[i] + m[g], kShift[round][i % 4]);
    a = d;
    d = c;
    c = b;
    b = next_b;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

std::string ToHex(const std::array<uint8_t, 16>& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (size_t i = 0; i < digest.size(); ++i) {
    out[i * 2] = kDigits[digest[i] >> 4];
    out[i * 2 + 1] = kDigits[digest[i] & 0xf];
  }
  return out;
}

}  // namespace

std::array<uint8_t, 16> Md5Digest(std::string_view data) {
  uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  size_t full = data.size() / 64;
  for (size_t i = 0; i < full; ++i) ProcessBlock(state, bytes + i * 64);

  // Padding: 0x80, zeros to 56 mod 64, then the bit length little-endian.
  uint8_t tail[128] = {0};
  const size_t rest = data.size() % 64;
  if (rest > 0) std::memcpy(tail, bytes + full * 64, rest);
  tail[rest] = 0x80;
  const size_t tail_len = rest < 56 ? 64 : 128;
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 8 + i] = static_cast<uint8_t>(bits >> (8 * i));
  ProcessBlock(state, tail);
  if (tail_len == 128) ProcessBlock(state, tail + 64);

  std::array<uint8_t, 16> out{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) out[i * 4 + j] = static_cast<uint8_t>(state[i] >> (8 * j));
  }
  return out;
}

std::string Md5Hex(std::string_view data) { return ToHex(Md5Digest(data)); }

std::string PgMd5PasswordResponse(std::string_view user, std::string_view password,
                                  std::string_view salt) {
  std::string inner(password);
  inner.append(user);
  std::string outer = Md5Hex(inner);
  outer.append(salt);
  return "md5" + Md5Hex(outer);
}

}  // namespace hearth::client
