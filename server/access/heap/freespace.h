// access/heap/freespace.h
//
// The free-space map (FSM): one byte per heap page with its approximate free
// space, kept in the relation's `_fsm` fork so it survives restarts and is
// dropped/unlinked with the relation. Pages of the fork are ordinary
// buffered pages: Page::Init with the whole body as special space, byte i of
// the special space of FSM block k describing heap block k * kFsmSlotsPerPage
// + i. A byte holds a category: free bytes / 32 (rounded down, 0..255), so a
// recorded category c promises at least 32 * c free bytes (the map is only a
// hint: callers re-check on the heap page under its lock).
//
// Each FSM page keeps in its header's prune_xid field an upper bound of the
// largest category on it, so searches skip full pages without reading them
// byte by byte.
//
// Process safety: any process. FSM pages are read under a shared content lock
// and changed under an exclusive one, marked dirty without WAL (like
// PostgreSQL, the map is a hint rebuilt by VACUUM). Callers must NOT hold a
// heap buffer's content lock while calling these (lock order: heap page
// locks and FSM page locks are never held together).
#pragma once

#include <cstddef>

#include "storage/page/block.h"
#include "storage/page/page.h"
#include "storage/smgr/relfile.h"

namespace hearth::heap {

using storage::BlockNumber;
using storage::RelFileLocator;

inline constexpr size_t kFsmSlotsPerPage = storage::kBlockSize - storage::kPageHeaderSize;  // 8168
inline constexpr size_t kFsmCategoryBytes = 32;

// Category of `free_bytes` (rounded down) and the smallest category that
// guarantees `needed` bytes (rounded up).
inline uint8_t FsmCategoryFor(size_t free_bytes) {
  size_t c = free_bytes / kFsmCategoryBytes;
  return static_cast<uint8_t>(c > 255 ? 255 : c);
}
inline uint8_t FsmCategoryNeeded(size_t needed) {
  size_t c = (needed + kFsmCategoryBytes - 1) / kFsmCategoryBytes;
  return static_cast<uint8_t>(c > 255 ? 255 : c);
}

// Records that heap block `block` has about `free_bytes` free. Creates the
// fork / extends it on first use. Cheap when the value is unchanged.
void RecordPageWithFreeSpace(RelFileLocator rel, BlockNumber block, size_t free_bytes);

// A heap block that the map says has at least `needed` free bytes, or
// kInvalidBlockNumber. Never returns `exclude` nor a block >= `limit`
// (the heap's current size: stale entries beyond a truncation are ignored).
BlockNumber GetPageWithFreeSpace(RelFileLocator rel, size_t needed, BlockNumber limit,
                                 BlockNumber exclude = storage::kInvalidBlockNumber);

// The recorded free bytes for `block` (category × 32); 0 when unrecorded.
size_t GetRecordedFreeSpace(RelFileLocator rel, BlockNumber block);

}  // namespace hearth::heap
