// client/scram.cpp
//
// Principal entry points: ScramClient::{ClientFirstMessage,
// HandleServerFirst, VerifyServerFinal}, Base64Encode/Decode.
// The proof: SaltedPassword = Hi(password, salt, i); ClientKey =
// HMAC(SaltedPassword, "Client Key"); StoredKey = H(ClientKey);
// AuthMessage = client-first-bare + "," + server-first + "," +
// client-final-without-proof; ClientProof = ClientKey XOR HMAC(StoredKey,
// AuthMessage); ServerSignature = HMAC(HMAC(SaltedPassword, "Server Key"),
// AuthMessage).
#include "client/scram.h"

#include "common/auth/crypto.h"
#include "common/auth/scram.h"

namespace hearth::client {
namespace {

constexpr uint32_t kMaxIterations = 10'000'000;  // refuse absurd work factors

using auth::ScramAttribute;

}  // namespace

std::string Base64Encode(std::string_view data) { return auth::Base64Encode(data); }
std::optional<std::string> Base64Decode(std::string_view text) { return auth::Base64Decode(text); }

ScramClient::ScramClient(std::string password, std::string nonce, std::string user)
    : password_(std::move(password)), nonce_(std::move(nonce)) {
  if (nonce_.empty()) {
    nonce_ = Base64Encode(auth::RandomBytes(24));
  }
  // RFC 5802 saslname: ',' and '=' are escaped as =2C and =3D.
  std::string name;
  for (char c : user) {
    if (c == ',') name += "=2C";
    else if (c == '=') name += "=3D";
    else name += c;
  }
  client_first_bare_ = "n=" + name + ",r=" + nonce_;
}

std::string ScramClient::ClientFirstMessage() const { return "n,," + client_first_bare_; }

std::optional<std::string> ScramClient::HandleServerFirst(std::string_view server_first,
                                                          std::string* error) {
  if (auto e = ScramAttribute(server_first, 'e')) {
    *error = "server rejected SCRAM: " + std::string(*e);
    return std::nullopt;
  }
  auto r = ScramAttribute(server_first, 'r');
  auto s = ScramAttribute(server_first, 's');
  auto i = ScramAttribute(server_first, 'i');
  if (!r || !s || !i) {
    *error = "malformed SCRAM server-first-message";
    return std::nullopt;
  }
  if (r->size() <= nonce_.size() || r->substr(0, nonce_.size()) != nonce_) {
    *error = "SCRAM server nonce does not extend the client nonce";
    return std::nullopt;
  }
  auto salt = Base64Decode(*s);
  uint32_t iterations = 0;
  for (char c : *i) {
    if (c < '0' || c > '9' || iterations > kMaxIterations) {
      iterations = 0;
      break;
    }
    iterations = iterations * 10 + static_cast<uint32_t>(c - '0');
  }
  if (!salt || salt->empty() || iterations == 0 || iterations > kMaxIterations) {
    *error = "malformed SCRAM salt or iteration count";
    return std::nullopt;
  }

  const auth::ScramKeys keys = auth::DeriveScramKeys(password_, *salt, iterations);
  const std::string without_proof = "c=biws,r=" + std::string(*r);  // biws = base64("n,,")
  const std::string auth_message =
      client_first_bare_ + "," + std::string(server_first) + "," + without_proof;
  const std::string proof = auth::XorBytes(keys.client_key, auth::ScramSignature(keys.stored_key, auth_message));
  expected_server_signature_ = auth::ScramSignature(keys.server_key, auth_message);
  return without_proof + ",p=" + Base64Encode(proof);
}

bool ScramClient::VerifyServerFinal(std::string_view server_final, std::string* error) const {
  if (auto e = ScramAttribute(server_final, 'e')) {
    *error = "server rejected SCRAM: " + std::string(*e);
    return false;
  }
  auto v = ScramAttribute(server_final, 'v');
  auto sig = v ? Base64Decode(*v) : std::nullopt;
  if (!sig || expected_server_signature_.empty() ||
      !auth::ConstantTimeEqual(*sig, expected_server_signature_)) {
    *error = "SCRAM server signature is invalid";
    return false;
  }
  return true;
}

}  // namespace hearth::client
