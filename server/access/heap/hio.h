// access/heap/hio.h
//
// Choosing the heap page a new tuple goes to (PostgreSQL's hio.c): the page
// this backend last inserted into for the relation, else a page the free-space
// map offers, else a new page added with ExtendRelation. Never scans the
// relation. Also the bulk-insert state COPY keeps between rows.
//
// Process safety: the "last page with room" cache is private to the process
// (a fork child inherits a still-valid copy). Pages are locked per the
// buffer manager's rules; see README.md for the lock order.
#pragma once

#include <cstddef>
#include <memory>

#include "storage/buffer/bufmgr.h"
#include "storage/page/block.h"
#include "storage/smgr/relfile.h"

namespace hearth::heap {

using storage::BlockNumber;
using storage::PinnedBuffer;
using storage::RelFileLocator;

// State of one bulk load (COPY, INSERT ... SELECT of many rows): a BULKWRITE
// ring so the load cannot push the whole pool out, the current target page
// kept pinned (unlocked) between batches, and a run of blocks the load
// extended the relation by in one write (ExtendRelationBy) and has not used
// yet. The run grows 8, 16, 32, 64 blocks per extension, so a load
// neither asks for the relation size nor extends the file per page.
// Private to one process.
class BulkInsertState {
 public:
  // REQUIRES: the buffer pool is initialised.
  BulkInsertState();
  ~BulkInsertState() = default;
  BulkInsertState(const BulkInsertState&) = delete;
  BulkInsertState& operator=(const BulkInsertState&) = delete;

  storage::BufferAccessStrategy* strategy() const { return strategy_.get(); }
  // Drops the kept pin (call before fork or when the load ends early; safe
  // while unwinding). Unused extended blocks stay all-zero: VACUUM or a later
  // Finish-ed load records them.
  void ReleaseBuffer() { current_.Release(); }
  // The load ended normally: drops the pin and offers the extended blocks it
  // did not use to the free-space map, so later inserts fill them.
  void Finish();

 private:
  friend struct HioAccess;
  std::unique_ptr<storage::BufferAccessStrategy> strategy_;
  PinnedBuffer current_;  // pinned, unlocked; may belong to another relation
  RelFileLocator run_rel_{};             // relation of the extended run
  BlockNumber run_next_ = 0;             // next unused block of the run
  BlockNumber run_end_ = 0;              // one past the run's last block
  BlockNumber extend_by_ = 0;            // size of the next extension
};

// Bytes a page must keep free for inserts with `fillfactor` (10..100).
inline size_t FillfactorReserve(int fillfactor) {
  if (fillfactor >= 100 || fillfactor <= 0) return 0;
  return storage::kBlockSize * static_cast<size_t>(100 - fillfactor) / 100;
}

// True when a tuple of `len` bytes (MaxAligned, plus a line pointer) fits
// on `pg` leaving `reserve` bytes free; an empty page ignores the reserve.
bool PageHasRoomFor(const storage::Page& pg, size_t len, size_t reserve);

struct TargetBuffer {
  PinnedBuffer buf;  // exclusively locked; invalid when `use_other`
  bool use_other = false;  // the tuple fits on *other's page itself
  // The page was formatted in memory just now and nothing about it is in
  // the WAL yet: the caller's record must carry it whole (a forced image),
  // as PostgreSQL's XLOG_HEAP_INIT_PAGE. Only bulk loads get such pages.
  bool fresh = false;
};

// Returns a page with room for a tuple of `len` bytes (+ its line pointer)
// while leaving FillfactorReserve(fillfactor) free (an empty page is always
// accepted), exclusively locked. A new page is initialised (WAL: page init).
// `other` (optional; update's old page): pinned and unlocked on entry; on
// return it is exclusively locked too, both locks taken in block order
// (except that a freshly extended page, which no other process can be
// waiting for, is locked before it). If the chosen page is other's own,
// returns use_other = true and only `other` is locked.
// REQUIRES: len <= kMaxHeapTupleSize; no heap content lock held.
TargetBuffer GetBufferForTuple(RelFileLocator rel, size_t len, int fillfactor, BulkInsertState* bulk,
                               PinnedBuffer* other = nullptr);

// Gives an insert's target back: unlocks it and either keeps the pin in the
// bulk state or releases it. Remembers the page as this backend's target.
void ReleaseInsertBuffer(RelFileLocator rel, PinnedBuffer&& buf, BulkInsertState* bulk);

// Formats a new (all-zero) heap page and marks it dirty. REQUIRES: `buf`
// exclusively locked. The single place heap pages are initialised.
void InitHeapPage(PinnedBuffer& buf);

// The per-backend "last page with room" cache.
BlockNumber GetTargetBlock(RelFileLocator rel);
void SetTargetBlock(RelFileLocator rel, BlockNumber block);
// Forget one relation (truncate/drop) or all (tests).
void ForgetTargetBlock(RelFileLocator rel);
void ForgetAllTargetBlocks();

}  // namespace hearth::heap
