// storage/lmgr/lwlock.h
//
// Process-shared synchronisation primitives that live in the shared segment:
//   LWLock          reader/writer lock (shared/exclusive), futex-based
//   SpinLock        test-and-set lock for a handful of instructions
//   SharedCondition "wait until something changes" (e.g. buffer I/O done)
// plus move-only RAII guards. All of them are plain standard-layout structs
// holding std::atomic<uint32_t> words (lock-free, static_asserted), so they
// work across fork()ed processes sharing one mapping. Waiting uses the Linux
// futex syscall in its SHARED (non-PRIVATE) form: the kernel keys the wait
// queue by the physical page, so processes with the same mapping meet.
//
// Waits never spin forever: after a short spin a waiter sleeps on the futex
// with a timeout (kWaitSliceMs) and, on every wake-up, checks whether the
// postmaster has died (when SetPostmasterPidForWaits was called); if so the
// process exits with _exit(1) — a lock held by a dead process is never
// waited for, because the postmaster resets all shared memory after a crash.
//
// None of these are recursive, none record their owner, and none may be held
// across client I/O. Lock order: see storage/buffer/README.md.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>

namespace hearth::storage {

// Milliseconds a waiter sleeps on a futex before it re-checks its condition
// and the postmaster's liveness.
inline constexpr int kWaitSliceMs = 200;

// Children call this once after fork with the postmaster's pid; from then on
// every lock wait exits the process (_exit(1)) when the postmaster is gone
// (getppid() differs). 0 (the default) disables the check.
void SetPostmasterPidForWaits(pid_t postmaster_pid);

// Low-level futex helpers on a shared word. FutexWait returns when *word !=
// expected, on a wake, or after timeout_ms (spurious returns are allowed);
// FutexWakeAll wakes every waiter on the word.
void FutexWait(std::atomic<uint32_t>* word, uint32_t expected, int timeout_ms);
void FutexWakeAll(std::atomic<uint32_t>* word);

// Called by waiters after each sleep: exits the process if the postmaster died.
void CheckPostmasterAlive();

enum class LWLockMode : uint8_t { kShared, kExclusive };

// Reader/writer lock. State word: bit 31 = held exclusive, bit 30 = someone
// sleeps on the futex, bits 0..23 = number of shared holders.
// Not fair: a stream of readers can delay a writer (short sections only).
struct LWLock {
  std::atomic<uint32_t> state;

  // REQUIRES: not in use. Placement-initialises the word (shared memory is
  // zero-filled, which is also a valid unlocked state).
  void Init() { state.store(0, std::memory_order_relaxed); }

  void Acquire(LWLockMode mode);
  // Returns true and holds the lock, or false without waiting.
  bool TryAcquire(LWLockMode mode);
  // REQUIRES: held in `mode` by the caller.
  void Release(LWLockMode mode);

  bool HeldExclusiveByAnyone() const { return (state.load(std::memory_order_relaxed) & kExclusiveBit) != 0; }
  uint32_t SharedHolders() const { return state.load(std::memory_order_relaxed) & kShareMask; }

  static constexpr uint32_t kExclusiveBit = 1u << 31;
  static constexpr uint32_t kWaitersBit = 1u << 30;
  static constexpr uint32_t kShareMask = (1u << 24) - 1;
};
static_assert(std::atomic<uint32_t>::is_always_lock_free);
static_assert(sizeof(LWLock) == 4);

// Move-only RAII holder of an LWLock. Default-constructed = holds nothing.
class LWLockGuard {
 public:
  LWLockGuard() = default;
  LWLockGuard(LWLock& lock, LWLockMode mode) : lock_(&lock), mode_(mode) { lock.Acquire(mode); }
  // Returns a guard holding the lock, or nullopt if it was not free.
  static std::optional<LWLockGuard> TryAcquire(LWLock& lock, LWLockMode mode) {
    if (!lock.TryAcquire(mode)) return std::nullopt;
    return LWLockGuard(&lock, mode);
  }
  LWLockGuard(LWLockGuard&& o) noexcept : lock_(o.lock_), mode_(o.mode_) { o.lock_ = nullptr; }
  LWLockGuard& operator=(LWLockGuard&& o) noexcept {
    if (this != &o) {
      Release();
      lock_ = o.lock_;
      mode_ = o.mode_;
      o.lock_ = nullptr;
    }
    return *this;
  }
  LWLockGuard(const LWLockGuard&) = delete;
  LWLockGuard& operator=(const LWLockGuard&) = delete;
  ~LWLockGuard() { Release(); }

  // Releases early; idempotent.
  void Release() {
    if (lock_ != nullptr) lock_->Release(mode_);
    lock_ = nullptr;
  }
  bool owns() const { return lock_ != nullptr; }
  LWLockMode mode() const { return mode_; }

 private:
  LWLockGuard(LWLock* lock, LWLockMode mode) : lock_(lock), mode_(mode) {}
  LWLock* lock_ = nullptr;
  LWLockMode mode_ = LWLockMode::kShared;
};

// Test-and-set spinlock for sections of a few instructions (no syscalls, no
// allocation, no throwing while held). Spins with pause, then yields.
struct SpinLock {
  std::atomic<uint32_t> word;

  void Init() { word.store(0, std::memory_order_relaxed); }
  void Lock();
  bool TryLock() { return word.exchange(1, std::memory_order_acquire) == 0; }
  void Unlock() { word.store(0, std::memory_order_release); }
};
static_assert(sizeof(SpinLock) == 4);

class SpinLockGuard {
 public:
  explicit SpinLockGuard(SpinLock& l) : lock_(l) { lock_.Lock(); }
  ~SpinLockGuard() { lock_.Unlock(); }
  SpinLockGuard(const SpinLockGuard&) = delete;
  SpinLockGuard& operator=(const SpinLockGuard&) = delete;

 private:
  SpinLock& lock_;
};

// A wait/notify primitive on a shared sequence word. Usage (waiter):
//   for (;;) { uint32_t seen = cv.Prepare(); if (done()) break; cv.Wait(seen); }
// Notifier: make `done()` true, then cv.NotifyAll(). Prepare-then-check closes
// the lost-wakeup window: a notify after Prepare changes the sequence, so the
// Wait returns at once. Wait may return spuriously; callers re-check.
struct SharedCondition {
  std::atomic<uint32_t> seq;
  std::atomic<uint32_t> nwaiters;

  void Init() {
    seq.store(0, std::memory_order_relaxed);
    nwaiters.store(0, std::memory_order_relaxed);
  }
  uint32_t Prepare() const { return seq.load(std::memory_order_seq_cst); }
  // Sleeps until the sequence moves past `seen` or kWaitSliceMs elapses;
  // checks postmaster death afterwards.
  void Wait(uint32_t seen);
  // Wait with a shorter bound (at most kWaitSliceMs).
  void WaitFor(uint32_t seen, int timeout_ms);
  // Wakes every waiter; a syscall only when someone is sleeping.
  void NotifyAll();
};
static_assert(sizeof(SharedCondition) == 8);

}  // namespace hearth::storage
