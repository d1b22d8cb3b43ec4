// access/transam/standby_conflicts.cpp
//
// Principal entry points: LogSnapshotConflictHorizon, SnapshotConflictRedo,
// ResolveSnapshotConflict, LockBufferForCleanupInRedo,
// ResolveDatabaseConflict, BackendRecoveryConflictCheck.
#include "access/transam/standby_conflicts.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "access/transam/xlog.h"
#include "access/transam/xlog_format.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access {

namespace {

using storage::ProcSlot;
using storage::RecoveryConflict;
using Clock = std::chrono::steady_clock;

std::atomic<int64_t> g_max_delay_ms{30000};

// Asked again this often while a backend stays in the way (a request that
// arrived between two of its statements may have found nothing to cancel).
constexpr auto kResignalEvery = std::chrono::milliseconds(100);

bool IsClient(const ProcSlot& s) {
  return s.pid.load(std::memory_order_acquire) != 0 && s.type.load() == storage::BackendType::kClient;
}

// Waits until `in_way(slot)` holds for no client backend. Once the delay
// has passed, each backend still in the way is sent `reason`.
template <typename InWay>
void WaitOrCancel(RecoveryConflict reason, int64_t delay_ms, InWay in_way) {
  storage::ProcArrayShared* pa = storage::ProcArray();
  if (pa == nullptr) return;
  const auto start = Clock::now();
  auto last_signal = Clock::time_point{};
  for (int sleep_us = 100;; sleep_us = std::min(sleep_us * 2, 10000)) {
    bool any = false;
    const auto now = Clock::now();
    const bool expired = delay_ms >= 0 && now - start >= std::chrono::milliseconds(delay_ms);
    const bool signal_now = expired && now - last_signal >= kResignalEvery;
    for (int i = 0; i < pa->nslots; i++) {
      ProcSlot& s = pa->slots[i];
      if (!IsClient(s) || !in_way(s)) continue;
      any = true;
      if (!signal_now) continue;
      s.recovery_conflict.store(static_cast<uint8_t>(reason));
      kill(s.pid.load(), SIGUSR1);
    }
    if (!any) return;
    if (signal_now) last_signal = now;
    std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
  }
}

}  // namespace

void SetMaxStandbyDelay(int64_t ms) { g_max_delay_ms.store(ms, std::memory_order_relaxed); }

void LogSnapshotConflictHorizon(TransactionId horizon) {
  if (!TransactionIdIsNormal(horizon) || !XLogIsStarted()) return;
  const XLogPart part{&horizon, sizeof(horizon)};
  XLogInsert(kRmgrXLog, kXLogInfoSnapshotConflict, 0, std::span<const XLogPart>(&part, 1));
}

void SnapshotConflictRedo(const XLogRecordView& rec) {
  TransactionId horizon = kInvalidTransactionId;
  if (rec.payload.size() != sizeof(horizon)) {
    throw std::runtime_error("malformed snapshot conflict record at " + std::to_string(rec.start_lsn));
  }
  std::memcpy(&horizon, rec.payload.data(), sizeof(horizon));
  ResolveSnapshotConflict(horizon);
}

void ResolveSnapshotConflict(TransactionId horizon) {
  WaitOrCancel(RecoveryConflict::kSnapshot, g_max_delay_ms.load(std::memory_order_relaxed), [horizon](const ProcSlot& s) {
    const TransactionId xmin = s.xmin.load(std::memory_order_acquire);
    return TransactionIdIsValid(xmin) && !TransactionIdPrecedes(horizon, xmin);
  });
}

void LockBufferForCleanupInRedo(storage::PinnedBuffer& buf) {
  if (storage::HoldsOnlyPin(buf)) return;
  buf.Unlock();
  storage::ProcArrayShared* pa = storage::ProcArray();
  if (pa != nullptr) pa->startup_waits_for_buffer.store(buf.id());
  const auto start = Clock::now();
  auto last_signal = Clock::time_point{};
  for (int sleep_us = 50; !storage::ConditionalLockBufferForCleanup(buf); sleep_us = std::min(sleep_us * 2, 5000)) {
    const int64_t delay = g_max_delay_ms.load(std::memory_order_relaxed);
    const auto now = Clock::now();
    if (pa != nullptr && delay >= 0 && now - start >= std::chrono::milliseconds(delay) &&
        now - last_signal >= kResignalEvery) {
      // Who holds the pin is known only to its holder: every client backend
      // checks its own pins (BackendRecoveryConflictCheck).
      for (int i = 0; i < pa->nslots; i++) {
        ProcSlot& s = pa->slots[i];
        if (!IsClient(s)) continue;
        s.recovery_conflict.store(static_cast<uint8_t>(RecoveryConflict::kBufferPin));
        kill(s.pid.load(), SIGUSR1);
      }
      last_signal = now;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
  }
  if (pa != nullptr) pa->startup_waits_for_buffer.store(-1);
}

void ResolveDatabaseConflict(uint32_t db) {
  // No grace period: the files go now.
  WaitOrCancel(RecoveryConflict::kDatabase, /*delay_ms=*/0,
               [db](const ProcSlot& s) { return s.database_oid.load() == db; });
}

int BackendRecoveryConflictCheck() {
  ProcSlot* me = storage::MyProc();
  if (me == nullptr) return 0;
  const auto reason = static_cast<RecoveryConflict>(me->recovery_conflict.exchange(0));
  switch (reason) {
    case RecoveryConflict::kSnapshot:
      return TransactionIdIsValid(me->xmin.load()) ? static_cast<int>(reason) : 0;
    case RecoveryConflict::kBufferPin: {
      storage::ProcArrayShared* pa = storage::ProcArray();
      const bool holds = pa != nullptr && storage::HoldsPinOnBuffer(pa->startup_waits_for_buffer.load());
      return holds ? static_cast<int>(reason) : 0;
    }
    case RecoveryConflict::kDatabase:
      return static_cast<int>(reason);
    case RecoveryConflict::kNone:
      break;
  }
  return 0;
}

}  // namespace hearth::access
