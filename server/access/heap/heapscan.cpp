// access/heap/heapscan.cpp
//
// Principal entry points: HeapScan::Next, HeapScan::LoadPage.
#include "access/heap/heapscan.h"

#include "access/heap/heap_toast.h"

#include "access/heap/pruneheap.h"
#include "access/transam/visibility.h"
#include "storage/ipc/interrupts.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

using storage::BlockNumber;
using storage::ForkNumber;
using storage::LWLockMode;
using storage::OffsetNumber;
using storage::Page;

HeapScan::HeapScan(storage::RelFileLocator rel, const TupleDesc& desc, const access::Snapshot& snap,
                   access::TransactionId my_xid, const HeapScanOptions& opts)
    : rel_(rel), desc_(desc), snap_(snap), my_xid_(my_xid), opts_(opts) {
  Rescan();
}

void HeapScan::Rescan() {
  End();
  nblocks_ = storage::SmgrNblocks(rel_, ForkNumber::kMain);
  next_block_ = 0;
  const bool big = static_cast<int64_t>(nblocks_) > storage::NBuffers() / 4;
  if (opts_.allow_bulkread && big) {
    if (strategy_ == nullptr) strategy_ = storage::GetAccessStrategy(storage::StrategyType::kBulkRead);
  } else {
    strategy_.reset();
  }
}

void HeapScan::End() {
  buf_.Release();
  visible_.clear();
  pos_ = 0;
}

bool HeapScan::LoadPage(BlockNumber block) {
  visible_.clear();
  pos_ = 0;
  buf_ = storage::ReadBuffer(rel_, ForkNumber::kMain, block, storage::ReadMode::kNormal, strategy_.get());
  HeapPagePruneOnRead(buf_, snap_.xmin);
  buf_.Lock(LWLockMode::kShared);
  Page pg = buf_.page();
  bool hints = false;
  if (!pg.IsNew()) {
    const OffsetNumber maxoff = pg.MaxOffset();
    for (OffsetNumber off = storage::kFirstOffsetNumber; off <= maxoff; ++off) {
      if (!pg.GetItemId(off).IsNormal()) continue;
      auto* tup = reinterpret_cast<HeapTupleHeaderData*>(pg.GetItem(off).data());
      if (access::TupleSatisfiesMVCC(*tup, snap_, my_xid_, &hints)) visible_.push_back(off);
    }
  }
  if (opts_.root_tids && !visible_.empty()) HeapGetRootOffsets(pg, block, &roots_);
  if (hints) buf_.MarkDirtyHint();
  buf_.Unlock();  // keep the pin: tuple data cannot move while we hold it
  if (visible_.empty()) buf_.Release();
  return !visible_.empty();
}

bool HeapScan::Next(Row* row, ItemPointer* tid) {
  for (;;) {
    if (pos_ < visible_.size()) {
      const OffsetNumber off = visible_[pos_++];
      std::span<char> item = buf_.page().GetItem(off);
      if (HeapDeformTuple(desc_, reinterpret_cast<const HeapTupleHeaderData*>(item.data()), item.size(), row)) {
        DetoastRow(rel_, row);  // the page stays pinned, unlocked
      }
      if (tid != nullptr) {
        const OffsetNumber root = opts_.root_tids && roots_[off] != 0 ? roots_[off] : off;
        *tid = ItemPointer{buf_.block(), root};
      }
      return true;
    }
    if (next_block_ >= nblocks_) {
      End();
      return false;
    }
    CheckForInterrupts();  // a scan that filters everything out must still be cancellable
    LoadPage(next_block_++);
  }
}

}  // namespace hearth::heap
