// tcop/auth_scram.h
//
// The server side of SCRAM-SHA-256 over PostgreSQL's SASL messages (RFC
// 5802/7677, no channel binding: gs2 flag 'n' or 'y'). The username in the
// client's message is ignored (the startup packet's user counts, as in
// PostgreSQL). With no usable verifier (role missing, no password, an md5
// password) the exchange runs against a mock verifier whose salt is derived
// from the user name and a per-cluster secret, so it looks the same to the
// client and always fails at the proof. Proofs are compared in constant
// time. One object per exchange; not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/auth/scram.h"

namespace hearth::tcop {

class ScramServer {
 public:
  // `verifier` null: mock exchange with a salt from (mock_secret, user).
  ScramServer(const std::string& user, const std::optional<auth::ScramVerifier>& verifier,
              std::string_view mock_secret);

  // client-first-message → server-first-message. Throws FATAL 08P01 on a
  // malformed message, 0A000 for channel binding or authzid.
  std::string HandleClientFirst(std::string_view message);

  // client-final-message → server-final-message ("v=..."), or nullopt when
  // the proof is wrong (or the exchange was a mock). Throws FATAL 08P01 on
  // a malformed message.
  std::optional<std::string> HandleClientFinal(std::string_view message);

 private:
  auth::ScramVerifier verifier_;
  bool mock_ = false;
  char cbind_flag_ = 'n';
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;  // client nonce + server nonce
};

}  // namespace hearth::tcop
