// tcop/backend_main.cpp
//
// Principal entry point: BackendMain, the life of one client backend:
// startup, then the message loop until Terminate or EOF. FATAL errors are
// sent to the client and end the process with exit code 1 (a clean exit for
// the postmaster); any other exception is a crash (PANIC exit code) and
// makes the postmaster reset shared memory.
#include "tcop/backend_main.h"

#include "access/transam/standby_conflicts.h"
#include "access/transam/xlog_standby.h"
#include "config/conf_file.h"

#include <sys/prctl.h>
#include <unistd.h>


#include "access/transam/xact.h"
#include "access/transam/xlog_keep.h"
#include "catalog/heap_table_provider.h"
#include "catalog/pending_delete.h"
#include "catalog/role_catalog.h"
#include "catalog/system_views.h"
#include "catalog/temp_namespace.h"
#include "common/error/panic.h"
#include "common/error/stack_depth.h"
#include "common/log/log.h"
#include "common/protocol/wire.h"
#include "config/registry.h"
#include "config/settings.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/backend_activity.h"
#include "storage/lmgr/lwlock.h"
#include "tcop/query_protocol.h"
#include "tcop/session.h"
#include "tcop/session_views.h"
#include "tcop/socket_options.h"
#include "tcop/login.h"
#include "tcop/startup.h"
#include "utils/adt/datetime_adt.h"

