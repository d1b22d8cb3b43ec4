// common/auth/scram.cpp
//
// Principal entry points: DeriveScramKeys, MakeScramVerifier,
// Format/ParseScramVerifier, ScramSignature, Md5PasswordHash.
#include "common/auth/scram.h"

#include "common/auth/crypto.h"

namespace hearth::auth {

ScramKeys DeriveScramKeys(std::string_view password, std::string_view salt, uint32_t iterations) {
  const std::string salted = DigestBytes(ScramHi(password, salt, iterations));
  ScramKeys k;
  k.client_key = DigestBytes(HmacSha256(salted, "Client Key"));
  k.stored_key = DigestBytes(Sha256(k.client_key));
  k.server_key = DigestBytes(HmacSha256(salted, "Server Key"));
  return k;
}

std::string FormatScramVerifier(const ScramVerifier& v) {
  return "SCRAM-SHA-256$" + std::to_string(v.iterations) + ":" + Base64Encode(v.salt) + "$" +
         Base64Encode(v.stored_key) + ":" + Base64Encode(v.server_key);
}

std::optional<ScramVerifier> ParseScramVerifier(std::string_view text) {
  constexpr std::string_view kPrefix = "SCRAM-SHA-256$";
  if (text.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  text.remove_prefix(kPrefix.size());
  const size_t colon1 = text.find(':');
  const size_t dollar = text.find('$');
  if (colon1 == std::string_view::npos || dollar == std::string_view::npos || dollar < colon1) return std::nullopt;
  const size_t colon2 = text.find(':', dollar);
  if (colon2 == std::string_view::npos) return std::nullopt;
  ScramVerifier v;
  const std::string_view iter = text.substr(0, colon1);
  if (iter.empty() || iter.size() > 9) return std::nullopt;
  for (char c : iter) {
    if (c < '0' || c > '9') return std::nullopt;
    v.iterations = v.iterations * 10 + static_cast<uint32_t>(c - '0');
  }
  auto salt = Base64Decode(text.substr(colon1 + 1, dollar - colon1 - 1));
  auto stored = Base64Decode(text.substr(dollar + 1, colon2 - dollar - 1));
  auto server = Base64Decode(text.substr(colon2 + 1));
  if (v.iterations == 0 || !salt || salt->empty() || !stored || stored->size() != kScramKeyLength || !server ||
      server->size() != kScramKeyLength) {
    return std::nullopt;
  }
  v.salt = std::move(*salt);
  v.stored_key = std::move(*stored);
  v.server_key = std::move(*server);
  return v;
}

ScramVerifier MakeScramVerifier(std::string_view password, std::string salt, uint32_t iterations) {
  ScramVerifier v;
  v.iterations = iterations;
  v.salt = salt.empty() ? RandomBytes(kScramSaltLength) : std::move(salt);
  ScramKeys k = DeriveScramKeys(password, v.salt, iterations);
  v.stored_key = std::move(k.stored_key);
  v.server_key = std::move(k.server_key);
  return v;
}

std::string ScramSignature(std::string_view key, std::string_view auth_message) {
  return DigestBytes(HmacSha256(key, auth_message));
}

std::string XorBytes(std::string_view a, std::string_view b) {
  std::string out(a.size(), '\0');
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) out[i] = static_cast<char>(a[i] ^ b[i]);
  return out;
}

std::optional<std::string_view> ScramAttribute(std::string_view msg, char name) {
  size_t pos = 0;
  while (pos <= msg.size()) {
    size_t end = msg.find(',', pos);
    if (end == std::string_view::npos) end = msg.size();
    std::string_view part = msg.substr(pos, end - pos);
    if (part.size() >= 2 && part[0] == name && part[1] == '=') return part.substr(2);
    pos = end + 1;
  }
  return std::nullopt;
}

bool IsMd5Password(std::string_view s) {
  if (s.size() != kMd5PasswordLength || s.substr(0, 3) != "md5") return false;
  for (char c : s.substr(3)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string Md5PasswordHash(std::string_view user, std::string_view password) {
  std::string input(password);
  input.append(user);
  return "md5" + Md5Hex(input);
}

std::string Md5SaltedResponse(std::string_view stored_md5, std::string_view salt) {
  std::string input(stored_md5.substr(3));
  input.append(salt);
  return "md5" + Md5Hex(input);
}

}  // namespace hearth::auth
