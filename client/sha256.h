// client/sha256.h
//
// SHA-256 (FIPS 180-4), HMAC-SHA-256 (RFC 2104) and PBKDF2-HMAC-SHA-256 with
// one output block (SCRAM's Hi(), RFC 5802) — just what SCRAM-SHA-256
// authentication needs. Pure functions, thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::client {

using Sha256Digest = std::array<uint8_t, 32>;

Sha256Digest Sha256(std::string_view data);
Sha256Digest HmacSha256(std::string_view key, std::string_view data);
// Hi(password, salt, iterations) = first PBKDF2 block. REQUIRES: iterations >= 1.
Sha256Digest ScramHi(std::string_view password, std::string_view salt, uint32_t iterations);

// Digest bytes as a string (for chaining into the functions above).
inline std::string DigestBytes(const Sha256Digest& d) {
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

}  // namespace hearth::client
