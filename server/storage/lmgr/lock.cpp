// storage/lmgr/lock.cpp
//
// Principal entry points: LockAcquire, LockRelease, LockReleaseAll,
// XactLockTableInsert/Wait, LockShmemInit.
//
// Wake-up protocol: a waiter reads its wake_seq, then its status; if still
// kWaiting it futex-sleeps on wake_seq with the value it read. A granter
// (holding the lock's partition LWLock) stores status = kGranted, bumps
// wake_seq and wakes the futex. A grant between the waiter's two reads moves
// wake_seq, so the sleep returns at once: no lost wake-ups. Sleeps are also
// bounded by kWaitSliceMs so postmaster death and interrupts are noticed.
//
// Queue discipline: FIFO, except that a process upgrading a lock it already
// holds goes to the head of the queue (otherwise it would wait behind
// processes that wait for it). A request is granted when it conflicts neither
// with modes held by others nor with a waiter ahead of it; a new request
// from a process holding nothing on the lock also queues behind conflicting
// waiters, so a stream of AccessShare cannot starve an AccessExclusive.
#include "storage/lmgr/lock.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <new>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "common/error/db_error.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/backend_activity.h"
#include "storage/lmgr/deadlock.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::storage {

using namespace lock_internal;

namespace lock_internal {

namespace {

LockTableView g_view;

constexpr uint16_t B(int m) { return ModeBit(m); }

// Row m: the modes that conflict with mode m (PostgreSQL's table).
constexpr uint16_t kConflicts[kMaxLockMode + 1] = {
    0,                                                   // NoLock
    B(8),                                                // AccessShare
    B(7) | B(8),                                         // RowShare
    B(5) | B(6) | B(7) | B(8),                           // RowExclusive
    B(4) | B(5) | B(6) | B(7) | B(8),                    // ShareUpdateExclusive
    B(3) | B(4) | B(6) | B(7) | B(8),                    // Share
    B(3) | B(4) | B(5) | B(6) | B(7) | B(8),             // ShareRowExclusive
    B(2) | B(3) | B(4) | B(5) | B(6) | B(7) | B(8),      // Exclusive
    B(1) | B(2) | B(3) | B(4) | B(5) | B(6) | B(7) | B(8),  // AccessExclusive
};

}  // namespace

const LockTableView& Table() { return g_view; }

uint16_t ConflictMask(int mode) { return kConflicts[mode]; }

uint16_t OthersGrantMask(const LockObject& lock, uint16_t own_held_mask) {
  uint16_t mask = 0;
  for (int m = 1; m <= kMaxLockMode; m++) {
    int own = (own_held_mask & ModeBit(m)) != 0 ? 1 : 0;
    if (lock.granted[m] - own > 0) mask |= ModeBit(m);
  }
  return mask;
}

}  // namespace lock_internal

