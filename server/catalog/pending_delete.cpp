// catalog/pending_delete.cpp
//
// Principal entry points: RegisterPendingDelete, MarkCatalogChanged and the
// transaction callback that runs them (CatalogXactCallback).
#include "catalog/pending_delete.h"

#include <algorithm>

#include "access/heap/heap_toast.h"
#include "access/heap/hio.h"
#include "access/transam/pending_sync.h"
#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_shared.h"
#include "catalog/relcache.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

struct PendingDelete {
  storage::RelFileLocator rel;
  bool at_commit;
  int level;  // savepoint level that registered it (0 = none)
};

// Files of a committed transaction whose commit record was not yet flushed
// (synchronous_commit off): unlinked once it is.
struct DeferredDeletes {
  std::vector<storage::RelFileLocator> rels;
  uint64_t commit_end;
};

struct XactState {
  std::vector<PendingDelete> pending;
  std::vector<DeferredDeletes> deferred;
  bool catalog_changed = false;
  // Bumped by every catalog change of this backend and by the rollback of
  // one: what PlanCacheVersion adds to the shared version.
  uint64_t local_catalog_changes = 0;
  std::vector<Oid> changed_relids;  // deduplicated at pre-commit
  bool callback_registered = false;
  uint64_t generation = 1;  // bumped at every transaction end
};
XactState& State() {
  static XactState s;
  return s;
}

// Drops the buffers of `rels` and unlinks their files, as one batch. Must
// not throw (commit/abort callbacks): failures to unlink leave an orphan
// file, which wastes space but is harmless (the number is never reused).
void UnlinkNow(std::vector<storage::RelFileLocator> rels) noexcept {
  // A table's toast relation and its index go with the table's file
  // (heap_toast.h: their numbers derive from it; missing files are fine).
  const size_t n = rels.size();
  for (size_t i = 0; i < n; ++i) {
    if (rels[i].number.value < kFirstNormalObjectId || heap::IsToastRelation(rels[i])) continue;
    rels.push_back(heap::ToastRelOf(rels[i]));
    rels.push_back(heap::ToastIndexOf(rels[i]));
  }
  try {
    storage::DropRelationsBuffers(rels);
  } catch (...) {
    // Keep going: the files still have to go.
  }
  for (storage::RelFileLocator rel : rels) heap::ForgetTargetBlock(rel);
  (void)storage::SmgrUnlinkRelations(rels);
}

// The files due at this transaction end. At commit they go only once the
// commit record is durable: with synchronous_commit off that is later (the
// walwriter flushes it), so they wait in `deferred` and the commit pays no
// fsync of its own. Until then the files and their buffers stay.
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
  const uint64_t commit_end = committed ? access::LastCommitRecordEnd() : 0;
  if (commit_end != 0 && access::XLogIsStarted() && access::XLogNeedsFlush(commit_end)) {
    s.deferred.push_back(DeferredDeletes{std::move(due), commit_end});
    return;
  }
  UnlinkNow(due);
}

void CatalogXactCallback(access::XactEvent event, void*) {
  XactState& s = State();
  switch (event) {
    case access::XactEvent::kPreCommit:
      // Before the commit becomes visible: a backend that waited for our
      // AccessExclusiveLock wakes after our locks are released, i.e. after
      // these messages, and so re-reads the catalog.
      if (s.catalog_changed) {
        std::sort(s.changed_relids.begin(), s.changed_relids.end());
        s.changed_relids.erase(std::unique(s.changed_relids.begin(), s.changed_relids.end()), s.changed_relids.end());
        SendRelationInvalidations(s.changed_relids);
      }
      return;
    case access::XactEvent::kCommit:
      ++s.generation;
      FinishDeferredDeletes(/*wait=*/false);
      ProcessPendingDeletes(true);
      if (s.catalog_changed) {
        // After the commit is visible: whoever re-read the catalog between the
        // two sends (and may have missed our rows) re-reads it once more.
        SendRelationInvalidations(s.changed_relids);
        InvalidateRelcacheEntries(s.changed_relids);
      }
      s.catalog_changed = false;
      s.changed_relids.clear();
      internal::VacuumNotedCatalogs();
      return;
    case access::XactEvent::kAbort:
      ++s.generation;
      ProcessPendingDeletes(false);
      if (s.catalog_changed) {
        InvalidateRelcacheEntries(s.changed_relids);
        ++s.local_catalog_changes;  // plans made inside the transaction are stale again
      }
      s.catalog_changed = false;
      s.changed_relids.clear();
      internal::VacuumNotedCatalogs();
      return;
  }
}

