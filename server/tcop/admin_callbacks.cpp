// tcop/admin_callbacks.cpp
//
// Principal entry point: InstallAdminCallbacks.
#include "tcop/admin_callbacks.h"

#include <chrono>
#include <thread>

#include <spdlog/spdlog.h>

#include "access/transam/xlog.h"
#include "access/transam/xlog_standby.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/ipc/interrupts.h"
#include "utils/adt/recovery_funcs.h"
#include "catalog/relation_inspect.h"

namespace hearth::tcop {

namespace {

// 2000-01-01 in Unix microseconds (PostgreSQL timestamps count from there).
constexpr int64_t kPostgresEpochUnixUs = 946684800LL * 1000000;

uint64_t CurrentWalPosition(types::WalPosition which) {
  if (!access::XLogIsStarted()) return 0;
  if (access::RecoveryInProgress()) {
    throw DbError(sqlstate::kObjectNotInPrerequisiteState, "recovery is in progress")
        .WithHint("WAL control functions cannot be executed during recovery.");
  }
  switch (which) {
    case types::WalPosition::kInsert:
      return access::XLogInsertEndPosition();
    case types::WalPosition::kWrite:
      return access::XLogWrittenUpTo();
    case types::WalPosition::kFlush:
      return access::XLogFlushedUpTo();
  }
  return 0;
}

// Asks the startup process to promote; waiting polls, as PostgreSQL does.
bool Promote(bool wait, int32_t wait_seconds) {
  if (!access::RecoveryInProgress()) {
    throw DbError(sqlstate::kObjectNotInPrerequisiteState, "recovery is not in progress")
        .WithHint("Recovery control functions can only be executed during recovery.");
  }
  access::RequestPromotion();
  if (!wait) return true;
  for (int i = 0; i < wait_seconds * 10; i++) {
    if (!access::RecoveryInProgress()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CheckForInterrupts();
  }
  spdlog::warn("server did not promote within {} seconds", wait_seconds);
  return false;
}

void InstallRecoveryCallbacks() {
  types::RecoveryCallbacks cb;
  cb.in_recovery = [] { return access::RecoveryInProgress(); };
  cb.receive_lsn = [] { return access::RecoveryInProgress() ? access::StandbyReceivedUpTo() : 0; };
  cb.replay_lsn = [] { return access::StandbyReplayedUpTo(); };
  cb.last_xact_replay_timestamp = []() -> std::optional<int64_t> {
    const int64_t unix_us = access::StandbyLastXactReplayTimeUs();
    if (unix_us == 0) return std::nullopt;
    return unix_us - kPostgresEpochUnixUs;
  };
  cb.promote = Promote;
  types::SetRecoveryCallbacks(std::move(cb));
}

}  // namespace

void InstallAdminCallbacks(types::SessionCallbacks& callbacks) {
  InstallRecoveryCallbacks();
  callbacks.relation_sizes = [](uint32_t relid, uint32_t fork_mask, bool with_indexes) {
    return catalog::RelationSizesByOid(relid, fork_mask, with_indexes);
  };
  callbacks.wal_position = CurrentWalPosition;
  catalog::InstallRegclassHooks();
}

}  // namespace hearth::tcop
