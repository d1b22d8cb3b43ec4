// storage/buffer/buf_internals.h
//
// Shared-memory structures of the buffer pool: descriptors and their state
// word, the buffer mapping table and the strategy (replacement) control; plus
// the internal functions shared by bufmgr.cpp, buf_table.cpp and freelist.cpp.
// Not for use outside storage/buffer/ (tests excepted). Every shared field
// names the lock that protects it; see README.md for the lock order.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "storage/buffer/buf_types.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::storage {

// ---- The state word -------------------------------------------------------------
// bits 0..17 refcount (number of PROCESSES pinning), 18..21 usage count,
// 22..31 flags. Changed only by CAS loops that wait while kBufLocked is set
// (the holder of the header lock stores the whole word back on unlock).
inline constexpr uint32_t kBufRefcountMask = (1u << 18) - 1;
inline constexpr uint32_t kBufUsageShift = 18;
inline constexpr uint32_t kBufUsageOne = 1u << kBufUsageShift;
inline constexpr uint32_t kBufUsageMask = 0xFu << kBufUsageShift;
inline constexpr uint32_t kBufMaxUsage = 5;

inline constexpr uint32_t kBufLocked = 1u << 22;            // header lock (tag, flags)
inline constexpr uint32_t kBufDirty = 1u << 23;             // page differs from disk
inline constexpr uint32_t kBufValid = 1u << 24;             // page content is good
inline constexpr uint32_t kBufTagValid = 1u << 25;          // tag is set and in the mapping table
inline constexpr uint32_t kBufIoInProgress = 1u << 26;      // a read or write is running
inline constexpr uint32_t kBufIoError = 1u << 27;           // the last I/O failed
inline constexpr uint32_t kBufJustDirtied = 1u << 28;       // dirtied while being written
inline constexpr uint32_t kBufCheckpointNeeded = 1u << 29;  // to be written by the running checkpoint

inline uint32_t BufRefcount(uint32_t st) { return st & kBufRefcountMask; }
inline uint32_t BufUsage(uint32_t st) { return (st & kBufUsageMask) >> kBufUsageShift; }

// Descriptor free-list link values.
inline constexpr int32_t kFreeListEnd = -1;
inline constexpr int32_t kFreeNextNotInList = -2;

struct alignas(64) BufferDesc {
  BufferTag tag;                // header lock; meaningful when kBufTagValid
  BufferId buf_id;              // constant
  std::atomic<uint32_t> state;  // see above
  int32_t free_next;            // strategy spinlock
  LWLock content_lock;          // protects the page bytes
  SharedCondition io_cv;        // notified when kBufIoInProgress clears
};
static_assert(sizeof(BufferDesc) == 64);
static_assert(std::atomic<uint32_t>::is_always_lock_free);
static_assert(std::atomic<uint64_t>::is_always_lock_free);

// ---- Buffer mapping table ---------------------------------------------------------
// Chained hashing on index arrays, no pointers: bucket_heads[b] is the first
// buffer id in bucket b and entries[id].next the next one. A buffer has at
// most one mapping entry (its old mapping is removed before a new one is
// inserted), so entries are indexed by buffer id and never run out. Bucket b
// belongs to partition b % kBufMappingPartitions, whose LWLock protects the
// bucket head and every entry chained from it.
inline constexpr int kBufMappingPartitions = 128;

struct alignas(64) PaddedLWLock {
  LWLock lock;
};

struct BufMappingEntry {
  BufferTag tag;
  int32_t next;  // next buffer id in the chain, -1 = end
};

struct BufMappingShared {
  uint32_t nbuckets;  // power of two, >= kBufMappingPartitions
  PaddedLWLock partition_locks[kBufMappingPartitions];
  // Followed (at offsets computed by buf_table.cpp) by int32_t bucket_heads[nbuckets]
  // and BufMappingEntry entries[nbuffers].
};

