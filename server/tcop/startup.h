// tcop/startup.h
//
// The connection start of a backend: SSL/GSS negotiation ('N'), cancel
// requests, the v3 StartupMessage, refusals (too many clients, shutdown),
// database and role checks, trust authentication, then ParameterStatus,
// BackendKeyData and the first ReadyForQuery.
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
};

// Throws DbError with severity FATAL for refusals the client must be told of.
StartupResult ProcessStartup(ClientSocket& sock, const BackendStartInfo& info);

}  // namespace hearth::tcop
