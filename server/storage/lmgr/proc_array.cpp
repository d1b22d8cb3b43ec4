// storage/lmgr/proc_array.cpp
//
// Principal entry points: ProcArrayShmemInit, ClaimProcSlot, ReleaseProcSlot,
// CountActiveWalWriters.
#include "storage/lmgr/proc_array.h"

#include <unistd.h>

#include <new>

#include "storage/lmgr/lock.h"

namespace hearth::storage {

namespace {
void* g_xact_area = nullptr;
ProcArrayShared* g_proc_array = nullptr;
ProcNumber g_my_proc_number = kInvalidProcNumber;
}  // namespace

size_t ProcArrayShmemSize(const ShmemParams& p) {
  return sizeof(ProcArrayShared) + sizeof(ProcSlot) * static_cast<size_t>(p.TotalProcs());
}

void ProcArrayShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  void* mem = seg.Allocate("proc array", ProcArrayShmemSize(p));
  auto* pa = static_cast<ProcArrayShared*>(mem);
  pa->lock.Init();
  pa->latest_completed_xid.store(kFirstNormalTransactionId - 1);
  pa->client_sessions.store(0);
  pa->walsender_sessions.store(0);
  pa->startup_waits_for_buffer.store(-1);
  pa->nslots = p.TotalProcs();
  for (int i = 0; i < pa->nslots; i++) {
    ProcSlot* s = new (&pa->slots[i]) ProcSlot();
    s->pid.store(0);
    s->type.store(BackendType::kUnused);
    s->state.store(ProcState::kFree);
    s->wrote_wal.store(false);
    s->waiting_on_lock.store(false);
    s->state_since_us.store(0);
    s->xid.store(kInvalidTransactionId);
    s->xmin.store(kInvalidTransactionId);
    s->recovery_conflict.store(0);
  }
  g_proc_array = pa;
  g_my_proc_number = kInvalidProcNumber;
}

ProcArrayShared* ProcArray() { return g_proc_array; }

ProcSlot* MyProc() {
  if (g_proc_array == nullptr || g_my_proc_number == kInvalidProcNumber) return nullptr;
  return &g_proc_array->slots[g_my_proc_number];
}

ProcNumber MyProcNumber() { return g_my_proc_number; }

void ClaimProcSlot(ProcNumber n, BackendType type) {
  g_my_proc_number = n;
  ProcSlot* s = MyProc();
  if (s == nullptr) return;
  s->wrote_wal.store(false);
  s->waiting_on_lock.store(false);
  s->xid.store(kInvalidTransactionId);
  s->xmin.store(kInvalidTransactionId);
  s->role_oid.store(0);
  s->database_oid.store(0);
  s->recovery_conflict.store(0);
  s->type.store(type);
  s->state.store(ProcState::kStarting);
  s->pid.store(static_cast<int32_t>(getpid()), std::memory_order_release);
}

void ReleaseProcSlot() {
  ProcSlot* s = MyProc();
  if (s == nullptr) return;
  // Safety net: heavyweight locks belong to the slot; a clean exit must not
  // leave them behind (AbortTransaction normally released them already).
  LockReleaseAll();
  s->state.store(ProcState::kFree);
  s->xid.store(kInvalidTransactionId);
  s->xmin.store(kInvalidTransactionId);
  s->type.store(BackendType::kUnused);
  s->role_oid.store(0);
  s->database_oid.store(0);
  s->pid.store(0, std::memory_order_release);
  g_my_proc_number = kInvalidProcNumber;
}

int CountRoleBackends(uint32_t role_oid) {
  ProcArrayShared* pa = ProcArray();
  if (pa == nullptr) return 0;
  int n = 0;
  for (int32_t i = 0; i < pa->nslots; ++i) {
    const ProcSlot& s = pa->slots[i];
    if (s.pid.load(std::memory_order_acquire) != 0 && s.type.load() == BackendType::kClient &&
        s.role_oid.load() == role_oid) {
      ++n;
    }
  }
  return n;
}

int CountDatabaseBackends(uint32_t db, int* clients) {
  ProcArrayShared* pa = ProcArray();
  int n = 0;
  int c = 0;
  for (int32_t i = 0; pa != nullptr && i < pa->nslots; ++i) {
    const ProcSlot& s = pa->slots[i];
    if (&s == MyProc() || s.pid.load(std::memory_order_acquire) == 0 || s.database_oid.load() != db) continue;
    ++n;
    if (s.type.load() == BackendType::kClient) ++c;
  }
  if (clients != nullptr) *clients = c;
  return n;
}

std::vector<int32_t> DatabaseBackendPids(uint32_t db) {
  std::vector<int32_t> pids;
  ProcArrayShared* pa = ProcArray();
  for (int32_t i = 0; pa != nullptr && i < pa->nslots; ++i) {
    const ProcSlot& s = pa->slots[i];
    const int32_t pid = s.pid.load(std::memory_order_acquire);
    if (&s != MyProc() && pid != 0 && s.database_oid.load() == db) pids.push_back(pid);
  }
  return pids;
}

bool ProcArrayXidIsRunning(TransactionId xid) {
  if (g_proc_array == nullptr || !TransactionIdIsValid(xid)) return false;
  LWLockGuard guard(g_proc_array->lock, LWLockMode::kShared);
  for (int i = 0; i < g_proc_array->nslots; i++) {
    if (g_proc_array->slots[i].xid.load(std::memory_order_relaxed) == xid) return true;
  }
  return false;
}

size_t XactAreaShmemSize(const ShmemParams&) { return kXactAreaBytes; }

void XactAreaShmemInit(ShmemSegment& seg, const ShmemParams&) {
  // Zero-filled by the segment; access/transam placement-initialises it.
  g_xact_area = seg.Allocate("xact area", kXactAreaBytes, 4096);
}

void* XactArea() { return g_xact_area; }

bool CountSession(bool walsender, int limit, int* count_after) {
  std::atomic<int32_t>& n = walsender ? g_proc_array->walsender_sessions : g_proc_array->client_sessions;
  int32_t cur = n.load();
  do {
    if (cur >= limit) return false;
  } while (!n.compare_exchange_weak(cur, cur + 1));
  if (count_after != nullptr) *count_after = cur + 1;
  return true;
}

void UncountSession(bool walsender) {
  (walsender ? g_proc_array->walsender_sessions : g_proc_array->client_sessions).fetch_sub(1);
}

int CountActiveWalWriters(ProcNumber self) {
  if (g_proc_array == nullptr) return 0;
  int n = 0;
  for (int i = 0; i < g_proc_array->nslots; i++) {
    if (i == self) continue;
    const ProcSlot& s = g_proc_array->slots[i];
    if (s.type.load(std::memory_order_relaxed) != BackendType::kClient) continue;
    if (s.wrote_wal.load(std::memory_order_relaxed) && !s.waiting_on_lock.load(std::memory_order_relaxed)) n++;
  }
  return n;
}

}  // namespace hearth::storage
