// access/heap/pruneheap.h
//
// Opportunistic page pruning: an updater that finds the old version's page
// too full for the new one first removes the storage of versions no
// snapshot can see any more (TupleSatisfiesVacuum == kDead for
// GetOldestXmin()) and defragments the page, so the new version can stay on
// the same page instead of growing the table until someone runs VACUUM.
// Pruned line pointers become DEAD, not UNUSED: index entries may still
// point at them (scans and unique checks treat them as "no tuple"); VACUUM
// removes those entries and then makes the slots reusable.
//
// Only under the cleanup lock (exclusive content lock + the caller's own
// pin the only one), so no other process is reading tuples on the page
// while their data move. WAL-logged as a prune record (the compacted page).
#pragma once

#include "access/heap/hio.h"

namespace hearth::heap {

// `buf` is pinned once and exclusively locked by the caller, and stays so.
// Prunes when the page's prune_xid says a version may have become dead and
// nobody else pins the page. Returns true when it freed space; tuple
// pointers into the page taken before the call are then stale.
bool HeapPagePruneOpt(PinnedBuffer& buf);

// Before a scan or fetch reads `buf` (pinned, not locked): prunes the page
// when it looks nearly full (the page-full hint, or under a tenth free) and
// may hold versions nobody can see, if the cleanup lock is free right now
// (PostgreSQL's heap_page_prune_opt). Never waits. Leaves `buf` unlocked.
void HeapPagePruneOnRead(PinnedBuffer& buf);

// Pages pruned by this process (tests).
uint64_t HeapPagesPruned();

}  // namespace hearth::heap
