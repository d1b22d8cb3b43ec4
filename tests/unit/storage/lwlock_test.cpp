#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>
#include <vector>

#include "storage/ipc/shmem.h"
#include "storage/lmgr/lwlock.h"

using namespace hearth::storage;

namespace {

struct SharedState {
  LWLock lock;
  SpinLock spin;
  SharedCondition cond;
  std::atomic<uint32_t> flag;
  uint64_t a;  // a and b are always equal outside the exclusive lock
  uint64_t b;
  uint64_t spin_counter;
  std::atomic<uint32_t> reader_errors;
};

std::vector<pid_t> ForkN(int n, void (*body)(SharedState*, int), SharedState* s) {
  std::vector<pid_t> pids;
  for (int i = 0; i < n; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      body(s, i);
      _exit(0);
    }
    pids.push_back(pid);
  }
  return pids;
}

bool WaitAll(const std::vector<pid_t>& pids) {
  bool ok = true;
  for (pid_t p : pids) {
    int status = 0;
    waitpid(p, &status, 0);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  return ok;
}

constexpr int kProcs = 4;
// HEARTH_STORAGE_STRESS=<n> multiplies the work for a longer manual stress run.
int StressFactor() {
  const char* v = getenv("HEARTH_STORAGE_STRESS");
  return v != nullptr && atoi(v) > 0 ? atoi(v) : 1;
}
const int kIters = 20000 * StressFactor();

void LockWorker(SharedState* s, int idx) {
  for (int i = 0; i < kIters; i++) {
    if (idx % 2 == 1 && i % 4 == 0) {
      LWLockGuard g(s->lock, LWLockMode::kShared);
      if (s->a != s->b) s->reader_errors.fetch_add(1);
    }
    LWLockGuard g(s->lock, LWLockMode::kExclusive);
    uint64_t v = s->a;
    s->a = v + 1;
    if (i % 1000 == 0) usleep(10);  // widen the window so waiters really sleep on the futex
    s->b = s->b + 1;
  }
}

void SpinWorker(SharedState* s, int) {
  for (int i = 0; i < kIters; i++) {
    SpinLockGuard g(s->spin);
    s->spin_counter = s->spin_counter + 1;
  }
}

}  // namespace

TEST_CASE("LWLock modes exclude each other", "[lwlock]") {
  LWLock l;
  l.Init();
  REQUIRE(l.TryAcquire(LWLockMode::kShared));
  REQUIRE(l.TryAcquire(LWLockMode::kShared));
  CHECK(l.SharedHolders() == 2);
  CHECK_FALSE(l.TryAcquire(LWLockMode::kExclusive));
  l.Release(LWLockMode::kShared);
  l.Release(LWLockMode::kShared);
  {
    auto g = LWLockGuard::TryAcquire(l, LWLockMode::kExclusive);
    REQUIRE(g.has_value());
    CHECK(l.HeldExclusiveByAnyone());
    CHECK_FALSE(l.TryAcquire(LWLockMode::kShared));
    LWLockGuard moved = std::move(*g);
    CHECK(moved.owns());
    CHECK_FALSE(g->owns());
  }
  CHECK_FALSE(l.HeldExclusiveByAnyone());
  CHECK(l.state.load() == 0);
}

TEST_CASE("LWLock and SpinLock hold up across processes", "[lwlock]") {
  auto seg = ShmemSegment::Create(1 << 16);
  auto* s = new (seg->Allocate("lwlock test", sizeof(SharedState))) SharedState();
  s->lock.Init();
  s->spin.Init();
  s->cond.Init();
  s->a = s->b = s->spin_counter = 0;
  s->reader_errors = 0;
  REQUIRE(WaitAll(ForkN(kProcs, LockWorker, s)));
  CHECK(s->a == static_cast<uint64_t>(kProcs) * kIters);
  CHECK(s->b == s->a);
  CHECK(s->reader_errors.load() == 0);
  CHECK(s->lock.state.load() == 0);  // free, no stale waiters bit
  REQUIRE(WaitAll(ForkN(kProcs, SpinWorker, s)));
  CHECK(s->spin_counter == static_cast<uint64_t>(kProcs) * kIters);
}

TEST_CASE("SharedCondition wakes a waiter in another process", "[lwlock]") {
  auto seg = ShmemSegment::Create(1 << 16);
  auto* s = new (seg->Allocate("cond test", sizeof(SharedState))) SharedState();
  s->cond.Init();
  s->flag = 0;
  s->a = 0;
  pid_t pid = fork();
  if (pid == 0) {
    for (;;) {
      uint32_t seen = s->cond.Prepare();
      if (s->flag.load() != 0) break;
      s->cond.Wait(seen);
    }
    _exit(s->flag.load() == 7 ? 0 : 1);
  }
  usleep(20000);
  s->flag = 7;
  s->cond.NotifyAll();
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
