// access/heap/pruneheap.cpp
//
// Principal entry points: PlanPrune, ApplyPrune, HeapPagePruneOpt, HeapPagePruneOnRead.
#include "access/heap/pruneheap.h"

#include <vector>

#include "access/heap/heap_wal.h"
#include "access/heap/htup.h"
#include "access/transam/snapshot.h"
#include "access/transam/standby_conflicts.h"
#include "access/transam/visibility.h"
#include "access/transam/xlog_standby.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::heap {
namespace {

using access::HeapTupleHeaderData;
using storage::ItemState;
using storage::OffsetNumber;
using storage::Page;

uint64_t g_pages_pruned = 0;

struct PrunedTuples {
  storage::RelFileLocator rel;
  int64_t tuples = 0;
};
constexpr int kPrunedRelations = 32;
PrunedTuples g_pruned[kPrunedRelations];
int g_pruned_used = 0;

void NotePrunedTuples(storage::RelFileLocator rel, int64_t tuples) {
  if (tuples <= 0) return;
  for (int i = 0; i < g_pruned_used; ++i) {
    if (g_pruned[i].rel == rel) {
      g_pruned[i].tuples += tuples;
      return;
    }
  }
  if (g_pruned_used < kPrunedRelations) g_pruned[g_pruned_used++] = PrunedTuples{rel, tuples};
}

// Versions the plan frees outright: heap-only ones, and roots that become
// redirects. REQUIRES: before ApplyPrune (reads the roots' states).
int64_t TuplesFreed(storage::Page pg, const PrunePlan& plan) {
  int64_t n = static_cast<int64_t>(plan.unused.size());
  for (const auto& r : plan.redirects) n += pg.GetItemId(r.first).IsNormal() ? 1 : 0;
  return n;
}

const HeapTupleHeaderData* TupleAt(Page pg, OffsetNumber off) {
  return reinterpret_cast<const HeapTupleHeaderData*>(pg.GetItem(off).data());
}

// Walks the chain of the root at `root` (a normal non-heap-only tuple or a
// redirect) and adds its prunable part to *plan. `visited` marks every
// version reached.
void PlanChain(Page pg, storage::BlockNumber block, OffsetNumber root, access::TransactionId oldest_xmin,
               std::vector<uint8_t>& visited, PrunePlan* plan, bool* hints) {
  static std::vector<OffsetNumber> chain;  // reused: no allocation per page
  chain.clear();
  const storage::ItemId root_id = pg.GetItemId(root);
  const bool is_redirect = root_id.state() == ItemState::kRedirect;
  OffsetNumber cur = is_redirect ? root_id.offset() : root;
  access::TransactionId prior_xmax = access::kInvalidTransactionId;
  int latest_dead = -1;
  while (cur >= storage::kFirstOffsetNumber && cur <= pg.MaxOffset() && !visited[cur]) {
    if (!pg.GetItemId(cur).IsNormal()) break;
    auto* tup = const_cast<HeapTupleHeaderData*>(TupleAt(pg, cur));
    if (access::TransactionIdIsValid(prior_xmax) && tup->t_xmin != prior_xmax) break;  // slot reused
    if (cur != root && !tup->heap_only()) break;  // a chain continues only through heap-only versions
    chain.push_back(cur);
    visited[cur] = 1;
    const access::VacuumResult r = access::TupleSatisfiesVacuum(*tup, oldest_xmin, hints);
    if (r == access::VacuumResult::kDead) {
      // Recently dead versions before a dead one are dead too: their
      // successor's updater committed before every snapshot began.
      latest_dead = static_cast<int>(chain.size()) - 1;
    } else if (r != access::VacuumResult::kRecentlyDead) {
      break;  // live or in progress: nothing after it can be dead
    }
    if (!tup->hot_updated() || tup->ctid().block != block) break;
    prior_xmax = tup->t_xmax;
    cur = tup->ctid().offset;
  }
  if (latest_dead < 0) return;
  for (int i = 0; i <= latest_dead; ++i) {
    if (chain[static_cast<size_t>(i)] != root) plan->unused.push_back(chain[static_cast<size_t>(i)]);
  }
  if (static_cast<size_t>(latest_dead) + 1 < chain.size()) {
    plan->redirects.emplace_back(root, chain[static_cast<size_t>(latest_dead) + 1]);
  } else {
    plan->dead.push_back(root);
  }
}

}  // namespace