// The files due at this transaction's end, for the commit/abort WAL record
// (recovery then deletes them as this backend is about to).
void ProvideRelsToDelete(bool at_commit, int min_level, std::vector<storage::RelFileLocator>* out) {
  for (const PendingDelete& p : State().pending) {
    if (p.at_commit == at_commit && p.level >= min_level) out->push_back(p.rel);
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

// A savepoint level ends. Released: its entries belong to the level below.
// Rolled back: the files it created go now (its abort record named them),
// the files it dropped stay, and the relcache forgets what it changed (its
// catalog rows are now dead).
void CatalogSubXactCallback(access::SubXactEvent event, int level, void*) {
  XactState& s = State();
  std::vector<storage::RelFileLocator> due;
  std::erase_if(s.pending, [&](PendingDelete& p) {
    if (p.level < level) return false;
    if (event == access::SubXactEvent::kSubCommit) {
      p.level = level - 1;
      return false;
    }
    if (!p.at_commit) due.push_back(p.rel);
    return true;
  });
  if (event != access::SubXactEvent::kSubAbort) return;
  if (!due.empty()) UnlinkNow(due);
  if (s.catalog_changed) {
    InvalidateRelcacheEntries(s.changed_relids);
    ++s.local_catalog_changes;
  }
}

}  // namespace

void EnsureCatalogXactCallback() {
  XactState& s = State();
  if (s.callback_registered) return;
  access::SetXactRelsProvider(ProvideRelsToDelete);
  access::RegisterXactCallback(CatalogXactCallback, nullptr);
  access::RegisterSubXactCallback(CatalogSubXactCallback, nullptr);
  s.callback_registered = true;
}

void RegisterPendingDelete(storage::RelFileLocator rel, bool at_commit) {
  EnsureCatalogXactCallback();
  State().pending.push_back(PendingDelete{rel, at_commit, access::SubTransactionLevel()});
  // A file made by this transaction: under wal_level = minimal its changes
  // skip WAL and it is synced at commit.
  if (!at_commit) access::NoteRelfileCreated(rel);
}

void MarkCatalogChanged(const std::vector<Oid>& relids) {
  EnsureCatalogXactCallback();
  XactState& s = State();
  s.catalog_changed = true;
  ++s.local_catalog_changes;
  s.changed_relids.insert(s.changed_relids.end(), relids.begin(), relids.end());
  InvalidateRelcacheEntries(relids);
}

void FinishDeferredDeletes(bool wait) noexcept {
  XactState& s = State();
  if (s.deferred.empty()) return;
  std::vector<DeferredDeletes> keep;
  for (DeferredDeletes& d : s.deferred) {
    bool durable = !access::XLogNeedsFlush(d.commit_end);
    if (!durable && wait) {
      try {
        access::XLogFlush(d.commit_end);
        durable = true;
      } catch (...) {
        // The files stay (orphans if the commit is lost; recovery of the
        // commit record unlinks them otherwise).
      }
    }
    if (durable) {
      UnlinkNow(d.rels);
    } else {
      keep.push_back(std::move(d));
    }
  }
  s.deferred = std::move(keep);
}

uint64_t PlanCacheVersion() { return CatalogVersion() + State().local_catalog_changes; }

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
