// access/nbtree/nbtxlog.cpp
//
// B-tree WAL records (rmgr kRmgrBtree) and their redo. Each record lists
// the pages one change touched (leaf insert; a split: left half, new right
// half, old right sibling, and the parent levels it climbs; a new root and
// the metapage; a vacuumed leaf), all in one record so recovery never sees
// a split without its downlink. Pages logged for the first time after the
// checkpoint's redo point are images; the others carry small operations:
//   insert      InsertItemAt(item, off)                 leaf or downlink
//   delete      RemoveItem for each logged offset       VACUUM
//   split left  rebuild the left half from the old page, the new item, the
//               split position and the separator (the right half, a new
//               page, is always an image)
//   set left    the old right sibling's new left link
// Principal entry points: LogBtRecord, BtRedo, RegisterBtreeRmgr.
#include <cstring>
#include <stdexcept>
#include <string>

#include "access/nbtree/nbtree_internal.h"
#include "access/transam/xact.h"
#include "access/transam/xlog_blocks.h"
#include "access/transam/xlog_fpi.h"
#include "access/transam/xlog_rmgr.h"

namespace hearth::nbtree {
namespace {

[[noreturn]] void RedoFailed(const access::XLogRecordView& rec, const std::string& what) {
  throw std::runtime_error("btree redo at " + std::to_string(rec.start_lsn) + ": " + what);
}

void RedoSplitLeft(const access::XLogRecordView& rec, Page pg, OffsetNumber off, std::span<const uint8_t> d) {
  uint32_t right;
  uint16_t k, sep_len;
  if (d.size() < 8) RedoFailed(rec, "short split record");
  std::memcpy(&right, d.data(), 4);
  std::memcpy(&k, d.data() + 4, 2);
  std::memcpy(&sep_len, d.data() + 6, 2);
  if (d.size() < 8u + sep_len) RedoFailed(rec, "short split separator");
  const std::string_view sep(reinterpret_cast<const char*>(d.data()) + 8, sep_len);
  const std::span<const char> item(reinterpret_cast<const char*>(d.data()) + 8 + sep_len, d.size() - 8 - sep_len);
  if (off < FirstDataOffset(pg) || off > pg.MaxOffset() + 1u) RedoFailed(rec, "split offset out of range");
  static std::vector<std::span<const char>> items;
  CollectSplitItems(pg, item, off, &items);
  if (k == 0 || k >= items.size()) RedoFailed(rec, "bad split position");
  alignas(8) static char lbuf[storage::kBlockSize];
  alignas(8) static char rbuf[storage::kBlockSize];
  if (!BuildSplitHalves(pg, items, k, sep, 0, right, Page(lbuf), Page(rbuf)))
    RedoFailed(rec, "split halves do not fit");
  std::memcpy(pg.data(), lbuf, storage::kBlockSize);
}

void ApplyBtOp(const access::XLogRecordView& rec, Page pg, uint16_t kind, uint16_t off,
               std::span<const uint8_t> d) {
  switch (kind) {
    case kBtOpInsert: {
      if (off < storage::kFirstOffsetNumber || off > pg.MaxOffset() + 1u) RedoFailed(rec, "insert offset out of range");
      std::span<const char> item(reinterpret_cast<const char*>(d.data()), d.size());
      if (pg.InsertItemAt(item, off) != off) RedoFailed(rec, "item does not fit at " + std::to_string(off));
      return;
    }
    case kBtOpDelete:
      for (size_t i = 0; i + 2 <= d.size(); i += 2) {
        uint16_t o;
        std::memcpy(&o, d.data() + i, 2);
        if (o < storage::kFirstOffsetNumber || o > pg.MaxOffset()) RedoFailed(rec, "delete offset out of range");
        pg.RemoveItem(o);
      }
      return;
    case kBtOpSplitLeft:
      RedoSplitLeft(rec, pg, off, d);
      return;
    case kBtOpSetLeft:
      if (d.size() != 4) RedoFailed(rec, "bad left link");
      std::memcpy(&Opaque(pg)->left, d.data(), 4);
      return;
    default:
      RedoFailed(rec, "unknown operation " + std::to_string(kind));
  }
}

void BtRedo(const access::XLogRecordView& rec) { access::RedoBlocks(rec, ApplyBtOp); }

const char* BtDesc(uint8_t info) {
  switch (info) {
    case kBtInfoInsert: return "INSERT";
    case kBtInfoSplit: return "SPLIT";
    case kBtInfoNewRoot: return "NEWROOT";
    case kBtInfoVacuum: return "VACUUM";
    case kBtInfoDeleteDead: return "DELETE_DEAD";
    default: return "UNKNOWN";
  }
}

}  // namespace

void LogBtRecord(uint8_t info, std::span<PinnedBuffer> pages) {
  PinnedBuffer* ptrs[access::kMaxFpiPages];
  if (pages.size() > access::kMaxFpiPages) throw std::logic_error("nbtree: one change touched too many pages to log");
  for (size_t i = 0; i < pages.size(); ++i) ptrs[i] = &pages[i];
  // The xid only tags the record: B-tree changes are redone whatever the
  // transaction's fate (an entry pointing at a dead tuple is tolerated).
  access::ScratchBlockRecord().Insert(access::kRmgrBtree, info, access::GetCurrentTransactionIdIfAny(),
                                      std::span<PinnedBuffer* const>(ptrs, pages.size()));
}

void DeleteLeafEntries(PinnedBuffer& leaf, std::span<const OffsetNumber> offsets, uint8_t info) {
  if (offsets.empty()) return;
  Page p = leaf.page();
  for (OffsetNumber off : offsets) p.RemoveItem(off);
  leaf.MarkDirty();
  access::BlockRecord& rec = access::ScratchBlockRecord();
  rec.Clear();
  rec.AddBlock();
  rec.AddOp(kBtOpDelete, 0,
            std::string_view(reinterpret_cast<const char*>(offsets.data()), offsets.size() * sizeof(OffsetNumber)));
  LogBtRecord(info, std::span<PinnedBuffer>(&leaf, 1));
}

void RegisterBtreeRmgr() { access::RegisterRmgr(access::kRmgrBtree, "Btree", BtRedo, BtDesc); }

}  // namespace hearth::nbtree
