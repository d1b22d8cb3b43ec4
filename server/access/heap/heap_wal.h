// access/heap/heap_wal.h
//
// WAL for heap pages (resource manager kRmgrHeap): building one record per
// page change at each `// WAL:` point, and its redo. A record names one or
// two pages ("blocks"); each block carries either a full-page image (the
// first change after the last checkpoint's redo point, and always for prune
// and vacuum) or a list of small operations replayed on the page:
//   init        format the page (Page::Init(0))
//   put tuple   add the tuple bytes as line pointer `off` (same slot choice)
//   set header  overwrite the MVCC header fields (xmin..infomask) of `off`
//               and the page's prune_xid
//   prune       apply a PrunePlan (redirects, DEAD and UNUSED line
//               pointers), defragment the page, set its prune_xid
// Payload: per block {u32 rel, u32 block, u16 flags, u16 nops, u16 hole_off,
// u16 hole_len, u32 data_len} + data. With kBlockImage the data is the page
// without its hole [lower, upper); else nops × {u16 kind, u16 off, u32 len} +
// len bytes. info (the kind below) only names the record.
//
// Usage (between MarkDirty and unlock, page still exclusively locked):
//   HeapWalRecord rec(kHeapInfoInsert);
//   rec.Block(buf); rec.PutTuple(off);
//   rec.Insert(xid);              // sets the page LSN of every block
// Without WAL (XLogIsStarted() false: bootstrap, tools) Insert does nothing.
//
// Redo is idempotent: a block whose page LSN is >= the record's end LSN is
// skipped. Missing relation files are created and short files extended with
// zero pages, so replay works whatever the data files hold.
//
// Process safety: the builder uses process-local scratch (single-threaded
// backends); one record at a time per process.
#pragma once

#include <cstdint>
#include <span>

#include "access/heap/hio.h"
#include "access/heap/pruneheap.h"
#include "access/transam/transam.h"
#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"

namespace hearth::heap {

inline constexpr uint8_t kHeapInfoInsert = 0x00;
inline constexpr uint8_t kHeapInfoMultiInsert = 0x10;
inline constexpr uint8_t kHeapInfoDelete = 0x20;
inline constexpr uint8_t kHeapInfoUpdate = 0x30;
inline constexpr uint8_t kHeapInfoLock = 0x40;
inline constexpr uint8_t kHeapInfoInitPage = 0x50;
inline constexpr uint8_t kHeapInfoPrune = 0x60;
inline constexpr uint8_t kHeapInfoVacuum = 0x70;

// Builder of one heap record. Construct, name the blocks and operations,
// Insert. Blocks must stay exclusively locked until Insert returns.
class HeapWalRecord {
 public:
  explicit HeapWalRecord(uint8_t info);
  HeapWalRecord(const HeapWalRecord&) = delete;
  HeapWalRecord& operator=(const HeapWalRecord&) = delete;

  // Adds a block (at most 2 per record). `force_image`: log the whole page
  // whatever its LSN (prune/vacuum). Operations that follow apply to it.
  void Block(PinnedBuffer& buf, bool force_image = false);
  void InitPage();
  // The tuple now at `off` of the current block (logged as it is at Insert).
  void PutTuple(storage::OffsetNumber off);
  // The header fields of the tuple at `off` and the page's prune_xid.
  void SetHeader(storage::OffsetNumber off);
  // The current block was pruned by `plan` and defragmented (its prune_xid
  // is logged as it is at Insert).
  void Prune(const PrunePlan& plan);

  // Appends the record (xid may be 0) and stamps every block's page LSN with
  // its end. Returns the end LSN, 0 when WAL is not running.
  access::XLogRecPtr Insert(access::TransactionId xid);

 private:
  uint8_t info_;
  int nblocks_ = 0;
};

// Registers HeapRedo as kRmgrHeap in this process (before recovery).
void RegisterHeapRmgr();
// Replays one heap record. Throws std::runtime_error on a malformed record
// or a page that does not accept the logged tuple (corruption).
void HeapRedo(const access::XLogRecordView& rec);
// Whole-page images logged by this process (tests).
uint64_t HeapWalFullPageImages();

}  // namespace hearth::heap
