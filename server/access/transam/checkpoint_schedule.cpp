// access/transam/checkpoint_schedule.cpp
//
// Principal entry points: CheckpointSchedule::AfterWrite, OnSchedule,
// CheckpointWaiterGuard, CheckpointWalDistance.
#include "access/transam/checkpoint_schedule.h"

#include <chrono>
#include <thread>

#include "access/transam/xlog.h"
#include "access/transam/xlog_internal.h"

namespace hearth::access {

namespace {

namespace xi = xlog_internal;

constexpr auto kPaceNap = std::chrono::milliseconds(100);

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool SomeoneWaits() {
  return XLogIsStarted() && xi::Shared()->checkpoint_waiters.load(std::memory_order_acquire) > 0;
}

}  // namespace

uint64_t CheckpointWalDistance(int64_t max_wal_size_mb, double completion_target) {
  const double bytes = static_cast<double>(max_wal_size_mb) * 1024.0 * 1024.0;
  return static_cast<uint64_t>(bytes / (1.0 + completion_target));
}

bool CheckpointSchedule::OnSchedule(double progress) const {
  const double target = progress * pacing_.completion_target;
  if (XLogIsStarted()) {
    const XLogRecPtr end = XLogInsertEndPosition();
    const double budget = static_cast<double>(CheckpointWalDistance(pacing_.max_wal_size_mb, pacing_.completion_target));
    const double used = end > redo_ ? static_cast<double>(end - redo_) : 0.0;
    if (budget > 0 && target < used / budget) return false;
  }
  const double elapsed = static_cast<double>(SteadyNowNs() - start_ns_) / 1e9;
  return target >= elapsed / static_cast<double>(pacing_.timeout_s);
}

void CheckpointSchedule::AfterWrite(double progress) const {
  if (pacing_.hurry != nullptr && pacing_.hurry()) return;
  if (SomeoneWaits()) return;
  if (OnSchedule(progress)) std::this_thread::sleep_for(kPaceNap);
}

CheckpointWaiterGuard::CheckpointWaiterGuard() {
  if (XLogIsStarted()) xi::Shared()->checkpoint_waiters.fetch_add(1, std::memory_order_acq_rel);
}

CheckpointWaiterGuard::~CheckpointWaiterGuard() {
  if (XLogIsStarted()) xi::Shared()->checkpoint_waiters.fetch_sub(1, std::memory_order_acq_rel);
}

}  // namespace hearth::access
