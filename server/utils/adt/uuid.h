// server/utils/adt/uuid.h
//
// uuid (oid 2950): 16 bytes kept in Value::str in network order, so byte
// comparison is PostgreSQL's uuid ordering. Text input accepts what
// PostgreSQL does (hyphens after any group of four hex digits, optional
// braces, either case); output is lower-case 8-4-4-4-12. Stateless.
#pragma once

#include <string>
#include <string_view>

namespace hearth::types {

inline constexpr size_t kUuidLen = 16;

// Throws 22P02 `invalid input syntax for type uuid: "<text>"`.
std::string ParseUuid(std::string_view text);
// REQUIRES: bytes.size() == kUuidLen.
void AppendUuid(std::string_view bytes, std::string* out);
// A random version-4 uuid (RFC 4122) from OpenSSL's CSPRNG.
std::string RandomUuid();

}  // namespace hearth::types
