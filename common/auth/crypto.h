// common/auth/crypto.h
//
// The cryptographic building blocks of PostgreSQL's password authentication,
// shared by the server and the client, all from OpenSSL: SHA-256,
// HMAC-SHA-256, PBKDF2 with one output block (SCRAM's Hi(), RFC 5802), MD5
// (the "md5" method; not a security primitive, just what the protocol
// prescribes), random bytes, constant-time comparison (CRYPTO_memcmp) and
// base64. Pure functions, thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hearth::auth {

using Sha256Digest = std::array<uint8_t, 32>;

Sha256Digest Sha256(std::string_view data);
Sha256Digest HmacSha256(std::string_view key, std::string_view data);
// Hi(password, salt, iterations) = first PBKDF2 block. REQUIRES: iterations >= 1.
Sha256Digest ScramHi(std::string_view password, std::string_view salt, uint32_t iterations);

// Digest bytes as a string (for chaining into the functions above).
inline std::string DigestBytes(const Sha256Digest& d) {
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

// Raw 16-byte MD5 digest and its lower-case 32-character hex form.
std::array<uint8_t, 16> Md5Digest(std::string_view data);
std::string Md5Hex(std::string_view data);

// `n` bytes from OpenSSL's CSPRNG. Throws std::runtime_error if it fails.
std::string RandomBytes(size_t n);

// True when a and b hold the same bytes; for equal sizes the time does not
// depend on where they differ (CRYPTO_memcmp).
bool ConstantTimeEqual(std::string_view a, std::string_view b);

std::string Base64Encode(std::string_view data);
// nullopt on characters outside the alphabet or bad padding.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace hearth::auth