namespace hearth::tcop {

namespace {

// Which session counter (storage::CountSession) this process incremented.
enum class Counted { kNone, kClient, kWalSender };
Counted g_counted = Counted::kNone;

[[noreturn]] void ExitBackend(int code) {
  // A session that ends inside a transaction (EOF, FATAL) rolls it back.
  access::AbortTransaction();
  catalog::DropTempRelationsAtExit();
  if (g_counted == Counted::kWalSender) access::CleanupReplicationSlots(getpid());
  if (g_counted != Counted::kNone) storage::UncountSession(g_counted == Counted::kWalSender);
  // Files of DROPs committed with synchronous_commit off go now.
  catalog::FinishDeferredDeletes(/*wait=*/true);
  storage::ReleaseProcSlot();
  log::FlushLog();
  _exit(code);
}

void SendFatal(ClientSocket& sock, const DbError& e) {
  PutError(sock.out(), e);
  sock.Flush();
}

void ReloadSettings(Session& session, const BackendStartInfo& info) {
  g_reload_pending = 0;
  try {
    info.settings->ReloadConfText(config::ReadServerConfText(info.datadir), info.datadir + "/hearth.conf");
    session.settings.OnReload(*info.settings);
  } catch (const DbError& e) {
    spdlog::warn("configuration file not reloaded: {}", e.message());
  }
}

// The message loop of an established session. Returns at Terminate/EOF.
void MessageLoop(Session& session, const BackendStartInfo& info, SocketOptions& socket_options) {
  QueryProtocol protocol(session);
  size_t max_message = static_cast<size_t>(session.settings.GetInt("max_message_size"));
  std::string body;
  for (;;) {
    socket_options.Apply(session.settings.hot());  // after SET tcp_keepalives_*
    if (!session.sock.HasBufferedInput()) {
      if (!session.sock.Flush()) return;
    }
    if (auto* proc = storage::MyProc()) {
      proc->state.store(session.block == BlockState::kIdle ? storage::ProcState::kIdle
                        : session.block == BlockState::kInBlock ? storage::ProcState::kIdleInTransaction
                                                                 : storage::ProcState::kIdleInFailedTransaction);
    }
    char type = 0;
    ReadStatus st = session.sock.ReadMessage(&type, &body, max_message, CheckForTermination);
    if (st == ReadStatus::kEof) return;
    if (st == ReadStatus::kTooLarge) {
      spdlog::warn("client sent an oversized message (type '{}'); ending the session", type);
      throw DbError(sqlstate::kProtocolViolation, "invalid message length", Severity::kFatal);
    }
    if (st != ReadStatus::kOk) {
      spdlog::warn("client sent a malformed message; ending the session");
      throw DbError(sqlstate::kProtocolViolation, "invalid message format", Severity::kFatal);
    }
    // A SIGHUP that arrived while we waited applies before this message.
    if (g_reload_pending) ReloadSettings(session, info);
    if (auto* proc = storage::MyProc()) proc->state.store(storage::ProcState::kActive);
    SetMaxStackDepth(static_cast<size_t>(session.settings.hot().max_stack_depth_kb) * 1024);
    switch (type) {
      case protocol::fe::kQuery:
        storage::ReportQuery(std::string_view(body.c_str()), types::CurrentTimestampUsecs());
        protocol.SimpleQuery(body);
        break;
      case protocol::fe::kParse:
      case protocol::fe::kBind:
      case protocol::fe::kDescribe:
      case protocol::fe::kExecute:
      case protocol::fe::kClose:
      case protocol::fe::kSync:
        protocol.Extended(type, body);
        break;
      case protocol::fe::kFlush:
        session.sock.Flush();
        break;
      case protocol::fe::kTerminate:
        return;
      case protocol::fe::kCopyData:
      case protocol::fe::kCopyDone:
      case protocol::fe::kCopyFail:
        // Leftovers of an aborted COPY: ignored, as PostgreSQL does.
        break;
      default:
        spdlog::warn("invalid frontend message type {}", static_cast<int>(static_cast<unsigned char>(type)));
        throw DbError(sqlstate::kProtocolViolation,
                      "invalid frontend message type " + std::to_string(static_cast<unsigned char>(type)),
                      Severity::kFatal);
    }
  }
}

// Counts the session against max_connections or max_wal_senders; FATAL
// 53300 as PostgreSQL when that limit is reached. Returns whether a client
// took one of the last superuser_reserved_connections places.
bool CountSessionOrRefuse(const StartupResult& startup, const BackendStartInfo& info) {
  const bool walsender = startup.replication != ReplicationMode::kNone;
  if (walsender) {
    const int64_t max = info.settings->GetInt("max_wal_senders");
    if (info.walsender_main == nullptr || !storage::CountSession(true, static_cast<int>(max))) {
      throw DbError(sqlstate::kTooManyConnections,
                    "number of requested standby connections exceeds max_wal_senders (currently " +
                        std::to_string(max) + ")",
                    Severity::kFatal);
    }
    g_counted = Counted::kWalSender;
    return false;
  }
  const int max = static_cast<int>(info.settings->GetInt("max_connections"));
  int sessions = 0;
  if (!storage::CountSession(false, max, &sessions)) {
    throw DbError(sqlstate::kTooManyConnections, "sorry, too many clients already", Severity::kFatal);
  }
  g_counted = Counted::kClient;
  return sessions > max - static_cast<int>(info.settings->GetInt("superuser_reserved_connections"));
}

// A standby accepts sessions only once replay is consistent, and only with
// hot_standby on (PostgreSQL 15's words).
void RefuseDuringRecovery(const BackendStartInfo& info) {
  if (!access::RecoveryInProgress()) return;
  if (!info.settings->GetBool("hot_standby")) {
    throw DbError(sqlstate::kCannotConnectNow, "the database system is not accepting connections", Severity::kFatal)
        .WithDetail("Hot standby mode is disabled.");
  }
  if (!access::StandbyConsistent()) {
    throw DbError(sqlstate::kCannotConnectNow, "the database system is not yet accepting connections",
                  Severity::kFatal)
        .WithDetail("Consistent recovery state has not been yet reached.");
  }
}

}  // namespace

void BackendMain(const BackendStartInfo& info) {
  SetStackBase();
  log::SetLogRole("backend");
  prctl(PR_SET_NAME, "hearth backend", 0, 0, 0);
  InstallBackendSignalHandlers();
  SetRecoveryConflictCheck(access::BackendRecoveryConflictCheck);  // hot standby: replay may ask us to give way
  // From accept to the end of startup: a silent client must not keep its
  // connection slot (or a dead-end child) forever.
  ArmStartupTimeout(info.settings->hot().authentication_timeout_s);
  ClientSocket sock(info.sock_fd);
  SocketOptions socket_options(info.sock_fd);
  int exit_code = 0;
  try {
    StartupResult startup = ProcessStartup(sock, info);
    if (!startup.proceed) ExitBackend(0);
    DeferStartupTimeout();  // from here on, leave through ExitBackend
    RefuseDuringRecovery(info);
    startup.superusers_only = CountSessionOrRefuse(startup, info);
    const bool walsender = startup.replication != ReplicationMode::kNone;
    storage::ClaimProcSlot(info.slot, walsender ? storage::BackendType::kWalSender : storage::BackendType::kClient);
    storage::SetPostmasterPidForWaits(getppid());
    LoginIdentity identity;
    if (!PerformLogin(sock, info, startup, &identity)) ExitBackend(0);
    DisarmStartupTimeout();

    config::SessionSettings settings(*info.settings);
    settings.SetInternal("session_authorization", startup.user);
    settings.SetInternal("is_superuser", identity.superuser ? "on" : "off");
    settings.SetInternal("in_hot_standby", access::RecoveryInProgress() ? "on" : "off");
    // ALTER DATABASE ... SET values first: the client's options override them.
    for (const auto& [k, v] : identity.database_settings) {
      try {
        settings.ApplyStartupOption(k, v);
      } catch (const DbError&) {
        // A value that no longer applies (PostgreSQL warns and goes on).
      }
    }
    for (const auto& [k, v] : startup.params) settings.ApplyStartupOption(k, v);
    settings.SetShowIntOverride([&socket_options](std::string_view name, int64_t stored) {
      return socket_options.Show(name, stored);
    });
    Session session(sock, std::move(settings));
    session.datadir = info.datadir;
    session.database = startup.database;
    session.user = startup.user;
    session.login_role = identity.role_oid;
    session.login_superuser = identity.superuser;
    session.backend_pid = static_cast<int32_t>(getpid());
    session.InstallCallbacks();
    catalog::HeapTableProvider tables;
    auto with_views = catalog::MakeSystemViewProvider(tables);
    AddSessionViews(*with_views, session);
    with_views->SetSuperuserCheck([&session] {
      auto role = catalog::FindRoleByName(session.CurrentUserName());
      return role && role->role.superuser;
    });
    session.tables = with_views.get();
    session.views = with_views.get();
    session.provider = &tables;

    for (const auto& [name, value] : session.settings.ReportedParameters()) {
      PutParameterStatus(sock.out(), name, value);
    }
    session.settings.TakeReportChanges();  // all of them were just sent
    protocol::MessageWriter key(protocol::be::kBackendKeyData);
    key.Int32(session.backend_pid).Int32(info.cancel_key);
    sock.Send(key.Finish());
    PutReadyForQuery(sock.out(), 'I');
    if (walsender) {
      info.walsender_main(session, startup.replication == ReplicationMode::kDatabase);
    } else {
      MessageLoop(session, info, socket_options);
    }
  } catch (const DbError& e) {
    if (e.severity() >= Severity::kFatal) {
      spdlog::info("{}: {}", SeverityName(e.severity()), e.message());
      SendFatal(sock, e);
      exit_code = 1;
    } else {
      SendFatal(sock, DbError(e.sqlstate(), e.message(), Severity::kFatal));
      exit_code = 1;
    }
  } catch (const std::bad_alloc&) {
    SendFatal(sock, DbError(sqlstate::kOutOfMemory, "out of memory", Severity::kFatal));
    exit_code = 1;
  } catch (const std::exception& e) {
    // Not a DbError: an invariant broke somewhere below, and what this
    // process left in shared memory is unknown. Crash, so the postmaster
    // resets everything (a clean exit code would let the others go on).
    SendFatal(sock, DbError(sqlstate::kInternalError, e.what(), Severity::kFatal));
    Panic(std::string("backend failed: ") + e.what());
  } catch (...) {
    Panic("backend failed with an unknown exception");
  }
  sock.Flush();
  ExitBackend(exit_code);
}

}  // namespace hearth::tcop
