// tcop/login.h
//
// Connection start after the startup packet, in PostgreSQL's order: read
// the role (pg_authid, in a short transaction of its own), pick the first
// pg_hba.conf record matching (address, database, user), authenticate by
// its method, then refuse roles that may not log in (28000), exceed their
// CONNECTION LIMIT (53300) or do not exist (28000, reached only through
// trust), and unknown databases (3D000); finally AuthenticationOk.
#pragma once

#include <cstdint>

#include "tcop/backend_main.h"
#include "tcop/pqcomm.h"
#include "tcop/startup.h"

namespace hearth::tcop {

struct LoginIdentity {
  uint32_t role_oid = 0;
  bool superuser = false;
  uint32_t database_oid = 0;  // 0: a physical replication connection
  std::vector<std::pair<std::string, std::string>> database_settings;  // ALTER DATABASE ... SET
};

// REQUIRES: this process claimed its proc slot. Returns false when the
// client hung up during authentication (nothing to report). Throws FATAL
// DbErrors for refusals.
bool PerformLogin(ClientSocket& sock, const BackendStartInfo& info, const StartupResult& startup,
                  LoginIdentity* identity);

}  // namespace hearth::tcop
