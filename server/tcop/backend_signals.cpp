// tcop/backend_signals.cpp
//
// Principal entry point: InstallBackendSignalCallback — pg_cancel_backend
// (SIGINT: the target's running statement ends with 57014) and
// pg_terminate_backend (SIGTERM: the target session ends with FATAL 57P01
// "terminating connection due to administrator command"), with PostgreSQL
// 15's rules: only server processes with a proc slot, a superuser's only
// by a superuser, another role's only by a member with its privileges.
#include <signal.h>

#include <cerrno>
#include <cstring>

#include "catalog/privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/proc_array.h"
#include "tcop/admin_callbacks.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

// The proc slot of server process `pid` that may be signalled, or null.
const storage::ProcSlot* FindBackend(int32_t pid) {
  storage::ProcArrayShared* pa = storage::ProcArray();
  for (int32_t i = 0; pa != nullptr && pid > 0 && i < pa->nslots; ++i) {
    const storage::ProcSlot& s = pa->slots[i];
    if (s.pid.load(std::memory_order_relaxed) != pid) continue;
    const storage::BackendType t = s.type.load(std::memory_order_relaxed);
    if (t == storage::BackendType::kClient || t == storage::BackendType::kAutovacuumWorker ||
        t == storage::BackendType::kWalSender) {
      return &s;
    }
  }
  return nullptr;
}

void CheckMaySignal(const storage::ProcSlot& target, bool terminate) {
  if (catalog::CurrentUserIsSuperuser()) return;
  const uint32_t role = target.role_oid.load(std::memory_order_relaxed);
  if (role == 0 || catalog::RoleIsSuperuser(role)) {
    throw DbError(sqlstate::kInsufficientPrivilege, terminate ? "must be a superuser to terminate superuser process"
                                                              : "must be a superuser to cancel superuser query");
  }
  if (!catalog::HasPrivsOfRole(catalog::GetCurrentUserId(), role)) {
    throw DbError(sqlstate::kInsufficientPrivilege,
                  terminate ? "must be a member of the role whose process is being terminated or member of "
                              "pg_signal_backend"
                            : "must be a member of the role whose query is being canceled or member of "
                              "pg_signal_backend");
  }
}

// Waits up to timeout_ms for the process to leave its slot.
bool AwaitExit(const storage::ProcSlot& slot, int32_t pid, int64_t timeout_ms) {
  constexpr int64_t kStepUs = 10000;
  for (int64_t waited_us = 0; waited_us < timeout_ms * 1000; waited_us += kStepUs) {
    if (slot.pid.load(std::memory_order_acquire) != pid) return true;
    SleepWithInterrupts(kStepUs);
  }
  return slot.pid.load(std::memory_order_acquire) != pid;
}

}  // namespace

void InstallBackendSignalCallback(Session& s, types::SessionCallbacks& callbacks) {
  callbacks.signal_backend = [&s](int32_t pid, bool terminate, int64_t timeout_ms) {
    const storage::ProcSlot* target = FindBackend(pid);
    if (target == nullptr) {
      s.Notice(Severity::kWarning, "01000", "PID " + std::to_string(pid) + " is not a PostgreSQL backend process");
      return false;
    }
    CheckMaySignal(*target, terminate);
    if (kill(pid, terminate ? SIGTERM : SIGINT) != 0) {
      s.Notice(Severity::kWarning, "01000",
               "could not send signal to process " + std::to_string(pid) + ": " + std::strerror(errno));
      return false;
    }
    if (terminate && timeout_ms > 0 && pid != s.backend_pid && !AwaitExit(*target, pid, timeout_ms)) {
      s.Notice(Severity::kWarning, "01000",
               "backend with PID " + std::to_string(pid) + " did not terminate within " +
                   std::to_string(timeout_ms) + " milliseconds");
      return false;
    }
    return true;
  };
}

}  // namespace hearth::tcop
