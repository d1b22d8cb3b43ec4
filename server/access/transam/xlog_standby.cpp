// access/transam/xlog_standby.cpp
//
// Principal entry points: RecoveryInProgress, EnterStandbyMode,
// KnownAssignedXidsAdd/Remove/PruneBelow, GetStandbySnapshot.
#include "access/transam/xlog_standby.h"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "access/transam/clog.h"
#include "access/transam/transam_shared.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_internal.h"

namespace hearth::access {

namespace {

using storage::LWLockGuard;
using storage::LWLockMode;
using transam_internal::StandbyShared;

static_assert(sizeof(StandbyShared::known) / sizeof(TransactionId) == kMaxKnownAssignedXids);

StandbyShared* Sb() { return &transam_internal::Shared()->standby; }

// The startup process's private copy of the known set: the one writer
// checks membership here, without the shared lock, for every record.
std::unordered_set<TransactionId>& LocalKnown() {
  static std::unordered_set<TransactionId> known;
  return known;
}

void AppendLocked(StandbyShared* sb, TransactionId xid) {
  if (sb->nknown >= kMaxKnownAssignedXids) {
    throw std::runtime_error("too many known-assigned transaction ids (more than " +
                             std::to_string(kMaxKnownAssignedXids) + " running on the primary)");
  }
  sb->known[sb->nknown++] = xid;
  LocalKnown().insert(xid);
}

// Removes `xid` if present (swap with the last entry).
void RemoveLocked(StandbyShared* sb, TransactionId xid) {
  if (LocalKnown().erase(xid) == 0) return;
  for (uint32_t i = 0; i < sb->nknown; i++) {
    if (sb->known[i] == xid) {
      sb->known[i] = sb->known[--sb->nknown];
      return;
    }
  }
}

}  // namespace

bool RecoveryInProgress() {
  return XLogIsStarted() && xlog_internal::Shared()->in_recovery.load(std::memory_order_acquire);
}

bool StandbyConsistent() { return Sb()->consistent.load(std::memory_order_acquire); }

void EnterStandbyMode(XLogRecPtr received_upto) {
  StandbyShared* sb = Sb();
  sb->received_upto.store(received_upto, std::memory_order_release);
  xlog_internal::Shared()->in_recovery.store(true, std::memory_order_release);
}

void LeaveRecovery() {
  StandbyShared* sb = Sb();
  xlog_internal::Shared()->in_recovery.store(false, std::memory_order_release);
  sb->promote_requested.store(false, std::memory_order_release);
  sb->replayed.NotifyAll();
}

void SetStandbyConsistent() { Sb()->consistent.store(true, std::memory_order_release); }

XLogRecPtr StandbyReceivedUpTo() { return Sb()->received_upto.load(std::memory_order_acquire); }

void SetStandbyReceivedUpTo(XLogRecPtr lsn) {
  StandbyShared* sb = Sb();
  if (lsn <= sb->received_upto.load(std::memory_order_relaxed)) return;
  sb->received_upto.store(lsn, std::memory_order_release);
  sb->wal_arrived.NotifyAll();
}

XLogRecPtr StandbyReplayedUpTo() { return Sb()->replayed_upto.load(std::memory_order_acquire); }

void SetStandbyReplayedUpTo(XLogRecPtr end) {
  Sb()->replayed_upto.store(end, std::memory_order_release);
  Sb()->replayed.NotifyAll();
}

int64_t StandbyLastXactReplayTimeUs() { return Sb()->last_xact_time_us.load(std::memory_order_acquire); }
void SetStandbyLastXactReplayTimeUs(int64_t us) { Sb()->last_xact_time_us.store(us, std::memory_order_release); }

XLogRecPtr WaitForWalBeyond(XLogRecPtr lsn, int timeout_ms) {
  StandbyShared* sb = Sb();
  const uint32_t seen = sb->wal_arrived.Prepare();
  const XLogRecPtr now = sb->received_upto.load(std::memory_order_acquire);
  if (now > lsn) return now;
  sb->wal_arrived.WaitFor(seen, timeout_ms);
  return sb->received_upto.load(std::memory_order_acquire);
}

void SetRestartPointCandidate(const RestartPointCandidate& c) {
  StandbyShared* sb = Sb();
  storage::SpinLockGuard g(sb->candidate_lck);
  sb->candidate_checkpoint_lsn = c.checkpoint_lsn;
  sb->candidate_redo_lsn = c.redo_lsn;
  sb->candidate_next_xid = c.next_xid;
}

RestartPointCandidate GetRestartPointCandidate() {
  StandbyShared* sb = Sb();
  storage::SpinLockGuard g(sb->candidate_lck);
  return RestartPointCandidate{sb->candidate_checkpoint_lsn, sb->candidate_redo_lsn, sb->candidate_next_xid};
}

void SetWalReceiverStreaming(bool streaming) {
  Sb()->receiver_pid.store(streaming ? static_cast<int32_t>(::getpid()) : 0, std::memory_order_relaxed);
  Sb()->receiver_streaming.store(streaming, std::memory_order_release);
}
int32_t WalReceiverPid() { return Sb()->receiver_pid.load(std::memory_order_relaxed); }
bool WalReceiverStreaming() { return Sb()->receiver_streaming.load(std::memory_order_acquire); }

void RequestPromotion() { Sb()->promote_requested.store(true, std::memory_order_release); }
bool PromotionRequested() { return Sb()->promote_requested.load(std::memory_order_acquire); }

void KnownAssignedXidsAdd(TransactionId xid) {
  if (!TransactionIdIsNormal(xid) || LocalKnown().count(xid) != 0) return;
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kExclusive);
  if (xid <= sb->known_max) {
    // Seen before the highest: it was added with the gap, unless it already
    // ended (then this record is a replay of something before its end, e.g.
    // after a restart from an older restartpoint).
    if (TransactionIdGetStatus(xid) == XidStatus::kInProgress && sb->known_max - xid < kMaxKnownAssignedXids) {
      AppendLocked(sb, xid);
    }
    return;
  }
  // Every xid handed out on the primary since the highest seen may still
  // write: count them running until their end (or a checkpoint) says not.
  const TransactionId from = sb->known_max == 0 ? xid : sb->known_max + 1;
  for (TransactionId x = std::max(from, kFirstNormalTransactionId); x <= xid; x++) {
    if (TransactionIdGetStatus(x) == XidStatus::kInProgress) AppendLocked(sb, x);
  }
  sb->known_max = xid;
}

