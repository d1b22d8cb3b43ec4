// utils/adt/recovery_funcs.h
//
// PostgreSQL's recovery information and control functions
// (builtins_recovery.cpp): pg_is_in_recovery, pg_last_wal_receive_lsn,
// pg_last_wal_replay_lsn, pg_last_xact_replay_timestamp, pg_promote. The
// standby's state lives below this library: the backend installs callbacks
// (tcop/admin_callbacks.cpp) once per process.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "utils/adt/func_registry.h"

namespace hearth::types {

// Unset: not in recovery, positions NULL, pg_promote 55000.
struct RecoveryCallbacks {
  std::function<bool()> in_recovery;
  std::function<uint64_t()> receive_lsn;  // 0: none (NULL)
  std::function<uint64_t()> replay_lsn;   // 0: none (NULL)
  // µs since 2000-01-01 of the last commit/abort replayed; nullopt: none.
  std::function<std::optional<int64_t>()> last_xact_replay_timestamp;
  // pg_promote(wait, wait_seconds): true once promoted (or, without
  // waiting, once asked). Throws 55000 when not in recovery.
  std::function<bool(bool wait, int32_t wait_seconds)> promote;
};

// This process's callbacks (a backend installs them at start).
void SetRecoveryCallbacks(RecoveryCallbacks callbacks);

namespace internal {
void AddRecoveryBuiltins(std::vector<FuncSignature>* table);
}  // namespace internal

}  // namespace hearth::types
