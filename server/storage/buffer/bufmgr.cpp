// storage/buffer/bufmgr.cpp
//
// Principal entry points: ReadBuffer, ExtendRelation, PinnedBuffer (pin,
// lock, MarkDirty, release), FlushAllBuffers, DropRelationsBuffers,
// DropRelationBuffersFrom, BgBufferSync, BufferShmemInit.
// See also freelist.cpp (replacement), buf_table.cpp (mapping table) and
// README.md (invariants and lock order).
#include "storage/buffer/bufmgr.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/buffer/buf_internals.h"
#include "storage/file/disk_full.h"
#include "storage/smgr/smgr.h"

namespace hearth::storage {

BufferDesc* g_buffer_descs = nullptr;
char* g_buffer_pages = nullptr;
StrategyControl* g_strategy = nullptr;
int g_nbuffers = 0;

namespace {

// Backend-private pin counts, one per buffer: the shared refcount counts
// processes, this counts pins within the process.
std::vector<int32_t> g_private_refcount;
int g_private_pins = 0;

XLogFlushHookFn g_xlog_flush_hook = nullptr;
XLogNeedsFlushHookFn g_xlog_needs_flush_hook = nullptr;
XLogRequestFlushHookFn g_xlog_request_flush_hook = nullptr;

// Which path the last DropRelationsBuffers call of this process took.
bool g_last_drop_used_lookup = false;

// Above this many relations DropRelationsBuffers binary-searches a sorted array.
constexpr size_t kDropRelsBsearchThreshold = 20;

enum class WriteContext { kBackend, kBgWriter, kCheckpoint, kOther };

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void BackoffSpin(int& spins) {
  if (++spins < 100) {
    CpuRelax();
  } else if (spins < 1000) {
    sched_yield();
  } else {
    usleep(100);
    CheckPostmasterAlive();
    spins = 100;
  }
}

RelFileLocator TagRel(const BufferTag& t) { return RelFileLocator::FromKey(t.rel); }
ForkNumber TagFork(const BufferTag& t) { return static_cast<ForkNumber>(t.fork); }

std::string RelName(const BufferTag& t) { return RelPath(TagRel(t), TagFork(t)); }

// ---- pins ---------------------------------------------------------------------

// Pins a buffer found through the mapping table (caller holds its partition
// lock, so the tag cannot change). Bumps the usage count: +1 up to 5 normally,
// only 0 -> 1 under a ring strategy (bulk pages should not look hot).
// Returns whether the buffer is VALID.
bool PinBuffer(BufferId id, BufferAccessStrategy* strategy) {
  BufferDesc& d = GetBufferDesc(id);
  int32_t& ref = g_private_refcount[static_cast<size_t>(id)];
  bool valid;
  if (ref == 0) {
    uint32_t old = d.state.load(std::memory_order_relaxed);
    for (;;) {
      if (old & kBufLocked) old = WaitBufHdrUnlocked(d);
      uint32_t nw = old + 1;
      if (strategy == nullptr) {
        if (BufUsage(nw) < kBufMaxUsage) nw += kBufUsageOne;
      } else if (BufUsage(nw) == 0) {
        nw += kBufUsageOne;
      }
      if (d.state.compare_exchange_weak(old, nw, std::memory_order_acq_rel, std::memory_order_relaxed)) {
        valid = (nw & kBufValid) != 0;
        break;
      }
    }
    g_private_pins++;
  } else {
    valid = (d.state.load(std::memory_order_acquire) & kBufValid) != 0;
  }
  ref++;
  return valid;
}

// Pins a buffer whose header we hold locked (state `st`); unlocks the header.
// No usage bump. If this process already pins it only the private count moves.
void PinBufferLocked(BufferId id, uint32_t st) {
  BufferDesc& d = GetBufferDesc(id);
  int32_t& ref = g_private_refcount[static_cast<size_t>(id)];
  if (ref == 0) {
    st += 1;
    g_private_pins++;
  }
  UnlockBufHdr(d, st);
  ref++;
}

void UnpinBuffer(BufferId id) {
  int32_t& ref = g_private_refcount[static_cast<size_t>(id)];
  if (--ref > 0) return;
  g_private_pins--;
  BufferDesc& d = GetBufferDesc(id);
  uint32_t old = d.state.load(std::memory_order_relaxed);
  for (;;) {
    if (old & kBufLocked) old = WaitBufHdrUnlocked(d);
    if (d.state.compare_exchange_weak(old, old - 1, std::memory_order_acq_rel, std::memory_order_relaxed)) return;
  }
}

// ---- I/O state ---------------------------------------------------------------------

void WaitIO(BufferId id) {
  BufferDesc& d = GetBufferDesc(id);
  for (;;) {
    uint32_t seen = d.io_cv.Prepare();
    if ((d.state.load(std::memory_order_acquire) & kBufIoInProgress) == 0) return;
    d.io_cv.Wait(seen);
  }
}

// Claims the right to do I/O on the buffer. Returns false if there is nothing
// to do any more: for input the page became VALID (someone else read it), for
// output it is no longer DIRTY.
bool StartBufferIO(BufferId id, bool for_input) {
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st;
  for (;;) {
    st = LockBufHdr(d);
    if ((st & kBufIoInProgress) == 0) break;
    UnlockBufHdr(d, st);
    WaitIO(id);
  }
  if (for_input ? (st & kBufValid) != 0 : (st & kBufDirty) == 0) {
    UnlockBufHdr(d, st);
    return false;
  }
  UnlockBufHdr(d, st | kBufIoInProgress);
  return true;
}

// Ends I/O: clears IO_IN_PROGRESS (and IO_ERROR), clears DIRTY when asked and
// the page was not re-dirtied during the write, ORs in set_flags, wakes waiters.
void TerminateBufferIO(BufferId id, bool clear_dirty, uint32_t set_flags) {
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  st &= ~(kBufIoInProgress | kBufIoError);
  if (clear_dirty && (st & kBufJustDirtied) == 0) st &= ~(kBufDirty | kBufCheckpointNeeded);
  st |= set_flags;
  UnlockBufHdr(d, st);
  d.io_cv.NotifyAll();
}

void CountWrite(WriteContext ctx) {
  switch (ctx) {
    case WriteContext::kBackend: g_strategy->buffers_backend.fetch_add(1, std::memory_order_relaxed); break;
    case WriteContext::kCheckpoint: g_strategy->buffers_checkpoint.fetch_add(1, std::memory_order_relaxed); break;
    case WriteContext::kBgWriter: g_strategy->buffers_clean.fetch_add(1, std::memory_order_relaxed); break;
    case WriteContext::kOther: break;
  }
}

// Writes a dirty buffer. REQUIRES: pinned and content-locked (shared is
// enough) by this process. The WAL rule lives here and only here: WAL is
// flushed up to the page LSN before the page goes to disk. The page is copied
// first so the checksum covers exactly the bytes written even if a hint bit
// changes under a shared lock. Returns whether it wrote (false: not dirty).
namespace {

// The I/O abort path: an output I/O that does not reach Finish() (a failed
// write, or an exception from the WAL hook) ends with IO_ERROR set and
// IO_IN_PROGRESS cleared, so waiters wake and the buffer stays dirty for a
// later attempt instead of being stuck in I/O forever.
class OutputIo {
 public:
  explicit OutputIo(BufferId id) : id_(id) {}
  ~OutputIo() {
    if (!done_) TerminateBufferIO(id_, /*clear_dirty=*/false, kBufIoError);
  }
  OutputIo(const OutputIo&) = delete;
  OutputIo& operator=(const OutputIo&) = delete;
  void Finish() {
    TerminateBufferIO(id_, /*clear_dirty=*/true, 0);
    done_ = true;
  }