namespace {

// This process's view of what it holds: counts per mode, so re-acquisition
// and release of a lock already held never touch shared memory.
struct LocalLock {
  LockTag tag;
  int32_t counts[kMaxLockMode + 1];
};
std::vector<LocalLock> g_local;
// Position of each tag in g_local: a transaction may hold tens of thousands
// of locks (DROP of 10,000 tables), so lookups must not scan the vector.
struct LockTagHasher {
  size_t operator()(const LockTag& t) const { return t.Hash(); }
};
std::unordered_map<LockTag, size_t, LockTagHasher> g_local_index;
// The proc slot g_local belongs to. A child forked from a process that held
// locks (only tests do that) inherits the table; it must not believe it
// holds its parent's locks.
ProcNumber g_local_owner = kInvalidProcNumber;

void ClearLocal() {
  g_local.clear();
  g_local_index.clear();
}

void CheckLocalOwner() {
  if (g_local_owner != MyProcNumber()) {
    ClearLocal();
    g_local_owner = MyProcNumber();
  }
}

// Acquisitions made inside subtransactions, in order (levels never decrease
// along the vector: a reassigned level joins the one below, which is last).
struct SubxactLockNote {
  LockTag tag;
  LockMode mode;
  int level;
};
std::vector<SubxactLockNote> g_sub_notes;
int g_sub_level = 0;

void NoteAcquired(const LockTag& tag, LockMode mode) {
  if (g_sub_level > 0) g_sub_notes.push_back(SubxactLockNote{tag, mode, g_sub_level});
}

// An explicit release takes back the newest matching note.
void ForgetNote(const LockTag& tag, LockMode mode) {
  for (auto it = g_sub_notes.rbegin(); it != g_sub_notes.rend(); ++it) {
    if (it->mode == mode && it->tag == tag) {
      g_sub_notes.erase(std::next(it).base());
      return;
    }
  }
}

int g_deadlock_timeout_ms = 1000;
int g_lock_timeout_ms = 0;
void (*g_interrupt_hook)() = &hearth::CheckForInterrupts;

LocalLock* FindLocal(const LockTag& tag) {
  CheckLocalOwner();
  auto it = g_local_index.find(tag);
  return it == g_local_index.end() ? nullptr : &g_local[it->second];
}

void AddLocal(const LockTag& tag, LockMode mode) {
  LocalLock* l = FindLocal(tag);
  if (l == nullptr) {
    g_local_index.emplace(tag, g_local.size());
    g_local.push_back(LocalLock{tag, {}});
    l = &g_local.back();
  }
  l->counts[static_cast<int>(mode)]++;
}

void EraseLocal(const LockTag& tag) {
  auto it = g_local_index.find(tag);
  if (it == g_local_index.end()) return;
  size_t i = it->second;
  g_local_index.erase(it);
  if (i + 1 != g_local.size()) {
    g_local[i] = g_local.back();
    g_local_index[g_local[i].tag] = i;
  }
  g_local.pop_back();
}

int64_t NowMs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

struct Where {
  uint32_t bucket;
  int partition;
};

Where Locate(const LockTag& tag) {
  uint32_t bucket = tag.Hash() & static_cast<uint32_t>(g_view.shared->nbuckets - 1);
  return Where{bucket, static_cast<int>(bucket % kLockPartitions)};
}

LWLock& PartitionLock(int partition) { return g_view.shared->partitions[partition].lock; }

// ---- helpers below REQUIRE the lock's partition LWLock held exclusive ----

int32_t FindLock(const LockTag& tag, uint32_t bucket) {
  for (int32_t i = g_view.buckets[bucket]; i != kNil; i = g_view.locks[i].next_in_bucket) {
    if (g_view.locks[i].tag == tag) return i;
  }
  return kNil;
}

int32_t CreateLock(const LockTag& tag, uint32_t bucket) {
  int32_t i;
  {
    SpinLockGuard g(g_view.shared->freelist_lock);
    i = g_view.shared->free_lock_head;
    if (i == kNil) return kNil;
    g_view.shared->free_lock_head = g_view.locks[i].next_in_bucket;
  }
  LockObject& l = g_view.locks[i];
  l = LockObject{};
  l.tag = tag;
  l.holders_head = kNil;
  l.wait_head = kNil;
  l.wait_tail = kNil;
  l.next_in_bucket = g_view.buckets[bucket];
  g_view.buckets[bucket] = i;
  return i;
}

void MaybeFreeLock(int32_t li, uint32_t bucket) {
  LockObject& l = g_view.locks[li];
  if (l.holders_head != kNil || l.wait_head != kNil) return;
  int32_t* link = &g_view.buckets[bucket];
  while (*link != li) link = &g_view.locks[*link].next_in_bucket;
  *link = l.next_in_bucket;
  SpinLockGuard g(g_view.shared->freelist_lock);
  l.next_in_bucket = g_view.shared->free_lock_head;
  g_view.shared->free_lock_head = li;
}

int32_t FindHolder(int32_t li, int32_t proc) {
  for (int32_t h = g_view.locks[li].holders_head; h != kNil; h = g_view.holders[h].next) {
    if (g_view.holders[h].proc == proc) return h;
  }
  return kNil;
}

int32_t CreateHolder(int32_t li, int32_t proc) {
  int32_t h;
  {
    SpinLockGuard g(g_view.shared->freelist_lock);
    h = g_view.shared->free_holder_head;
    if (h == kNil) return kNil;
    g_view.shared->free_holder_head = g_view.holders[h].next;
  }
  LockHolder& holder = g_view.holders[h];
  holder.lock = li;
  holder.proc = proc;
  holder.held_mask = 0;
  holder.next = g_view.locks[li].holders_head;
  g_view.locks[li].holders_head = h;
  return h;
}

void RemoveHolder(int32_t li, int32_t h) {
  int32_t* link = &g_view.locks[li].holders_head;
  while (*link != h) link = &g_view.holders[*link].next;
  *link = g_view.holders[h].next;
  SpinLockGuard g(g_view.shared->freelist_lock);
  g_view.holders[h].next = g_view.shared->free_holder_head;
  g_view.shared->free_holder_head = h;
}

void Grant(int32_t li, int32_t h, int mode) {
  LockObject& l = g_view.locks[li];
  l.granted[mode]++;
  l.grant_mask |= ModeBit(mode);
  g_view.holders[h].held_mask |= ModeBit(mode);
}

void Ungrant(int32_t li, int32_t h, int mode) {
  LockObject& l = g_view.locks[li];
  if (--l.granted[mode] == 0) l.grant_mask &= static_cast<uint16_t>(~ModeBit(mode));
  g_view.holders[h].held_mask &= static_cast<uint16_t>(~ModeBit(mode));
}

void Enqueue(int32_t li, int32_t proc, int mode, bool at_head) {
  LockObject& l = g_view.locks[li];
  LockProcState& ps = g_view.procs[proc];
  ps.waiting_lock = li;
  ps.wait_mode = static_cast<uint8_t>(mode);
  ps.next_waiter = kNil;
  if (l.wait_head == kNil) {
    l.wait_head = l.wait_tail = proc;
  } else if (at_head) {
    ps.next_waiter = l.wait_head;
    l.wait_head = proc;
  } else {
    g_view.procs[l.wait_tail].next_waiter = proc;
    l.wait_tail = proc;
  }
  l.waiting[mode]++;
  l.wait_mask |= ModeBit(mode);
  ps.status.store(kWaiting, std::memory_order_release);
}

void Dequeue(int32_t li, int32_t proc) {
  LockObject& l = g_view.locks[li];
  LockProcState& ps = g_view.procs[proc];
  int32_t prev = kNil;
  for (int32_t w = l.wait_head; w != kNil; prev = w, w = g_view.procs[w].next_waiter) {
    if (w != proc) continue;
    if (prev == kNil) {
      l.wait_head = ps.next_waiter;
    } else {
      g_view.procs[prev].next_waiter = ps.next_waiter;
    }
    if (l.wait_tail == proc) l.wait_tail = prev;
    break;
  }
  if (--l.waiting[ps.wait_mode] == 0) l.wait_mask &= static_cast<uint16_t>(~ModeBit(ps.wait_mode));
  ps.waiting_lock = kNil;
  ps.next_waiter = kNil;
}

// Grants every waiter that no longer conflicts with holders or with a
// waiter still ahead of it, in queue order, and wakes them.
void WakeWaiters(int32_t li) {
  LockObject& l = g_view.locks[li];
  uint16_t ahead = 0;
  int32_t next = kNil;
  for (int32_t w = l.wait_head; w != kNil; w = next) {
    LockProcState& ps = g_view.procs[w];
    next = ps.next_waiter;
    int mode = ps.wait_mode;
    int32_t h = FindHolder(li, w);
    uint16_t others = OthersGrantMask(l, g_view.holders[h].held_mask);
    if ((ConflictMask(mode) & others) == 0 && (ConflictMask(mode) & ahead) == 0) {
      Dequeue(li, w);
      Grant(li, h, mode);
      ps.status.store(kGranted, std::memory_order_release);
      ps.wake_seq.fetch_add(1, std::memory_order_release);
      FutexWakeAll(&ps.wake_seq);
    } else {
      ahead |= ModeBit(mode);
    }
  }
}

// Withdraws `proc`'s pending request on lock li. Returns false when it was
// granted in the meantime (then nothing changes).
bool WithdrawLocked(int32_t li, uint32_t bucket, int32_t proc) {
  LockProcState& ps = g_view.procs[proc];
  if (ps.status.load(std::memory_order_acquire) == kGranted) return false;
  Dequeue(li, proc);
  ps.status.store(kNotWaiting, std::memory_order_release);
  int32_t h = FindHolder(li, proc);
  if (h != kNil && g_view.holders[h].held_mask == 0) RemoveHolder(li, h);
  WakeWaiters(li);
  MaybeFreeLock(li, bucket);
  return true;
}

// Drops the modes in `mask` that this process holds on `tag` in shared memory.
void ReleaseShared(const LockTag& tag, uint16_t mask) {
  Where w = Locate(tag);
  LWLockGuard g(PartitionLock(w.partition), LWLockMode::kExclusive);
  int32_t li = FindLock(tag, w.bucket);
  if (li == kNil) return;
  int32_t me = MyProcNumber();
  int32_t h = FindHolder(li, me);
  if (h == kNil) return;
  for (int m = 1; m <= kMaxLockMode; m++) {
    if ((mask & ModeBit(m)) != 0 && (g_view.holders[h].held_mask & ModeBit(m)) != 0) Ungrant(li, h, m);
  }
  if (g_view.holders[h].held_mask == 0 && g_view.procs[me].waiting_lock != li) RemoveHolder(li, h);
  WakeWaiters(li);
  MaybeFreeLock(li, w.bucket);
}

DbError OutOfLockMemory() {
  return DbError(sqlstate::kOutOfMemory, "out of shared memory")
      .WithHint("You might need to increase max_locks_per_transaction.");
}

void FinishWait() {
  if (ProcSlot* s = MyProc()) s->waiting_on_lock.store(false, std::memory_order_relaxed);
  ReportWaitEvent(WaitEvent::kNone);
}

// pg_stat_activity's wait_event for a lock of this kind.
WaitEvent LockWaitEvent(LockTagType type) {
  switch (type) {
    case LockTagType::kTransaction: return WaitEvent::kLockTransactionId;
    case LockTagType::kTuple: return WaitEvent::kLockTuple;
    case LockTagType::kObject: return WaitEvent::kLockObject;
    default: return WaitEvent::kLockRelation;
  }
}

// Sleeps until the pending request (already queued) is granted. On deadlock,
// lock_timeout or an interrupt the request is withdrawn and an error thrown;
// if the grant won the race the lock is kept (recorded locally) and
// interrupts still propagate.
void WaitForLock(const LockTag& tag, LockMode mode, int32_t li) {
  int32_t me = MyProcNumber();
  LockProcState& ps = g_view.procs[me];
  Where w = Locate(tag);
  const int64_t start = NowMs();
  const int64_t deadlock_at = start + std::max(1, g_deadlock_timeout_ms);
  const int64_t timeout_at = g_lock_timeout_ms > 0 ? start + g_lock_timeout_ms : std::numeric_limits<int64_t>::max();
  bool checked_deadlock = false;
  auto withdraw = [&]() {
    LWLockGuard g(PartitionLock(w.partition), LWLockMode::kExclusive);
    return WithdrawLocked(li, w.bucket, me);
  };
  for (;;) {
    uint32_t seq = ps.wake_seq.load(std::memory_order_acquire);
    if (ps.status.load(std::memory_order_acquire) == kGranted) break;
    int64_t now = NowMs();
    if (!checked_deadlock && now >= deadlock_at) {
      checked_deadlock = true;
      std::string detail;
      bool deadlocked = false;
      int32_t autovacuum_pid = 0;
      for (int p = 0; p < kLockPartitions; p++) PartitionLock(p).Acquire(LWLockMode::kExclusive);
      if (ps.status.load(std::memory_order_acquire) == kWaiting) {
        if (DeadLockCheck(me, &detail)) {
          deadlocked = WithdrawLocked(li, w.bucket, me);
        } else {
          autovacuum_pid = BlockingAutovacuumPid(me);
        }
      }
      for (int p = kLockPartitions - 1; p >= 0; p--) PartitionLock(p).Release(LWLockMode::kExclusive);
      // The worker gives up its table ("canceling autovacuum task") and we
      // are granted when it releases the lock; DDL never queues behind it.
      if (autovacuum_pid > 0) kill(autovacuum_pid, SIGINT);
      if (deadlocked) {
        FinishWait();
        throw DbError(sqlstate::kDeadlockDetected, "deadlock detected")
            .WithDetail(detail)
            .WithHint("See server log for query details.");
      }
      continue;
    }
    if (now >= timeout_at) {
      if (withdraw()) {
        FinishWait();
        throw DbError(sqlstate::kLockNotAvailable, "canceling statement due to lock timeout");
      }
      break;  // granted just now
    }
    int64_t sleep_ms = kWaitSliceMs;
    if (!checked_deadlock) sleep_ms = std::min(sleep_ms, deadlock_at - now);
    if (timeout_at != std::numeric_limits<int64_t>::max()) sleep_ms = std::min(sleep_ms, timeout_at - now);
    FutexWait(&ps.wake_seq, seq, static_cast<int>(std::max<int64_t>(1, sleep_ms)));
    CheckPostmasterAlive();
    if (g_interrupt_hook != nullptr) {
      try {
        g_interrupt_hook();
      } catch (...) {
        if (!withdraw()) {
          ps.status.store(kNotWaiting, std::memory_order_relaxed);
          AddLocal(tag, mode);
        }
        FinishWait();
        throw;
      }
    }
  }
  ps.status.store(kNotWaiting, std::memory_order_relaxed);
  FinishWait();
}

}  // namespace

