// access/transam/xlog_insert.cpp
//
// Principal entry points: XLogStartup, XLogStartupInArea, XLogInsert,
// XLogShmemBytes. Space reservation and copying into the WAL buffers; buffer
// page initialisation (writing pages out when a buffer must be reused).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <new>
#include <stdexcept>

#include "access/transam/crc32c.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_internal.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_segment.h"
#include "access/transam/xlog_standby.h"
#include "access/transam/xlog_timeline.h"
#include "storage/file/disk_full.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access {

namespace xi = xlog_internal;

namespace {

xi::XLogShared* g_shared = nullptr;
std::atomic<uint64_t>* g_xlblocks = nullptr;
uint8_t* g_pages = nullptr;
std::string g_wal_dir;

int BufferIndex(XLogRecPtr page_lsn) {
  return static_cast<int>((page_lsn / kXLogPageSize) % static_cast<uint64_t>(g_shared->nbuffers));
}

void InitPageHeader(uint8_t* page, XLogRecPtr page_lsn) {
  std::memset(page, 0, kXLogPageSize);
  XLogPageHeader h{};
  h.magic = kXLogPageMagic;
  h.flags = 0;
  h.version = 1;
  h.page_addr = page_lsn;
  h.rem_len = 0;
  h.segment_kb = static_cast<uint32_t>(g_shared->segment_size / 1024);
  std::memcpy(page, &h, sizeof(h));
}

// Makes the buffer for page `page_lsn` hold that page, initialising every
// page up to it that is not yet initialised. The caller's slot must already
// advertise (inserting_at) that it has copied everything below page_lsn.
void AdvanceBuffers(XLogRecPtr page_lsn) {
  xi::XLogShared* sh = g_shared;
  for (;;) {
    if (g_xlblocks[BufferIndex(page_lsn)].load(std::memory_order_acquire) == page_lsn + kXLogPageSize) return;
    storage::LWLockGuard g(sh->buf_mapping_lock, storage::LWLockMode::kExclusive);
    bool must_write = false;
    XLogRecPtr old_end = 0;
    for (;;) {
      const XLogRecPtr next = sh->initialized_upto.load(std::memory_order_relaxed);
      if (next > page_lsn) break;
      const int idx = BufferIndex(next);
      old_end = g_xlblocks[idx].load(std::memory_order_acquire);
      if (old_end > sh->written_upto.load(std::memory_order_acquire)) {
        must_write = true;
        break;
      }
      InitPageHeader(g_pages + static_cast<size_t>(idx) * kXLogPageSize, next);
      g_xlblocks[idx].store(next + kXLogPageSize, std::memory_order_release);
      sh->initialized_upto.store(next + kXLogPageSize, std::memory_order_release);
    }
    if (!must_write) return;
    // The buffer still holds an unwritten page: write WAL out up to its end.
    // Never wait for insertions or WALWriteLock while holding the mapping lock.
    g.Release();
    sh->stats.wal_buffers_full.fetch_add(1, std::memory_order_relaxed);
    const XLogRecPtr done = xi::WaitInsertionsToFinish(old_end);
    sh->write_lock.Acquire(storage::LWLockMode::kExclusive);
    try {
      if (sh->written_upto.load(std::memory_order_relaxed) < old_end) xi::WriteLocked(std::max(done, old_end), false);
    } catch (...) {
      xi::ReleaseWriteLock();
      throw;
    }
    xi::ReleaseWriteLock();
  }
}

uint8_t* GetBuffer(XLogRecPtr page_lsn, xi::InsertSlot& slot, XLogRecPtr copied_upto) {
  const int idx = BufferIndex(page_lsn);
  if (g_xlblocks[idx].load(std::memory_order_acquire) != page_lsn + kXLogPageSize) {
    // May block: let flushers know everything of ours below copied_upto is in.
    slot.inserting_at.store(copied_upto, std::memory_order_release);
    g_shared->insert_done.NotifyAll();
    AdvanceBuffers(page_lsn);
  }
  return g_pages + static_cast<size_t>(idx) * kXLogPageSize;
}

// Copies the record (header, then parts) into the buffers from `start`.
void CopyRecord(XLogRecPtr start, const XLogRecordHeader& hdr, std::span<const XLogPart> parts, xi::InsertSlot& slot) {
  XLogRecPtr cur = start;
  uint32_t written = 0;  // record bytes copied so far
  uint8_t* page = GetBuffer(XLogPageStart(cur), slot, cur);
  auto copy = [&](const uint8_t* src, size_t len) {
    while (len > 0) {
      if (cur % kXLogPageSize == 0) {
        page = GetBuffer(cur, slot, cur);
        XLogPageHeader h;
        std::memcpy(&h, page, sizeof(h));
        h.flags |= kXLogPageContinuation;
        h.rem_len = hdr.total_len - written;
        std::memcpy(page, &h, sizeof(h));
        cur += kXLogPageHeaderSize;
      }
      const uint32_t off = static_cast<uint32_t>(cur % kXLogPageSize);
      const size_t n = std::min<size_t>(len, kXLogPageSize - off);
      std::memcpy(page + off, src, n);
      src += n;
      len -= n;
      cur += n;
      written += static_cast<uint32_t>(n);
    }
  };
  copy(reinterpret_cast<const uint8_t*>(&hdr), sizeof(hdr));
  for (const XLogPart& p : parts) copy(static_cast<const uint8_t*>(p.data), p.len);
}

void PositionInsertAt(XLogRecPtr end_of_wal, XLogRecPtr last_record);

// Finds the end of valid WAL and positions the insert pointer there.
XLogStartupInfo LocateEndOfWal(const XLogOptions& opts) {
  XLogStartupInfo info;
  const XLogRecPtr start = RecoveryStartLsn(opts.datadir);
  XLogRecPtr expected_prev = 0;
  info.scan_start = start;
  XLogReader reader(g_wal_dir, opts.segment_size);
  reader.Seek(start, expected_prev);
  while (reader.ReadRecord() != nullptr) info.records_scanned++;
  info.last_record = reader.LastRecordStart();
  info.end_of_wal = reader.EndOfWal();
  info.end_reason = reader.EndReason();
  if (auto label = ReadBackupLabel(opts.datadir)) CheckBackupWalPresent(*label, info.last_record);
  PositionInsertAt(info.end_of_wal, info.last_record);
  return info;
}

// Makes `end_of_wal` (a record start after valid WAL ending with the record
// at `last_record`) the insert position: nothing is written or flushed
// beyond it, and a mid-page end reloads the valid part of that page.
void PositionInsertAt(XLogRecPtr end_of_wal, XLogRecPtr last_record) {
  xi::XLogShared* sh = g_shared;
  const uint64_t pos = RecPtrToBytePos(end_of_wal);
  sh->cur_byte_pos = pos;
  sh->prev_lsn = last_record;
  const XLogRecPtr end_lsn = BytePosToEndRecPtr(pos);
  sh->written_upto.store(end_lsn);
  sh->flushed_upto.store(end_lsn);
  for (int i = 0; i < sh->nbuffers; i++) g_xlblocks[i].store(0);
  if (pos % kXLogUsablePerPage == 0) {
    // At a page boundary: the next page is initialised on first use.
    sh->initialized_upto.store(XLogPageStart(BytePosToRecPtr(pos)));
    return;
  }
  // Mid-page: load the valid part of that page so it is rewritten intact.
  const XLogRecPtr page_lsn = XLogPageStart(end_lsn);
  const int idx = BufferIndex(page_lsn);
  uint8_t* page = g_pages + static_cast<size_t>(idx) * kXLogPageSize;
  const std::string path = XLogSegmentPath(XLogSegNo(page_lsn, sh->segment_size));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("WAL: cannot reopen " + path + ": " + std::strerror(errno));
  ssize_t n = ::pread(fd, page, kXLogPageSize, static_cast<off_t>(page_lsn % sh->segment_size));
  ::close(fd);
  if (n != static_cast<ssize_t>(kXLogPageSize))
    throw std::runtime_error("WAL: cannot read back the last page of " + path);
  const size_t keep = static_cast<size_t>(end_lsn - page_lsn);
  std::memset(page + keep, 0, kXLogPageSize - keep);
  g_xlblocks[idx].store(page_lsn + kXLogPageSize);
  sh->initialized_upto.store(page_lsn + kXLogPageSize);
}

}  // namespace

