// access/transam/subxact.cpp
//
// Principal entry points: BeginSubTransaction, ReleaseSubTransaction,
// RollbackSubTransaction (the savepoint levels of the running transaction).
//
// Per level: its own xid (assigned at its first write) and the xids of the
// levels released into it. `g_live` holds every subxid not rolled back, in
// ascending order (xids are handed out increasing and only ever appended):
// TransactionIdIsCurrentTransactionId searches it, and the top-level commit
// or abort record lists it. Without a savepoint none of this is touched:
// `g_subxacts_active` stays false and the hot paths test only that flag.
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "access/transam/clog.h"
#include "access/transam/subtrans.h"
#include "access/transam/varsup.h"
#include "access/transam/xact.h"
#include "access/transam/xact_internal.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_xact_records.h"
#include "storage/lmgr/lock.h"

namespace hearth::access {

namespace xact_internal {
bool g_subxacts_active = false;
}  // namespace xact_internal

namespace {

struct Level {
  TransactionId xid = kInvalidTransactionId;
  // This level's xid and those of the levels released into it.
  std::vector<TransactionId> xids;
};

std::vector<Level> g_levels;
std::vector<TransactionId> g_live;
// This transaction is counted in the shared "tops with subxids" number.
bool g_counted = false;
std::vector<std::pair<SubXactCallback, void*>> g_sub_callbacks;

void CallSubCallbacks(SubXactEvent event, int level) noexcept {
  for (auto& [cb, arg] : g_sub_callbacks) {
    try {
      cb(event, level, arg);
    } catch (...) {
      // Cleanup after the outcome is decided: one failure must not stop the rest.
    }
  }
}

// Abort record (the level's first xid heads it, the rest ride along; files
// created at this level go with it) and the clog, before any lock is
// released so a woken waiter finds the xids ended.
void RecordSubAbort(std::vector<TransactionId> xids, int level) {
  std::sort(xids.begin(), xids.end());
  uint64_t lsn = 0;
  if (XLogIsStarted()) {
    lsn = XLogInsertXactAbort(xids.front(), xact_internal::XactNowUs(), xact_internal::RelsToDelete(false, level),
                              std::span<const TransactionId>(xids).subspan(1));
  }
  for (TransactionId x : xids) TransactionIdSetStatus(x, XidStatus::kAborted, lsn);
}

void ForgetLive(const std::vector<TransactionId>& xids) {
  std::erase_if(g_live, [&](TransactionId x) { return std::find(xids.begin(), xids.end(), x) != xids.end(); });
}

}  // namespace

namespace xact_internal {

bool IsCurrentSubxid(TransactionId xid) { return std::binary_search(g_live.begin(), g_live.end(), xid); }

std::span<const TransactionId> LiveSubxids() { return g_live; }

TransactionId CurrentSubxid(bool assign) {
  Level& lv = g_levels.back();
  if (TransactionIdIsValid(lv.xid) || !assign) return lv.xid;
  // The top-level xid first: it is older than all its subxids, which is
  // what lets snapshots map a subxid to it (subtrans.h).
  const TransactionId top = AssignTopXid();
  if (!g_counted) {
    SubtransTopStarted();
    g_counted = true;
  }
  const TransactionId xid = GetNewTransactionId(nullptr);
  SubtransSetTopmost(xid, top);
  storage::XactLockTableInsert(xid);  // noted at this level: released when it rolls back
  lv.xid = xid;
  lv.xids.push_back(xid);
  g_live.push_back(xid);
  return xid;
}

void AtTopLevelEnd() noexcept {
  if (g_counted) SubtransTopEnded();
  g_counted = false;
  g_levels.clear();
  g_live.clear();
  g_subxacts_active = false;
  storage::LockSetSubxactLevel(0);
}

}  // namespace xact_internal

void BeginSubTransaction() {
  if (!IsTransactionInProgress()) throw std::logic_error("BeginSubTransaction outside a transaction");
  xact_internal::g_subxacts_active = true;
  g_levels.emplace_back();
  storage::LockSetSubxactLevel(static_cast<int>(g_levels.size()));
}

void ReleaseSubTransaction() {
  if (g_levels.empty()) throw std::logic_error("ReleaseSubTransaction without a savepoint");
  const int level = static_cast<int>(g_levels.size());
  Level done = std::move(g_levels.back());
  g_levels.pop_back();
  // Level 1 folds into the top-level transaction: g_live already has them.
  if (!g_levels.empty()) {
    std::vector<TransactionId>& into = g_levels.back().xids;
    into.insert(into.end(), done.xids.begin(), done.xids.end());
  }
  storage::LockReassignSubxact(level);
  storage::LockSetSubxactLevel(level - 1);
  CallSubCallbacks(SubXactEvent::kSubCommit, level);
}

void RollbackSubTransaction() noexcept {
  if (g_levels.empty()) return;
  const int level = static_cast<int>(g_levels.size());
  Level done = std::move(g_levels.back());
  g_levels.pop_back();
  if (!done.xids.empty()) {
    try {
      RecordSubAbort(done.xids, level);
    } catch (...) {
      // The clog keeps "in progress"; the xids end with the top-level one,
      // which then reads as aborted for them anyway (no commit lists them).
    }
    ForgetLive(done.xids);
  }
  storage::LockReleaseSubxact(level);
  storage::LockSetSubxactLevel(level - 1);
  CallSubCallbacks(SubXactEvent::kSubAbort, level);
}

int SubTransactionLevel() { return static_cast<int>(g_levels.size()); }

void RegisterSubXactCallback(SubXactCallback cb, void* arg) { g_sub_callbacks.emplace_back(cb, arg); }

}  // namespace hearth::access