uint32_t LockTag::Hash() const {
  // FNV-1a over the meaningful fields (not the padding).
  uint32_t h = 2166136261u;
  auto mix = [&h](uint32_t v) {
    for (int i = 0; i < 4; i++) {
      h ^= (v >> (8 * i)) & 0xffu;
      h *= 16777619u;
    }
  };
  mix(static_cast<uint32_t>(type) | (static_cast<uint32_t>(field4) << 16));
  mix(field1);
  mix(field2);
  mix(field3);
  return h ^ (h >> 15);
}

std::string LockTag::Describe() const {
  switch (type) {
    case LockTagType::kRelation:
      return "relation " + std::to_string(field2) + " of database " + std::to_string(field1);
    case LockTagType::kTransaction:
      return "transaction " + std::to_string(field1);
    case LockTagType::kTuple:
      return "tuple (" + std::to_string(field3) + "," + std::to_string(field4) + ") of relation " + std::to_string(field2) +
             " of database " + std::to_string(field1);
    case LockTagType::kObject:
      return "object " + std::to_string(field2) + " of class " + std::to_string(field1);
    case LockTagType::kNone:
      break;
  }
  return "unknown lock";
}

bool LockModesConflict(LockMode requested, LockMode held) {
  return (ConflictMask(static_cast<int>(requested)) & ModeBit(static_cast<int>(held))) != 0;
}

