// access/heap/pruneheap.cpp
//
// Principal entry point: HeapPagePruneOpt.
#include "access/heap/pruneheap.h"

#include <vector>

#include "access/heap/heap_wal.h"
#include "access/heap/htup.h"
#include "access/transam/snapshot.h"
#include "access/transam/visibility.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::heap {
namespace {

using access::HeapTupleHeaderData;
using storage::ItemState;
using storage::OffsetNumber;
using storage::Page;

uint64_t g_pages_pruned = 0;

// The oldest deleting/updating xid among the versions left on the page (the
// next prune hint), 0 when none.
access::TransactionId OldestRemainingXmax(Page pg) {
  access::TransactionId oldest = access::kInvalidTransactionId;
  for (OffsetNumber off = storage::kFirstOffsetNumber; off <= pg.MaxOffset(); ++off) {
    if (!pg.GetItemId(off).IsNormal()) continue;
    const auto* tup = reinterpret_cast<const HeapTupleHeaderData*>(pg.GetItem(off).data());
    const uint16_t mask = tup->t_infomask;
    if (!access::TransactionIdIsValid(tup->t_xmax) || (mask & (access::kHeapXmaxInvalid | access::kHeapXmaxLockOnly)) != 0)
      continue;
    if (oldest == access::kInvalidTransactionId || access::TransactionIdPrecedes(tup->t_xmax, oldest))
      oldest = tup->t_xmax;
  }
  return oldest;
}

}  // namespace

bool HeapPagePruneOpt(PinnedBuffer& buf) {
  Page pg = buf.page();
  const access::TransactionId hint = pg.prune_xid();
  if (!access::TransactionIdIsValid(hint)) return false;  // nothing was ever deleted here
  if (!storage::HoldsOnlyPin(buf)) return false;         // someone may be reading tuples
  const access::TransactionId oldest_xmin = access::GetOldestXmin();
  if (!access::TransactionIdPrecedes(hint, oldest_xmin)) return false;  // no deleter old enough yet

  bool hints = false;
  static std::vector<OffsetNumber> pruned;  // reused: no allocation per prune
  pruned.clear();
  for (OffsetNumber off = storage::kFirstOffsetNumber; off <= pg.MaxOffset(); ++off) {
    if (!pg.GetItemId(off).IsNormal()) continue;
    auto* tup = reinterpret_cast<HeapTupleHeaderData*>(pg.GetItem(off).data());
    if (access::TupleSatisfiesVacuum(*tup, oldest_xmin, &hints) == access::VacuumResult::kDead) {
      pg.MarkItemDead(off);
      pruned.push_back(off);
    }
  }
  if (pruned.empty()) {
    // The hint was stale (e.g. the deleter aborted): refresh it so the next
    // updater does not try again for nothing.
    pg.set_prune_xid(OldestRemainingXmax(pg));
    buf.MarkDirtyHint();
    return false;
  }
  pg.RepairFragmentation();  // also clears the page-full hint
  pg.set_prune_xid(OldestRemainingXmax(pg));
  buf.MarkDirty();
  // WAL: prune (opportunistic; the offsets made dead, redone by the same
  // defragmentation).
  HeapWalRecord rec(kHeapInfoPrune);
  rec.Block(buf);
  rec.Prune(pruned);
  rec.Insert(access::kInvalidTransactionId);
  ++g_pages_pruned;
  return true;
}

void HeapPagePruneOnRead(PinnedBuffer& buf) {
  // Header fields read without the content lock: only to decide whether to
  // try (the decision is re-made under the lock).
  Page pg = buf.page();
  if (pg.IsNew() || !access::TransactionIdIsValid(pg.prune_xid())) return;
  const bool full = (pg.flags() & storage::kPageFlagPageFull) != 0;
  if (!full && pg.FreeSpace() >= storage::kBlockSize / 10) return;
  if (!storage::ConditionalLockBufferForCleanup(buf)) return;
  HeapPagePruneOpt(buf);
  buf.Unlock();
}

uint64_t HeapPagesPruned() { return g_pages_pruned; }

}  // namespace hearth::heap