void PlanPrune(Page pg, storage::BlockNumber block, access::TransactionId oldest_xmin, PrunePlan* plan,
               bool* hints) {
  plan->clear();
  const OffsetNumber max = pg.MaxOffset();
  static std::vector<uint8_t> visited;
  visited.assign(static_cast<size_t>(max) + 1, 0);
  for (OffsetNumber off = storage::kFirstOffsetNumber; off <= max; ++off) {
    const storage::ItemId id = pg.GetItemId(off);
    if (id.state() == ItemState::kRedirect || (id.IsNormal() && !TupleAt(pg, off)->heap_only())) {
      PlanChain(pg, block, off, oldest_xmin, visited, plan, hints);
    }
  }
  // Heap-only versions no chain reaches (an aborted HOT update's new version).
  for (OffsetNumber off = storage::kFirstOffsetNumber; off <= max; ++off) {
    if (visited[off] || !pg.GetItemId(off).IsNormal()) continue;
    auto* tup = const_cast<HeapTupleHeaderData*>(TupleAt(pg, off));
    if (tup->heap_only() && access::TupleSatisfiesVacuum(*tup, oldest_xmin, hints) == access::VacuumResult::kDead) {
      plan->unused.push_back(off);
    }
  }
}

access::TransactionId PruneConflictHorizon(Page pg, const PrunePlan& plan) {
  access::TransactionId horizon = access::kInvalidTransactionId;
  auto note = [&](OffsetNumber off) {
    if (!pg.GetItemId(off).IsNormal()) return;  // a redirect or DEAD pointer: counted when it was pruned
    const access::TransactionId xmax = TupleAt(pg, off)->t_xmax;
    if (access::TransactionIdIsNormal(xmax) && access::TransactionIdPrecedes(horizon, xmax)) horizon = xmax;
  };
  for (OffsetNumber off : plan.unused) note(off);
  for (OffsetNumber off : plan.dead) note(off);
  for (const auto& r : plan.redirects) note(r.first);
  return horizon;
}

void ApplyPrune(Page pg, const PrunePlan& plan, bool compact) {
  for (const auto& [from, to] : plan.redirects) pg.MarkItemRedirect(from, to);
  for (OffsetNumber off : plan.dead) pg.MarkItemDead(off);
  for (OffsetNumber off : plan.unused) pg.MarkItemUnused(off);
  if (compact) pg.RepairFragmentation();
}

void HeapGetRootOffsets(Page pg, storage::BlockNumber block, std::vector<OffsetNumber>* roots) {
  const OffsetNumber max = pg.MaxOffset();
  roots->assign(static_cast<size_t>(max) + 1, 0);
  for (OffsetNumber root = storage::kFirstOffsetNumber; root <= max; ++root) {
    const storage::ItemId id = pg.GetItemId(root);
    OffsetNumber cur;
    if (id.state() == ItemState::kRedirect) {
      cur = id.offset();
    } else if (id.IsNormal() && !TupleAt(pg, root)->heap_only()) {
      const HeapTupleHeaderData* t = TupleAt(pg, root);
      if (!t->hot_updated() || t->ctid().block != block) continue;
      cur = t->ctid().offset;
    } else {
      continue;
    }
    access::TransactionId prior_xmax =
        id.state() == ItemState::kRedirect ? access::kInvalidTransactionId : TupleAt(pg, root)->t_xmax;
    for (int steps = 0; steps <= max && cur >= storage::kFirstOffsetNumber && cur <= max; ++steps) {
      if (!pg.GetItemId(cur).IsNormal() || (*roots)[cur] != 0) break;
      const HeapTupleHeaderData* t = TupleAt(pg, cur);
      if (!t->heap_only() || (access::TransactionIdIsValid(prior_xmax) && t->t_xmin != prior_xmax)) break;
      (*roots)[cur] = root;
      if (!t->hot_updated() || t->ctid().block != block) break;
      prior_xmax = t->t_xmax;
      cur = t->ctid().offset;
    }
  }
}