const char* LockModeName(LockMode m) {
  switch (m) {
    case LockMode::kNoLock: return "NoLock";
    case LockMode::kAccessShare: return "AccessShareLock";
    case LockMode::kRowShare: return "RowShareLock";
    case LockMode::kRowExclusive: return "RowExclusiveLock";
    case LockMode::kShareUpdateExclusive: return "ShareUpdateExclusiveLock";
    case LockMode::kShare: return "ShareLock";
    case LockMode::kShareRowExclusive: return "ShareRowExclusiveLock";
    case LockMode::kExclusive: return "ExclusiveLock";
    case LockMode::kAccessExclusive: return "AccessExclusiveLock";
  }
  return "UnknownLock";
}

namespace {

constexpr int32_t kLockReserve = 65536;

struct Sizes {
  int32_t nprocs, nlocks, nholders, nbuckets;
  size_t header, buckets, locks, holders, procs;
  size_t Total() const { return header + buckets + locks + holders + procs; }
};

Sizes ComputeSizes(const ShmemParams& p) {
  Sizes s{};
  s.nprocs = p.TotalProcs();
  // max_locks_per_transaction locks per process as in PostgreSQL, plus a
  // shared reserve any one transaction may use up (PostgreSQL's lock hash
  // borrows spare shared memory the same way): one transaction can lock
  // ~kLockReserve relations (create or drop 10,000 tables) with defaults.
  const int32_t per_proc = std::max(10, p.max_locks_per_transaction);
  s.nlocks = per_proc * s.nprocs + kLockReserve;
  s.nholders = 2 * per_proc * s.nprocs + kLockReserve;
  s.nbuckets = 16;
  while (s.nbuckets < s.nlocks) s.nbuckets *= 2;
  s.header = AlignUp(sizeof(LockTableShared), 64);
  s.buckets = AlignUp(sizeof(int32_t) * static_cast<size_t>(s.nbuckets), 64);
  s.locks = AlignUp(sizeof(LockObject) * static_cast<size_t>(s.nlocks), 64);
  s.holders = AlignUp(sizeof(LockHolder) * static_cast<size_t>(s.nholders), 64);
  s.procs = sizeof(LockProcState) * static_cast<size_t>(s.nprocs);
  return s;
}

}  // namespace

