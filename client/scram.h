// client/scram.h
//
// ScramClient: the client side of SCRAM-SHA-256 (RFC 5802/7677) as
// PostgreSQL uses it over AuthenticationSASL: no channel binding (gs2 "n,,"),
// empty username in the messages (the server uses the startup user), and a
// password used as-is (SASLprep is the identity for ASCII). Also base64.
// Not thread-safe per object; one object per authentication exchange.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hearth::client {

class ScramClient {
 public:
  // `nonce` empty: 24 random bytes, base64-encoded (tests pass a fixed one).
  // `user` is what goes in "n=": PostgreSQL sends it empty (the server takes
  // the startup packet's user); RFC 7677's example uses "user".
  explicit ScramClient(std::string password, std::string nonce = "", std::string user = "");

  // "n,,n=,r=<nonce>": the SASLInitialResponse data.
  std::string ClientFirstMessage() const;

  // Parses server-first ("r=...,s=...,i=..."), checks that the server nonce
  // extends ours, and returns client-final ("c=biws,r=...,p=<proof>").
  // nullopt with *error on a malformed or hostile message.
  std::optional<std::string> HandleServerFirst(std::string_view server_first, std::string* error);

  // Checks server-final ("v=<signature>") against the expected signature.
  bool VerifyServerFinal(std::string_view server_final, std::string* error) const;

 private:
  std::string password_;
  std::string nonce_;
  std::string client_first_bare_;
  std::string expected_server_signature_;  // raw bytes
};

std::string Base64Encode(std::string_view data);
// nullopt on characters outside the alphabet or bad padding.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace hearth::client