 private:
  BufferId id_;
  bool done_ = false;
};

// Flushes WAL up to `lsn` through the hook, turning its exception into a
// Status: callers hold the content lock and pin, and release them on the
// Status path.
Status FlushWalFor(uint64_t lsn) {
  if (g_xlog_flush_hook == nullptr) return Status::Ok();
  try {
    g_xlog_flush_hook(lsn);
  } catch (const std::exception& e) {
    return Status::IoError(std::string("could not flush WAL before writing a data page: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace

bool FlushBuffer(BufferId id, WriteContext ctx, Status* status) {
  if (!StartBufferIO(id, /*for_input=*/false)) return false;
  OutputIo io(id);
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  BufferTag tag = d.tag;
  UnlockBufHdr(d, st & ~kBufJustDirtied);

  alignas(64) char copy[kBlockSize];
  std::memcpy(copy, BufferPage(id), kBlockSize);
  Page page(copy);
  // A backend that must wait for WAL before writing (a bulk load whose ring
  // outran the walwriter) is counted: hearth_stat_commit.backend_wal_flush_waits.
  if (ctx == WriteContext::kBackend && g_xlog_needs_flush_hook != nullptr && g_xlog_needs_flush_hook(page.lsn())) {
    g_strategy->backend_wal_flush_waits.fetch_add(1, std::memory_order_relaxed);
  }
  Status s = FlushWalFor(page.lsn());
  if (s.ok()) {
    if (!page.IsNew()) page.SetChecksum(tag.block);
    s = SmgrWrite(TagRel(tag), TagFork(tag), tag.block, copy);
  }
  if (!s.ok()) {
    if (status != nullptr) *status = s;
    return false;
  }
  io.Finish();
  CountWrite(ctx);
  return true;
}

// Removes a victim's old identity. REQUIRES: we hold the only pin. Fails (the
// caller picks another victim) if someone else pinned or re-dirtied it.
bool InvalidateVictimBuffer(BufferId id) {
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  BufferTag tag = d.tag;
  UnlockBufHdr(d, st);
  uint32_t hash = BufTableHash(tag);
  LWLockGuard part(BufMappingPartitionLock(hash), LWLockMode::kExclusive);
  st = LockBufHdr(d);
  if (BufRefcount(st) != 1 || (st & (kBufDirty | kBufIoInProgress)) != 0 || !(d.tag == tag)) {
    UnlockBufHdr(d, st);
    return false;
  }
  if (st & kBufTagValid) BufTableDelete(tag, hash, id);
  d.tag = BufferTag{};
  st &= kBufRefcountMask | kBufLocked;  // usage 0, no flags
  UnlockBufHdr(d, st);
  return true;
}

// Finds a buffer to reuse: pinned by us (refcount 1), clean, untagged. A
// dirty victim is written first (WAL hook first), outside any mapping lock.
BufferId GetVictimBuffer(BufferAccessStrategy* strategy) {
  // A bulk write: have the walwriter keep flushing the WAL of what it wrote
  // (the hook asks once per MiB), so the ring buffers it reuses next need no
  // flush and never leave the ring.
  if (strategy != nullptr && strategy->type == StrategyType::kBulkWrite && g_xlog_request_flush_hook != nullptr) {
    g_xlog_request_flush_hook();
  }
  for (;;) {
    uint32_t st;
    bool from_ring;
    BufferId id = StrategyGetBuffer(strategy, &st, &from_ring);
    PinBufferLocked(id, st);
    BufferDesc& d = GetBufferDesc(id);
    st = d.state.load(std::memory_order_acquire);
    if (st & kBufDirty) {
      // Someone holding it exclusively is about to change it: pick another.
      if (!d.content_lock.TryAcquire(LWLockMode::kShared)) {
        UnpinBuffer(id);
        continue;
      }
      if (from_ring && g_xlog_needs_flush_hook != nullptr &&
          g_xlog_needs_flush_hook(Page(BufferPage(id)).lsn()) && StrategyRejectBuffer(strategy, id, from_ring)) {
        // Reusing our own ring buffer would wait for a WAL flush: leave it
        // dirty in the pool (bgwriter/checkpointer write it later) and take
        // a fresh victim from the pool instead of stalling.
        d.content_lock.Release(LWLockMode::kShared);
        UnpinBuffer(id);
        continue;
      }
      Status s;
      FlushBuffer(id, WriteContext::kBackend, &s);
      d.content_lock.Release(LWLockMode::kShared);
      if (!s.ok()) {
        UnpinBuffer(id);
        ThrowStorageStatus(s);
      }
    }
    if (st & kBufTagValid || (d.state.load(std::memory_order_acquire) & kBufTagValid)) {
      if (!InvalidateVictimBuffer(id)) {
        UnpinBuffer(id);
        continue;
      }
    }
    return id;
  }
}

// Returns the buffer for `tag`, pinned. *found: it was already in the pool
// (possibly not yet VALID: the caller then does or waits for the read).
BufferId BufferAlloc(const BufferTag& tag, BufferAccessStrategy* strategy, bool* found) {
  uint32_t hash = BufTableHash(tag);
  LWLock& part_lock = BufMappingPartitionLock(hash);
  {
    LWLockGuard part(part_lock, LWLockMode::kShared);
    BufferId id = BufTableLookup(tag, hash);
    if (id != kInvalidBufferId) {
      PinBuffer(id, strategy);
      *found = true;
      return id;
    }
  }
  BufferId victim = GetVictimBuffer(strategy);
  LWLockGuard part(part_lock, LWLockMode::kExclusive);
  BufferId id = BufTableLookup(tag, hash);
  if (id != kInvalidBufferId) {
    // Someone loaded the page while we looked for a victim: use theirs and
    // give the victim back.
    PinBuffer(id, strategy);
    part.Release();
    UnpinBuffer(victim);
    StrategyFreeBuffer(victim);
    *found = true;
    return id;
  }
  BufTableInsert(tag, hash, victim);
  BufferDesc& d = GetBufferDesc(victim);
  uint32_t st = LockBufHdr(d);
  d.tag = tag;
  st &= kBufRefcountMask | kBufLocked;
  st |= kBufTagValid | kBufUsageOne;
  UnlockBufHdr(d, st);
  *found = false;
  return victim;
}

// After a failed read or extension: if nobody else pins the buffer, forget it
// entirely, so a block that does not exist leaves no mapping behind (others
// that found it meanwhile simply retry the read). Releases our pin either way.
void ReleaseFailedBuffer(BufferId id) {
  int32_t& ref = g_private_refcount[static_cast<size_t>(id)];
  if (ref == 1) {
    BufferDesc& d = GetBufferDesc(id);
    uint32_t st = LockBufHdr(d);
    BufferTag tag = d.tag;
    UnlockBufHdr(d, st);
    uint32_t hash = BufTableHash(tag);
    LWLockGuard part(BufMappingPartitionLock(hash), LWLockMode::kExclusive);
    st = LockBufHdr(d);
    if (BufRefcount(st) == 1 && (st & kBufTagValid) && (st & (kBufValid | kBufIoInProgress)) == 0 && d.tag == tag) {
      BufTableDelete(tag, hash, id);
      d.tag = BufferTag{};
      ref = 0;
      g_private_pins--;
      UnlockBufHdr(d, 0u);
      part.Release();
      StrategyFreeBuffer(id);
      return;
    }
    UnlockBufHdr(d, st);
  }
  UnpinBuffer(id);
}

// Invalidates a buffer of a dropped/truncated relation without writing it.
// Called with the header locked (state st) and the tag checked by the caller.
void InvalidateBuffer(BufferId id, uint32_t st) {
  BufferDesc& d = GetBufferDesc(id);
  if (g_private_refcount[static_cast<size_t>(id)] != 0) {
    UnlockBufHdr(d, st);
    throw std::logic_error("dropping a buffer this process still pins");
  }
  BufferTag tag = d.tag;
  uint32_t hash = BufTableHash(tag);
  for (int spins = 0;;) {
    UnlockBufHdr(d, st);
    LWLockGuard part(BufMappingPartitionLock(hash), LWLockMode::kExclusive);
    st = LockBufHdr(d);
    if ((st & kBufTagValid) == 0 || !(d.tag == tag)) {
      UnlockBufHdr(d, st);  // reused meanwhile: nothing of ours left here
      return;
    }
    if (BufRefcount(st) == 0) {
      BufTableDelete(tag, hash, id);
      d.tag = BufferTag{};
      UnlockBufHdr(d, 0u);  // refcount 0, usage 0, no flags (DIRTY dropped: never written)
      part.Release();
      StrategyFreeBuffer(id);
      return;
    }
    // Pinned by another process (the bgwriter writing it, or a straggler).
    bool io = (st & kBufIoInProgress) != 0;
    UnlockBufHdr(d, st);
    part.Release();
    if (io) {
      WaitIO(id);
    } else {
      BackoffSpin(spins);
    }
    st = LockBufHdr(d);
    if ((st & kBufTagValid) == 0 || !(d.tag == tag)) {
      UnlockBufHdr(d, st);
      return;
    }
  }
}

void FindAndInvalidate(const BufferTag& tag) {
  uint32_t hash = BufTableHash(tag);
  BufferId id;
  {
    LWLockGuard part(BufMappingPartitionLock(hash), LWLockMode::kShared);
    id = BufTableLookup(tag, hash);
  }
  if (id == kInvalidBufferId) return;
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  if ((st & kBufTagValid) && d.tag == tag) {
    InvalidateBuffer(id, st);
  } else {
    UnlockBufHdr(d, st);
  }
}

// Pins `id` if it still holds `tag` and is valid, dirty and has every flag
// of `also`; for write-back scans that found it without the mapping table.
bool PinIfFlagged(BufferId id, const BufferTag& tag, uint32_t also) {
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  const uint32_t want = kBufValid | kBufDirty | kBufTagValid | also;
  if ((st & want) == want && d.tag == tag) {
    PinBufferLocked(id, st);
    return true;
  }
  UnlockBufHdr(d, st);
  return false;
}

// Writes the listed buffers (sorted by tag for sequential I/O).
Status WriteBuffers(std::vector<std::pair<BufferTag, BufferId>>& list, WriteContext ctx) {
  std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Status result;
  for (const auto& [tag, id] : list) {
    if (!PinIfFlagged(id, tag, 0)) continue;
    BufferDesc& d = GetBufferDesc(id);
    d.content_lock.Acquire(LWLockMode::kShared);
    Status s;
    FlushBuffer(id, ctx, &s);
    d.content_lock.Release(LWLockMode::kShared);
    UnpinBuffer(id);
    if (!s.ok() && result.ok()) result = s;
  }
  return result;
}

LWLock& ExtensionLockFor(RelFileLocator rel, ForkNumber fork) {
  uint32_t h = BufTableHash(BufferTag::Make(rel, fork, 0));
  return g_strategy->extension_locks[h % kExtensionLocks].lock;
}

[[noreturn]] void ThrowReadError(const Status& s) {
  if (s.code() == Status::Code::kCorruption) throw DbError(sqlstate::kDataCorrupted, s.message());
  ThrowStorageStatus(s);
}

}  // namespace

// ---- header lock -------------------------------------------------------------------------

uint32_t LockBufHdr(BufferDesc& d) {
  int spins = 0;
  for (;;) {
    uint32_t old = d.state.fetch_or(kBufLocked, std::memory_order_acquire);
    if ((old & kBufLocked) == 0) return old | kBufLocked;
    while (d.state.load(std::memory_order_relaxed) & kBufLocked) BackoffSpin(spins);
  }
}

uint32_t WaitBufHdrUnlocked(BufferDesc& d) {
  int spins = 0;
  uint32_t st = d.state.load(std::memory_order_relaxed);
  while (st & kBufLocked) {
    BackoffSpin(spins);
    st = d.state.load(std::memory_order_relaxed);
  }
  return st;
}

// ---- shared memory --------------------------------------------------------------------------

size_t BufferShmemSize(const ShmemParams& p) {
  size_t n = static_cast<size_t>(p.nbuffers);
  return AlignUp(sizeof(BufferDesc) * n, 64) + 64 + AlignUp(kBlockSize * n, 4096) + 4096 +
         AlignUp(BufTableShmemSize(p.nbuffers), 64) + 64 + AlignUp(sizeof(StrategyControl), 64) + 64;
}

void BufferShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  int n = p.nbuffers;
  auto* descs = static_cast<BufferDesc*>(seg.Allocate("buffer descriptors", sizeof(BufferDesc) * static_cast<size_t>(n), 64));
  for (int i = 0; i < n; i++) {
    BufferDesc* d = new (&descs[i]) BufferDesc();
    d->tag = BufferTag{};
    d->buf_id = i;
    d->state.store(0, std::memory_order_relaxed);
    d->free_next = i + 1 < n ? i + 1 : kFreeListEnd;
    d->content_lock.Init();
    d->io_cv.Init();
  }
  auto* pages = static_cast<char*>(seg.Allocate("buffer pages", kBlockSize * static_cast<size_t>(n), 4096));
  // No memset: the segment is zero-filled by the kernel, and touching every
  // page here would commit all of shared_buffers at startup.
  void* map = seg.Allocate("buffer mapping", BufTableShmemSize(n), 64);
  BufTableInit(map, n);
  auto* ctl = static_cast<StrategyControl*>(seg.Allocate("buffer strategy", sizeof(StrategyControl), 64));
  new (ctl) StrategyControl();
  StrategyInit(ctl, n);
  g_buffer_descs = descs;
  g_buffer_pages = pages;
  g_strategy = ctl;
  g_nbuffers = n;
  g_private_refcount.assign(static_cast<size_t>(n), 0);
  g_private_pins = 0;
}

int NBuffers() { return g_nbuffers; }

void SetXLogFlushHook(XLogFlushHookFn fn) { g_xlog_flush_hook = fn; }
void SetXLogNeedsFlushHook(XLogNeedsFlushHookFn fn) { g_xlog_needs_flush_hook = fn; }
void SetXLogRequestFlushHook(XLogRequestFlushHookFn fn) { g_xlog_request_flush_hook = fn; }

// ---- PinnedBuffer --------------------------------------------------------------------------------

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& o) noexcept {
  if (this != &o) {
    Release();
    id_ = o.id_;
    lock_ = o.lock_;
    o.id_ = kInvalidBufferId;
  }
  return *this;
}

RelFileLocator PinnedBuffer::rel() const { return TagRel(GetBufferDesc(id_).tag); }
ForkNumber PinnedBuffer::fork() const { return TagFork(GetBufferDesc(id_).tag); }
BlockNumber PinnedBuffer::block() const { return GetBufferDesc(id_).tag.block; }
char* PinnedBuffer::data() const { return BufferPage(id_); }

void PinnedBuffer::Lock(LWLockMode mode) {
  GetBufferDesc(id_).content_lock.Acquire(mode);
  lock_ = mode == LWLockMode::kExclusive ? kExclusive : kShared;
}

bool PinnedBuffer::TryLock(LWLockMode mode) {
  if (!GetBufferDesc(id_).content_lock.TryAcquire(mode)) return false;
  lock_ = mode == LWLockMode::kExclusive ? kExclusive : kShared;
  return true;
}

void PinnedBuffer::Unlock() {
  GetBufferDesc(id_).content_lock.Release(lock_ == kExclusive ? LWLockMode::kExclusive : LWLockMode::kShared);
  lock_ = kUnlocked;
}

void PinnedBuffer::MarkDirty() {
  BufferDesc& d = GetBufferDesc(id_);
  uint32_t old = d.state.load(std::memory_order_relaxed);
  for (;;) {
    if (old & kBufLocked) old = WaitBufHdrUnlocked(d);
    if (d.state.compare_exchange_weak(old, old | kBufDirty | kBufJustDirtied, std::memory_order_acq_rel,
                                      std::memory_order_relaxed))
      return;
  }
}

void PinnedBuffer::MarkDirtyHint() {
  // Same state change; kept separate so the WAL issue can add hint-bit WAL
  // (full-page image when checksums need it) here.
  MarkDirty();
}

void PinnedBuffer::Release() {
  if (id_ == kInvalidBufferId) return;
  if (lock_ != kUnlocked) Unlock();
  UnpinBuffer(id_);
  id_ = kInvalidBufferId;
}

ReadPageGuard::ReadPageGuard(PinnedBuffer&& buf) : buf_(std::move(buf)) {
  if (buf_.valid() && !buf_.locked()) buf_.Lock(LWLockMode::kShared);
}

WritePageGuard::WritePageGuard(PinnedBuffer&& buf) : buf_(std::move(buf)) {
  if (!buf_.valid()) return;
  if (buf_.locked() && !buf_.locked_exclusive()) buf_.Unlock();
  if (!buf_.locked()) buf_.Lock(LWLockMode::kExclusive);
}

// ---- ReadBuffer / ExtendRelation ----------------------------------------------------------------

PinnedBuffer ReadBuffer(RelFileLocator rel, ForkNumber fork, BlockNumber block, ReadMode mode,
                        BufferAccessStrategy* strategy) {
  if (mode == ReadMode::kExtend) return ExtendRelation(rel, fork, strategy);
  BufferTag tag = BufferTag::Make(rel, fork, block);
  bool found;
  PinnedBuffer buf(BufferAlloc(tag, strategy, &found));
  BufferId id = buf.id();
  // Hot path: a cached valid page needs nothing more. Otherwise
  // StartBufferIO covers "found but not valid yet": it waits for a running
  // read and reports whether one is still needed.
  bool valid = (GetBufferDesc(id).state.load(std::memory_order_acquire) & kBufValid) != 0;
  if (!valid && StartBufferIO(id, /*for_input=*/true)) {
    char* page = BufferPage(id);
    if (mode == ReadMode::kZeroAndLock) {
      std::memset(page, 0, kBlockSize);
      // Lock before publishing VALID so nobody sees the zeroed page unlocked.
      buf.Lock(LWLockMode::kExclusive);
      TerminateBufferIO(id, false, kBufValid);
      return buf;
    }
    Status s = SmgrRead(rel, fork, block, page);
    if (!s.ok()) {
      TerminateBufferIO(id, false, kBufIoError);
      ReleaseFailedBuffer(id);
      buf.id_ = kInvalidBufferId;
      ThrowReadError(s);
    }
    if (!Page(page).Verify(block)) {
      TerminateBufferIO(id, false, kBufIoError);
      ReleaseFailedBuffer(id);
      buf.id_ = kInvalidBufferId;
      throw DbError(sqlstate::kDataCorrupted,
                    "invalid page in block " + std::to_string(block) + " of relation " + RelName(tag));
    }
    TerminateBufferIO(id, false, kBufValid);
  }
  if (mode == ReadMode::kZeroAndLock) buf.Lock(LWLockMode::kExclusive);
  return buf;
}

PinnedBuffer ExtendRelation(RelFileLocator rel, ForkNumber fork, BufferAccessStrategy* strategy) {
  LWLockGuard ext(ExtensionLockFor(rel, fork), LWLockMode::kExclusive);
  BlockNumber block = SmgrNblocks(rel, fork);
  BufferTag tag = BufferTag::Make(rel, fork, block);
  bool found;
  PinnedBuffer buf(BufferAlloc(tag, strategy, &found));
  BufferId id = buf.id();
  char* page = BufferPage(id);
  Status s;
  if (StartBufferIO(id, /*for_input=*/true)) {
    std::memset(page, 0, kBlockSize);
    s = SmgrExtend(rel, fork, block, page);
    if (!s.ok()) {
      TerminateBufferIO(id, false, kBufIoError);
      ReleaseFailedBuffer(id);
      buf.id_ = kInvalidBufferId;
      ThrowStorageStatus(s);
    }
    buf.Lock(LWLockMode::kExclusive);
    TerminateBufferIO(id, false, kBufValid);
    return buf;
  }
  // A stale buffer for a block beyond the end (a truncate that did not drop
  // its buffers): take it over as the new, zeroed block.
  buf.Lock(LWLockMode::kExclusive);
  std::memset(page, 0, kBlockSize);
  s = SmgrExtend(rel, fork, block, page);
  if (!s.ok()) ThrowStorageStatus(s);
  return buf;
}

BlockNumber ExtendRelationBy(RelFileLocator rel, ForkNumber fork, BlockNumber count) {
  LWLockGuard ext(ExtensionLockFor(rel, fork), LWLockMode::kExclusive);
  const BlockNumber first = SmgrNblocks(rel, fork);
  Status s = SmgrExtendZeros(rel, fork, first, count);
  if (!s.ok()) ThrowStorageStatus(s);
  return first;
}

bool ConditionalLockBufferForCleanup(PinnedBuffer& buf) {
  if (!buf.TryLock(LWLockMode::kExclusive)) return false;
  if (HoldsOnlyPin(buf)) return true;
  buf.Unlock();
  return false;
}

bool HoldsPinOnBuffer(BufferId id) {
  return id >= 0 && static_cast<size_t>(id) < g_private_refcount.size() &&
         g_private_refcount[static_cast<size_t>(id)] > 0;
}

bool HoldsOnlyPin(const PinnedBuffer& buf) {
  uint32_t st = GetBufferDesc(buf.id()).state.load(std::memory_order_acquire);
  return BufRefcount(st) == 1 && g_private_refcount[static_cast<size_t>(buf.id())] == 1;
}

// ---- write back -------------------------------------------------------------------------------------

Status FlushBuffer(PinnedBuffer& buf) {
  Status s;
  FlushBuffer(buf.id(), WriteContext::kOther, &s);
  return s;
}

Status BufferSync(const CheckpointPaceFn& pace, CheckpointWriteResult* result) {
  // Mark first, then write: only what was dirty at the start is this
  // checkpoint's work (later changes are after its redo point), so the
  // write-out ends even while backends keep dirtying pages.
  std::vector<std::pair<BufferTag, BufferId>> list;
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferDesc& d = GetBufferDesc(id);
    uint32_t st = d.state.load(std::memory_order_relaxed);
    if ((st & (kBufValid | kBufDirty)) != (kBufValid | kBufDirty)) continue;
    st = LockBufHdr(d);
    if ((st & (kBufValid | kBufDirty)) == (kBufValid | kBufDirty)) {
      list.emplace_back(d.tag, id);
      st |= kBufCheckpointNeeded;
    }
    UnlockBufHdr(d, st);
  }
  // Sorted by (file, fork, block): sequential writes, and one fsync per file.
  std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  CheckpointWriteResult res;
  res.to_write = list.size();
  Status first_error;
  uint64_t done = 0;
  for (const auto& [tag, id] : list) {
    done++;
    // Skipped when a backend or the bgwriter wrote it meanwhile (the write
    // clears CHECKPOINT_NEEDED) or the buffer now holds another page.
    if (!PinIfFlagged(id, tag, kBufCheckpointNeeded)) continue;
    BufferDesc& d = GetBufferDesc(id);
    d.content_lock.Acquire(LWLockMode::kShared);
    Status s;
    if (FlushBuffer(id, WriteContext::kCheckpoint, &s)) res.written++;
    d.content_lock.Release(LWLockMode::kShared);
    UnpinBuffer(id);
    if (!s.ok() && first_error.ok()) first_error = s;
    // No pin or lock is held here: the pacing may sleep.
    if (pace) pace(static_cast<double>(done) / static_cast<double>(list.size()));
  }
  if (result != nullptr) *result = res;
  return first_error;
}

Status FlushAllBuffers() {
  Status result = BufferSync(nullptr, nullptr);
  Status s = SmgrSyncPending();
  if (result.ok()) result = s;
  return result;
}

Status FlushRelationBuffers(RelFileLocator rel) {
  std::vector<std::pair<BufferTag, BufferId>> list;
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferDesc& d = GetBufferDesc(id);
    if (d.tag.rel != rel.Key()) continue;  // unlocked peek; rechecked when pinning
    uint32_t st = d.state.load(std::memory_order_relaxed);
    if ((st & (kBufValid | kBufDirty)) != (kBufValid | kBufDirty)) continue;
    st = LockBufHdr(d);
    BufferTag tag = d.tag;
    UnlockBufHdr(d, st);
    if (tag.rel == rel.Key()) list.emplace_back(tag, id);
  }
  return WriteBuffers(list, WriteContext::kOther);
}

Status FlushDatabaseBuffers(uint32_t db) {
  std::vector<std::pair<BufferTag, BufferId>> list;
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferDesc& d = GetBufferDesc(id);
    if ((d.tag.rel >> 32) != db) continue;  // unlocked peek; rechecked when pinning
    uint32_t st = d.state.load(std::memory_order_relaxed);
    if ((st & (kBufValid | kBufDirty)) != (kBufValid | kBufDirty)) continue;
    st = LockBufHdr(d);
    BufferTag tag = d.tag;
    UnlockBufHdr(d, st);
    if ((tag.rel >> 32) == db) list.emplace_back(tag, id);
  }
  return WriteBuffers(list, WriteContext::kOther);
}

void DropDatabaseBuffers(uint32_t db) {
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferDesc& d = GetBufferDesc(id);
    if ((d.tag.rel >> 32) != db) continue;  // nobody reads the database any more: a miss is final
    uint32_t st = LockBufHdr(d);
    if ((st & kBufTagValid) && (d.tag.rel >> 32) == db) {
      InvalidateBuffer(id, st);
    } else {
      UnlockBufHdr(d, st);
    }
  }
}

