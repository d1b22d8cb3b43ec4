// tcop/auth_scram.cpp
//
// Principal entry points: ScramServer::Mechanisms, SelectMechanism, HandleClientFirst,
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

constexpr char kScram[] = "SCRAM-SHA-256";
constexpr char kScramPlus[] = "SCRAM-SHA-256-PLUS";
constexpr std::string_view kEndPointBinding = "tls-server-end-point";

}  // namespace

ScramServer::ScramServer(const std::string& user, const std::optional<auth::ScramVerifier>& verifier,
                         std::string_view mock_secret, std::optional<std::string> end_point)
    : end_point_(std::move(end_point)) {
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

std::vector<std::string> ScramServer::Mechanisms() const {
  if (end_point_) return {kScramPlus, kScram};
  return {kScram};
}

bool ScramServer::SelectMechanism(std::string_view mechanism) {
  plus_ = mechanism == kScramPlus && end_point_.has_value();
  return plus_ || mechanism == kScram;
}

// gs2-header: cbind-flag "," [authzid] ",", where cbind-flag is "n" (the
// client cannot bind), "y" (it could, but thinks the server cannot) or
// "p=<type>" (it binds).
std::string ScramServer::HandleClientFirst(std::string_view message) {
  if (message.empty()) Malformed("Attribute expected, but found end of string.");
  const size_t flag_end = message.find(',');
  if (flag_end == std::string_view::npos) Malformed("Comma expected.");
  const std::string_view flag = message.substr(0, flag_end);
  const char* wrong_plus = "The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel "
                           "binding data.";
  if (flag.rfind("p=", 0) == 0) {
    if (!plus_) {
      Malformed("The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel "
                "binding data.");
    }
    if (flag.substr(2) != kEndPointBinding) {
      throw DbError(sqlstate::kProtocolViolation,
                    "unsupported SCRAM channel-binding type \"" + std::string(flag.substr(2)) + "\"",
                    Severity::kFatal);
    }
  } else if (flag == "y") {
    if (plus_) Malformed(wrong_plus);
    if (end_point_) {
      throw DbError(sqlstate::kProtocolViolation, "SCRAM channel binding negotiation error", Severity::kFatal)
          .WithDetail("The client supports SCRAM channel binding but thinks the server does not.  However, this "
                      "server does support channel binding.");
    }
  } else if (flag == "n") {
    if (plus_) Malformed(wrong_plus);
  } else {
    Malformed("Unexpected channel-binding flag \"" + std::string(flag.substr(0, 1)) + "\".");
  }
  const size_t authz_end = message.find(',', flag_end + 1);
  if (authz_end == std::string_view::npos) Malformed("Comma expected.");
  if (authz_end != flag_end + 1) {
    throw DbError(sqlstate::kFeatureNotSupported, "client uses authorization identity, but it is not supported",
                  Severity::kFatal);
  }
  gs2_header_ = std::string(message.substr(0, authz_end + 1));
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
  // c= is base64(gs2-header || channel-binding data); the data only with -PLUS.
  const std::string expected_cbind = auth::Base64Encode(gs2_header_ + (plus_ ? *end_point_ : std::string()));
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
