// access/transam/xlog_blocks.cpp
//
// Principal entry points: BlockRecord::Insert, RedoBlocks.
#include "access/transam/xlog_blocks.h"

#include <cstring>
#include <stdexcept>

#include "access/transam/xlog.h"
#include "access/transam/pending_sync.h"
#include "access/transam/standby_conflicts.h"
#include "access/transam/xlog_checkpoint.h"
#include "storage/smgr/smgr.h"

namespace hearth::access {
namespace {

using storage::ForkNumber;
using storage::Page;

using OpHead = BlockOpHead;

uint64_t g_images = 0;

void Append(std::vector<uint8_t>& out, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

[[noreturn]] void Malformed(const XLogRecordView& rec, const char* why) {
  throw std::runtime_error("malformed WAL record at " + std::to_string(rec.start_lsn) + ": " + why);
}

// Creates the relation file and zero pages up to `block` when missing:
// replay may meet a file removed later (its drop is replayed after) or a
// page never written before the crash.
void EnsureBlockExists(storage::RelFileLocator rel, storage::BlockNumber block) {
  if (!storage::SmgrExists(rel, ForkNumber::kMain)) {
    storage::Status st = storage::SmgrCreate(rel, ForkNumber::kMain, /*ok_if_exists=*/true);
    if (!st.ok()) throw std::runtime_error("redo could not create relation file: " + st.ToString());
  }
  static const std::vector<char> zero(storage::kBlockSize, 0);
  for (storage::BlockNumber n = storage::SmgrNblocks(rel, ForkNumber::kMain); n <= block; ++n) {
    storage::Status st = storage::SmgrExtend(rel, ForkNumber::kMain, n, zero.data());
    if (!st.ok()) throw std::runtime_error("redo could not extend relation file: " + st.ToString());
  }
}

void ApplyOps(const XLogRecordView& rec, Page pg, const uint8_t* p, const uint8_t* end, uint16_t nops,
              BlockOpFn apply) {
  for (uint16_t i = 0; i < nops; ++i) {
    OpHead oh;
    if (end - p < static_cast<ptrdiff_t>(sizeof(oh))) Malformed(rec, "short operation");
    std::memcpy(&oh, p, sizeof(oh));
    p += sizeof(oh);
    if (end - p < static_cast<ptrdiff_t>(oh.len)) Malformed(rec, "short operation data");
    apply(rec, pg, oh.kind, oh.off, std::span<const uint8_t>(p, oh.len));
    p += oh.len;
  }
}

void RestoreImage(const XLogRecordView& rec, Page pg, const BlockHead& h, const uint8_t* data) {
  if (static_cast<size_t>(h.data_len) + h.hole_len != storage::kBlockSize ||
      static_cast<size_t>(h.hole_off) + h.hole_len > storage::kBlockSize) {
    Malformed(rec, "bad page image length");
  }
  std::memcpy(pg.data(), data, h.hole_len == 0 ? storage::kBlockSize : h.hole_off);
  if (h.hole_len != 0) {
    std::memset(pg.data() + h.hole_off, 0, h.hole_len);
    std::memcpy(pg.data() + h.hole_off + h.hole_len, data + h.hole_off,
                storage::kBlockSize - h.hole_off - h.hole_len);
  }
}

}  // namespace

void AppendPageImage(Page pg, BlockHead* h, std::vector<uint8_t>* out) {
  h->flags |= kBlockIsImage;
  const uint16_t lower = pg.Lower(), upper = pg.Upper();
  if (lower >= storage::kPageHeaderSize && upper > lower && upper <= storage::kBlockSize) {
    h->hole_off = lower;
    h->hole_len = static_cast<uint16_t>(upper - lower);
  }
  Append(*out, pg.data(), h->hole_len == 0 ? storage::kBlockSize : h->hole_off);
  if (h->hole_len != 0) Append(*out, pg.data() + upper, storage::kBlockSize - upper);
}

void BlockRecord::Clear() {
  blocks_.clear();
  ops_.clear();
}

void BlockRecord::AddBlock(bool force_image) {
  if (!blocks_.empty()) blocks_.back().ops_end = ops_.size();
  blocks_.push_back(Block{force_image, 0, ops_.size(), ops_.size()});
}

void BlockRecord::AddOp(uint16_t kind, uint16_t off, std::string_view a, std::string_view b) {
  if (blocks_.empty()) throw std::logic_error("BlockRecord: operation before any block");
  OpHead oh{kind, off, static_cast<uint32_t>(a.size() + b.size())};
  ops_.append(reinterpret_cast<const char*>(&oh), sizeof(oh));
  ops_.append(a);
  ops_.append(b);
  ++blocks_.back().nops;
}

XLogRecPtr BlockRecord::Insert(RmgrId rmgr, uint8_t info, uint32_t xid,
                               std::span<storage::PinnedBuffer* const> bufs) {
  if (bufs.size() != blocks_.size()) throw std::logic_error("BlockRecord: buffers do not match blocks");
  if (!XLogIsStarted() || blocks_.empty()) return 0;
  // wal_level = minimal, a file this transaction created: it is logged whole
  // or synced at commit, so no change to it may be logged before (redo would
  // apply the change to a page whose earlier state was never logged).
  if (RelfileSkipsWal(bufs[0]->rel())) return 0;
  blocks_.back().ops_end = ops_.size();
  XLogRecPtr end = 0;
  int images = 0;
  // Image decisions hold only for the redo pointer they were taken against:
  // when a checkpoint moves it before our space is reserved, decide again.
  while (end == 0) {
    const XLogRecPtr redo = GetRedoRecPtr();
    payload_.clear();
    images = 0;
    for (size_t i = 0; i < blocks_.size(); ++i) {
      const Block& b = blocks_[i];
      Page pg = bufs[i]->page();
      BlockHead h{};
      h.rel = bufs[i]->rel().number.value;
      h.db = bufs[i]->rel().db;
      h.block = bufs[i]->block();
      const size_t head_at = payload_.size();
      Append(payload_, &h, sizeof(h));
      if (b.forced || pg.lsn() <= redo) {
        ++images;
        AppendPageImage(pg, &h, &payload_);
      } else {
        h.nops = b.nops;
        Append(payload_, ops_.data() + b.ops_begin, b.ops_end - b.ops_begin);
      }
      h.data_len = static_cast<uint32_t>(payload_.size() - head_at - sizeof(h));
      std::memcpy(payload_.data() + head_at, &h, sizeof(h));
    }
    const XLogPart part{payload_.data(), payload_.size()};
    end = XLogInsertIfRedoIs(redo, rmgr, info, xid, std::span<const XLogPart>(&part, 1), images);
  }
  for (storage::PinnedBuffer* b : bufs) b->page().set_lsn(end);
  g_images += static_cast<uint64_t>(images);
  return end;
}

BlockRecord& ScratchBlockRecord() {
  static BlockRecord rec;
  return rec;
}

uint64_t BlockRecordImages() { return g_images; }

void RedoBlocks(const XLogRecordView& rec, BlockOpFn apply, bool cleanup_lock) {
  const uint8_t* p = rec.payload.data();
  const uint8_t* end = p + rec.payload.size();
  while (p < end) {
    BlockHead h;
    if (end - p < static_cast<ptrdiff_t>(sizeof(h))) Malformed(rec, "short block header");
    std::memcpy(&h, p, sizeof(h));
    p += sizeof(h);
    if (end - p < static_cast<ptrdiff_t>(h.data_len)) Malformed(rec, "short block data");
    const uint8_t* data = p;
    p += h.data_len;
    const storage::RelFileLocator rel(h.db, h.rel);
    EnsureBlockExists(rel, h.block);
    const bool image = (h.flags & kBlockIsImage) != 0;
    storage::PinnedBuffer buf = storage::ReadBuffer(
        rel, ForkNumber::kMain, h.block, image ? storage::ReadMode::kZeroAndLock : storage::ReadMode::kNormal);
    if (!image) buf.Lock(storage::LWLockMode::kExclusive);
    if (cleanup_lock) LockBufferForCleanupInRedo(buf);
    Page pg = buf.page();
    if (pg.lsn() >= rec.end_lsn) continue;  // already has this change (idempotent replay)
    if (image) {
      RestoreImage(rec, pg, h, data);
    } else {
      ApplyOps(rec, pg, data, data + h.data_len, h.nops, apply);
    }
    pg.set_lsn(rec.end_lsn);
    buf.MarkDirty();
  }
}

}  // namespace hearth::access
