// storage/buffer/buf_table.cpp
//
// Principal entry points: BufTableLookup, BufTableInsert, BufTableDelete.
// The buffer mapping table (tag -> buffer id), see buf_internals.h for the
// shape. Callers hold the tag's partition lock; this file never locks.
#include <cstring>

#include "storage/buffer/buf_internals.h"
#include "storage/ipc/shmem.h"

namespace hearth::storage {

namespace {

BufMappingShared* g_map = nullptr;
int32_t* g_bucket_heads = nullptr;
BufMappingEntry* g_entries = nullptr;

uint32_t BucketCount(int nbuffers) {
  uint32_t n = kBufMappingPartitions;
  while (n < static_cast<uint32_t>(nbuffers)) n <<= 1;
  return n;
}

size_t HeadsOffset() { return AlignUp(sizeof(BufMappingShared), 64); }
size_t EntriesOffset(uint32_t nbuckets) { return AlignUp(HeadsOffset() + sizeof(int32_t) * nbuckets, 64); }

}  // namespace

uint32_t BufTableHash(const BufferTag& tag) {
  uint64_t x = (tag.rel << 32 | tag.block) ^ (static_cast<uint64_t>(tag.fork) << 61) ^ (tag.rel >> 32) * 0x9E3779B97F4A7C15ULL;
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ULL;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

LWLock& BufMappingPartitionLock(uint32_t hash) { return g_map->partition_locks[BufTablePartition(hash)].lock; }

// Bucket index: its low bits equal the partition (nbuckets is a multiple of
// kBufMappingPartitions), so a bucket never spans two partitions.
static inline uint32_t Bucket(uint32_t hash) { return hash & (g_map->nbuckets - 1); }
static_assert((kBufMappingPartitions & (kBufMappingPartitions - 1)) == 0);

BufferId BufTableLookup(const BufferTag& tag, uint32_t hash) {
  for (int32_t id = g_bucket_heads[Bucket(hash)]; id >= 0; id = g_entries[id].next) {
    if (g_entries[id].tag == tag) return id;
  }
  return kInvalidBufferId;
}

void BufTableInsert(const BufferTag& tag, uint32_t hash, BufferId id) {
  uint32_t b = Bucket(hash);
  g_entries[id].tag = tag;
  g_entries[id].next = g_bucket_heads[b];
  g_bucket_heads[b] = id;
}

void BufTableDelete(const BufferTag& tag, uint32_t hash, BufferId id) {
  int32_t* link = &g_bucket_heads[Bucket(hash)];
  while (*link >= 0) {
    if (*link == id) {
      *link = g_entries[id].next;
      g_entries[id].next = -1;
      g_entries[id].tag = BufferTag{};
      return;
    }
    link = &g_entries[*link].next;
  }
}

size_t BufTableShmemSize(int nbuffers) {
  return EntriesOffset(BucketCount(nbuffers)) + sizeof(BufMappingEntry) * static_cast<size_t>(nbuffers);
}

BufMappingShared* BufTableInit(void* mem, int nbuffers) {
  uint32_t nbuckets = BucketCount(nbuffers);
  auto* m = static_cast<BufMappingShared*>(mem);
  m->nbuckets = nbuckets;
  for (auto& p : m->partition_locks) p.lock.Init();
  g_map = m;
  g_bucket_heads = reinterpret_cast<int32_t*>(static_cast<char*>(mem) + HeadsOffset());
  g_entries = reinterpret_cast<BufMappingEntry*>(static_cast<char*>(mem) + EntriesOffset(nbuckets));
  for (uint32_t i = 0; i < nbuckets; i++) g_bucket_heads[i] = -1;
  for (int i = 0; i < nbuffers; i++) g_entries[i] = BufMappingEntry{BufferTag{}, -1};
  return m;
}

}  // namespace hearth::storage
