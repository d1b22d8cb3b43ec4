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

#include <string>

#include "access/nbtree/nbtree_internal.h"
#include "access/transam/xlog_blocks.h"

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
  std::string removed;  // offsets removed from the current leaf (u16 each)
  while (blk != kInvalidBlockNumber) {
    PinnedBuffer buf =
        storage::ReadBuffer(index.rel, ForkNumber::kMain, blk, storage::ReadMode::kNormal, strategy.get());
    for (unsigned spins = 0; !storage::ConditionalLockBufferForCleanup(buf); ++spins) usleep(spins < 100 ? 50 : 1000);
    Page p = buf.page();
    if (Opaque(p)->magic != kBtPageMagic || !IsLeaf(p)) ThrowCorrupt(index, "bulk delete reached a non-leaf page");
    removed.clear();
    for (OffsetNumber off = p.MaxOffset(); off >= FirstDataOffset(p) && off != 0; --off) {
      if (is_dead(DecodeTid(ItemKey(p, off)))) {
        p.RemoveItem(off);
        removed.append(reinterpret_cast<const char*>(&off), sizeof off);
        ++stats.removed;
      } else {
        ++stats.remaining;
      }
    }
    if (!removed.empty()) {
      buf.MarkDirty();
      // WAL: the removed offsets, in removal order (highest first), still
      // under the cleanup lock.
      access::BlockRecord& rec = access::ScratchBlockRecord();
      rec.Clear();
      rec.AddBlock();
      rec.AddOp(kBtOpDelete, 0, removed);
      LogBtRecord(kBtInfoVacuum, std::span<PinnedBuffer>(&buf, 1));
    }
    ++stats.leaf_pages;
    blk = Opaque(p)->right;
  }
  return stats;
}

}  // namespace hearth::nbtree
