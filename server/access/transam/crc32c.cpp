// access/transam/crc32c.cpp
//
// Principal entry points: Crc32cUpdate, Crc32cUpdateSoftware.
#include "access/transam/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace hearth::access {

namespace {

constexpr uint32_t kPoly = 0x82F63B78u;  // reflected Castagnoli polynomial

// kTables[k][b]: CRC of byte b followed by k zero bytes (slicing-by-8).
constexpr std::array<std::array<uint32_t, 256>, 8> MakeTables() {
  std::array<std::array<uint32_t, 256>, 8> t{};
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t c = b;
    for (int i = 0; i < 8; i++) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
    t[0][b] = c;
  }
  for (int k = 1; k < 8; k++) {
    for (uint32_t b = 0; b < 256; b++) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}
constexpr auto kTables = MakeTables();

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t UpdateHardware(uint32_t crc, const uint8_t* p, size_t len) {
  uint64_t c = crc;
  while (len >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    c = _mm_crc32_u64(c, v);
    p += 8;
    len -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (len > 0) {
    c32 = _mm_crc32_u8(c32, *p++);
    len--;
  }
  return c32;
}

bool DetectHardware() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2");
}
const bool kHaveHardware = DetectHardware();
#else
const bool kHaveHardware = false;
#endif

}  // namespace

uint32_t Crc32cUpdateSoftware(uint32_t crc, const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (len >= 8) {
    uint32_t lo;
    uint32_t hi;
    std::memcpy(&lo, p, 4);  // little-endian host assumed (x86-64, aarch64)
    std::memcpy(&hi, p + 4, 4);
    lo ^= crc;
    crc = kTables[7][lo & 0xFF] ^ kTables[6][(lo >> 8) & 0xFF] ^ kTables[5][(lo >> 16) & 0xFF] ^ kTables[4][lo >> 24] ^
          kTables[3][hi & 0xFF] ^ kTables[2][(hi >> 8) & 0xFF] ^ kTables[1][(hi >> 16) & 0xFF] ^ kTables[0][hi >> 24];
    p += 8;
    len -= 8;
  }
  while (len > 0) {
    crc = (crc >> 8) ^ kTables[0][(crc ^ *p++) & 0xFF];
    len--;
  }
  return crc;
}

uint32_t Crc32cUpdate(uint32_t crc, const void* data, size_t len) {
#if defined(__x86_64__)
  if (kHaveHardware) return UpdateHardware(crc, static_cast<const uint8_t*>(data), len);
#endif
  return Crc32cUpdateSoftware(crc, data, len);
}

bool Crc32cUsesHardware() { return kHaveHardware; }

}  // namespace hearth::access
