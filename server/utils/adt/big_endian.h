// server/utils/adt/big_endian.h
//
// Big-endian integers inside a string: the byte order of PostgreSQL's
// binary forms, which interval and timetz keep as their in-memory payload
// (interval.h, time_adt.h). Header-only, stateless.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::types {

// Appends the low `bytes` bytes of `v`, most significant first.
inline void PutBigEndianBytes(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Reads `bytes` bytes at `at`. REQUIRES: at + bytes <= s.size().
inline uint64_t GetBigEndianBytes(std::string_view s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<size_t>(i)]);
  return v;
}

}  // namespace hearth::types
