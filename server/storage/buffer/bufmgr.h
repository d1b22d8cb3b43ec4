// storage/buffer/bufmgr.h
//
// The shared buffer pool: NBuffers 8 KiB pages in the shared segment, found
// by (relfilenode, fork, block) through a partitioned mapping table, replaced
// by clock sweep (or a private ring for bulk operations), written back with
// "WAL before data" (XLogFlushHook(page LSN) before every write).
//
// Usage (the only way to touch a page):
//   PinnedBuffer buf = ReadBuffer(rel, ForkNumber::kMain, blk);   // pin
//   WritePageGuard g(std::move(buf));                             // + exclusive lock
//   ... change g.page() ...; g.MarkDirty();                       // (WAL: later issue)
//   // scope exit: unlock + unpin
//
// Process safety: everything here works from any number of forked
// processes at once. Pins are counted per process (a private array) so the
// shared refcount changes once per process per buffer; a PinnedBuffer and its
// guards belong to one process and thread. A process must drop all its pins
// before fork (children start with none).
//
// Errors: reading a page whose checksum fails throws DbError(kDataCorrupted,
// "invalid page in block N of relation base/NNN"); a failing read/write
// syscall throws DbError(kIoError) (a short read: kDataCorrupted, like
// PostgreSQL); "no unpinned buffers available" throws std::runtime_error.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "storage/buffer/buf_types.h"
#include "storage/ipc/shmem.h"
#include "storage/lmgr/lwlock.h"
#include "storage/page/page.h"
#include "storage/status.h"

namespace hearth::storage {

// ---- Shared state (registered in shmem_layout.cpp) --------------------------------
// Regions: "buffer descriptors", "buffer pages" (page-aligned), "buffer
// mapping", "buffer strategy". Sized from ShmemParams::nbuffers.
size_t BufferShmemSize(const ShmemParams& p);
void BufferShmemInit(ShmemSegment& seg, const ShmemParams& p);
int NBuffers();

// ---- WAL hooks (filled in by the WAL issue; defaults: no-op / false) --------------
// Called with the page LSN before a dirty page is written ("WAL before data").
using XLogFlushHookFn = void (*)(uint64_t lsn);
// Whether WAL up to `lsn` still has to be flushed (a ring write would stall).
using XLogNeedsFlushHookFn = bool (*)(uint64_t lsn);
// Asks for WAL to be flushed soon, without waiting (the walwriter does it).
using XLogRequestFlushHookFn = void (*)();
void SetXLogFlushHook(XLogFlushHookFn fn);
void SetXLogNeedsFlushHook(XLogNeedsFlushHookFn fn);
void SetXLogRequestFlushHook(XLogRequestFlushHookFn fn);

// ---- Pinned buffers ------------------------------------------------------------------

// A pin on one buffer, optionally with its content lock held. Move-only; the
// destructor unlocks and unpins. While pinned, the buffer keeps its page
// (tag) — but reading or changing bytes needs the content lock (shared to
// read, exclusive to change).
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(PinnedBuffer&& o) noexcept : id_(o.id_), lock_(o.lock_) { o.id_ = kInvalidBufferId; }
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { Release(); }

  bool valid() const { return id_ != kInvalidBufferId; }
  BufferId id() const { return id_; }
  // The page identity (stable while pinned). REQUIRES: valid().
  RelFileLocator rel() const;
  ForkNumber fork() const;
  BlockNumber block() const;
  // The page bytes in shared memory. REQUIRES: valid().
  char* data() const;
  Page page() const { return Page(data()); }

  // Content lock. REQUIRES: valid() and not already locked by this object.
  void Lock(LWLockMode mode);
  bool TryLock(LWLockMode mode);
  // REQUIRES: locked.
  void Unlock();
  bool locked() const { return lock_ != kUnlocked; }
  bool locked_exclusive() const { return lock_ == kExclusive; }

  // Marks the page dirty. REQUIRES: exclusive content lock held.
  void MarkDirty();
  // Marks dirty for a hint-only change made under a shared lock (no WAL).
  void MarkDirtyHint();

  // Unlock (if locked) and unpin now; the object becomes invalid. Idempotent.
  void Release();

 private:
  friend PinnedBuffer ReadBuffer(RelFileLocator, ForkNumber, BlockNumber, ReadMode, BufferAccessStrategy*);
  friend PinnedBuffer ExtendRelation(RelFileLocator, ForkNumber, BufferAccessStrategy*);
  explicit PinnedBuffer(BufferId id) : id_(id) {}
  static constexpr int8_t kUnlocked = -1, kShared = 0, kExclusive = 1;
  BufferId id_ = kInvalidBufferId;
  int8_t lock_ = kUnlocked;
};

