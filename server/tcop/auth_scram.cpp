// tcop/auth_scram.cpp
//
// Principal entry points: ScramServer::HandleClientFirst,
// ScramServer::HandleClientFinal.
#include "tcop/auth_scram.h"

#include "common/auth/crypto.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::tcop {

namespace {

[[noreturn]] void Malformed(const std::string& detail) {
  throw DbError(sqlstate::kProtocolViolation, "malformed SCRAM message", Severity::kFatal).WithDetail(detail);
}

bool PrintableNonce(std::string_view s) {
  for (char c : s) {
    if (c < 0x21 || c > 0x7e || c == ',') return false;
  }
  return !s.empty();
}

}  // namespace

ScramServer::ScramServer(const std::string& user, const std::optional<auth::ScramVerifier>& verifier,
                         std::string_view mock_secret) {
  if (verifier) {
    verifier_ = *verifier;
    return;
  }
  // Deterministic per user, so repeated attempts see the same salt for a
  // role that does not exist, as they would for one that does.
  mock_ = true;
  verifier_.iterations = auth::kScramDefaultIterations;
  verifier_.salt = auth::DigestBytes(auth::Sha256(std::string(mock_secret) + user)).substr(0, auth::kScramSaltLength);
  verifier_.stored_key = auth::RandomBytes(auth::kScramKeyLength);
  verifier_.server_key = auth::RandomBytes(auth::kScramKeyLength);
}

std::string ScramServer::HandleClientFirst(std::string_view message) {
  // gs2-header: cbind-flag "," [authzid] ","
  if (message.empty()) Malformed("Attribute expected, but found end of string.");
  cbind_flag_ = message[0];
  if (cbind_flag_ == 'p') {
    throw DbError(sqlstate::kProtocolViolation, "channel binding is not supported by this server",
                  Severity::kFatal);
  }
  if (cbind_flag_ != 'n' && cbind_flag_ != 'y') Malformed("Unexpected channel-binding flag.");
  if (message.size() < 2 || message[1] != ',') Malformed("Comma expected.");
  const size_t authz_end = message.find(',', 2);
  if (authz_end == std::string_view::npos) Malformed("Comma expected.");
  if (authz_end != 2) {
    throw DbError(sqlstate::kFeatureNotSupported, "client uses authorization identity, but it is not supported",
                  Severity::kFatal);
  }
  client_first_bare_ = std::string(message.substr(authz_end + 1));
  if (client_first_bare_.rfind("m=", 0) == 0) {
    throw DbError(sqlstate::kFeatureNotSupported, "client requires an unsupported SCRAM extension",
                  Severity::kFatal);
  }
  if (client_first_bare_.rfind("n=", 0) != 0) Malformed("Expected attribute \"n\".");
  auto client_nonce = auth::ScramAttribute(client_first_bare_, 'r');
  if (!client_nonce || !PrintableNonce(*client_nonce)) Malformed("Expected attribute \"r\".");
  nonce_ = std::string(*client_nonce) + auth::Base64Encode(auth::RandomBytes(auth::kScramNonceLength));
  server_first_ = "r=" + nonce_ + ",s=" + auth::Base64Encode(verifier_.salt) +
                  ",i=" + std::to_string(verifier_.iterations);
  return server_first_;
}

std::optional<std::string> ScramServer::HandleClientFinal(std::string_view message) {
  auto cbind = auth::ScramAttribute(message, 'c');
  auto nonce = auth::ScramAttribute(message, 'r');
  const size_t proof_at = message.rfind(",p=");
  if (!cbind || !nonce || proof_at == std::string_view::npos) Malformed("Expected attributes c, r and p.");
  const std::string expected_cbind = auth::Base64Encode(std::string(1, cbind_flag_) + ",,");
  if (*cbind != expected_cbind) {
    throw DbError(sqlstate::kProtocolViolation, "SCRAM channel binding check failed", Severity::kFatal);
  }
  if (*nonce != nonce_) Malformed("Nonce does not match.");
  auto proof = auth::Base64Decode(message.substr(proof_at + 3));
  if (!proof || proof->size() != auth::kScramKeyLength) Malformed("Malformed proof in client-final-message.");

  const std::string auth_message =
      client_first_bare_ + "," + server_first_ + "," + std::string(message.substr(0, proof_at));
  const std::string client_signature = auth::ScramSignature(verifier_.stored_key, auth_message);
  const std::string client_key = auth::XorBytes(*proof, client_signature);
  const std::string stored_key = auth::DigestBytes(auth::Sha256(client_key));
  const bool ok = auth::ConstantTimeEqual(stored_key, verifier_.stored_key);
  if (!ok || mock_) return std::nullopt;
  return "v=" + auth::Base64Encode(auth::ScramSignature(verifier_.server_key, auth_message));
}

}  // namespace hearth::tcop
