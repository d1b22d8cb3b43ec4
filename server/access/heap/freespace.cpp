// access/heap/freespace.cpp
//
// Principal entry points: RecordPageWithFreeSpace, GetPageWithFreeSpace,
// GetRecordedFreeSpace. Layout and locking rules are in freespace.h.
#include "access/heap/freespace.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/buffer/bufmgr.h"
#include "storage/file/disk_full.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

namespace {

using storage::ForkNumber;
using storage::LWLockMode;
using storage::Page;
using storage::PinnedBuffer;

// The largest-category bound lives in the FSM page's prune_xid header field.
std::atomic_ref<uint32_t> MaxHint(const Page& pg) {
  return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(pg.data() + storage::kPagePruneXidOffset));
}

uint8_t* Slots(const Page& pg) { return reinterpret_cast<uint8_t*>(pg.data() + storage::kPageHeaderSize); }

// REQUIRES: exclusive lock (or private page).
void InitFsmPage(Page pg) {
  pg.Init(kFsmSlotsPerPage);  // the whole body is special space: the slot array
  pg.set_prune_xid(0);
}

// Makes the FSM fork at least `nblocks` long. Concurrent callers may both
// extend; extra pages are harmless (all zero = nothing recorded).
void EnsureFsmBlocks(RelFileLocator rel, BlockNumber nblocks) {
  if (!storage::SmgrExists(rel, ForkNumber::kFsm)) {
    storage::Status s = storage::SmgrCreate(rel, ForkNumber::kFsm, /*ok_if_exists=*/true);
    if (!s.ok()) storage::ThrowStorageStatus(s);
  }
  while (storage::SmgrNblocks(rel, ForkNumber::kFsm) < nblocks) {
    PinnedBuffer b = storage::ExtendRelation(rel, ForkNumber::kFsm);
    InitFsmPage(b.page());
    b.MarkDirty();  // no WAL: the FSM is a hint
  }
}

}  // namespace

void RecordPageWithFreeSpace(RelFileLocator rel, BlockNumber block, size_t free_bytes) {
  const BlockNumber fsm_block = static_cast<BlockNumber>(block / kFsmSlotsPerPage);
  const size_t slot = block % kFsmSlotsPerPage;
  const uint8_t cat = FsmCategoryFor(free_bytes);
  // Created even for a 0 (a full page): once the fork exists its size is
  // cached in shared memory, while asking about a missing fork costs a syscall.
  if (storage::SmgrNblocks(rel, ForkNumber::kFsm) <= fsm_block) EnsureFsmBlocks(rel, fsm_block + 1);
  PinnedBuffer b = storage::ReadBuffer(rel, ForkNumber::kFsm, fsm_block);
  // Peek under a shared lock first: most calls record what is already there.
  b.Lock(LWLockMode::kShared);
  if (!b.page().IsNew() && Slots(b.page())[slot] == cat) return;
  b.Unlock();
  b.Lock(LWLockMode::kExclusive);
  Page pg = b.page();
  if (pg.IsNew()) InitFsmPage(pg);
  uint8_t* slots = Slots(pg);
  if (slots[slot] == cat) return;
  slots[slot] = cat;
  if (MaxHint(pg).load(std::memory_order_relaxed) < cat) MaxHint(pg).store(cat, std::memory_order_relaxed);
  b.MarkDirty();  // no WAL: the FSM is a hint
}

BlockNumber GetPageWithFreeSpace(RelFileLocator rel, size_t needed, BlockNumber limit, BlockNumber exclude) {
  const uint8_t cat = std::max<uint8_t>(1, FsmCategoryNeeded(needed));
  const BlockNumber nfsm = storage::SmgrNblocks(rel, ForkNumber::kFsm);
  for (BlockNumber f = 0; f < nfsm; ++f) {
    const uint64_t first = static_cast<uint64_t>(f) * kFsmSlotsPerPage;
    if (first >= limit) break;
    PinnedBuffer b = storage::ReadBuffer(rel, ForkNumber::kFsm, f);
    b.Lock(LWLockMode::kShared);
    Page pg = b.page();
    if (pg.IsNew() || MaxHint(pg).load(std::memory_order_relaxed) < cat) continue;
    const size_t n = std::min<uint64_t>(kFsmSlotsPerPage, limit - first);
    const uint8_t* slots = Slots(pg);
    uint8_t max_seen = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint8_t c = slots[i];
      max_seen = std::max(max_seen, c);
      if (c >= cat && first + i != exclude) return static_cast<BlockNumber>(first + i);
    }
    // Whole page seen and nothing fits: tighten the bound. Every writer holds
    // the exclusive lock, so under our shared lock the page cannot change and
    // max_seen is exact; losing this store (page not dirtied) only keeps an
    // older, larger bound.
    if (n == kFsmSlotsPerPage) MaxHint(pg).store(max_seen, std::memory_order_relaxed);
  }
  return storage::kInvalidBlockNumber;
}

size_t GetRecordedFreeSpace(RelFileLocator rel, BlockNumber block) {
  const BlockNumber fsm_block = static_cast<BlockNumber>(block / kFsmSlotsPerPage);
  if (storage::SmgrNblocks(rel, ForkNumber::kFsm) <= fsm_block) return 0;
  PinnedBuffer b = storage::ReadBuffer(rel, ForkNumber::kFsm, fsm_block);
  b.Lock(LWLockMode::kShared);
  if (b.page().IsNew()) return 0;
  return static_cast<size_t>(Slots(b.page())[block % kFsmSlotsPerPage]) * kFsmCategoryBytes;
}

}  // namespace hearth::heap
