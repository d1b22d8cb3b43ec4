// storage/smgr/smgr_internals.h
//
// Shared-memory structures of smgr: the relation-size cache and the fsync
// request queue. Only smgr.cpp (and tests) touch these. Standard layout, no
// pointers; every field is protected by the lock named beside it.
#pragma once

#include <atomic>
#include <cstdint>

#include "storage/lmgr/lwlock.h"
#include "storage/page/block.h"

namespace hearth::storage {

// Relation-size cache: kRelSizePartitions independent open-addressing tables
// (linear probing, backward-shift deletion, no tombstones), each behind its
// own LWLock so lookups of different relations do not share a cache line.
inline constexpr int kRelSizePartitions = 16;

// nblocks == kAbsentFork: the fork is known not to exist.
inline constexpr BlockNumber kAbsentFork = kInvalidBlockNumber;

struct RelSizeSlot {
  uint64_t rel;      // RelFileLocator::Key(); 0 = empty slot
  uint8_t fork;
  uint8_t pad[3];
  BlockNumber nblocks;  // or kAbsentFork
};

struct alignas(64) RelSizePartition {
  LWLock lock;           // shared: lookup; exclusive: insert/update/erase
  uint32_t used;         // occupied slots (protected by lock)
  uint32_t first_slot;   // index of this partition's first slot in RelSizeCacheShared::slots
  uint32_t clock_hand;   // next eviction candidate when full (protected by lock)
};

struct RelSizeCacheShared {
  uint32_t slots_per_partition;  // power of two
  RelSizePartition partitions[kRelSizePartitions];
  RelSizeSlot slots[1];  // kRelSizePartitions * slots_per_partition entries
};

// Relfilenodes unlinked recently, so every process can close its cached
// descriptors of them (SmgrCloseDroppedFiles). A ring: a process that fell
// more than kDroppedRing entries behind closes all its descriptors.
inline constexpr uint32_t kDroppedRing = 4096;
struct DroppedFilesShared {
  LWLock lock;                   // exclusive: append; shared: read entries
  std::atomic<uint64_t> count;   // entries ever appended (written under lock)
  uint64_t rels[kDroppedRing];   // RelFileLocator::Key(); entry i at rels[i % kDroppedRing]
};

// fsync request queue: appended by every writer, drained by the checkpointer.
struct SyncRequest {
  uint64_t rel;  // RelFileLocator::Key()
  uint8_t fork;
  uint8_t pad[3];
  uint32_t segno;
};

struct SyncQueueShared {
  LWLock lock;                            // protects count, compacted and entries
  uint32_t capacity;
  uint32_t count;
  bool compacted;                         // entries sorted and unique since the last append
  std::atomic<uint64_t> backend_fsyncs;   // queue-full fallbacks
  SyncRequest entries[1];                 // capacity entries
};
static_assert(std::atomic<uint64_t>::is_always_lock_free);

}  // namespace hearth::storage