// ---- dropping ------------------------------------------------------------------------------------------

void DropRelationsBuffers(std::span<const RelFileLocator> rels) {
  if (rels.empty() || g_nbuffers == 0) return;
  // Lookup path: every fork's size known from the shared size cache alone
  // (absent forks count as 0; no file is opened) and the total small next
  // to the pool. An uncached fork makes the size unknown: scan instead.
  uint64_t total = 0;
  bool all_known = true;
  for (const RelFileLocator& r : rels) {
    for (int f = 0; f < kNumForks && all_known; f++) {
      std::optional<BlockNumber> n = SmgrCachedNblocks(r, static_cast<ForkNumber>(f));
      if (n) {
        total += *n;
      } else {
        all_known = false;
      }
    }
  }
  g_last_drop_used_lookup = all_known && total < static_cast<uint64_t>(g_nbuffers / 32);
  if (g_last_drop_used_lookup) {
    for (const RelFileLocator& r : rels) {
      for (int f = 0; f < kNumForks; f++) {
        auto fork = static_cast<ForkNumber>(f);
        BlockNumber n = SmgrCachedNblocks(r, fork).value_or(0);
        for (BlockNumber b = 0; b < n; b++) FindAndInvalidate(BufferTag::Make(r, fork, b));
      }
    }
    return;
  }
  // Scan path: one pass over all descriptors.
  std::vector<uint64_t> sorted;
  bool use_bsearch = rels.size() > kDropRelsBsearchThreshold;
  if (use_bsearch) {
    sorted.reserve(rels.size());
    for (const RelFileLocator& r : rels) sorted.push_back(r.Key());
    std::sort(sorted.begin(), sorted.end());
  }
  auto matches = [&](uint64_t rel) {
    if (use_bsearch) return std::binary_search(sorted.begin(), sorted.end(), rel);
    for (const RelFileLocator& r : rels) {
      if (r.Key() == rel) return true;
    }
    return false;
  };
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferDesc& d = GetBufferDesc(id);
    // Unlocked peek at the tag: a buffer of a dropped relation cannot become
    // one (nobody reads it any more), so a miss here is final.
    if (!matches(d.tag.rel)) continue;
    uint32_t st = LockBufHdr(d);
    if ((st & kBufTagValid) && matches(d.tag.rel)) {
      InvalidateBuffer(id, st);
    } else {
      UnlockBufHdr(d, st);
    }
  }
}

