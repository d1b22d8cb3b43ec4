// commands/copy_util.h
//
// Small helpers shared by COPY's input and output paths: UTF-8 validation
// with PostgreSQL's 22021 message, and the shortening of values shown in an
// error's CONTEXT line. Pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hearth::commands {

// Returns the length of the longest valid UTF-8 prefix of `s` (== s.size()
// when all of it is valid). Rejects what PostgreSQL rejects: NUL bytes,
// stray continuation bytes, overlong forms, surrogates, code points above
// U+10FFFF and truncated sequences.
size_t ValidUtf8Prefix(std::string_view s);

// Throws DbError 22021 `invalid byte sequence for encoding "UTF8": 0x..`
// naming the bytes of the bad character at s[bad] (as many bytes as its
// lead byte announces, at most what is left).
// REQUIRES: bad < s.size().
[[noreturn]] void ThrowInvalidUtf8(std::string_view s, size_t bad);

// Verifies `s`; throws as above on the first invalid character.
inline void VerifyUtf8(std::string_view s) {
  size_t ok = ValidUtf8Prefix(s);
  if (ok != s.size()) ThrowInvalidUtf8(s, ok);
}

// The value as an error CONTEXT shows it: at most 100 bytes, cut on a
// character boundary, followed by "..." when shortened.
std::string LimitPrintout(std::string_view s);

}  // namespace hearth::commands
