// access/transam/xlog_blocks.h
//
// WAL records that name the pages they change ("blocks"), each logged
// either as a full-page image or as small operations the access method
// replays on the page. A block is an image when its page LSN is at or below
// the redo pointer (its first change since the last checkpoint's redo point:
// the on-disk copy may be torn by that checkpoint's writes) or when the
// caller forces it; otherwise only its operations go into the record.
//
// Payload: per block {u32 rel, u32 block, u16 flags, u16 nops, u16 hole_off,
// u16 hole_len, u32 data_len} + data; with kBlockIsImage the data is the
// page without its hole [lower, upper), else nops × {u16 kind, u16 off,
// u32 len} + len bytes, opaque to this module.
//
// Usage (pages exclusively locked and marked dirty, before any unlock):
//   BlockRecord& rec = ScratchBlockRecord();
//   rec.Clear();
//   rec.AddBlock(/*force_image=*/false);
//   rec.AddOp(kMyInsert, off, item_bytes);
//   PinnedBuffer* bufs[] = {&leaf};
//   rec.Insert(kRmgrBtree, info, xid, bufs);   // stamps every page LSN
// Redo: RedoBlocks(rec, ApplyMyOp) reads each block (creating missing files
// and pages), skips pages already at or past the record, restores images and
// hands operations to the callback, then stamps the page LSN.
//
// Process safety: process-local builder (single-threaded processes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::access {

class BlockRecord {
 public:
  void Clear();
  // Starts the next block (the i-th AddBlock names bufs[i] at Insert).
  void AddBlock(bool force_image = false);
  // One operation on the current block; `a` and `b` are concatenated.
  void AddOp(uint16_t kind, uint16_t off, std::string_view a = {}, std::string_view b = {});
  size_t blocks() const { return blocks_.size(); }

  // Appends the record; `bufs` (one per AddBlock, in order) stay locked by
  // the caller; each gets the record's end as its page LSN. Returns the end
  // LSN, 0 when WAL is not running.
  XLogRecPtr Insert(RmgrId rmgr, uint8_t info, uint32_t xid, std::span<storage::PinnedBuffer* const> bufs);

 private:
  struct Block {
    bool forced;
    uint16_t nops;
    size_t ops_begin, ops_end;
  };
  std::vector<Block> blocks_;
  std::string ops_;
  std::vector<uint8_t> payload_;
};

// The process's reusable builder (no allocation per record once warm).
BlockRecord& ScratchBlockRecord();

// Replays one operation on a locked page; throws std::runtime_error when the
// page does not accept it (corruption).
using BlockOpFn = void (*)(const XLogRecordView& rec, storage::Page page, uint16_t kind, uint16_t off,
                           std::span<const uint8_t> data);

// Redo of a record built with BlockRecord (main fork).
// `cleanup_lock`: the record moves tuples on its pages (prune, vacuum), so
// each page is changed only under the cleanup lock (no reader's pin on it;
// on a hot standby replay waits for, then cancels, queries holding pins).
void RedoBlocks(const XLogRecordView& rec, BlockOpFn apply, bool cleanup_lock = false);

// Full-page images written by this process through BlockRecord (tests).
uint64_t BlockRecordImages();

// ---- The block format, for access methods that encode blocks themselves
// (the heap builds its operations from the page at insert time). --------

inline constexpr uint16_t kBlockIsImage = 0x0001;

struct BlockHead {
  uint32_t rel;
  uint32_t db;  // RelFileLocator::db
  uint32_t block;
  uint16_t flags;
  uint16_t nops;
  uint16_t hole_off;
  uint16_t hole_len;
  uint32_t data_len;
};
static_assert(sizeof(BlockHead) == 24);

struct BlockOpHead {
  uint16_t kind;
  uint16_t off;
  uint32_t len;
};
static_assert(sizeof(BlockOpHead) == 8);

// Appends `page` without its hole [lower, upper) to *out and fills
// h->flags / hole_off / hole_len.
void AppendPageImage(storage::Page page, BlockHead* h, std::vector<uint8_t>* out);

}  // namespace hearth::access