void DropRelationBuffersFrom(RelFileLocator rel, ForkNumber fork, BlockNumber first_block) {
  std::optional<BlockNumber> n = SmgrCachedNblocks(rel, fork);
  if (n && (*n <= first_block || *n - first_block < static_cast<BlockNumber>(g_nbuffers / 32))) {
    for (BlockNumber b = first_block; b < *n; b++) FindAndInvalidate(BufferTag::Make(rel, fork, b));
    return;
  }
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferDesc& d = GetBufferDesc(id);
    if (d.tag.rel != rel.Key()) continue;
    uint32_t st = LockBufHdr(d);
    if ((st & kBufTagValid) && d.tag.rel == rel.Key() && d.tag.fork == static_cast<uint8_t>(fork) &&
        d.tag.block >= first_block) {
      InvalidateBuffer(id, st);
    } else {
      UnlockBufHdr(d, st);
    }
  }
}

// ---- bgwriter --------------------------------------------------------------------------------------------

namespace {

struct BgWriterRoundState {
  bool valid = false;
  uint64_t next_to_clean_abs = 0;  // absolute position: passes * NBuffers + buffer id
  double smoothed_alloc = 0;
  double smoothed_density = 10.0;  // buffers scanned per reusable buffer found
};
BgWriterRoundState g_bg;

// Writes the buffer if it is dirty; with skip_recently_used, only when it is
// unpinned with usage 0 (about to be a victim). Reports reusability.
struct SyncResult {
  bool written = false;
  bool reusable = false;
};
SyncResult SyncOneBuffer(BufferId id, bool skip_recently_used) {
  SyncResult r;
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  if (BufRefcount(st) == 0 && BufUsage(st) == 0) {
    r.reusable = true;
  } else if (skip_recently_used) {
    UnlockBufHdr(d, st);
    return r;
  }
  if ((st & (kBufValid | kBufDirty)) != (kBufValid | kBufDirty)) {
    UnlockBufHdr(d, st);
    return r;
  }
  PinBufferLocked(id, st);
  d.content_lock.Acquire(LWLockMode::kShared);
  Status s;
  r.written = FlushBuffer(id, WriteContext::kBgWriter, &s);
  d.content_lock.Release(LWLockMode::kShared);
  UnpinBuffer(id);
  return r;
}

}  // namespace

