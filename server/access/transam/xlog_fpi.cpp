// access/transam/xlog_fpi.cpp
//
// Principal entry points: LogPageImages, XLogFpiRedo.
#include "access/transam/xlog_fpi.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "access/transam/pending_sync.h"
#include "access/transam/xlog.h"
#include "storage/smgr/smgr.h"

namespace hearth::access {

namespace {

struct ImageHead {
  uint32_t rel;
  uint32_t db;  // RelFileLocator::db
  uint32_t block;
  uint16_t fork;
  uint16_t hole_off;
  uint16_t hole_len;
  uint16_t reserved;
};
static_assert(sizeof(ImageHead) == 20);

void Append(std::vector<uint8_t>& out, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

[[noreturn]] void Malformed(const XLogRecordView& rec) {
  throw std::runtime_error("malformed page-image WAL record at " + std::to_string(rec.start_lsn));
}

}  // namespace

XLogRecPtr LogPageImages(std::span<storage::PinnedBuffer* const> pages, uint32_t xid) {
  if (!XLogIsStarted() || pages.empty()) return 0;
  if (pages.size() > kMaxFpiPages) throw std::logic_error("LogPageImages: too many pages");
  // wal_level = minimal, a file this transaction created: synced at commit.
  if (RelfileSkipsWal(pages[0]->rel())) return 0;
  static std::vector<uint8_t> payload;
  payload.clear();
  for (storage::PinnedBuffer* b : pages) {
    storage::Page pg = b->page();
    ImageHead h{};
    h.rel = b->rel().number.value;
    h.db = b->rel().db;
    h.block = b->block();
    h.fork = static_cast<uint16_t>(b->fork());
    const uint16_t lower = pg.Lower(), upper = pg.Upper();
    if (lower >= storage::kPageHeaderSize && upper > lower && upper <= storage::kBlockSize) {
      h.hole_off = lower;
      h.hole_len = static_cast<uint16_t>(upper - lower);
    }
    Append(payload, &h, sizeof(h));
    if (h.hole_len == 0) {
      Append(payload, pg.data(), storage::kBlockSize);
    } else {
      Append(payload, pg.data(), h.hole_off);
      Append(payload, pg.data() + upper, storage::kBlockSize - upper);
    }
  }
  const XLogPart part{payload.data(), payload.size()};
  const XLogRecPtr end = XLogInsert(kRmgrXLog, kXLogInfoFpi, xid, std::span<const XLogPart>(&part, 1), nullptr,
                                    static_cast<int>(pages.size()));
  for (storage::PinnedBuffer* b : pages) b->page().set_lsn(end);
  return end;
}

void XLogFpiRedo(const XLogRecordView& rec) {
  const uint8_t* p = rec.payload.data();
  const uint8_t* end = p + rec.payload.size();
  static const std::vector<char> zero(storage::kBlockSize, 0);
  while (p < end) {
    ImageHead h;
    if (end - p < static_cast<ptrdiff_t>(sizeof(h))) Malformed(rec);
    std::memcpy(&h, p, sizeof(h));
    p += sizeof(h);
    if (static_cast<size_t>(h.hole_off) + h.hole_len > storage::kBlockSize) Malformed(rec);
    const size_t len = storage::kBlockSize - h.hole_len;
    if (static_cast<size_t>(end - p) < len) Malformed(rec);
    const storage::RelFileLocator rel(h.db, h.rel);
    const auto fork = static_cast<storage::ForkNumber>(h.fork);
    if (!storage::SmgrExists(rel, fork)) {
      storage::Status st = storage::SmgrCreate(rel, fork, /*ok_if_exists=*/true);
      if (!st.ok()) throw std::runtime_error("redo could not create relation file: " + st.ToString());
    }
    for (storage::BlockNumber n = storage::SmgrNblocks(rel, fork); n <= h.block; ++n) {
      storage::Status st = storage::SmgrExtend(rel, fork, n, zero.data());
      if (!st.ok()) throw std::runtime_error("redo could not extend relation file: " + st.ToString());
    }
    storage::PinnedBuffer buf = storage::ReadBuffer(rel, fork, h.block, storage::ReadMode::kZeroAndLock);
    storage::Page pg = buf.page();
    if (pg.lsn() < rec.end_lsn) {
      if (h.hole_len == 0) {
        std::memcpy(pg.data(), p, storage::kBlockSize);
      } else {
        std::memcpy(pg.data(), p, h.hole_off);
        std::memset(pg.data() + h.hole_off, 0, h.hole_len);
        std::memcpy(pg.data() + h.hole_off + h.hole_len, p + h.hole_off, storage::kBlockSize - h.hole_off - h.hole_len);
      }
      pg.set_lsn(rec.end_lsn);
      buf.MarkDirty();
    }
    p += len;
  }
}

}  // namespace hearth::access
