// commands/copy_util.cpp
//
// Principal entry points: ValidUtf8Prefix, ThrowInvalidUtf8, LimitPrintout.
#include "commands/copy_util.h"

#include <cstdint>
#include <cstdio>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::commands {

namespace {

// Sequence length a lead byte announces (1 for invalid lead bytes).
size_t Utf8SeqLen(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}

bool IsCont(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the valid character at s[i], or 0 when it is invalid.
size_t ValidCharLen(std::string_view s, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  size_t left = s.size() - i;
  unsigned char c = p[0];
  if (c == 0) return 0;
  if (c < 0x80) return 1;
  size_t n = Utf8SeqLen(c);
  if (n == 1 || n > left) return 0;
  for (size_t k = 1; k < n; k++) {
    if (!IsCont(p[k])) return 0;
  }
  switch (n) {
    case 2:
      if (c < 0xC2) return 0;  // overlong
      break;
    case 3:
      if (c == 0xE0 && p[1] < 0xA0) return 0;  // overlong
      if (c == 0xED && p[1] > 0x9F) return 0;  // surrogates
      break;
    case 4:
      if (c == 0xF0 && p[1] < 0x90) return 0;  // overlong
      if (c > 0xF4 || (c == 0xF4 && p[1] > 0x8F)) return 0;  // > U+10FFFF
      break;
    default:
      break;
  }
  return n;
}

}  // namespace

size_t ValidUtf8Prefix(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    // ASCII fast path, 8 bytes at a time.
    while (i + 8 <= n) {
      uint64_t w;
      __builtin_memcpy(&w, s.data() + i, 8);
      // Any high bit set, or any zero byte, leaves the fast path.
      if ((w & 0x8080808080808080ULL) != 0 || ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0) break;
      i += 8;
    }
    if (i >= n) break;
    size_t len = ValidCharLen(s, i);
    if (len == 0) return i;
    i += len;
  }
  return n;
}

void ThrowInvalidUtf8(std::string_view s, size_t bad) {
  size_t len = Utf8SeqLen(static_cast<unsigned char>(s[bad]));
  if (len > s.size() - bad) len = s.size() - bad;
  std::string bytes;
  for (size_t k = 0; k < len; k++) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%s0x%02x", k == 0 ? "" : " ", static_cast<unsigned char>(s[bad + k]));
    bytes += buf;
  }
  throw DbError(sqlstate::kCharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": " + bytes);
}

std::string LimitPrintout(std::string_view s) {
  constexpr size_t kMax = 100;
  if (s.size() <= kMax) return std::string(s);
  size_t cut = kMax;
  // Do not split a multi-byte character: back up to its lead byte.
  while (cut > 0 && IsCont(static_cast<unsigned char>(s[cut]))) cut--;
  std::string out(s.substr(0, cut));
  out += "...";
  return out;
}

}  // namespace hearth::commands