bool BgBufferSync(const BgWriterSettings& settings) {
  uint32_t passes, recent_alloc;
  BufferId hand = StrategySyncStart(&passes, &recent_alloc);
  const uint64_t n = static_cast<uint64_t>(g_nbuffers);
  uint64_t hand_abs = static_cast<uint64_t>(passes) * n + static_cast<uint64_t>(hand);
  if (settings.lru_maxpages <= 0) {
    g_bg.valid = false;
    return true;
  }
  // Never clean behind the hand: if it overtook us, restart at the hand.
  if (!g_bg.valid || g_bg.next_to_clean_abs < hand_abs) {
    g_bg.next_to_clean_abs = hand_abs;
    g_bg.valid = true;
  }
  uint64_t bufs_ahead = g_bg.next_to_clean_abs - hand_abs;
  uint64_t bufs_to_lap = bufs_ahead >= n ? 0 : n - bufs_ahead;

  // Allocation rate: follow increases at once, decay slowly.
  if (recent_alloc > g_bg.smoothed_alloc) {
    g_bg.smoothed_alloc = recent_alloc;
  } else {
    g_bg.smoothed_alloc += (recent_alloc - g_bg.smoothed_alloc) / 16.0;
  }
  double upcoming = g_bg.smoothed_alloc * settings.lru_multiplier;
  // A minimum pace so an idle-looking pool is still swept within ~2 minutes.
  double min_scan = static_cast<double>(n) / std::max(1.0, 120000.0 / std::max(1, settings.delay_ms));
  upcoming = std::max(upcoming, min_scan / g_bg.smoothed_density);
  double reusable_est = static_cast<double>(bufs_ahead) / g_bg.smoothed_density;

  uint64_t scanned = 0, reusable = 0;
  int written = 0;
  while (scanned < bufs_to_lap && reusable_est + static_cast<double>(reusable) < upcoming) {
    auto id = static_cast<BufferId>(g_bg.next_to_clean_abs % n);
    SyncResult r = SyncOneBuffer(id, /*skip_recently_used=*/true);
    g_bg.next_to_clean_abs++;
    scanned++;
    if (r.reusable) reusable++;
    if (r.written && ++written >= settings.lru_maxpages) {
      g_strategy->maxwritten_clean.fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  if (scanned > 0) {
    double density = static_cast<double>(scanned) / static_cast<double>(std::max<uint64_t>(reusable, 1));
    g_bg.smoothed_density += (density - g_bg.smoothed_density) / 16.0;
  }
  return bufs_to_lap == 0 && recent_alloc == 0;
}

// ---- statistics and introspection ---------------------------------------------------------------------------

BgWriterStats GetBgWriterStats() {
  BgWriterStats s;
  if (g_strategy == nullptr) return s;
  s.buffers_alloc = g_strategy->buffers_alloc.load(std::memory_order_relaxed);
  s.buffers_backend = g_strategy->buffers_backend.load(std::memory_order_relaxed);
  s.buffers_clean = g_strategy->buffers_clean.load(std::memory_order_relaxed);
  s.buffers_checkpoint = g_strategy->buffers_checkpoint.load(std::memory_order_relaxed);
  s.maxwritten_clean = g_strategy->maxwritten_clean.load(std::memory_order_relaxed);
  s.buffers_backend_fsync = SmgrBackendFsyncCount();
  s.backend_wal_flush_waits = g_strategy->backend_wal_flush_waits.load(std::memory_order_relaxed);
  return s;
}

std::optional<BufferId> LookupBuffer(RelFileLocator rel, ForkNumber fork, BlockNumber block) {
  BufferTag tag = BufferTag::Make(rel, fork, block);
  uint32_t hash = BufTableHash(tag);
  LWLockGuard part(BufMappingPartitionLock(hash), LWLockMode::kShared);
  BufferId id = BufTableLookup(tag, hash);
  if (id == kInvalidBufferId) return std::nullopt;
  return id;
}

BufferInfo GetBufferInfo(BufferId id) {
  BufferDesc& d = GetBufferDesc(id);
  uint32_t st = LockBufHdr(d);
  BufferInfo info{d.tag, (st & kBufTagValid) != 0, (st & kBufValid) != 0, (st & kBufDirty) != 0,
                  BufRefcount(st), BufUsage(st)};
  UnlockBufHdr(d, st);
  return info;
}

int CountBuffersOfRelation(RelFileLocator rel) {
  int count = 0;
  for (BufferId id = 0; id < g_nbuffers; id++) {
    BufferInfo info = GetBufferInfo(id);
    if (info.tag_valid && info.tag.rel == rel.Key()) count++;
  }
  return count;
}

int PrivatePinCount() { return g_private_pins; }

bool LastDropUsedLookup() { return g_last_drop_used_lookup; }

}  // namespace hearth::storage
