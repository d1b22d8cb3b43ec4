// storage/lmgr/deadlock.h
//
// Deadlock detection for the heavyweight lock manager, plus the shared
// lock-table layout that lock.cpp and deadlock.cpp both walk. Everything here
// is internal to storage/lmgr: other code uses storage/lmgr/lock.h.
//
// Process safety: the layout is in the shared segment; every field of a lock
// object or holder is read and written under its partition's LWLock, except
// LockProcState::status / wake_seq, which the sleeping process polls without
// a lock (atomics; see lock.cpp for the wake-up protocol).
#pragma once

#include <atomic>
#include <string>

#include "storage/lmgr/lock.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::storage::lock_internal {

inline constexpr int32_t kNil = -1;

// One locked object: who holds it in which modes and who waits for it.
struct LockObject {
  LockTag tag;
  int32_t next_in_bucket;  // hash chain (or free list) link
  int32_t holders_head;    // list of LockHolder, linked by LockHolder::next
  int32_t wait_head;       // FIFO of waiting procs, linked by LockProcState::next_waiter
  int32_t wait_tail;
  int16_t granted[kMaxLockMode + 1];  // holders per mode
  int16_t waiting[kMaxLockMode + 1];  // waiters per mode
  uint16_t grant_mask;                // bit m set when granted[m] > 0
  uint16_t wait_mask;                 // bit m set when waiting[m] > 0
};

// One process's grip on one lock object: the modes it holds. A waiting
// process also has a holder record (possibly with no modes yet).
struct LockHolder {
  int32_t lock;  // index of the LockObject
  int32_t proc;  // ProcNumber
  int32_t next;  // next holder of the same lock (or free list link)
  uint16_t held_mask;
};

enum WaitStatus : uint32_t { kNotWaiting = 0, kWaiting = 1, kGranted = 2 };

// Per-proc lock-wait state, indexed by ProcNumber.
struct alignas(64) LockProcState {
  // Bumped (then futex-woken) by whoever changes `status`; the waiter sleeps
  // on it with the value it read before checking `status`.
  std::atomic<uint32_t> wake_seq;
  std::atomic<uint32_t> status;  // WaitStatus
  // Under the waited-for lock's partition lock:
  int32_t waiting_lock;  // LockObject index or kNil
  int32_t next_waiter;   // next proc in that lock's wait queue
  uint8_t wait_mode;     // LockMode requested
};

struct alignas(64) LockPartition {
  LWLock lock;
};

struct LockTableShared {
  LockPartition partitions[kLockPartitions];
  SpinLock freelist_lock;  // guards the two free lists
  int32_t free_lock_head;
  int32_t free_holder_head;
  int32_t nlocks;
  int32_t nholders;
  int32_t nbuckets;  // power of two; bucket b belongs to partition b % kLockPartitions
  int32_t nprocs;
};

// Process-global views of the region (inherited through fork).
struct LockTableView {
  LockTableShared* shared = nullptr;
  int32_t* buckets = nullptr;
  LockObject* locks = nullptr;
  LockHolder* holders = nullptr;
  LockProcState* procs = nullptr;
};
const LockTableView& Table();

// Bit for mode m in grant/wait/held masks, and the modes m conflicts with.
inline constexpr uint16_t ModeBit(int m) { return static_cast<uint16_t>(1u << m); }
uint16_t ConflictMask(int mode);

// The modes held on `lock` by processes other than the one whose own held
// modes are `own_held_mask` (a process never conflicts with itself).
uint16_t OthersGrantMask(const LockObject& lock, uint16_t own_held_mask);

// REQUIRES: the caller holds every partition LWLock (exclusive) and `me` is
// waiting. Returns true when `me` lies on a cycle of the wait-for graph (an
// edge P -> Q when Q holds a mode conflicting with P's request, or waits
// ahead of P in the same queue for a conflicting mode) and fills `detail`
// with one line per process on the cycle, PostgreSQL style.
bool DeadLockCheck(int32_t me, std::string* detail);

// REQUIRES: as DeadLockCheck. The pid of an autovacuum worker that holds a
// mode conflicting with `me`'s request, or 0. PostgreSQL's rule: such a
// worker is cancelled rather than waited for (its work can be redone).
int32_t BlockingAutovacuumPid(int32_t me);

}  // namespace hearth::storage::lock_internal
