// catalog/pending_delete.cpp
//
// Principal entry points: RegisterPendingDelete, MarkCatalogChanged and the
// transaction callback that runs them (CatalogXactCallback).
#include "catalog/pending_delete.h"

#include <algorithm>

#include "access/heap/hio.h"
#include "access/transam/pending_sync.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/relcache.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

struct PendingDelete {
  storage::RelFileLocator rel;
  bool at_commit;
};

struct XactState {
  std::vector<PendingDelete> pending;
  bool catalog_changed = false;
  bool callback_registered = false;
  uint64_t generation = 1;  // bumped at every transaction end
};
XactState& State() {
  static XactState s;
  return s;
}

// Unlinks the files due at this transaction end as one batch. Must not
// throw (commit/abort callbacks): failures to unlink leave an orphan file,
// which wastes space but is harmless (the number is never reused).
void ProcessPendingDeletes(bool committed) noexcept {
  XactState& s = State();
  std::vector<storage::RelFileLocator> due;
  for (const PendingDelete& p : s.pending) {
    if (p.at_commit == committed) due.push_back(p.rel);
  }
  s.pending.clear();
  if (due.empty()) return;
  std::sort(due.begin(), due.end());
  due.erase(std::unique(due.begin(), due.end()), due.end());
  try {
    storage::DropRelationsBuffers(due);
  } catch (...) {
    // Keep going: the files still have to go.
  }
  for (storage::RelFileLocator rel : due) {
    heap::ForgetTargetBlock(rel);
    (void)storage::SmgrUnlinkAllForks(rel);
  }
}

void CatalogXactCallback(access::XactEvent event, void*) {
  XactState& s = State();
  switch (event) {
    case access::XactEvent::kPreCommit:
      // Before the commit becomes visible: a backend that waited for our
      // AccessExclusiveLock wakes after our locks are released, i.e. after
      // this bump, and so re-reads the catalog.
      if (s.catalog_changed) BumpCatalogVersion();
      return;
    case access::XactEvent::kCommit:
      ++s.generation;
      ProcessPendingDeletes(true);
      if (s.catalog_changed) {
        // After the commit is visible: whoever re-read the catalog between the
        // two bumps (and may have missed our rows) re-reads it once more.
        BumpCatalogVersion();
        InvalidateLocalRelcache();
      }
      s.catalog_changed = false;
      return;
    case access::XactEvent::kAbort:
      ++s.generation;
      ProcessPendingDeletes(false);
      if (s.catalog_changed) InvalidateLocalRelcache();
      s.catalog_changed = false;
      return;
  }
}

// The files due at this transaction's end, for the commit/abort WAL record
// (recovery then deletes them as this backend is about to).
void ProvideRelsToDelete(bool at_commit, std::vector<storage::RelFileLocator>* out) {
  for (const PendingDelete& p : State().pending) {
    if (p.at_commit == at_commit) out->push_back(p.rel);
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

}  // namespace

void EnsureCatalogXactCallback() {
  XactState& s = State();
  if (s.callback_registered) return;
  access::SetXactRelsProvider(ProvideRelsToDelete);
  access::RegisterXactCallback(CatalogXactCallback, nullptr);
  s.callback_registered = true;
}

void RegisterPendingDelete(storage::RelFileLocator rel, bool at_commit) {
  EnsureCatalogXactCallback();
  State().pending.push_back(PendingDelete{rel, at_commit});
  // A file made by this transaction: under wal_level = minimal its changes
  // skip WAL and it is synced at commit.
  if (!at_commit) access::NoteRelfileCreated(rel);
}

void MarkCatalogChanged() {
  EnsureCatalogXactCallback();
  State().catalog_changed = true;
  InvalidateLocalRelcache();
}

uint64_t XactGeneration() {
  EnsureCatalogXactCallback();
  return State().generation;
}

std::vector<storage::RelFileLocator> PendingDeletes(bool at_commit) {
  std::vector<storage::RelFileLocator> out;
  for (const PendingDelete& p : State().pending) {
    if (p.at_commit == at_commit) out.push_back(p.rel);
  }
  return out;
}

}  // namespace hearth::catalog
