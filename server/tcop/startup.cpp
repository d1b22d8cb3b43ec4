// tcop/startup.cpp
//
// Principal entry point: ProcessStartup.
#include "tcop/startup.h"

#include <cctype>

#include "common/error/db_error.h"
#include "common/protocol/wire.h"
#include "config/settings.h"
#include "storage/ipc/interrupts.h"
#include "tcop/startup_packet.h"

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
    StartupPacket packet = DecodeStartupPacket(body);
    if (packet.kind == StartupPacket::Kind::kEncryptionRequest && packet.ssl_request && info.ssl_ctx != nullptr &&
        !sock.encrypted()) {
      // 'S', the handshake, then the real startup packet over TLS.
      sock.Send("S");
      sock.Flush();
      std::string error;
      if (!sock.StartTls(info.ssl_ctx, &error)) Fatal(sqlstate::kProtocolViolation, error);
      continue;
    }
    if (packet.kind == StartupPacket::Kind::kEncryptionRequest) {
      // No TLS here (ssl = off, or already encrypted) and no GSS encryption:
      // say so and read the real startup packet.
      sock.Send("N");
      sock.Flush();
      continue;
    }
    if (packet.kind == StartupPacket::Kind::kCancel) {
      if (packet.has_cancel_key && info.deliver_cancel) info.deliver_cancel(packet.cancel_pid, packet.cancel_key);
      return result;  // close without a reply: libpq waits for EOF
    }
    result.params = std::move(packet.params);
    if (packet.minor > 0 || !packet.unknown_options.empty()) {
      // Newer clients ask for 3.x or protocol options: offer 3.0 and list
      // the options we did not recognise.
      protocol::MessageWriter w(protocol::be::kNegotiateProtocolVersion);
      w.Int32(protocol::kProtocolVersion3).Int32(static_cast<int32_t>(packet.unknown_options.size()));
      for (const auto& o : packet.unknown_options) w.CString(o);
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
  result.proceed = true;
  return result;
}

}  // namespace hearth::tcop
