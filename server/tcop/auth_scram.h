// tcop/auth_scram.h
//
// The server side of SCRAM-SHA-256 and SCRAM-SHA-256-PLUS over PostgreSQL's
// SASL messages (RFC 5802/7677; channel binding type tls-server-end-point,
// RFC 5929, only over TLS, as PostgreSQL 15). The username in the
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
#include <vector>

#include "common/auth/scram.h"

namespace hearth::tcop {

class ScramServer {
 public:
  // `verifier` null: mock exchange with a salt from (mock_secret, user).
  // `end_point`: the connection's tls-server-end-point data (null when not
  // TLS, or when the certificate has none: then only SCRAM-SHA-256).
  ScramServer(const std::string& user, const std::optional<auth::ScramVerifier>& verifier,
              std::string_view mock_secret, std::optional<std::string> end_point = std::nullopt);

  // The mechanisms offered in AuthenticationSASL, each NUL-terminated
  // ("SCRAM-SHA-256-PLUS" first when channel binding is possible).
  std::vector<std::string> Mechanisms() const;

  // Records the client's choice; false for one that was not offered.
  bool SelectMechanism(std::string_view mechanism);

  // client-first-message → server-first-message. Throws FATAL 08P01 on a
  // malformed message or a channel-binding flag that does not fit the
  // mechanism, 0A000 for authzid.
  std::string HandleClientFirst(std::string_view message);

  // client-final-message → server-final-message ("v=..."), or nullopt when
  // the proof is wrong (or the exchange was a mock). Throws FATAL 08P01 on
  // a malformed message.
  std::optional<std::string> HandleClientFinal(std::string_view message);

 private:
  auth::ScramVerifier verifier_;
  bool mock_ = false;
  std::optional<std::string> end_point_;
  bool plus_ = false;       // SCRAM-SHA-256-PLUS chosen
  std::string gs2_header_;  // "n,,", "y,," or "p=tls-server-end-point,,"
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;  // client nonce + server nonce
};

}  // namespace hearth::tcop