size_t LockShmemSize(const ShmemParams& p) { return ComputeSizes(p).Total(); }

void LockShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  Sizes s = ComputeSizes(p);
  auto* base = static_cast<char*>(seg.Allocate("lock table", s.Total()));
  auto* shared = new (base) LockTableShared();
  for (LockPartition& part : shared->partitions) part.lock.Init();
  shared->freelist_lock.Init();
  shared->nlocks = s.nlocks;
  shared->nholders = s.nholders;
  shared->nbuckets = s.nbuckets;
  shared->nprocs = s.nprocs;
  char* cur = base + s.header;
  g_view.shared = shared;
  g_view.buckets = reinterpret_cast<int32_t*>(cur);
  cur += s.buckets;
  g_view.locks = reinterpret_cast<LockObject*>(cur);
  cur += s.locks;
  g_view.holders = reinterpret_cast<LockHolder*>(cur);
  cur += s.holders;
  g_view.procs = reinterpret_cast<LockProcState*>(cur);
  for (int32_t b = 0; b < s.nbuckets; b++) g_view.buckets[b] = kNil;
  for (int32_t i = 0; i < s.nlocks; i++) {
    new (&g_view.locks[i]) LockObject();
    g_view.locks[i].next_in_bucket = i + 1 < s.nlocks ? i + 1 : kNil;
  }
  shared->free_lock_head = 0;
  for (int32_t i = 0; i < s.nholders; i++) {
    new (&g_view.holders[i]) LockHolder();
    g_view.holders[i].next = i + 1 < s.nholders ? i + 1 : kNil;
  }
  shared->free_holder_head = 0;
  for (int32_t i = 0; i < s.nprocs; i++) {
    LockProcState* ps = new (&g_view.procs[i]) LockProcState();
    ps->wake_seq.store(0);
    ps->status.store(kNotWaiting);
    ps->waiting_lock = kNil;
    ps->next_waiter = kNil;
    ps->wait_mode = 0;
  }
  // A fresh segment (first start or after a crash): no process holds anything.
  ClearLocal();
}