// A pinned buffer held with a shared content lock: read-only page access.
class ReadPageGuard {
 public:
  ReadPageGuard() = default;
  // Takes the pin and locks it shared (unless already locked by it).
  explicit ReadPageGuard(PinnedBuffer&& buf);
  ReadPageGuard(ReadPageGuard&&) noexcept = default;
  ReadPageGuard& operator=(ReadPageGuard&&) noexcept = default;

  bool valid() const { return buf_.valid(); }
  const char* data() const { return buf_.data(); }
  // A view for reading (Page has no const flavour; do not modify through it).
  Page page() const { return buf_.page(); }
  BlockNumber block() const { return buf_.block(); }
  BufferId id() const { return buf_.id(); }
  void Drop() { buf_.Release(); }

 private:
  PinnedBuffer buf_;
};

// A pinned buffer held with the exclusive content lock: the page may change.
class WritePageGuard {
 public:
  WritePageGuard() = default;
  // Takes the pin and locks it exclusive (unless already locked exclusive).
  explicit WritePageGuard(PinnedBuffer&& buf);
  WritePageGuard(WritePageGuard&&) noexcept = default;
  WritePageGuard& operator=(WritePageGuard&&) noexcept = default;

  bool valid() const { return buf_.valid(); }
  char* data() const { return buf_.data(); }
  Page page() const { return buf_.page(); }
  BlockNumber block() const { return buf_.block(); }
  BufferId id() const { return buf_.id(); }
  void MarkDirty() { buf_.MarkDirty(); }
  void Drop() { buf_.Release(); }

 private:
  PinnedBuffer buf_;
};

// ---- Reading and extending -----------------------------------------------------------

// Returns the page pinned (unlocked for kNormal; exclusively locked for
// kZeroAndLock and kExtend). A page read from disk is verified (checksum; an
// all-zero page passes). strategy: nullptr for normal replacement, or a ring.
PinnedBuffer ReadBuffer(RelFileLocator rel, ForkNumber fork, BlockNumber block, ReadMode mode = ReadMode::kNormal,
                        BufferAccessStrategy* strategy = nullptr);

// Adds one zeroed block at the end of the fork under the relation's extension
// lock (the file grows at once and the shared size cache is updated) and
// returns it pinned and exclusively locked. The caller initialises the page
// and marks it dirty.
PinnedBuffer ExtendRelation(RelFileLocator rel, ForkNumber fork, BufferAccessStrategy* strategy = nullptr);

// Adds `count` zeroed blocks at the end of the fork in one file write under
// the relation's extension lock, without loading them into the pool, and
// returns the first one. The caller reads and initialises each later (an
// all-zero page is new: another process may take and initialise it first,
// e.g. VACUUM, so the caller re-checks under the content lock).
BlockNumber ExtendRelationBy(RelFileLocator rel, ForkNumber fork, BlockNumber count);

// Conveniences.
inline ReadPageGuard ReadPageShared(RelFileLocator rel, ForkNumber fork, BlockNumber block,
                                    BufferAccessStrategy* strategy = nullptr) {
  return ReadPageGuard(ReadBuffer(rel, fork, block, ReadMode::kNormal, strategy));
}
inline WritePageGuard ReadPageExclusive(RelFileLocator rel, ForkNumber fork, BlockNumber block,
                                        BufferAccessStrategy* strategy = nullptr) {
  return WritePageGuard(ReadBuffer(rel, fork, block, ReadMode::kNormal, strategy));
}

// Exclusive lock plus "nobody else has it pinned" (vacuum's cleanup lock),
// without waiting. On false the buffer is left unlocked.
bool ConditionalLockBufferForCleanup(PinnedBuffer& buf);

// Whether this process holds the only pin on `buf` (pinned once). With the
// exclusive content lock already held, true means the caller has the
// cleanup lock: nobody else can be looking at the page's tuples.
bool HoldsOnlyPin(const PinnedBuffer& buf);

// ---- Writing back ----------------------------------------------------------------------

// PostgreSQL-style spelling of PinnedBuffer::MarkDirty.
inline void MarkBufferDirty(PinnedBuffer& buf) { buf.MarkDirty(); }

// Writes one buffer now if it is dirty: XLogFlushHook(page LSN) first, then
// the checksummed page. REQUIRES: `buf` pinned and content-locked (shared or
// exclusive) by the caller.
Status FlushBuffer(PinnedBuffer& buf);

