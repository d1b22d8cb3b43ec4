// common/auth/scram.h
//
// The SCRAM-SHA-256 math (RFC 5802/7677) both sides of PostgreSQL's SASL
// exchange need, and PostgreSQL's stored password forms:
//   SCRAM-SHA-256$<iterations>:<salt b64>$<StoredKey b64>:<ServerKey b64>
//   md5<hex(md5(password || user))>
// Passwords are used as given (SASLprep is the identity for ASCII; other
// strings are not normalised). Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hearth::auth {

inline constexpr uint32_t kScramDefaultIterations = 4096;  // PostgreSQL 15's fixed count
inline constexpr size_t kScramSaltLength = 16;
inline constexpr size_t kScramKeyLength = 32;
inline constexpr size_t kScramNonceLength = 18;  // raw bytes of a server nonce
inline constexpr size_t kMd5PasswordLength = 35;  // "md5" + 32 hex digits

// The keys derived from a password (raw 32-byte strings).
struct ScramKeys {
  std::string client_key;  // HMAC(SaltedPassword, "Client Key")
  std::string stored_key;  // H(ClientKey)
  std::string server_key;  // HMAC(SaltedPassword, "Server Key")
};
ScramKeys DeriveScramKeys(std::string_view password, std::string_view salt, uint32_t iterations);

// A parsed SCRAM verifier (salt and keys raw).
struct ScramVerifier {
  uint32_t iterations = 0;
  std::string salt;
  std::string stored_key;
  std::string server_key;
};
std::string FormatScramVerifier(const ScramVerifier& v);
// nullopt unless `text` is exactly PostgreSQL's verifier format.
std::optional<ScramVerifier> ParseScramVerifier(std::string_view text);
// A verifier for `password` with a fresh random salt (or the salt given).
ScramVerifier MakeScramVerifier(std::string_view password, std::string salt = "",
                                uint32_t iterations = kScramDefaultIterations);

// ClientSignature = HMAC(StoredKey, AuthMessage); ServerSignature =
// HMAC(ServerKey, AuthMessage); ClientProof = ClientKey XOR ClientSignature.
std::string ScramSignature(std::string_view key, std::string_view auth_message);
std::string XorBytes(std::string_view a, std::string_view b);

// Finds attribute `name` ("r", "s", "i", "v", "e", "c", "p") of a
// comma-separated SCRAM message.
std::optional<std::string_view> ScramAttribute(std::string_view msg, char name);

// True for the two hashed forms PostgreSQL stores as given.
bool IsMd5Password(std::string_view s);
inline bool IsScramPassword(std::string_view s) { return ParseScramVerifier(s).has_value(); }

// "md5" + hex(md5(password || user)): the stored md5 form.
std::string Md5PasswordHash(std::string_view user, std::string_view password);
// The md5 method's response to a 4-byte salt, from the stored form:
// "md5" + hex(md5(stored[3:] || salt)).
std::string Md5SaltedResponse(std::string_view stored_md5, std::string_view salt);

}  // namespace hearth::auth