LockAcquireResult LockAcquire(const LockTag& tag, LockMode mode, bool dont_wait) {
  const int32_t me = MyProcNumber();
  if (g_view.shared == nullptr || me == kInvalidProcNumber) throw std::logic_error("LockAcquire without a proc slot");
  const int m = static_cast<int>(mode);
  if (m < 1 || m > kMaxLockMode) throw std::logic_error("LockAcquire: bad lock mode");
  if (LocalLock* l = FindLocal(tag); l != nullptr && l->counts[m] > 0) {
    l->counts[m]++;
    NoteAcquired(tag, mode);
    return LockAcquireResult::kGranted;
  }
  Where w = Locate(tag);
  int32_t li;
  {
    LWLockGuard g(PartitionLock(w.partition), LWLockMode::kExclusive);
    li = FindLock(tag, w.bucket);
    if (li == kNil) li = CreateLock(tag, w.bucket);
    if (li == kNil) throw OutOfLockMemory();
    int32_t h = FindHolder(li, me);
    if (h == kNil) h = CreateHolder(li, me);
    if (h == kNil) {
      MaybeFreeLock(li, w.bucket);
      throw OutOfLockMemory();
    }
    const LockObject& lock = g_view.locks[li];
    const uint16_t held = g_view.holders[h].held_mask;
    const uint16_t conflicts = ConflictMask(m);
    bool must_wait = (conflicts & OthersGrantMask(lock, held)) != 0 || (held == 0 && (conflicts & lock.wait_mask) != 0);
    if (!must_wait) {
      Grant(li, h, m);
    } else if (dont_wait) {
      if (held == 0) RemoveHolder(li, h);
      MaybeFreeLock(li, w.bucket);
      return LockAcquireResult::kNotAvailable;
    } else {
      Enqueue(li, me, m, /*at_head=*/held != 0);
    }
    if (!must_wait) {
      g.Release();
      AddLocal(tag, mode);
      NoteAcquired(tag, mode);
      return LockAcquireResult::kGranted;
    }
  }
  if (ProcSlot* s = MyProc()) s->waiting_on_lock.store(true, std::memory_order_relaxed);
  ReportWaitEvent(LockWaitEvent(tag.type));
  WaitForLock(tag, mode, li);
  AddLocal(tag, mode);
  NoteAcquired(tag, mode);
  return LockAcquireResult::kGranted;
}

