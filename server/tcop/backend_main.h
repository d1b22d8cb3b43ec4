// tcop/backend_main.h
//
// Entry point of a client backend process: the postmaster forks, the child
// calls BackendMain with the accepted socket, and BackendMain never returns
// (the process exits when the session ends). One connection per process;
// blocking socket I/O; no threads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "storage/lmgr/proc_array.h"

namespace hearth::config {
class Settings;
}

typedef struct ssl_ctx_st SSL_CTX;

namespace hearth::tcop {

struct HbaRules;
class Session;

// Why the postmaster wants this connection refused after its startup packet.
enum class Refusal { kNone, kTooManyClients, kShuttingDown, kRecovering };

struct BackendStartInfo {
  int sock_fd = -1;
  storage::ProcNumber slot = storage::kInvalidProcNumber;
  int32_t cancel_key = 0;
  Refusal refusal = Refusal::kNone;
  std::string datadir;
  config::Settings* settings = nullptr;  // the process's copy, inherited through fork
  const HbaRules* hba = nullptr;          // pg_hba.conf as the postmaster last loaded it
  SSL_CTX* ssl_ctx = nullptr;             // TLS server context; null with ssl = off
  std::string auth_secret;                // salts mock SCRAM exchanges (auth.h)
  // Delivers a CancelRequest: signals the backend if (pid, key) match a live
  // one. Runs in this (new) child, against the postmaster's inherited list.
  std::function<void(int32_t pid, int32_t key)> deliver_cancel;
  // Runs an established replication connection (startup packet with
  // replication=true/database) until it ends; installed by the postmaster
  // (replication/walsender.h). Null: replication connections are refused.
  void (*walsender_main)(Session& session, bool database_mode) = nullptr;
};

[[noreturn]] void BackendMain(const BackendStartInfo& info);

}  // namespace hearth::tcop
