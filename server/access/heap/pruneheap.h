// access/heap/pruneheap.h
//
// Pruning a heap page: removing versions no snapshot can see any more
// (TupleSatisfiesVacuum == kDead for a horizon from GetOldestXmin()), HOT
// chains included:
//   - a plain dead tuple (no heap-only successor) becomes a DEAD line
//     pointer: index entries may still point at it (fetches and unique
//     checks see "no tuple"); VACUUM removes them, then makes it reusable;
//   - the dead prefix of a HOT chain goes: its heap-only versions become
//     UNUSED at once (no index entry points at them), and the root line
//     pointer becomes a REDIRECT to the first surviving version, or DEAD
//     when the whole chain is dead;
//   - dead heap-only versions no chain reaches (an aborted HOT update)
//     become UNUSED.
// Data move only when the page is defragmented, and only under the cleanup
// lock (exclusive content lock + the caller's own pin the only one), so no
// other process is reading tuples on the page while they move.
//
// Opportunistic pruning: an updater that finds the old version's page too
// full for the new one, and a scan or fetch that finds a page nearly full,
// prune it first (HeapPagePruneOpt / HeapPagePruneOnRead), so repeatedly
// updated rows stay on their page instead of growing the table until
// someone runs VACUUM. WAL: a prune record naming the changed line pointers
// (redo applies them and defragments the same way). VACUUM uses the same
// plan (PlanPrune / ApplyPrune).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "access/heap/hio.h"
#include "access/transam/transam.h"

namespace hearth::heap {

// The line-pointer changes one pruning makes on one page.
struct PrunePlan {
  std::vector<std::pair<storage::OffsetNumber, storage::OffsetNumber>> redirects;  // root → first survivor
  std::vector<storage::OffsetNumber> dead;    // become DEAD (roots, plain tuples)
  std::vector<storage::OffsetNumber> unused;  // become UNUSED (heap-only versions)
  bool empty() const { return redirects.empty() && dead.empty() && unused.empty(); }
  size_t removed() const { return dead.size() + unused.size() + redirects.size(); }
  void clear() {
    redirects.clear();
    dead.clear();
    unused.clear();
  }
};

// Plans the pruning of page `pg` (block `block`, exclusively locked) for
// `oldest_xmin`. Sets hint bits on the way (*hints).
void PlanPrune(storage::Page pg, storage::BlockNumber block, access::TransactionId oldest_xmin, PrunePlan* plan,
               bool* hints);
// The newest deleter among the versions the plan removes (0: none): on a hot
// standby, snapshots with an xmin at or before it may still need them
// (standby_conflicts.h). REQUIRES: before ApplyPrune.
access::TransactionId PruneConflictHorizon(storage::Page pg, const PrunePlan& plan);
// Applies the plan's line-pointer changes; defragments the page when
// `compact` (REQUIRES the cleanup lock then). Used by redo too.
void ApplyPrune(storage::Page pg, const PrunePlan& plan, bool compact);

// `buf` is pinned once and exclusively locked by the caller, and stays so.
// Prunes when the page's prune_xid says a version may have become dead and
// nobody else pins the page. Returns true when it freed space; tuple
// pointers into the page taken before the call are then stale.
bool HeapPagePruneOpt(PinnedBuffer& buf);

// Before a scan or fetch reads `buf` (pinned, not locked): prunes the page
// when it looks nearly full (the page-full hint, or under a tenth free) and
// may hold versions nobody can see, if the cleanup lock is free right now
// (PostgreSQL's heap_page_prune_opt). Never waits. Leaves `buf` unlocked.
// `snapshot_xmin` (the reader's snapshot's xmin) is a cheap first test: a
// version whose deleter is not older than it cannot be dead to everyone,
// so hot pages just updated cost no lock attempt and no horizon scan.
void HeapPagePruneOnRead(PinnedBuffer& buf, access::TransactionId snapshot_xmin);

// For every version on page `pg` (block `block`, locked) the offset of its
// HOT chain's root in (*roots)[off] (0 for a version that is a root itself
// or is on no chain). Sized MaxOffset() + 1.
void HeapGetRootOffsets(storage::Page pg, storage::BlockNumber block, std::vector<storage::OffsetNumber>* roots);

// The oldest deleting/updating xid among the versions on the page (its next
// prune hint), 0 when none.
access::TransactionId OldestRemainingXmax(storage::Page pg);

// Pages pruned by this process (tests).
uint64_t HeapPagesPruned();

// Versions opportunistic pruning freed outright (heap-only versions and
// redirected roots; not those left as DEAD line pointers, which VACUUM still
// has to reclaim), per relation, since the last call: PostgreSQL lowers
// n_dead_tup by them. Moves them to *out. Kept in a fixed array of a few
// relations (no allocation while the page is locked); beyond it they are
// not reported.
void TakePrunedTupleCounts(std::vector<std::pair<storage::RelFileLocator, int64_t>>* out);

}  // namespace hearth::heap
