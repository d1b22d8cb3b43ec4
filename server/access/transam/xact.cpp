// access/transam/xact.cpp
//
// Principal entry points: StartTransaction, CommitTransaction,
// AbortTransaction, GetCurrentTransactionId, GetTransactionSnapshot.
//
// RecordTransactionCommit/Abort are the single places where a transaction's
// outcome becomes durable: the WAL issue adds the commit/abort record (and,
// for commits, XLogFlush honouring synchronous_commit) there and passes the
// record's LSN to TransactionIdSetStatus.
#include "access/transam/xact.h"

#include <time.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "access/transam/clog.h"
#include "access/transam/syncrep.h"
#include "access/transam/combocid.h"
#include "access/transam/varsup.h"
#include "access/transam/xact_internal.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_xact_records.h"
#include "common/error/panic.h"
#include "common/error/db_error.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::access {

namespace {

struct XactState {
  bool in_progress = false;
  TransactionId xid = kInvalidTransactionId;
  CommandId cid = kFirstCommandId;
  bool cid_used = false;
  IsolationLevel isolation = IsolationLevel::kReadCommitted;
  bool snapshot_taken = false;  // a snapshot exists in this transaction
  bool keep_xmin = false;       // KeepSnapshotXminUntilTransactionEnd was called
  int64_t start_timestamp_us = 0;
  Snapshot snapshot;         // transaction (RR) or statement (RC) snapshot
  Snapshot latest_snapshot;  // GetLatestSnapshot's
};

XactState g_xact;
IsolationLevel g_default_isolation = IsolationLevel::kReadCommitted;
std::vector<std::pair<XactCallback, void*>> g_callbacks;

// Durability knobs for the next commits (tcop sets them per statement).
struct CommitSettings {
  int commit_delay_us = 0;
  int commit_siblings = 5;
  bool synchronous_commit = true;
  // synchronous_commit remote_write/on/remote_apply: after the local flush,
  // wait for the synchronous standbys (when any are configured).
  bool wait_for_standbys = false;
  SyncWaitMode standby_wait = SyncWaitMode::kFlush;
};
CommitSettings g_commit_settings;
XactRelsProvider g_rels_provider = nullptr;
XLogRecPtr g_last_commit_end = 0;
std::vector<storage::RelFileLocator> g_rels_scratch;

using xact_internal::RelsToDelete;

int64_t NowUs() { return xact_internal::XactNowUs(); }

void CallCallbacks(XactEvent event) {
  // Copy: a callback may (un)register callbacks.
  auto callbacks = g_callbacks;
  for (auto& [cb, arg] : callbacks) {
    if (event == XactEvent::kPreCommit) {
      cb(event, arg);
    } else {
      try {
        cb(event, arg);
      } catch (...) {
        // After the outcome is decided there is nothing to undo; a failing
        // cleanup must not stop the others.
      }
    }
  }
}

// The commit is durable once XLogFlushCommit returns (synchronous_commit),
// or within wal_writer_delay (off: the walwriter flushes). The clog page
// remembers the record's LSN, so it is never written before the record.
// A failed WAL write or fsync throws: the caller (tcop) must treat it as a
// PANIC, since what reached the disk is unknown.
// Subxids first, then the top-level xid: nobody reads them yet (the top xid
// is still in the proc array, which makes them all "running").
void SetStatusWithSubxids(TransactionId xid, std::span<const TransactionId> subxids, XidStatus status, uint64_t lsn) {
  for (TransactionId sub : subxids) TransactionIdSetStatus(sub, status, lsn);
  TransactionIdSetStatus(xid, status, lsn);
}

void RecordTransactionCommit(TransactionId xid, std::span<const TransactionId> subxids) {
  if (!XLogIsStarted()) {
    SetStatusWithSubxids(xid, subxids, XidStatus::kCommitted, 0);
    return;
  }
  // An orphaned backend commits nothing: without a postmaster no crash
  // reset guards shared memory (and the interlock keeps a new server out
  // only while we live, so we must not go on).
  storage::CheckPostmasterAlive();
  const XLogRecPtr lsn = XLogInsertXactCommit(xid, NowUs(), RelsToDelete(/*at_commit=*/true, 0), subxids);
  g_last_commit_end = lsn;
  {
    // The commit record is in WAL: from here the transaction cannot abort.
    CriticalSection crit("commit");
    if (g_commit_settings.synchronous_commit) {
      XLogFlushCommit(lsn, g_commit_settings.commit_delay_us, g_commit_settings.commit_siblings);
    }
    SetStatusWithSubxids(xid, subxids, XidStatus::kCommitted, lsn);
  }
  // Still in the proc array, so other sessions see it running until the
  // synchronous standbys have it (PostgreSQL's order).
  if (g_commit_settings.wait_for_standbys) SyncRepWaitForLsn(lsn, g_commit_settings.standby_wait);
}

// No flush: a lost abort record reads as "in progress at the crash", which
// recovery turns into aborted anyway.
void RecordTransactionAbort(TransactionId xid, std::span<const TransactionId> subxids) {
  XLogRecPtr lsn = 0;
  if (XLogIsStarted()) lsn = XLogInsertXactAbort(xid, NowUs(), RelsToDelete(/*at_commit=*/false, 0), subxids);
  SetStatusWithSubxids(xid, subxids, XidStatus::kAborted, lsn);
}

// The highest of xid and its subxids (snapshots' xmax must pass them all).
TransactionId LatestXid(TransactionId xid, std::span<const TransactionId> subxids) {
  return subxids.empty() ? xid : std::max(xid, subxids.back());
}

void ResetState() {
  g_xact.in_progress = false;
  g_xact.xid = kInvalidTransactionId;
  g_xact.cid = kFirstCommandId;
  g_xact.cid_used = false;
  g_xact.snapshot_taken = false;
  g_xact.keep_xmin = false;
  g_xact.start_timestamp_us = 0;
  g_xact.snapshot.xip.clear();
  g_xact.snapshot.xmin = g_xact.snapshot.xmax = kInvalidTransactionId;
  AtEOXactComboCid();
  if (storage::ProcSlot* me = storage::MyProc()) me->wrote_wal.store(false, std::memory_order_relaxed);
}

void RequireInProgress(const char* what) {
  if (!g_xact.in_progress) throw std::logic_error(std::string(what) + " outside a transaction");
}

void CheckSerializable(IsolationLevel level) {
  if (level == IsolationLevel::kSerializable) {
    throw DbError(sqlstate::kFeatureNotSupported, "SERIALIZABLE isolation level is not supported")
        .WithHint("Use REPEATABLE READ or READ COMMITTED.");
  }
}

}  // namespace