namespace {

bool ReleaseOne(const LockTag& tag, LockMode mode) {
  const int m = static_cast<int>(mode);
  if (m < 1 || m > kMaxLockMode) return false;
  LocalLock* l = FindLocal(tag);
  if (l == nullptr || l->counts[m] == 0) return false;
  if (--l->counts[m] > 0) return true;
  bool any = false;
  for (int i = 1; i <= kMaxLockMode; i++) any = any || l->counts[i] > 0;
  if (!any) EraseLocal(tag);
  ReleaseShared(tag, ModeBit(m));
  return true;
}

}  // namespace

bool LockRelease(const LockTag& tag, LockMode mode) {
  if (!ReleaseOne(tag, mode)) return false;
  if (!g_sub_notes.empty()) ForgetNote(tag, mode);
  return true;
}

void LockSetSubxactLevel(int level) { g_sub_level = level; }

void LockReleaseSubxact(int level) {
  while (!g_sub_notes.empty() && g_sub_notes.back().level >= level) {
    const SubxactLockNote note = g_sub_notes.back();
    g_sub_notes.pop_back();
    (void)ReleaseOne(note.tag, note.mode);
  }
}

void LockReassignSubxact(int level) {
  for (auto it = g_sub_notes.rbegin(); it != g_sub_notes.rend() && it->level >= level; ++it) it->level = level - 1;
  // Level 0 is the top-level transaction: LockReleaseAll takes care of it.
  while (!g_sub_notes.empty() && g_sub_notes.back().level == 0) g_sub_notes.pop_back();
}

void LockReleaseAll() {
  CheckLocalOwner();
  g_sub_notes.clear();
  std::vector<LocalLock> held;
  held.swap(g_local);
  g_local_index.clear();
  for (const LocalLock& l : held) {
    uint16_t mask = 0;
    for (int m = 1; m <= kMaxLockMode; m++) {
      if (l.counts[m] > 0) mask |= ModeBit(m);
    }
    if (mask != 0) ReleaseShared(l.tag, mask);
  }
  held.clear();
  g_local.swap(held);  // keep the vector's capacity for the next transaction
}