// A checkpoint's write-out (PostgreSQL's BufferSync): flags every dirty
// buffer CHECKPOINT_NEEDED, sorts them by (file, fork, block) and writes each
// one still flagged (a write by a backend or the bgwriter clears the flag, so
// it is not written twice). After each buffer, with no pin or lock held,
// calls `pace` (if set) with the fraction of the flagged buffers handled: the
// checkpointer sleeps there to spread the writes. No fsync (the caller runs
// SmgrSyncPending). Counts buffers_checkpoint. Returns the first failure.
struct CheckpointWriteResult {
  uint64_t to_write = 0;  // buffers flagged at the start
  uint64_t written = 0;   // written by this call (the rest were written by others)
};
using CheckpointPaceFn = std::function<void(double progress)>;
Status BufferSync(const CheckpointPaceFn& pace, CheckpointWriteResult* result);

// BufferSync at full speed, then SmgrSyncPending (bootstrap, tests).
Status FlushAllBuffers();
// Writes every dirty buffer of one relation (all forks); no fsync (the caller
// follows with SmgrImmedSync, e.g. for a relation that skipped WAL).
Status FlushRelationBuffers(RelFileLocator rel);
// Writes every dirty buffer of database `db` (CREATE DATABASE, before its
// template's files are copied); no fsync (the copy fsyncs the copies).
Status FlushDatabaseBuffers(uint32_t db);
// Forgets every buffer of database `db` without writing it (DROP DATABASE):
// one pass over the descriptors.
void DropDatabaseBuffers(uint32_t db);

// ---- Dropping -------------------------------------------------------------------------

// Invalidates every buffer of the given relations (all forks) WITHOUT writing
// them: their files are about to be unlinked. One pass over the pool (a
// sorted array and binary search when more than 20 relations), or — when
// every fork's size is cached and the total is below NBuffers/32 — direct
// mapping-table lookups per block. REQUIRES: nobody else uses the relations
// (the caller holds an exclusive relation lock); this process holds no pins on them.
void DropRelationsBuffers(std::span<const RelFileLocator> rels);
// Invalidates buffers of blocks >= first_block of one fork, without writing
// (before SmgrTruncate). Same REQUIRES.
void DropRelationBuffersFrom(RelFileLocator rel, ForkNumber fork, BlockNumber first_block);

// ---- bgwriter ---------------------------------------------------------------------------

struct BgWriterSettings {
  int lru_maxpages = 100;            // bgwriter_lru_maxpages: at most this many writes per round
  double lru_multiplier = 2.0;       // bgwriter_lru_multiplier
  int delay_ms = 200;                // bgwriter_delay: used to set a minimum scan rate
};

// One bgwriter round: estimates the coming allocations from the recent rate
// × multiplier and writes dirty, unpinned, usage-0 buffers just ahead of the
// clock hand until enough reusable buffers are ahead or lru_maxpages writes
// were done. Returns true when the pool is idle and the bgwriter may
// hibernate (nothing allocated since the last round and it has lapped the
// clock). State between rounds is kept in the calling process.
bool BgBufferSync(const BgWriterSettings& settings);

// ---- Statistics (pg_stat_bgwriter) ----------------------------------------------------------

struct BgWriterStats {
  uint64_t buffers_alloc = 0;          // buffers allocated from the pool
  uint64_t buffers_backend = 0;        // written by backends to make room
  uint64_t buffers_clean = 0;          // written by the bgwriter
  uint64_t buffers_checkpoint = 0;     // written by checkpoints (BufferSync)
  uint64_t maxwritten_clean = 0;       // bgwriter rounds stopped by lru_maxpages
  uint64_t buffers_backend_fsync = 0;  // backends that had to fsync themselves
  // Hearth only: writes by backends that first had to wait for a WAL flush
  // (WAL before data), e.g. a bulk load whose ring outran the walwriter.
  uint64_t backend_wal_flush_waits = 0;
};
BgWriterStats GetBgWriterStats();

// ---- Introspection (tests, monitoring) ---------------------------------------------------------

// The buffer holding the page, if any (no pin taken: the answer may be stale).
std::optional<BufferId> LookupBuffer(RelFileLocator rel, ForkNumber fork, BlockNumber block);
struct BufferInfo {
  BufferTag tag;
  bool tag_valid, valid, dirty;
  uint32_t refcount, usage_count;
};
BufferInfo GetBufferInfo(BufferId id);
// Number of buffers currently tagged with `rel` (any fork).
int CountBuffersOfRelation(RelFileLocator rel);
// Pins this process holds (leak checks).
int PrivatePinCount();
// Whether this process holds a pin on buffer `id` (a hot-standby backend
// asked to give way to replay waiting for that buffer's cleanup lock).
bool HoldsPinOnBuffer(BufferId id);
// Whether this process's last DropRelationsBuffers used per-block lookups
// (true) or a scan of the whole pool (false).
bool LastDropUsedLookup();

}  // namespace hearth::storage
