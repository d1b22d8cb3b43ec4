// storage/buffer/freelist.cpp
//
// Principal entry points: StrategyGetBuffer, StrategyFreeBuffer,
// StrategyRejectBuffer, StrategySyncStart, GetAccessStrategy.
// Buffer replacement: a free list of never-used/invalidated buffers first,
// then the clock sweep (an atomic hand; each visit decrements the usage count
// of an unpinned buffer, the first unpinned buffer at usage 0 is the victim).
// Bulk operations bring a private ring (BufferAccessStrategy) and reuse its
// buffers before asking the shared pool.
#include <algorithm>
#include <stdexcept>

#include "common/error/db_error.h"
#include "storage/buffer/buf_internals.h"

namespace hearth::storage {

namespace {

// Every buffer is pinned: an ERROR for this statement (its pins go when it
// unwinds), not the end of the session.
[[noreturn]] void ThrowNoUnpinnedBuffers() {
  throw DbError(sqlstate::kOutOfMemory, "no unpinned buffers available");
}

// Advances the clock hand by one and returns the buffer it pointed at.
BufferId ClockSweepTick() {
  uint32_t n = static_cast<uint32_t>(g_strategy->nbuffers);
  uint32_t v = g_strategy->next_victim.fetch_add(1, std::memory_order_relaxed);
  if (v >= n) {
    v %= n;
    if (v == 0) {
      // This tick crossed the end: fold the counter back so it never
      // overflows, and count the pass (under the lock so StrategySyncStart
      // reads hand and passes consistently).
      SpinLockGuard g(g_strategy->lock);
      uint32_t cur = g_strategy->next_victim.load(std::memory_order_relaxed);
      while (cur >= n && !g_strategy->next_victim.compare_exchange_weak(cur, cur - n, std::memory_order_relaxed)) {
      }
      g_strategy->complete_passes++;
    }
  }
  return static_cast<BufferId>(v);
}

// The ring's next buffer if it can be reused now (unpinned, usage <= 1: only
// we have touched it since it joined the ring); header returned LOCKED.
BufferId GetBufferFromRing(BufferAccessStrategy* s, uint32_t* st) {
  if (++s->current >= static_cast<int>(s->ring.size())) s->current = 0;
  BufferId id = s->ring[static_cast<size_t>(s->current)];
  if (id == kInvalidBufferId) return kInvalidBufferId;
  BufferDesc& d = GetBufferDesc(id);
  uint32_t state = LockBufHdr(d);
  if (BufRefcount(state) == 0 && BufUsage(state) <= 1) {
    *st = state;
    return id;
  }
  UnlockBufHdr(d, state);
  return kInvalidBufferId;
}

void AddBufferToRing(BufferAccessStrategy* s, BufferId id) {
  if (s != nullptr) s->ring[static_cast<size_t>(s->current)] = id;
}

}  // namespace

void StrategyInit(StrategyControl* ctl, int nbuffers) {
  ctl->lock.Init();
  ctl->nbuffers = nbuffers;
  ctl->first_free = nbuffers > 0 ? 0 : kFreeListEnd;
  ctl->last_free = nbuffers - 1;
  ctl->complete_passes = 0;
  ctl->next_victim.store(0);
  ctl->num_allocs.store(0);
  ctl->buffers_alloc.store(0);
  ctl->buffers_backend.store(0);
  ctl->buffers_clean.store(0);
  ctl->buffers_checkpoint.store(0);
  ctl->maxwritten_clean.store(0);
  ctl->backend_wal_flush_waits.store(0);
  for (auto& l : ctl->extension_locks) l.lock.Init();
}

BufferId StrategyGetBuffer(BufferAccessStrategy* strategy, uint32_t* st, bool* from_ring) {
  if (strategy != nullptr) {
    BufferId id = GetBufferFromRing(strategy, st);
    if (id != kInvalidBufferId) {
      *from_ring = true;
      return id;
    }
  }
  *from_ring = false;
  g_strategy->num_allocs.fetch_add(1, std::memory_order_relaxed);
  g_strategy->buffers_alloc.fetch_add(1, std::memory_order_relaxed);

  // Free list first. The unlocked peek avoids the spinlock once it is empty
  // (the normal state of a warm pool).
  while (g_strategy->first_free >= 0) {
    BufferId id;
    {
      SpinLockGuard g(g_strategy->lock);
      id = g_strategy->first_free;
      if (id < 0) break;
      BufferDesc& d = GetBufferDesc(id);
      g_strategy->first_free = d.free_next;
      if (g_strategy->first_free < 0) g_strategy->last_free = kFreeListEnd;
      d.free_next = kFreeNextNotInList;
    }
    BufferDesc& d = GetBufferDesc(id);
    uint32_t state = LockBufHdr(d);
    if (BufRefcount(state) == 0 && BufUsage(state) == 0) {
      AddBufferToRing(strategy, id);
      *st = state;
      return id;
    }
    UnlockBufHdr(d, state);  // someone started using it meanwhile: skip
  }

  // Clock sweep. trycounter counts visits since the last usage decrement, so
  // the loop fails only after a full pass in which every buffer was pinned.
  int trycounter = g_strategy->nbuffers;
  for (;;) {
    BufferId id = ClockSweepTick();
    BufferDesc& d = GetBufferDesc(id);
    uint32_t pre = d.state.load(std::memory_order_relaxed);
    if (BufRefcount(pre) != 0 && (pre & kBufLocked) == 0) {
      if (--trycounter == 0) ThrowNoUnpinnedBuffers();
      continue;
    }
    uint32_t state = LockBufHdr(d);
    if (BufRefcount(state) == 0) {
      if (BufUsage(state) > 0) {
        UnlockBufHdr(d, state - kBufUsageOne);
        trycounter = g_strategy->nbuffers;
        continue;
      }
      AddBufferToRing(strategy, id);
      *st = state;
      return id;
    }
    UnlockBufHdr(d, state);
    if (--trycounter == 0) ThrowNoUnpinnedBuffers();
  }
}

void StrategyFreeBuffer(BufferId id) {
  SpinLockGuard g(g_strategy->lock);
  BufferDesc& d = GetBufferDesc(id);
  if (d.free_next != kFreeNextNotInList) return;  // already listed
  d.free_next = g_strategy->first_free;
  if (g_strategy->first_free < 0) g_strategy->last_free = id;
  g_strategy->first_free = id;
}

bool StrategyRejectBuffer(BufferAccessStrategy* strategy, BufferId id, bool from_ring) {
  if (strategy == nullptr || !from_ring) return false;
  if (strategy->type != StrategyType::kBulkRead && strategy->type != StrategyType::kBulkWrite) return false;
  if (strategy->ring[static_cast<size_t>(strategy->current)] != id) return false;
  // Forget it: the next victim comes from the pool and takes this ring slot.
  strategy->ring[static_cast<size_t>(strategy->current)] = kInvalidBufferId;
  return true;
}

BufferId StrategySyncStart(uint32_t* complete_passes, uint32_t* num_allocs) {
  SpinLockGuard g(g_strategy->lock);
  uint32_t n = static_cast<uint32_t>(g_strategy->nbuffers);
  uint32_t v = g_strategy->next_victim.load(std::memory_order_relaxed);
  *complete_passes = g_strategy->complete_passes + v / n;
  *num_allocs = g_strategy->num_allocs.exchange(0, std::memory_order_relaxed);
  return static_cast<BufferId>(v % n);
}

std::unique_ptr<BufferAccessStrategy> GetAccessStrategy(StrategyType type) {
  size_t bytes = 0;
  switch (type) {
    case StrategyType::kNormal: return nullptr;
    case StrategyType::kBulkRead: bytes = kBulkReadRingBytes; break;
    case StrategyType::kBulkWrite: bytes = kBulkWriteRingBytes; break;
    case StrategyType::kVacuum: bytes = kVacuumRingBytes; break;
  }
  int ring = static_cast<int>(bytes / kBlockSize);
  ring = std::max(1, std::min(ring, g_nbuffers / 8));
  auto s = std::make_unique<BufferAccessStrategy>();
  s->type = type;
  s->current = 0;
  s->ring.assign(static_cast<size_t>(ring), kInvalidBufferId);
  return s;
}

}  // namespace hearth::storage
