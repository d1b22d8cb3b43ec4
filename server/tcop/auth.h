// tcop/auth.h
//
// Password authentication of a new connection, in PostgreSQL's protocol:
// scram-sha-256 (AuthenticationSASL / SASLContinue / SASLFinal), md5
// (AuthenticationMD5Password with a random 4-byte salt; a role whose stored
// password is a SCRAM verifier is asked for SCRAM instead, as PostgreSQL
// does), password (AuthenticationCleartextPassword), trust, reject. Every
// failure is the same FATAL 28P01 `password authentication failed for user
// "x"` whether or not the role exists, has a password, or the password
// expired (VALID UNTIL); a missing role still goes through the whole
// exchange (SCRAM with a mock salt derived from the user name), so neither
// messages nor the work done reveal which roles exist.
//
// Runs in the backend before the session exists, under
// authentication_timeout; no transaction or lock is held meanwhile.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tcop/hba.h"
#include "tcop/pqcomm.h"

namespace hearth::tcop {

// What connection start read of the role (one pg_authid row) before
// authenticating.
struct LoginRole {
  bool exists = false;
  uint32_t oid = 0;
  bool superuser = false;
  bool canlogin = false;
  int32_t connlimit = -1;
  std::optional<std::string> password;
  std::optional<int64_t> valid_until;  // µs since 2000-01-01 UTC
};

// Runs `method`'s exchange with the client. Returns false when the client
// hung up mid-exchange (psql does, to prompt for a password); throws FATAL
// 28P01 on failure, 08P01 on protocol violations.
bool Authenticate(ClientSocket& sock, HbaMethod method, const std::string& user, const LoginRole& role,
                  std::string_view mock_secret);

// The per-cluster secret for mock SCRAM salts: global/auth_secret, written
// by `hearthd init` (WriteAuthSecret).
std::string ReadAuthSecret(const std::string& datadir);
bool WriteAuthSecret(const std::string& datadir, std::string* error);

}  // namespace hearth::tcop