bool LockHeldByMe(const LockTag& tag, LockMode mode, bool or_stronger) {
  const LocalLock* l = FindLocal(tag);
  if (l == nullptr) return false;
  int m = static_cast<int>(mode);
  for (int i = m; i <= (or_stronger ? kMaxLockMode : m); i++) {
    if (l->counts[i] > 0) return true;
  }
  return false;
}

void XactLockTableInsert(TransactionId xid) { LockAcquire(LockTag::Transaction(xid), LockMode::kExclusive); }

void XactLockTableDelete(TransactionId xid) { LockRelease(LockTag::Transaction(xid), LockMode::kExclusive); }

void XactLockTableWait(TransactionId xid) {
  const LockTag tag = LockTag::Transaction(xid);
  if (LockHeldByMe(tag, LockMode::kExclusive)) throw std::logic_error("XactLockTableWait on own transaction");
  for (;;) {
    LockAcquire(tag, LockMode::kShare);
    LockRelease(tag, LockMode::kShare);
    if (!ProcArrayXidIsRunning(xid)) return;
    // The transaction has published its xid but not yet taken its lock.
    usleep(1000);
  }
}

bool ConditionalXactLockTableWait(TransactionId xid) {
  const LockTag tag = LockTag::Transaction(xid);
  if (LockAcquire(tag, LockMode::kShare, /*dont_wait=*/true) != LockAcquireResult::kGranted) return false;
  LockRelease(tag, LockMode::kShare);
  return !ProcArrayXidIsRunning(xid);
}

void SetLockTimeouts(int deadlock_timeout_ms, int lock_timeout_ms) {
  g_deadlock_timeout_ms = std::max(1, deadlock_timeout_ms);
  g_lock_timeout_ms = std::max(0, lock_timeout_ms);
}

void SetLockWaitInterruptHook(void (*hook)()) { g_interrupt_hook = hook; }

std::vector<LockInstance> GetLockInstances() {
  std::vector<LockInstance> out;
  if (g_view.shared == nullptr) return out;
  std::vector<LWLockGuard> guards;
  guards.reserve(kLockPartitions);
  for (int p = 0; p < kLockPartitions; ++p) guards.emplace_back(PartitionLock(p), LWLockMode::kShared);
  auto pid_of = [](int32_t proc) {
    ProcArrayShared* pa = ProcArray();
    return pa != nullptr && proc >= 0 && proc < pa->nslots ? pa->slots[proc].pid.load(std::memory_order_relaxed) : 0;
  };
  for (int32_t b = 0; b < g_view.shared->nbuckets; ++b) {
    for (int32_t li = g_view.buckets[b]; li != kNil; li = g_view.locks[li].next_in_bucket) {
      const LockObject& lock = g_view.locks[li];
      for (int32_t h = lock.holders_head; h != kNil; h = g_view.holders[h].next) {
        for (int m = 1; m <= kMaxLockMode; ++m) {
          if ((g_view.holders[h].held_mask & ModeBit(m)) == 0) continue;
          out.push_back(LockInstance{lock.tag, static_cast<LockMode>(m), true, pid_of(g_view.holders[h].proc)});
        }
      }
      for (int32_t p = lock.wait_head; p != kNil; p = g_view.procs[p].next_waiter) {
        out.push_back(LockInstance{lock.tag, static_cast<LockMode>(g_view.procs[p].wait_mode), false, pid_of(p)});
      }
    }
  }
  return out;
}

LockStatus GetLockStatus(const LockTag& tag) {
  LockStatus st;
  if (g_view.shared == nullptr) return st;
  Where w = Locate(tag);
  LWLockGuard g(PartitionLock(w.partition), LWLockMode::kShared);
  int32_t li = FindLock(tag, w.bucket);
  if (li == kNil) return st;
  for (int32_t h = g_view.locks[li].holders_head; h != kNil; h = g_view.holders[h].next) {
    if (g_view.holders[h].held_mask != 0) st.holders++;
  }
  for (int32_t p = g_view.locks[li].wait_head; p != kNil; p = g_view.procs[p].next_waiter) st.waiters++;
  return st;
}

}  // namespace hearth::storage
