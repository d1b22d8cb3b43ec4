// access/heap/vacuumlazy.h
//
// VACUUM for a heap relation: removes tuple versions no snapshot can see any
// more (TupleSatisfiesVacuum == kDead against `oldest_xmin`), reclaims their
// space (RepairFragmentation under the cleanup lock), records every page's
// free space in the FSM so inserts reuse it, and counts what it saw for
// pg_class.reltuples / relpages and the VACUUM/ANALYZE report.
//
// Two phases, as PostgreSQL: phase 1 marks removable line pointers DEAD
// (their storage is reclaimed at once) and collects their TIDs; then the
// index-cleanup callback (if any) receives the TIDs, and phase 2 marks those
// line pointers UNUSED so new tuples may take the slots. Without a callback
// the slots become UNUSED in phase 1 directly. A page whose cleanup lock
// cannot be had soon (another process pins it) is still cleaned of its dead
// line pointers under the exclusive lock, but not compacted.
//
// Process safety: any process, concurrently with readers and writers of the
// relation (the caller holds a lock that excludes another VACUUM and DDL on
// it: ShareUpdateExclusive in PostgreSQL). Uses a VACUUM ring strategy.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "access/heap/heap_tuple.h"
#include "access/transam/transam.h"
#include "storage/smgr/relfile.h"

namespace hearth::heap {

struct VacuumStats {
  uint32_t pages = 0;                 // relation size in blocks (relpages)
  uint32_t pages_compacted = 0;       // pages whose space was defragmented
  uint32_t pages_without_cleanup = 0; // pages cleaned without the cleanup lock (not compacted)
  uint64_t tuples_live = 0;           // live versions (reltuples), incl. insert/delete in progress
  uint64_t tuples_removed = 0;        // versions removed (incl. those pruned on access since)
  uint64_t tuples_recently_dead = 0;  // dead but still visible to some snapshot: kept
  uint64_t free_bytes = 0;            // total free space recorded in the FSM
};

// Receives the TIDs whose line pointers are about to become reusable, sorted
// by (block, offset), so index entries pointing at them can be removed first.
using DeadTidCallback = std::function<void(std::span<const ItemPointer>)>;

// Cost-based vacuum delay (autovacuum_vacuum_cost_delay): when set, called
// after each page of phase 1 with no buffer pinned or locked; `dirtied`
// says whether the page was written. The hook may sleep (and throw 57014
// on cancel). Per process; nullptr (the default) = no delay.
using VacuumDelayPoint = void (*)(bool dirtied);
void SetVacuumDelayPoint(VacuumDelayPoint fn);

// Vacuums `rel`. oldest_xmin: access::GetOldestXmin() (or an older horizon).
VacuumStats HeapVacuumRelation(storage::RelFileLocator rel, access::TransactionId oldest_xmin,
                               const DeadTidCallback& index_cleanup = {});

}  // namespace hearth::heap
