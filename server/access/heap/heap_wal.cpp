// access/heap/heap_wal.cpp
//
// Principal entry points: HeapWalRecord (building), HeapRedo (replay).
#include "access/heap/heap_wal.h"

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "access/heap/htup.h"
#include "access/transam/pending_sync.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_rmgr.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

namespace {

using storage::ForkNumber;
using storage::OffsetNumber;
using storage::Page;

constexpr uint16_t kBlockImage = 0x0001;
constexpr uint16_t kOpInit = 1;
constexpr uint16_t kOpPutTuple = 2;
constexpr uint16_t kOpSetHeader = 3;
// Header fields a delete/update/lock changes: xmin .. t_infomask.
constexpr size_t kMvccHeaderBytes = offsetof(access::HeapTupleHeaderData, t_hoff);

struct BlockHead {
  uint32_t rel;
  uint32_t block;
  uint16_t flags;
  uint16_t nops;
  uint16_t hole_off;
  uint16_t hole_len;
  uint32_t data_len;
};
static_assert(sizeof(BlockHead) == 20);

struct OpHead {
  uint16_t kind;
  uint16_t off;
  uint32_t len;
};
static_assert(sizeof(OpHead) == 8);

struct PendingBlock {
  PinnedBuffer* buf;
  bool forced;  // always an image (prune, vacuum)
  bool image;   // decided at Insert against the redo pointer
  size_t first_op;
  size_t end_op;
};

struct Op {
  uint16_t kind;
  OffsetNumber off;
};

// Process-local scratch: reused by every record (no per-row allocation).
struct Scratch {
  PendingBlock blocks[2];
  std::vector<Op> ops;
  std::vector<uint8_t> payload;
  uint64_t fpi_total = 0;
};
Scratch& S() {
  static Scratch s;
  return s;
}

void Append(std::vector<uint8_t>& out, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

// Serialises one block at its current page state.
void EncodeBlock(const PendingBlock& pb, std::vector<uint8_t>& out) {
  Page pg = pb.buf->page();
  BlockHead h{};
  h.rel = pb.buf->rel().number.value;
  h.block = pb.buf->block();
  const size_t head_at = out.size();
  Append(out, &h, sizeof(h));
  const size_t data_at = out.size();
  if (pb.image) {
    h.flags = kBlockImage;
    const uint16_t lower = pg.Lower(), upper = pg.Upper();
    if (lower >= storage::kPageHeaderSize && upper > lower && upper <= storage::kBlockSize) {
      h.hole_off = lower;
      h.hole_len = static_cast<uint16_t>(upper - lower);
    }
    Append(out, pg.data(), h.hole_len == 0 ? storage::kBlockSize : h.hole_off);
    if (h.hole_len != 0) Append(out, pg.data() + upper, storage::kBlockSize - upper);
  } else {
    auto& ops = S().ops;
    for (size_t i = pb.first_op; i < pb.end_op; ++i) {
      OpHead oh{ops[i].kind, ops[i].off, 0};
      const char* bytes = nullptr;
      uint32_t prune = 0;
      if (oh.kind == kOpPutTuple) {
        std::span<char> item = pg.GetItem(oh.off);
        bytes = item.data();
        oh.len = static_cast<uint32_t>(item.size());
      } else if (oh.kind == kOpSetHeader) {
        prune = pg.prune_xid();
        bytes = pg.GetItem(oh.off).data();
        oh.len = static_cast<uint32_t>(sizeof(prune) + kMvccHeaderBytes);
      }
      Append(out, &oh, sizeof(oh));
      if (oh.kind == kOpSetHeader) {
        Append(out, &prune, sizeof(prune));
        Append(out, bytes, kMvccHeaderBytes);
      } else if (oh.len > 0) {
        Append(out, bytes, oh.len);
      }
      h.nops++;
    }
  }
  h.data_len = static_cast<uint32_t>(out.size() - data_at);
  std::memcpy(out.data() + head_at, &h, sizeof(h));
}

// Makes sure block `block` of `rel` exists on disk (creating the file and
// zero pages as needed): replay may meet a relation whose file was removed
// later (its drop is replayed after) or a page never written before the crash.
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

[[noreturn]] void Malformed(const access::XLogRecordView& rec, const char* why) {
  throw std::runtime_error(std::string("malformed heap WAL record at ") + std::to_string(rec.start_lsn) + ": " + why);
}

void ApplyOps(const access::XLogRecordView& rec, Page pg, const uint8_t* p, const uint8_t* end, uint16_t nops) {
  for (uint16_t i = 0; i < nops; ++i) {
    OpHead oh;
    if (end - p < static_cast<ptrdiff_t>(sizeof(oh))) Malformed(rec, "short operation");
    std::memcpy(&oh, p, sizeof(oh));
    p += sizeof(oh);
    if (end - p < static_cast<ptrdiff_t>(oh.len)) Malformed(rec, "short operation data");
    switch (oh.kind) {
      case kOpInit:
        pg.Init(0);
        break;
      case kOpPutTuple: {
        const OffsetNumber got = pg.AddItem(std::span<const char>(reinterpret_cast<const char*>(p), oh.len));
        if (got != oh.off) {
          throw std::runtime_error("heap redo at " + std::to_string(rec.start_lsn) + ": tuple went to slot " +
                                   std::to_string(got) + ", expected " + std::to_string(oh.off));
        }
        break;
      }
      case kOpSetHeader: {
        if (oh.len != sizeof(uint32_t) + kMvccHeaderBytes) Malformed(rec, "bad header length");
        if (oh.off < storage::kFirstOffsetNumber || oh.off > pg.MaxOffset() || !pg.GetItemId(oh.off).IsNormal()) {
          throw std::runtime_error("heap redo at " + std::to_string(rec.start_lsn) + ": no tuple at slot " +
                                   std::to_string(oh.off));
        }
        uint32_t prune;
        std::memcpy(&prune, p, sizeof(prune));
        pg.set_prune_xid(prune);
        std::memcpy(pg.GetItem(oh.off).data(), p + sizeof(prune), kMvccHeaderBytes);
        break;
      }
      default:
        Malformed(rec, "unknown operation");
    }
    p += oh.len;
  }
}

}  // namespace

HeapWalRecord::HeapWalRecord(uint8_t info) : info_(info) { S().ops.clear(); }

void HeapWalRecord::Block(PinnedBuffer& buf, bool force_image) {
  if (nblocks_ >= 2) throw std::logic_error("HeapWalRecord: more than two blocks");
  if (nblocks_ > 0) S().blocks[nblocks_ - 1].end_op = S().ops.size();
  S().blocks[nblocks_++] = PendingBlock{&buf, force_image, false, S().ops.size(), S().ops.size()};
}

void HeapWalRecord::InitPage() { S().ops.push_back(Op{kOpInit, 0}); }
void HeapWalRecord::PutTuple(OffsetNumber off) { S().ops.push_back(Op{kOpPutTuple, off}); }
void HeapWalRecord::SetHeader(OffsetNumber off) { S().ops.push_back(Op{kOpSetHeader, off}); }

access::XLogRecPtr HeapWalRecord::Insert(access::TransactionId xid) {
  if (!access::XLogIsStarted() || nblocks_ == 0) return 0;
  Scratch& s = S();
  // wal_level = minimal, a file this transaction created: synced at commit.
  if (access::RelfileSkipsWal(s.blocks[0].buf->rel())) return 0;
  s.blocks[nblocks_ - 1].end_op = s.ops.size();
  int fpi = 0;
  access::XLogRecPtr end = 0;
  // Image decisions hold only for the redo pointer they were taken against:
  // if a checkpoint moves it before our space is reserved, decide again (a
  // record after the new redo point must not rely on the on-disk page, which
  // that checkpoint may write torn).
  while (end == 0) {
    const access::XLogRecPtr redo = access::GetRedoRecPtr();
    s.payload.clear();
    fpi = 0;
    for (int i = 0; i < nblocks_; ++i) {
      PendingBlock& pb = s.blocks[i];
      pb.image = pb.forced || pb.buf->page().lsn() <= redo;
      EncodeBlock(pb, s.payload);
      if (pb.image) ++fpi;
    }
    const access::XLogPart part{s.payload.data(), s.payload.size()};
    end = access::XLogInsertIfRedoIs(redo, access::kRmgrHeap, info_, xid,
                                     std::span<const access::XLogPart>(&part, 1), fpi);
  }
  for (int i = 0; i < nblocks_; ++i) s.blocks[i].buf->page().set_lsn(end);
  s.fpi_total += static_cast<uint64_t>(fpi);
  return end;
}

uint64_t HeapWalFullPageImages() { return S().fpi_total; }

void RegisterHeapRmgr() { access::RegisterRmgr(access::kRmgrHeap, "Heap", HeapRedo); }

void HeapRedo(const access::XLogRecordView& rec) {
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
    const storage::RelFileLocator rel(h.rel);
    EnsureBlockExists(rel, h.block);
    const bool image = (h.flags & kBlockImage) != 0;
    PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, h.block,
                                           image ? storage::ReadMode::kZeroAndLock : storage::ReadMode::kNormal);
    if (!image) buf.Lock(storage::LWLockMode::kExclusive);
    Page pg = buf.page();
    if (pg.lsn() >= rec.end_lsn) continue;  // already has this change (idempotent replay)
    if (image) {
      if (static_cast<size_t>(h.data_len) + h.hole_len != storage::kBlockSize ||
          static_cast<size_t>(h.hole_off) + h.hole_len > storage::kBlockSize) {
        Malformed(rec, "bad page image length");
      }
      std::memcpy(pg.data(), data, h.hole_off == 0 && h.hole_len == 0 ? storage::kBlockSize : h.hole_off);
      if (h.hole_len != 0) {
        std::memset(pg.data() + h.hole_off, 0, h.hole_len);
        std::memcpy(pg.data() + h.hole_off + h.hole_len, data + h.hole_off,
                    storage::kBlockSize - h.hole_off - h.hole_len);
      }
    } else {
      ApplyOps(rec, pg, data, data + h.data_len, h.nops);
    }
    pg.set_lsn(rec.end_lsn);
    buf.MarkDirty();
  }
}

}  // namespace hearth::heap
