// tcop/startup.h
//
// The connection start of a backend: SSL negotiation ('S' + TLS handshake
// with ssl = on, else 'N'; GSS encryption always 'N'), cancel
// requests, the v3 StartupMessage and refusals (too many clients,
// shutdown). Authentication and the role/database checks follow in
// login.h; then BackendMain sends ParameterStatus, BackendKeyData and the
// first ReadyForQuery.
#pragma once

#include <map>
#include <string>

#include "tcop/backend_main.h"
#include "tcop/pqcomm.h"

namespace hearth::tcop {

// The startup packet's "replication" parameter: absent/false, true (physical:
// the replication grammar only), database (logical: also needs a database).
enum class ReplicationMode { kNone, kPhysical, kDatabase };

struct StartupResult {
  bool proceed = false;  // false: the connection is finished (cancel, refusal)
  std::string user;
  std::string database;
  std::map<std::string, std::string> params;  // every startup key/value
  ReplicationMode replication = ReplicationMode::kNone;
  // Set by the backend once it has counted itself: it holds one of the last
  // superuser_reserved_connections client places, so login admits only a
  // superuser.
  bool superusers_only = false;
};

// Throws DbError with severity FATAL for refusals the client must be told of.
StartupResult ProcessStartup(ClientSocket& sock, const BackendStartInfo& info);

}  // namespace hearth::tcop
