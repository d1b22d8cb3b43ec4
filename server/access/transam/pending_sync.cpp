// access/transam/pending_sync.cpp
//
// Principal entry points: NoteRelfileCreated, RelfileSkipsWal, and the
// pre-commit callback that makes the skipped files durable.
#include "access/transam/pending_sync.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "access/transam/xact.h"
#include "access/transam/xlog_fpi.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/buffer/bufmgr.h"
#include "storage/file/disk_full.h"
#include "storage/smgr/smgr.h"

namespace hearth::access {

namespace {

using storage::ForkNumber;
using storage::RelFileLocator;

bool g_minimal = false;
int64_t g_skip_threshold_kb = 2048;
// Files created by the current transaction (few: a linear search is fine).
std::vector<RelFileLocator> g_created;
PendingSyncCounts g_counts;

void ThrowIfFailed(const storage::Status& s) {
  if (!s.ok()) storage::ThrowStorageStatus(s);
}

// Logs every initialised page of the main fork as page images, up to
// kMaxFpiPages a record.
void LogMainForkImages(RelFileLocator rel, TransactionId xid) {
  const storage::BlockNumber n = storage::SmgrNblocks(rel, ForkNumber::kMain);
  std::vector<storage::PinnedBuffer> held;
  std::vector<storage::PinnedBuffer*> ptrs;
  auto flush = [&] {
    if (ptrs.empty()) return;
    LogPageImages(ptrs, xid);
    ptrs.clear();
    held.clear();  // unlocks and unpins
  };
  held.reserve(kMaxFpiPages);
  for (storage::BlockNumber b = 0; b < n; ++b) {
    storage::PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, b);
    buf.Lock(storage::LWLockMode::kExclusive);
    if (buf.page().IsNew()) continue;  // redo recreates zero pages as needed
    buf.MarkDirty();
    held.push_back(std::move(buf));
    ptrs.push_back(&held.back());
    if (ptrs.size() == kMaxFpiPages) flush();
  }
  flush();
}

void SyncAllForks(RelFileLocator rel) {
  ThrowIfFailed(storage::FlushRelationBuffers(rel));
  for (int f = 0; f < storage::kNumForks; ++f) {
    const auto fork = static_cast<ForkNumber>(f);
    if (storage::SmgrExists(rel, fork)) ThrowIfFailed(storage::SmgrImmedSync(rel, fork));
  }
}

uint64_t TotalBytes(RelFileLocator rel) {
  uint64_t blocks = 0;
  for (int f = 0; f < storage::kNumForks; ++f) blocks += storage::SmgrNblocks(rel, static_cast<ForkNumber>(f));
  return blocks * storage::kBlockSize;
}

// Pre-commit: make every file created (and so not logged) durable. A file
// the transaction also dropped is deleted at commit: nothing to keep.
void MakeCreatedFilesDurable() {
  std::vector<RelFileLocator> files;
  files.swap(g_created);  // from here on their changes are logged normally
  const TransactionId xid = GetCurrentTransactionIdIfAny();
  for (RelFileLocator rel : files) {
    if (!storage::SmgrExists(rel, ForkNumber::kMain)) continue;
    if (TotalBytes(rel) < static_cast<uint64_t>(g_skip_threshold_kb) * 1024) {
      LogMainForkImages(rel, xid);
      ++g_counts.logged_whole;
    } else {
      SyncAllForks(rel);
      ++g_counts.synced;
    }
  }
}

void OnXactEnd(XactEvent event, void*) {
  if (event == XactEvent::kPreCommit) {
    // Above minimal the files' changes were logged: nothing to make durable.
    if (g_minimal && !g_created.empty()) MakeCreatedFilesDurable();
    return;
  }
  g_created.clear();
}

}  // namespace

void SetWalLevelMinimal(bool minimal) { g_minimal = minimal; }
bool WalLevelMinimal() { return g_minimal; }
void SetWalSkipThresholdKb(int64_t kb) { g_skip_threshold_kb = kb; }

void NoteRelfileCreated(RelFileLocator rel) {
  static bool registered = false;
  if (!registered) {
    RegisterXactCallback(OnXactEnd, nullptr);
    registered = true;
  }
  if (std::find(g_created.begin(), g_created.end(), rel) == g_created.end()) g_created.push_back(rel);
}

bool RelfileCreatedInXact(RelFileLocator rel) {
  return std::find(g_created.begin(), g_created.end(), rel) != g_created.end();
}

bool RelfileSkipsWal(RelFileLocator rel) {
  if (!g_minimal || g_created.empty()) return false;
  return RelfileCreatedInXact(rel);
}

PendingSyncCounts GetPendingSyncCounts() { return g_counts; }

}  // namespace hearth::access