access::TransactionId OldestRemainingXmax(Page pg) {
  access::TransactionId oldest = access::kInvalidTransactionId;
  for (OffsetNumber off = storage::kFirstOffsetNumber; off <= pg.MaxOffset(); ++off) {
    if (!pg.GetItemId(off).IsNormal()) continue;
    const HeapTupleHeaderData* tup = TupleAt(pg, off);
    const uint16_t mask = tup->t_infomask;
    if (!access::TransactionIdIsValid(tup->t_xmax) || (mask & (access::kHeapXmaxInvalid | access::kHeapXmaxLockOnly)) != 0)
      continue;
    if (oldest == access::kInvalidTransactionId || access::TransactionIdPrecedes(tup->t_xmax, oldest))
      oldest = tup->t_xmax;
  }
  return oldest;
}

bool HeapPagePruneOpt(PinnedBuffer& buf) {
  Page pg = buf.page();
  const access::TransactionId hint = pg.prune_xid();
  if (!access::TransactionIdIsValid(hint)) return false;  // nothing was ever deleted here
  if (!storage::HoldsOnlyPin(buf)) return false;         // someone may be reading tuples
  const access::TransactionId oldest_xmin = access::GetOldestXmin();
  if (!access::TransactionIdPrecedes(hint, oldest_xmin)) return false;  // no deleter old enough yet

  bool hints = false;
  static PrunePlan plan;  // reused: no allocation per prune once warm
  PlanPrune(pg, buf.block(), oldest_xmin, &plan, &hints);
  if (plan.empty()) {
    // The hint was stale (e.g. the deleter aborted): refresh it so the next
    // updater does not try again for nothing.
    pg.set_prune_xid(OldestRemainingXmax(pg));
    buf.MarkDirtyHint();
    return false;
  }
  NotePrunedTuples(buf.rel(), TuplesFreed(pg, plan));
  access::LogSnapshotConflictHorizon(PruneConflictHorizon(pg, plan));
  ApplyPrune(pg, plan, /*compact=*/true);  // also clears the page-full hint
  pg.set_prune_xid(OldestRemainingXmax(pg));
  buf.MarkDirty();
  // WAL: prune (opportunistic; the changed line pointers, redone by the
  // same ApplyPrune).
  HeapWalRecord rec(kHeapInfoPrune);
  rec.Block(buf);
  rec.Prune(plan);
  rec.Insert(access::kInvalidTransactionId);
  ++g_pages_pruned;
  return true;
}

void HeapPagePruneOnRead(PinnedBuffer& buf, access::TransactionId snapshot_xmin) {
  // Header fields read without the content lock: only to decide whether to
  // try (the decision is re-made under the lock).
  Page pg = buf.page();
  if (pg.IsNew() || !access::TransactionIdIsValid(pg.prune_xid())) return;
  // A standby's pages change only by replay (pruning would log WAL).
  if (access::RecoveryInProgress()) return;
  if (!access::TransactionIdPrecedes(pg.prune_xid(), snapshot_xmin)) return;
  const bool full = (pg.flags() & storage::kPageFlagPageFull) != 0;
  if (!full && pg.FreeSpace() >= storage::kBlockSize / 10) return;
  if (!storage::ConditionalLockBufferForCleanup(buf)) return;
  HeapPagePruneOpt(buf);
  buf.Unlock();
}

uint64_t HeapPagesPruned() { return g_pages_pruned; }

void TakePrunedTupleCounts(std::vector<std::pair<storage::RelFileLocator, int64_t>>* out) {
  for (int i = 0; i < g_pruned_used; ++i) out->emplace_back(g_pruned[i].rel, g_pruned[i].tuples);
  g_pruned_used = 0;
}

}  // namespace hearth::heap