uint32_t BufTableHash(const BufferTag& tag);
inline int BufTablePartition(uint32_t hash) { return static_cast<int>(hash % kBufMappingPartitions); }
LWLock& BufMappingPartitionLock(uint32_t hash);
// REQUIRES: partition lock held (any mode). Buffer id or -1.
BufferId BufTableLookup(const BufferTag& tag, uint32_t hash);
// REQUIRES: partition lock held exclusive; tag absent; buffer has no entry.
void BufTableInsert(const BufferTag& tag, uint32_t hash, BufferId id);
// REQUIRES: partition lock held exclusive; (tag -> id) present.
void BufTableDelete(const BufferTag& tag, uint32_t hash, BufferId id);

size_t BufTableShmemSize(int nbuffers);
BufMappingShared* BufTableInit(void* mem, int nbuffers);

// ---- Strategy control (replacement) -------------------------------------------------
inline constexpr int kExtensionLocks = 64;

struct StrategyControl {
  SpinLock lock;                        // protects first_free, last_free, complete_passes
  int32_t first_free;                   // head of the free list (-1 = empty)
  int32_t last_free;
  uint32_t complete_passes;             // times the clock hand wrapped
  int32_t nbuffers;                     // constant
  std::atomic<uint32_t> next_victim;    // clock hand (may exceed nbuffers briefly; taken modulo)
  std::atomic<uint32_t> num_allocs;     // allocations since the bgwriter last looked
  // pg_stat_bgwriter counters (monotonic).
  std::atomic<uint64_t> buffers_alloc;
  std::atomic<uint64_t> buffers_backend;
  std::atomic<uint64_t> buffers_clean;
  std::atomic<uint64_t> buffers_checkpoint;
  std::atomic<uint64_t> maxwritten_clean;
  std::atomic<uint64_t> backend_wal_flush_waits;  // Hearth only, see BgWriterStats
  // Relation extension locks, hashed by (relfilenode, fork).
  PaddedLWLock extension_locks[kExtensionLocks];
};

// ---- Process globals (inherited through fork) ---------------------------------------------
extern BufferDesc* g_buffer_descs;
extern char* g_buffer_pages;
extern StrategyControl* g_strategy;
extern int g_nbuffers;

inline BufferDesc& GetBufferDesc(BufferId id) { return g_buffer_descs[id]; }
inline char* BufferPage(BufferId id) { return g_buffer_pages + static_cast<size_t>(id) * kBlockSize; }

// Header lock: sets kBufLocked, returns the state with it set.
uint32_t LockBufHdr(BufferDesc& d);
// Stores `st` without kBufLocked (publishing every change made under the lock).
inline void UnlockBufHdr(BufferDesc& d, uint32_t st) { d.state.store(st & ~kBufLocked, std::memory_order_release); }
// Waits (spinning) until the header is unlocked; returns the state.
uint32_t WaitBufHdrUnlocked(BufferDesc& d);

// ---- freelist.cpp --------------------------------------------------------------------------
// Returns an unpinned buffer with usage 0 and its header LOCKED (state in *st).
// from_ring: it came from the strategy's ring rather than the shared pool.
BufferId StrategyGetBuffer(BufferAccessStrategy* strategy, uint32_t* st, bool* from_ring);
// Puts an unused (no tag) buffer on the free list.
void StrategyFreeBuffer(BufferId id);
// Drops `id` from the ring when it was the ring's current buffer and the
// strategy type allows rejecting (the caller found it would need a WAL flush).
bool StrategyRejectBuffer(BufferAccessStrategy* strategy, BufferId id, bool from_ring);
// For the bgwriter: the clock hand position and complete passes; also returns
// and resets the allocation count.
BufferId StrategySyncStart(uint32_t* complete_passes, uint32_t* num_allocs);
void StrategyInit(StrategyControl* ctl, int nbuffers);

}  // namespace hearth::storage
