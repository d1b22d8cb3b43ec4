// access/heap/vacuumlazy.cpp
//
// Principal entry point: HeapVacuumRelation (phases described in the header).
#include "access/heap/vacuumlazy.h"

#include <time.h>

#include <vector>

#include "access/heap/freespace.h"
#include "access/heap/heap_wal.h"
#include "access/heap/hio.h"
#include "access/heap/pruneheap.h"
#include "access/transam/standby_conflicts.h"
#include "access/transam/visibility.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/interrupts.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

namespace {

using storage::BlockNumber;
using storage::ForkNumber;
using storage::ItemState;
using storage::LWLockMode;
using storage::OffsetNumber;
using storage::Page;
using storage::PinnedBuffer;

// Tries for the cleanup lock (exclusive + sole pin) for a short while; else
// takes the plain exclusive lock. Returns whether the cleanup lock was had.
// Readers keep pins only while they return a page's tuples, so a short wait
// is usually enough; never waiting forever keeps an open cursor from
// stalling VACUUM.
bool LockForVacuum(PinnedBuffer& buf) {
  constexpr int kAttempts = 50;
  for (int i = 0; i < kAttempts; ++i) {
    if (storage::ConditionalLockBufferForCleanup(buf)) return true;
    timespec ts{0, 1'000'000};  // 1 ms
    nanosleep(&ts, nullptr);
  }
  buf.Lock(LWLockMode::kExclusive);
  return false;
}

// Records the page's free space after the page lock is released (heap and
// FSM page locks are never held together).
void ReleaseAndRecord(storage::RelFileLocator rel, PinnedBuffer& buf, VacuumStats* stats) {
  const BlockNumber blk = buf.block();
  const size_t free = buf.page().FreeSpace();
  buf.Release();
  RecordPageWithFreeSpace(rel, blk, free);
  if (stats != nullptr) stats->free_bytes += free;
}

VacuumDelayPoint g_delay_point = nullptr;

}  // namespace

void SetVacuumDelayPoint(VacuumDelayPoint fn) { g_delay_point = fn; }

VacuumStats HeapVacuumRelation(storage::RelFileLocator rel, access::TransactionId oldest_xmin,
                               const DeadTidCallback& index_cleanup) {
  VacuumStats stats;
  const bool two_phase = static_cast<bool>(index_cleanup);
  const BlockNumber nblocks = storage::SmgrNblocks(rel, ForkNumber::kMain);
  stats.pages = nblocks;
  auto strategy = storage::GetAccessStrategy(storage::StrategyType::kVacuum);
  std::vector<ItemPointer> dead;
  PrunePlan plan;

  // Phase 1: classify every tuple, remove the dead ones' storage.
  for (BlockNumber blk = 0; blk < nblocks; ++blk) {
    CheckForInterrupts();
    PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, blk, storage::ReadMode::kNormal, strategy.get());
    const bool cleanup = LockForVacuum(buf);
    Page pg = buf.page();
    if (pg.IsNew()) {  // extended but never initialised (its inserter failed)
      InitHeapPage(buf);
      ReleaseAndRecord(rel, buf, &stats);
      continue;
    }
    bool hints = false;
    // DEAD line pointers left by pruning on access (or an interrupted
    // vacuum): their versions are removed now, when the slots are reclaimed.
    for (OffsetNumber off = storage::kFirstOffsetNumber; off <= pg.MaxOffset(); ++off) {
      if (pg.GetItemId(off).state() == ItemState::kDead) ++stats.tuples_removed;
    }
    // Dead versions and dead HOT-chain prefixes, as pruning removes them.
    PlanPrune(pg, blk, oldest_xmin, &plan, &hints);
    stats.tuples_removed += plan.unused.size();
    for (OffsetNumber root : plan.dead) stats.tuples_removed += pg.GetItemId(root).IsNormal() ? 1 : 0;
    for (const auto& r : plan.redirects) stats.tuples_removed += pg.GetItemId(r.first).IsNormal() ? 1 : 0;
    bool changed = !plan.empty();
    access::LogSnapshotConflictHorizon(PruneConflictHorizon(pg, plan));
    ApplyPrune(pg, plan, /*compact=*/false);  // compacted below when we have the cleanup lock
    size_t live_bytes = 0;  // storage of the items that stay
    const OffsetNumber maxoff = pg.MaxOffset();
    for (OffsetNumber off = storage::kFirstOffsetNumber; off <= maxoff; ++off) {
      const storage::ItemId id = pg.GetItemId(off);
      if (id.state() == ItemState::kDead) {
        if (two_phase) {
          dead.push_back(ItemPointer{blk, off});  // index entries go first
        } else {
          pg.MarkItemUnused(off);
          changed = true;
        }
        continue;
      }
      if (!id.IsNormal()) continue;
      auto* tup = reinterpret_cast<HeapTupleHeaderData*>(pg.GetItem(off).data());
      live_bytes += access::MaxAlign(id.length());
      switch (access::TupleSatisfiesVacuum(*tup, oldest_xmin, &hints)) {
        case access::VacuumResult::kDead:  // not reachable for removal (e.g. behind a live chain member)
        case access::VacuumResult::kRecentlyDead:
          ++stats.tuples_recently_dead;
          break;
        case access::VacuumResult::kLive:
        case access::VacuumResult::kInsertInProgress:
        case access::VacuumResult::kDeleteInProgress:
          ++stats.tuples_live;
          break;
      }
    }
    // Storage left behind by an earlier pass that had no cleanup lock.
    const bool fragmented = static_cast<size_t>(pg.SpecialOffset() - pg.Upper()) > live_bytes;
    if (changed || (cleanup && fragmented)) {
      if (cleanup) {
        pg.RepairFragmentation();
        ++stats.pages_compacted;
      } else {
        ++stats.pages_without_cleanup;
      }
      pg.set_flags(static_cast<uint16_t>(pg.flags() & ~storage::kPageFlagPageFull));
      buf.MarkDirty();
      // WAL: prune (line pointers made dead/unused on this page, and whether it was defragmented).
      HeapWalRecord rec(kHeapInfoPrune);
      rec.Block(buf, /*force_image=*/true);
      rec.Insert(access::kInvalidTransactionId);
    } else if (hints) {
      buf.MarkDirtyHint();
    }
    ReleaseAndRecord(rel, buf, &stats);
    if (g_delay_point != nullptr) g_delay_point(changed || hints);
  }

  if (!two_phase || dead.empty()) return stats;

  // Index cleanup, then phase 2: the slots become reusable.
  index_cleanup(std::span<const ItemPointer>(dead));
  size_t i = 0;
  while (i < dead.size()) {
    const BlockNumber blk = dead[i].block;
    PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, blk, storage::ReadMode::kNormal, strategy.get());
    const bool cleanup = LockForVacuum(buf);
    Page pg = buf.page();
    for (; i < dead.size() && dead[i].block == blk; ++i) {
      const OffsetNumber off = dead[i].offset;
      if (off <= pg.MaxOffset() && pg.GetItemId(off).state() == ItemState::kDead) pg.MarkItemUnused(off);
    }
    if (cleanup) pg.RepairFragmentation();  // also trims trailing unused line pointers
    buf.MarkDirty();
    // WAL: vacuum (dead line pointers of this page set unused).
    {
      HeapWalRecord rec(kHeapInfoVacuum);
      rec.Block(buf, /*force_image=*/true);
      rec.Insert(access::kInvalidTransactionId);
    }
    ReleaseAndRecord(rel, buf, nullptr);  // free_bytes keeps the phase-1 figure
  }
  return stats;
}

}  // namespace hearth::heap