namespace xlog_internal {

XLogShared* Shared() {
  if (g_shared == nullptr) throw std::logic_error("WAL used before XLogStartup");
  return g_shared;
}
std::atomic<uint64_t>* Xlblocks() { return g_xlblocks; }
uint8_t* BufferPage(int idx) { return g_pages + static_cast<size_t>(idx) * kXLogPageSize; }
const std::string& WalDir() { return g_wal_dir; }

XLogRecPtr ReservedEnd() {
  XLogShared* sh = Shared();
  uint64_t pos;
  {
    storage::SpinLockGuard g(sh->insert_pos_lck);
    pos = sh->cur_byte_pos;
  }
  return BytePosToEndRecPtr(pos);
}

XLogRecPtr WaitInsertionsToFinish(XLogRecPtr upto) {
  XLogShared* sh = Shared();
  const XLogRecPtr reserved = ReservedEnd();
  if (upto > reserved) upto = reserved;
  XLogRecPtr finished = reserved;
  for (int i = 0; i < sh->nslots; i++) {
    InsertSlot& slot = sh->slots[i];
    for (;;) {
      const uint32_t seen = sh->insert_done.Prepare();
      const XLogRecPtr at = slot.inserting_at.load(std::memory_order_acquire);
      if (at == 0) break;
      if (at >= upto) {
        finished = std::min(finished, at);
        break;
      }
      sh->insert_done.Wait(seen);
    }
  }
  return finished;
}

int64_t NowMicrosUnix() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
int64_t MonotonicNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace xlog_internal

size_t XLogShmemBytes(int wal_buffers) {
  return storage::ShmemParams::kWalAreaFixedBytes +
         static_cast<size_t>(wal_buffers) * storage::ShmemParams::kWalAreaPerBuffer;
}

XLogStartupInfo XLogStartup(storage::ShmemSegment& seg, const storage::ShmemParams& p, const XLogOptions& opts) {
  void* area = seg.Find(storage::ShmemParams::kWalAreaName);
  if (area == nullptr) throw std::logic_error("XLogStartup: no wal area in the shared segment");
  return XLogStartupInArea(area, p.WalAreaBytes(), p.wal_buffers, opts);
}

XLogStartupInfo XLogStartupInArea(void* area, size_t area_bytes, int wal_buffers, const XLogOptions& opts) {
  if (wal_buffers < 4) throw std::logic_error("XLogStartup: wal_buffers must be at least 4");
  if (area_bytes < XLogShmemBytes(wal_buffers)) throw std::logic_error("XLogStartup: wal area too small");
  if (opts.segment_size < kMinWalSegmentSize || (opts.segment_size & (opts.segment_size - 1)) != 0) {
    throw std::logic_error("XLogStartup: segment size must be a power of two >= 64 KiB");
  }
  xi::CloseWalFile();
  auto* base = static_cast<uint8_t*>(area);
  auto* sh = new (base) xi::XLogShared();
  sh->in_recovery.store(false);
  sh->insert_pos_lck.Init();
  sh->cur_byte_pos = 0;
  sh->prev_lsn = 0;
  for (xi::InsertSlot& s : sh->slots) {
    s.lock.Init();
    s.inserting_at.store(0);
  }
  sh->nslots = std::clamp(opts.insert_slots, 1, xi::kMaxInsertSlots);
  sh->insert_done.Init();
  sh->buf_mapping_lock.Init();
  sh->initialized_upto.store(0);
  sh->nbuffers = wal_buffers;
  sh->write_lock.Init();
  sh->written_upto.store(0);
  sh->flushed_upto.store(0);
  sh->flush_done.Init();
  sh->flush_request.store(0);
  sh->flush_requested.Init();
  sh->segment_lock.Init();
  sh->segments_ready_upto.store(0);
  sh->segment_size = opts.segment_size;
  sh->prealloc_segments = opts.prealloc_segments;
  sh->max_recycled_segments = opts.max_recycled_segments;
  sh->fsync.store(opts.fsync);
  sh->sync_method.store(static_cast<uint8_t>(opts.sync_method));
  sh->track_io_timing.store(opts.track_io_timing);
  sh->stats.stats_reset_us.store(xi::NowMicrosUnix());
  sh->slot_lock.Init();
  sh->max_replication_slots = std::clamp(opts.max_replication_slots, 0, xi::kMaxReplSlots);
  sh->timeline_count.store(0);

  g_xlblocks = new (base + xi::kXlblocksOffset) std::atomic<uint64_t>[static_cast<size_t>(wal_buffers)];
  for (int i = 0; i < wal_buffers; i++) g_xlblocks[i].store(0);
  g_pages =
      base + storage::AlignUp(xi::kXlblocksOffset + sizeof(uint64_t) * static_cast<size_t>(wal_buffers), kXLogPageSize);
  g_shared = sh;
  g_wal_dir = opts.datadir + "/pg_wal";
  std::filesystem::create_directories(g_wal_dir);
  std::filesystem::create_directories(opts.datadir + "/global");
  XLogLoadTimelines(g_wal_dir);

  XLogStartupInfo info = LocateEndOfWal(opts);
  try {
    XLogPreallocateSegments();
  } catch (const std::exception& e) {
    // A full disk must not keep the server from starting (or a crash reset
    // from finishing): recovery needs no new segment, the walwriter retries
    // and writers fail with 53100 until there is space.
    if (!storage::IsDiskFullError(e)) throw;
    info.prealloc_error = e.what();
  }
  return info;
}

bool XLogIsStarted() { return g_shared != nullptr; }

void XLogDetach() {
  if (g_shared == nullptr) return;
  xi::CloseWalFile();
  g_shared = nullptr;
}

uint64_t XLogSegmentSize() { return xi::Shared()->segment_size; }
std::string XLogWalDir() { return g_wal_dir; }
std::string XLogSegmentPath(uint64_t segno) {
  const uint64_t seg_size = xi::Shared()->segment_size;
  return g_wal_dir + "/" + XLogSegmentFileName(segno, seg_size, XLogTimelineOfSegment(segno, seg_size));
}

namespace {

// XLogInsert; with `expected_redo`, inserts nothing and returns 0 when the
// redo pointer differs from *expected_redo at reservation time.
XLogRecPtr InsertRecord(RmgrId rmgr, uint8_t info, uint32_t xid, std::span<const XLogPart> parts,
                        XLogRecPtr* start_lsn, int fpi_count, const XLogRecPtr* expected_redo) {
  // The insert position of a standby is stale: WAL arrives from the primary.
  if (RecoveryInProgress()) throw std::logic_error("cannot make new WAL entries during recovery");
  xi::XLogShared* sh = xi::Shared();
  uint64_t payload_len = 0;
  uint32_t crc = kCrc32cInit;
  for (const XLogPart& p : parts) {
    payload_len += p.len;
    crc = Crc32cUpdate(crc, p.data, p.len);
  }
  if (payload_len > kXLogMaxRecordSize - kXLogRecordHeaderSize) throw std::length_error("WAL record too large");
  XLogRecordHeader hdr{};
  hdr.total_len = static_cast<uint32_t>(kXLogRecordHeaderSize + payload_len);
  hdr.xid = xid;
  hdr.rmgr = rmgr;
  hdr.info = info;
  const uint64_t size = XLogAlignUp(hdr.total_len);

  const storage::ProcNumber me = storage::MyProcNumber();
  xi::InsertSlot& slot = sh->slots[(me < 0 ? 0 : me) % sh->nslots];
  slot.lock.Acquire(storage::LWLockMode::kExclusive);
  uint64_t start_pos = 0;
  bool redo_moved = false;
  {
    storage::SpinLockGuard g(sh->insert_pos_lck);
    if (expected_redo != nullptr && sh->redo_rec_ptr.load(std::memory_order_relaxed) != *expected_redo) {
      redo_moved = true;
    } else {
      start_pos = sh->cur_byte_pos;
      sh->cur_byte_pos = start_pos + size;
      hdr.prev_lsn = sh->prev_lsn;
      sh->prev_lsn = BytePosToRecPtr(start_pos);
      slot.inserting_at.store(BytePosToRecPtr(start_pos), std::memory_order_relaxed);
    }
  }
  if (redo_moved) {
    slot.lock.Release(storage::LWLockMode::kExclusive);
    return kInvalidXLogRecPtr;
  }
  const XLogRecPtr start = BytePosToRecPtr(start_pos);
  const XLogRecPtr end = BytePosToEndRecPtr(start_pos + size);
  hdr.crc = Crc32cFinish(Crc32cUpdate(crc, &hdr, kXLogRecordHeaderCrcOffset));
  try {
    CopyRecord(start, hdr, parts, slot);
  } catch (...) {
    // A failed eviction write leaves WAL in an unknown state; callers PANIC.
    slot.inserting_at.store(0, std::memory_order_release);
    slot.lock.Release(storage::LWLockMode::kExclusive);
    sh->insert_done.NotifyAll();
    throw;
  }
  slot.inserting_at.store(0, std::memory_order_release);
  slot.lock.Release(storage::LWLockMode::kExclusive);
  sh->insert_done.NotifyAll();

  sh->stats.wal_records.fetch_add(1, std::memory_order_relaxed);
  sh->stats.wal_bytes.fetch_add(hdr.total_len, std::memory_order_relaxed);
  if (fpi_count > 0) sh->stats.wal_fpi.fetch_add(fpi_count, std::memory_order_relaxed);
  if (xid != 0) {
    if (storage::ProcSlot* p = storage::MyProc()) p->wrote_wal.store(true, std::memory_order_relaxed);
  }
  if (start_lsn != nullptr) *start_lsn = start;
  return end;
}

}  // namespace

void XLogResetInsertPosition(XLogRecPtr end_of_wal, XLogRecPtr last_record) {
  xi::CloseWalFile();
  PositionInsertAt(end_of_wal, last_record);
}

XLogRecPtr XLogInsert(RmgrId rmgr, uint8_t info, uint32_t xid, std::span<const XLogPart> parts, XLogRecPtr* start_lsn,
                      int fpi_count) {
  return InsertRecord(rmgr, info, xid, parts, start_lsn, fpi_count, nullptr);
}

XLogRecPtr XLogInsertIfRedoIs(XLogRecPtr expected_redo, RmgrId rmgr, uint8_t info, uint32_t xid,
                              std::span<const XLogPart> parts, int fpi_count) {
  return InsertRecord(rmgr, info, xid, parts, nullptr, fpi_count, &expected_redo);
}

}  // namespace hearth::access
