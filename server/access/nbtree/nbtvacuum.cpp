// access/nbtree/nbtvacuum.cpp
//
// BtBulkDelete: VACUUM's pass over the leaves, left to right by right links,
// removing entries whose heap tuples are dead. Each leaf is processed under
// a cleanup lock (exclusive + no other pin): a scan that still holds a pin
// on a leaf is waited for, so TIDs it returned cannot be recycled under it.
// A split that happens behind us only moves entries we have already seen
// to a page we visit next (harmless: the callback is asked again).
// Principal entry points: BtBulkDelete.
#include <unistd.h>

#include <vector>

#include "access/nbtree/nbtree_internal.h"

namespace hearth::nbtree {

using storage::ForkNumber;
using storage::kInvalidBlockNumber;

BulkDeleteStats BtBulkDelete(const IndexDesc& index, const std::function<bool(ItemPointer)>& is_dead) {
  BulkDeleteStats stats;
  BlockNumber blk;
  {
    PinnedBuffer first = LeftmostAtLevel(index, 0, storage::LWLockMode::kShared);
    if (!first.valid()) return stats;
    blk = first.block();
  }
  auto strategy = storage::GetAccessStrategy(storage::StrategyType::kVacuum);
  std::vector<OffsetNumber> removed;  // offsets removed from the current leaf
  while (blk != kInvalidBlockNumber) {
    PinnedBuffer buf =
        storage::ReadBuffer(index.rel, ForkNumber::kMain, blk, storage::ReadMode::kNormal, strategy.get());
    for (unsigned spins = 0; !storage::ConditionalLockBufferForCleanup(buf); ++spins) usleep(spins < 100 ? 50 : 1000);
    Page p = buf.page();
    if (Opaque(p)->magic != kBtPageMagic || !IsLeaf(p)) ThrowCorrupt(index, "bulk delete reached a non-leaf page");
    removed.clear();
    for (OffsetNumber off = p.MaxOffset(); off >= FirstDataOffset(p) && off != 0; --off) {
      // LP_DEAD entries go too: their heap tuples are dead to everyone.
      if (ItemIsDead(p, off) || is_dead(DecodeTid(ItemKey(p, off)))) {
        removed.push_back(off);
        ++stats.removed;
      } else {
        ++stats.remaining;
      }
    }
    // WAL: the removed offsets, highest first, still under the cleanup lock.
    DeleteLeafEntries(buf, removed, kBtInfoVacuum);
    ++stats.leaf_pages;
    blk = Opaque(p)->right;
  }
  return stats;
}

}  // namespace hearth::nbtree
