// server/utils/adt/string_adt.h
//
// Character types (text, varchar(n), bpchar(n)) and string helpers:
// length limits and blank-padding with PostgreSQL's rules, UTF-8 aware
// character counting, and LIKE/ILIKE matching. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"

namespace hearth::types {

// Number of characters (UTF-8 code points) in s.
int64_t CharLength(std::string_view s);
// Byte offset of the character with 0-based index `chars` (s.size() if past end).
size_t CharOffset(std::string_view s, int64_t chars);

// Applies varchar(n)/bpchar(n) typmod to `s` (oid kVarcharOid or
// kBpcharOid). Implicit/assignment coercion: too long → 22001
// `value too long for type character varying(5)` unless the excess is all
// spaces (then trimmed). Explicit casts truncate silently. bpchar is padded
// with spaces to n characters.
std::string ApplyCharTypmod(std::string s, Oid oid, int32_t typmod, bool is_explicit);
// The same on *s in place (no allocation when its capacity suffices).
void ApplyCharTypmodInPlace(std::string* s, Oid oid, int32_t typmod, bool is_explicit);

// bpchar semantics: trailing spaces are insignificant.
std::string_view BpcharTrim(std::string_view s);

// SQL LIKE: '%' any run, '_' one character, `escape` quotes the next
// character (pass '\0' for ESCAPE ''). Throws 22025 "LIKE pattern must not
// end with escape character". case_insensitive implements ILIKE (ASCII and
// Latin-letter lowering).
bool LikeMatch(std::string_view text, std::string_view pattern, char32_t escape = U'\\',
               bool case_insensitive = false);

// Lower/upper-case conversion (ASCII letters; other bytes are kept).
std::string AsciiLower(std::string_view s);
std::string AsciiUpper(std::string_view s);

}  // namespace hearth::types