void KnownAssignedXidsRemove(TransactionId xid, const TransactionId* subxids, size_t nsubxids) {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kExclusive);
  RemoveLocked(sb, xid);
  for (size_t i = 0; i < nsubxids; i++) RemoveLocked(sb, subxids[i]);
  // An end record of an xid never seen before still moves the horizon.
  TransactionId top = xid;
  for (size_t i = 0; i < nsubxids; i++) top = std::max(top, subxids[i]);
  if (top > sb->known_max && TransactionIdIsNormal(top)) {
    for (TransactionId x = sb->known_max == 0 ? top + 1 : sb->known_max + 1; x < top; x++) {
      if (TransactionIdGetStatus(x) == XidStatus::kInProgress) AppendLocked(sb, x);
    }
    sb->known_max = top;
  }
}

void KnownAssignedXidsStart(TransactionId oldest_running, TransactionId next_xid) {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kExclusive);
  if (sb->known_started) return;
  sb->known_started = true;
  if (oldest_running == 0) oldest_running = next_xid;  // not recorded: none
  for (TransactionId x = std::max(oldest_running, kFirstNormalTransactionId); x < next_xid; x++) {
    if (LocalKnown().count(x) == 0 && TransactionIdGetStatus(x) == XidStatus::kInProgress) AppendLocked(sb, x);
  }
  if (next_xid > 0) sb->known_max = std::max(sb->known_max, next_xid - 1);
}

bool KnownAssignedXidsStarted() {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kShared);
  return sb->known_started;
}

void KnownAssignedXidsPruneBelow(TransactionId oldest_running) {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kExclusive);
  for (uint32_t i = 0; i < sb->nknown;) {
    if (sb->known[i] < oldest_running) {
      LocalKnown().erase(sb->known[i]);
      sb->known[i] = sb->known[--sb->nknown];
    } else {
      i++;
    }
  }
  if (oldest_running > 0 && oldest_running - 1 > sb->known_max) sb->known_max = oldest_running - 1;
}

TransactionId KnownAssignedXidsMax() {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kShared);
  return sb->known_max;
}

int64_t KnownAssignedXidsAbortAll() {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kExclusive);
  int64_t n = 0;
  for (uint32_t i = 0; i < sb->nknown; i++) {
    if (TransactionIdGetStatus(sb->known[i]) == XidStatus::kInProgress) {
      TransactionIdSetStatus(sb->known[i], XidStatus::kAborted);
      n++;
    }
  }
  sb->nknown = 0;
  LocalKnown().clear();
  return n;
}

bool KnownAssignedXidIsRunning(TransactionId xid) {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kShared);
  if (xid > sb->known_max) return true;
  for (uint32_t i = 0; i < sb->nknown; i++) {
    if (sb->known[i] == xid) return true;
  }
  return false;
}

TransactionId StandbyOldestRunningXid() {
  StandbyShared* sb = Sb();
  LWLockGuard g(sb->known_lock, LWLockMode::kShared);
  TransactionId oldest = sb->known_max + 1;
  for (uint32_t i = 0; i < sb->nknown; i++) oldest = std::min(oldest, sb->known[i]);
  return oldest;
}

void GetStandbySnapshot(Snapshot* out) {
  StandbyShared* sb = Sb();
  out->xip.clear();
  out->subxids_possible = false;  // subxids are known-assigned themselves
  out->xip.reserve(kMaxKnownAssignedXids);  // once per backend: no allocation under the lock
  {
    LWLockGuard g(sb->known_lock, LWLockMode::kShared);
    out->xmax = sb->known_max + 1;
    TransactionId xmin = out->xmax;
    for (uint32_t i = 0; i < sb->nknown; i++) {
      out->xip.push_back(sb->known[i]);
      xmin = std::min(xmin, sb->known[i]);
    }
    out->xmin = xmin;
  }
  if (out->xmax < kFirstNormalTransactionId) out->xmax = kFirstNormalTransactionId;
  if (out->xmin > out->xmax) out->xmin = out->xmax;
  std::sort(out->xip.begin(), out->xip.end());
}

}  // namespace hearth::access