const char* IsolationLevelName(IsolationLevel level) {
  switch (level) {
    case IsolationLevel::kReadCommitted: return "read committed";
    case IsolationLevel::kRepeatableRead: return "repeatable read";
    case IsolationLevel::kSerializable: return "serializable";
  }
  return "read committed";
}

void SetDefaultTransactionIsolation(IsolationLevel level) {
  CheckSerializable(level);
  g_default_isolation = level;
}

void StartTransaction() {
  if (g_xact.in_progress) throw std::logic_error("StartTransaction: a transaction is already in progress");
  ResetState();
  g_xact.in_progress = true;
  g_xact.isolation = g_default_isolation;
  g_xact.start_timestamp_us = NowUs();
}

void CommitTransaction() {
  RequireInProgress("CommitTransaction");
  CallCallbacks(XactEvent::kPreCommit);
  const TransactionId xid = g_xact.xid;
  // Open savepoint levels commit with the transaction.
  const std::span<const TransactionId> subxids =
      xact_internal::g_subxacts_active ? xact_internal::LiveSubxids() : std::span<const TransactionId>();
  // Clog first, then the proc array: a snapshot that no longer sees the xid
  // running must find its final status in the clog. The other order would
  // let a reader take the xid for crashed (aborted) and hint its rows dead.
  if (TransactionIdIsValid(xid)) RecordTransactionCommit(xid, subxids);
  ProcArrayEndTransaction(xid, LatestXid(xid, subxids));
  if (xact_internal::g_subxacts_active) xact_internal::AtTopLevelEnd();
  // Locks last: whoever waited for us (XactLockTableWait) wakes to find the
  // transaction ended in both the proc array and the clog.
  storage::LockReleaseAll();
  ResetState();
  CallCallbacks(XactEvent::kCommit);
}

void AbortTransaction() noexcept {
  if (!g_xact.in_progress) return;
  const TransactionId xid = g_xact.xid;
  const std::span<const TransactionId> subxids =
      xact_internal::g_subxacts_active ? xact_internal::LiveSubxids() : std::span<const TransactionId>();
  if (TransactionIdIsValid(xid)) {
    try {
      RecordTransactionAbort(xid, subxids);
    } catch (...) {
      // The clog keeps "in progress"; once the xid leaves the proc array that
      // reads as aborted anyway (same as after a crash).
    }
  }
  ProcArrayEndTransaction(xid, LatestXid(xid, subxids));
  if (xact_internal::g_subxacts_active) xact_internal::AtTopLevelEnd();
  try {
    storage::LockReleaseAll();
  } catch (...) {
  }
  ResetState();
  CallCallbacks(XactEvent::kAbort);
}

bool IsTransactionInProgress() { return g_xact.in_progress; }

