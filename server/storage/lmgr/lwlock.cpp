// storage/lmgr/lwlock.cpp
//
// Principal entry points: LWLock::Acquire/TryAcquire/Release, SpinLock::Lock,
// SharedCondition::Wait/NotifyAll, FutexWait/FutexWakeAll.
//
// LWLock protocol: a waiter that cannot get the lock sets the WAITERS bit
// (with a CAS on the value it observed) and sleeps on the state word with that
// exact value, so any change (a release) makes its futex_wait return at once.
// A releaser that leaves the lock free and sees WAITERS clears the bit and
// wakes everybody; woken waiters race again and re-set the bit if they lose.
// Waking all is simple and correct; these locks are short-held, so herds are
// small in practice.
#include "storage/lmgr/lwlock.h"

#include <algorithm>

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>

namespace hearth::storage {

namespace {

pid_t g_postmaster_pid = 0;

constexpr int kSpinsBeforeSleep = 100;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

void SetPostmasterPidForWaits(pid_t postmaster_pid) { g_postmaster_pid = postmaster_pid; }

void CheckPostmasterAlive() {
  if (g_postmaster_pid != 0 && getppid() != g_postmaster_pid) _exit(1);
}

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected, int timeout_ms) {
  struct timespec ts;
  ts.tv_sec = timeout_ms / 1000;
  ts.tv_nsec = static_cast<long>(timeout_ms % 1000) * 1000000L;
  // Shared futex (no FUTEX_PRIVATE_FLAG): the word is in memory shared between processes.
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

void FutexWakeAll(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

// ---- LWLock ----------------------------------------------------------------

bool LWLock::TryAcquire(LWLockMode mode) {
  uint32_t s = state.load(std::memory_order_relaxed);
  for (;;) {
    if (mode == LWLockMode::kExclusive) {
      if ((s & (kExclusiveBit | kShareMask)) != 0) return false;
      if (state.compare_exchange_weak(s, s | kExclusiveBit, std::memory_order_acquire, std::memory_order_relaxed))
        return true;
    } else {
      if ((s & kExclusiveBit) != 0) return false;
      if (state.compare_exchange_weak(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed)) return true;
    }
  }
}

void LWLock::Acquire(LWLockMode mode) {
  int spins = 0;
  uint32_t s = state.load(std::memory_order_relaxed);
  for (;;) {
    bool free_for_me = mode == LWLockMode::kExclusive ? (s & (kExclusiveBit | kShareMask)) == 0
                                                      : (s & kExclusiveBit) == 0;
    if (free_for_me) {
      uint32_t desired = mode == LWLockMode::kExclusive ? (s | kExclusiveBit) : (s + 1);
      if (state.compare_exchange_weak(s, desired, std::memory_order_acquire, std::memory_order_relaxed)) return;
      continue;  // s was reloaded by the failed CAS
    }
    if (spins < kSpinsBeforeSleep) {
      spins++;
      CpuRelax();
      s = state.load(std::memory_order_relaxed);
      continue;
    }
    if ((s & kWaitersBit) == 0) {
      if (!state.compare_exchange_weak(s, s | kWaitersBit, std::memory_order_relaxed, std::memory_order_relaxed))
        continue;
      s |= kWaitersBit;
    }
    FutexWait(&state, s, kWaitSliceMs);
    CheckPostmasterAlive();
    s = state.load(std::memory_order_relaxed);
  }
}

void LWLock::Release(LWLockMode mode) {
  uint32_t old;
  if (mode == LWLockMode::kExclusive) {
    old = state.fetch_and(~(kExclusiveBit | kWaitersBit), std::memory_order_release);
    if ((old & kWaitersBit) != 0) FutexWakeAll(&state);
    return;
  }
  old = state.fetch_sub(1, std::memory_order_release);
  // Waking is needed only when the lock became free: shared waiters wait only
  // for an exclusive holder, so while readers remain nobody can progress.
  if ((old & kShareMask) == 1 && (old & kWaitersBit) != 0) {
    old = state.fetch_and(~kWaitersBit, std::memory_order_relaxed);
    if ((old & kWaitersBit) != 0) FutexWakeAll(&state);
  }
}

// ---- SpinLock ----------------------------------------------------------------

void SpinLock::Lock() {
  int spins = 0;
  for (;;) {
    if (word.load(std::memory_order_relaxed) == 0 && word.exchange(1, std::memory_order_acquire) == 0) return;
    if (++spins < 1000) {
      CpuRelax();
    } else {
      // The holder may be descheduled (2 cores, many processes): give it the CPU.
      sched_yield();
      if (spins > 100000) {
        struct timespec ts {0, 100000};
        nanosleep(&ts, nullptr);
        CheckPostmasterAlive();
        spins = 1000;
      }
    }
  }
}

// ---- SharedCondition ------------------------------------------------------

void SharedCondition::Wait(uint32_t seen) { WaitFor(seen, kWaitSliceMs); }

void SharedCondition::WaitFor(uint32_t seen, int timeout_ms) {
  nwaiters.fetch_add(1, std::memory_order_seq_cst);
  if (seq.load(std::memory_order_seq_cst) == seen) FutexWait(&seq, seen, std::min(timeout_ms, kWaitSliceMs));
  nwaiters.fetch_sub(1, std::memory_order_relaxed);
  CheckPostmasterAlive();
}

void SharedCondition::NotifyAll() {
  seq.fetch_add(1, std::memory_order_seq_cst);
  if (nwaiters.load(std::memory_order_seq_cst) != 0) FutexWakeAll(&seq);
}

}  // namespace hearth::storage
