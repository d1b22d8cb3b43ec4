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
#include "access/transam/xlog_blocks.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_rmgr.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::heap {

namespace {

using storage::ForkNumber;
using storage::OffsetNumber;
using storage::Page;

using access::BlockHead;
using OpHead = access::BlockOpHead;

constexpr uint16_t kOpInit = 1;
constexpr uint16_t kOpPutTuple = 2;
constexpr uint16_t kOpSetHeader = 3;
constexpr uint16_t kOpPrune = 4;
// Header fields a delete/update/lock changes: xmin .. t_infomask.
constexpr size_t kMvccHeaderBytes = offsetof(access::HeapTupleHeaderData, t_hoff);

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
  std::vector<uint16_t> pruned;  // kOpPrune's encoded plan after prune_xid (one prune per record)
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
  h.db = pb.buf->rel().db;
  h.block = pb.buf->block();
  const size_t head_at = out.size();
  Append(out, &h, sizeof(h));
  const size_t data_at = out.size();
  if (pb.image) {
    access::AppendPageImage(pg, &h, &out);
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
      if (oh.kind == kOpPrune) {
        prune = pg.prune_xid();
        oh.len = static_cast<uint32_t>(sizeof(prune) + S().pruned.size() * sizeof(uint16_t));
        Append(out, &oh, sizeof(oh));
        Append(out, &prune, sizeof(prune));
        Append(out, S().pruned.data(), S().pruned.size() * sizeof(uint16_t));
        h.nops++;
        continue;
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

[[noreturn]] void Malformed(const access::XLogRecordView& rec, const char* why) {
  throw std::runtime_error(std::string("malformed heap WAL record at ") + std::to_string(rec.start_lsn) + ": " + why);
}

// Redo of kOpPrune: the logged plan, checked against the page, then applied
// with the same defragmentation.
void RedoPrune(const access::XLogRecordView& rec, Page pg, std::span<const uint8_t> data) {
  const size_t n16 = data.size() >= sizeof(uint32_t) ? (data.size() - sizeof(uint32_t)) / 2 : 0;
  if (data.size() < sizeof(uint32_t) + 6 || (data.size() - sizeof(uint32_t)) % 2 != 0) Malformed(rec, "bad prune length");
  std::vector<uint16_t> v(n16);
  std::memcpy(v.data(), data.data() + sizeof(uint32_t), n16 * 2);
  const size_t nredirect = v[0], ndead = v[1], nunused = v[2];
  if (3 + 2 * nredirect + ndead + nunused != n16) Malformed(rec, "bad prune counts");
  static PrunePlan plan;
  plan.clear();
  size_t at = 3;
  auto check = [&](OffsetNumber off) {
    if (off < storage::kFirstOffsetNumber || off > pg.MaxOffset()) {
      throw std::runtime_error("heap redo at " + std::to_string(rec.start_lsn) + ": cannot prune slot " +
                               std::to_string(off));
    }
    return off;
  };
  for (size_t i = 0; i < nredirect; ++i, at += 2) plan.redirects.emplace_back(check(v[at]), check(v[at + 1]));
  for (size_t i = 0; i < ndead; ++i) plan.dead.push_back(check(v[at++]));
  for (size_t i = 0; i < nunused; ++i) plan.unused.push_back(check(v[at++]));
  ApplyPrune(pg, plan, /*compact=*/true);
  uint32_t prune;
  std::memcpy(&prune, data.data(), sizeof(prune));
  pg.set_prune_xid(prune);
}

// Replays one operation of a heap block (access::RedoBlocks callback).
void ApplyHeapOp(const access::XLogRecordView& rec, Page pg, uint16_t kind, OffsetNumber off,
                 std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  const size_t len = data.size();
  switch (kind) {
    case kOpInit:
      pg.Init(0);
      break;
    case kOpPutTuple: {
      const OffsetNumber got = pg.AddItem(std::span<const char>(reinterpret_cast<const char*>(p), len));
      if (got != off) {
        throw std::runtime_error("heap redo at " + std::to_string(rec.start_lsn) + ": tuple went to slot " +
                                 std::to_string(got) + ", expected " + std::to_string(off));
      }
      break;
    }
    case kOpSetHeader: {
      if (len != sizeof(uint32_t) + kMvccHeaderBytes) Malformed(rec, "bad header length");
      if (off < storage::kFirstOffsetNumber || off > pg.MaxOffset() || !pg.GetItemId(off).IsNormal()) {
        throw std::runtime_error("heap redo at " + std::to_string(rec.start_lsn) + ": no tuple at slot " +
                                 std::to_string(off));
      }
      uint32_t prune;
      std::memcpy(&prune, p, sizeof(prune));
      pg.set_prune_xid(prune);
      std::memcpy(pg.GetItem(off).data(), p + sizeof(prune), kMvccHeaderBytes);
      break;
    }
    case kOpPrune:
      RedoPrune(rec, pg, data);
      break;
    default:
      Malformed(rec, "unknown operation");
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
// kOpPrune data after prune_xid: u16 nredirect, u16 ndead, u16 nunused,
// then nredirect × (from, to), the dead offsets, the unused offsets.
void HeapWalRecord::Prune(const PrunePlan& plan) {
  auto& v = S().pruned;
  v.clear();
  v.push_back(static_cast<uint16_t>(plan.redirects.size()));
  v.push_back(static_cast<uint16_t>(plan.dead.size()));
  v.push_back(static_cast<uint16_t>(plan.unused.size()));
  for (const auto& [from, to] : plan.redirects) {
    v.push_back(from);
    v.push_back(to);
  }
  v.insert(v.end(), plan.dead.begin(), plan.dead.end());
  v.insert(v.end(), plan.unused.begin(), plan.unused.end());
  S().ops.push_back(Op{kOpPrune, 0});
}

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
  // Pruning and vacuum move tuples within the page: not under a reader.
  const bool moves_tuples = rec.header.info == kHeapInfoPrune || rec.header.info == kHeapInfoVacuum;
  access::RedoBlocks(rec, ApplyHeapOp, moves_tuples);
}

}  // namespace hearth::heap
