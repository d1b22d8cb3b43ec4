// tcop/startup.cpp
//
// Principal entry point: ProcessStartup.
#include "tcop/startup.h"

#include <cctype>

#include "catalog/cluster_catalog.h"
#include "common/error/db_error.h"
#include "common/protocol/wire.h"
#include "config/settings.h"
#include "storage/ipc/interrupts.h"

namespace hearth::tcop {

namespace {

[[noreturn]] void Fatal(const char* sqlstate, std::string message) {
  throw DbError(sqlstate, std::move(message), Severity::kFatal);
}

// PostgreSQL's reading of "replication": a boolean or "database".
ReplicationMode ParseReplicationMode(const std::map<std::string, std::string>& params) {
  auto it = params.find("replication");
  if (it == params.end()) return ReplicationMode::kNone;
  std::string v;
  for (char c : it->second) v += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v == "database") return ReplicationMode::kDatabase;
  for (const char* t : {"true", "on", "yes", "1", "t", "y"}) {
    if (v == t) return ReplicationMode::kPhysical;
  }
  for (const char* f : {"false", "off", "no", "0", "f", "n"}) {
    if (v == f) return ReplicationMode::kNone;
  }
  throw DbError(sqlstate::kInvalidParameterValue,
                "invalid value for parameter \"replication\": \"" + it->second + "\"", Severity::kFatal)
      .WithHint("Valid values are: \"false\", 0, \"true\", 1, \"database\".");
}

}  // namespace

StartupResult ProcessStartup(ClientSocket& sock, const BackendStartInfo& info) {
  StartupResult result;
  for (;;) {
    std::string body;
    ReadStatus st = sock.ReadStartupPacket(&body, CheckForTermination);
    if (st == ReadStatus::kEof) return result;  // port probe or client gave up
    if (st != ReadStatus::kOk) Fatal(sqlstate::kProtocolViolation, "invalid length of startup packet");
    protocol::MessageReader r(body);
    int32_t code = r.Int32().value_or(0);
    if (code == protocol::kSslRequestCode || code == protocol::kGssEncRequestCode) {
      // No TLS or GSS encryption: say so and read the real startup packet.
      sock.Send("N");
      sock.Flush();
      continue;
    }
    if (code == protocol::kCancelRequestCode) {
      auto pid = r.Int32();
      auto key = r.Int32();
      if (pid && key && info.deliver_cancel) info.deliver_cancel(*pid, *key);
      return result;  // close without a reply: libpq waits for EOF
    }
    int major = code >> 16;
    int minor = code & 0xffff;
    if (major != 3) {
      Fatal(sqlstate::kFeatureNotSupported, "unsupported frontend protocol " + std::to_string(major) + "." +
                                                std::to_string(minor) +
                                                ": server supports 3.0 to 3.0");
    }
    std::vector<std::string> unknown_options;
    for (;;) {
      auto key = r.CString();
      if (!key) Fatal(sqlstate::kProtocolViolation, "invalid startup packet layout: expected terminator as last byte");
      if (key->empty()) break;
      auto value = r.CString();
      if (!value) Fatal(sqlstate::kProtocolViolation, "invalid startup packet layout: expected terminator as last byte");
      std::string k(*key);
      if (k.rfind("_pq_.", 0) == 0) {
        unknown_options.push_back(k);
        continue;
      }
      result.params[k] = std::string(*value);
    }
    if (minor > 0 || !unknown_options.empty()) {
      // Newer clients ask for 3.x or protocol options: offer 3.0 and list
      // the options we did not recognise.
      protocol::MessageWriter w(protocol::be::kNegotiateProtocolVersion);
      w.Int32(protocol::kProtocolVersion3).Int32(static_cast<int32_t>(unknown_options.size()));
      for (const auto& o : unknown_options) w.CString(o);
      sock.Send(w.Finish());
    }
    break;
  }

  auto user_it = result.params.find("user");
  if (user_it == result.params.end() || user_it->second.empty()) {
    Fatal(sqlstate::kInvalidAuthorizationSpecification, "no PostgreSQL user name specified in startup packet");
  }
  result.user = user_it->second;
  result.replication = ParseReplicationMode(result.params);
  auto db_it = result.params.find("database");
  result.database = (db_it == result.params.end() || db_it->second.empty()) ? result.user : db_it->second;

  switch (info.refusal) {
    case Refusal::kNone: break;
    case Refusal::kTooManyClients:
      // The slot pool is max_connections + max_wal_senders, and each kind
      // stays within its own limit: a full pool means this kind is full.
      if (result.replication != ReplicationMode::kNone) {
        Fatal(sqlstate::kTooManyConnections, "number of requested standby connections exceeds max_wal_senders (currently " +
                                                 std::to_string(info.settings->GetInt("max_wal_senders")) + ")");
      }
      Fatal(sqlstate::kTooManyConnections, "sorry, too many clients already");
    case Refusal::kShuttingDown: Fatal(sqlstate::kCannotConnectNow, "the database system is shutting down");
    case Refusal::kRecovering: Fatal(sqlstate::kCannotConnectNow, "the database system is in recovery mode");
  }
  if (!catalog::RoleExists(info.datadir, result.user)) {
    Fatal(sqlstate::kInvalidAuthorizationSpecification, "role \"" + result.user + "\" does not exist");
  }
  // A physical replication connection belongs to no database (pg_basebackup
  // names "replication").
  if (result.replication != ReplicationMode::kPhysical && !catalog::DatabaseExists(info.datadir, result.database)) {
    Fatal(sqlstate::kInvalidCatalogName, "database \"" + result.database + "\" does not exist");
  }
  // Trust authentication (passwords arrive with the security issue).
  protocol::MessageWriter ok(protocol::be::kAuthentication);
  ok.Int32(protocol::kAuthOk);
  sock.Send(ok.Finish());
  result.proceed = true;
  return result;
}

}  // namespace hearth::tcop