namespace xact_internal {

TransactionId AssignTopXid() {
  RequireInProgress("GetCurrentTransactionId");
  if (!TransactionIdIsValid(g_xact.xid)) {
    storage::ProcSlot* slot = storage::MyProc();
    if (slot == nullptr) throw std::logic_error("GetCurrentTransactionId without a proc slot");
    g_xact.xid = GetNewTransactionId(slot);
    storage::XactLockTableInsert(g_xact.xid);
  }
  return g_xact.xid;
}

std::span<const storage::RelFileLocator> RelsToDelete(bool at_commit, int min_level) {
  g_rels_scratch.clear();
  if (g_rels_provider != nullptr) g_rels_provider(at_commit, min_level, &g_rels_scratch);
  return g_rels_scratch;
}

int64_t XactNowUs() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

}  // namespace xact_internal

TransactionId GetCurrentTransactionId() {
  if (xact_internal::g_subxacts_active && SubTransactionLevel() > 0) return xact_internal::CurrentSubxid(true);
  return xact_internal::AssignTopXid();
}

TransactionId GetCurrentTransactionIdIfAny() {
  if (xact_internal::g_subxacts_active && SubTransactionLevel() > 0) return xact_internal::CurrentSubxid(false);
  return g_xact.xid;
}

bool TransactionIdIsCurrentTransactionId(TransactionId xid) {
  if (!TransactionIdIsValid(xid)) return false;
  return xid == g_xact.xid || (xact_internal::g_subxacts_active && xact_internal::IsCurrentSubxid(xid));
}

CommandId GetCurrentCommandId(bool used) {
  if (used) g_xact.cid_used = true;
  return g_xact.cid;
}

void CommandCounterIncrement() {
  if (!g_xact.cid_used) return;  // nothing was written with this cid: reuse it
  if (g_xact.cid >= kInvalidCommandId - 1) {
    throw DbError(sqlstate::kProgramLimitExceeded, "cannot have more than 2^32-2 commands in a transaction");
  }
  g_xact.cid++;
  g_xact.cid_used = false;
  g_xact.snapshot.curcid = g_xact.cid;
}

IsolationLevel CurrentIsolationLevel() { return g_xact.in_progress ? g_xact.isolation : g_default_isolation; }

void SetTransactionIsolation(IsolationLevel level) {
  RequireInProgress("SetTransactionIsolation");
  if (g_xact.snapshot_taken) {
    throw DbError(sqlstate::kActiveSqlTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query");
  }
  CheckSerializable(level);
  g_xact.isolation = level;
}

const Snapshot& GetTransactionSnapshot() {
  RequireInProgress("GetTransactionSnapshot");
  if (!g_xact.snapshot_taken || g_xact.isolation == IsolationLevel::kReadCommitted) {
    GetSnapshotData(&g_xact.snapshot, /*replace_xmin=*/!g_xact.keep_xmin);
    g_xact.snapshot_taken = true;
  }
  g_xact.snapshot.curcid = g_xact.cid;
  return g_xact.snapshot;
}

void KeepSnapshotXminUntilTransactionEnd() { g_xact.keep_xmin = true; }

const Snapshot& GetLatestSnapshot() {
  RequireInProgress("GetLatestSnapshot");
  // The statement/transaction snapshot stays in use: keep advertising its
  // (older) xmin rather than the new one.
  GetSnapshotData(&g_xact.latest_snapshot, /*replace_xmin=*/!g_xact.snapshot_taken);
  g_xact.latest_snapshot.curcid = g_xact.cid;
  return g_xact.latest_snapshot;
}

int64_t GetCurrentTransactionStartTimestamp() { return g_xact.start_timestamp_us; }

void SetCommitDelaySettings(int commit_delay_us, int commit_siblings, bool synchronous_commit) {
  g_commit_settings.commit_delay_us = commit_delay_us;
  g_commit_settings.commit_siblings = commit_siblings;
  g_commit_settings.synchronous_commit = synchronous_commit;
}

void SetCommitStandbyWait(bool wait, SyncWaitMode mode) {
  g_commit_settings.wait_for_standbys = wait;
  g_commit_settings.standby_wait = mode;
}

void SetXactRelsProvider(XactRelsProvider provider) { g_rels_provider = provider; }

uint64_t LastCommitRecordEnd() { return g_last_commit_end; }

void RegisterXactCallback(XactCallback cb, void* arg) { g_callbacks.emplace_back(cb, arg); }

void UnregisterXactCallback(XactCallback cb, void* arg) {
  auto it = std::find(g_callbacks.begin(), g_callbacks.end(), std::make_pair(cb, arg));
  if (it != g_callbacks.end()) g_callbacks.erase(it);
}

}  // namespace hearth::access
