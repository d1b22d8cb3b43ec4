// storage/lmgr/backend_activity.cpp
//
// Principal entry points: ReportQuery, ReportWaitEvent, ReadActivity.
#include "storage/lmgr/backend_activity.h"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace hearth::storage {

struct alignas(64) ActivitySlot {
  std::atomic<uint32_t> changecount;  // odd while the owner rewrites the text
  std::atomic<int32_t> owner_pid;     // the process the text belongs to
  std::atomic<int64_t> query_start_us;
  std::atomic<uint8_t> wait_event;    // WaitEvent; written without the counter
  char query[kActivityQueryBytes];
};

namespace {

struct ActivityShared {
  int32_t nslots;
  ActivitySlot slots[1];  // nslots entries
};

ActivityShared* g_activity = nullptr;

ActivitySlot* MySlot() {
  const ProcNumber me = MyProcNumber();
  if (g_activity == nullptr || me < 0 || me >= g_activity->nslots) return nullptr;
  return &g_activity->slots[me];
}

}  // namespace

const char* WaitEventTypeName(WaitEvent e) {
  switch (e) {
    case WaitEvent::kNone: return nullptr;
    case WaitEvent::kPgSleep: return "Timeout";
    case WaitEvent::kSyncRep: return "IPC";
    default: return "Lock";
  }
}

const char* WaitEventName(WaitEvent e) {
  switch (e) {
    case WaitEvent::kNone: return nullptr;
    case WaitEvent::kLockRelation: return "relation";
    case WaitEvent::kLockTransactionId: return "transactionid";
    case WaitEvent::kLockTuple: return "tuple";
    case WaitEvent::kLockObject: return "object";
    case WaitEvent::kPgSleep: return "PgSleep";
    case WaitEvent::kSyncRep: return "SyncRep";
  }
  return nullptr;
}

size_t BackendActivityShmemSize(const ShmemParams& p) {
  return sizeof(ActivityShared) + sizeof(ActivitySlot) * static_cast<size_t>(p.TotalProcs());
}

void BackendActivityShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  auto* shared = static_cast<ActivityShared*>(seg.Allocate("backend activity", BackendActivityShmemSize(p)));
  shared->nslots = p.TotalProcs();
  for (int i = 0; i < shared->nslots; i++) {
    auto* s = new (&shared->slots[i]) ActivitySlot();
    s->changecount.store(0);
    s->owner_pid.store(0);
    s->query_start_us.store(0);
    s->wait_event.store(0);
    s->query[0] = '\0';
  }
  g_activity = shared;
}

void ReportQuery(std::string_view query, int64_t start_us) {
  ActivitySlot* s = MySlot();
  if (s == nullptr) return;
  s->changecount.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  const size_t n = std::min(query.size(), kActivityQueryBytes - 1);
  std::memcpy(s->query, query.data(), n);
  s->query[n] = '\0';
  s->query_start_us.store(start_us, std::memory_order_relaxed);
  s->wait_event.store(0, std::memory_order_relaxed);
  s->owner_pid.store(MyProc() != nullptr ? MyProc()->pid.load(std::memory_order_relaxed) : 0,
                     std::memory_order_relaxed);
  s->changecount.fetch_add(1, std::memory_order_release);
}

void ReportWaitEvent(WaitEvent e) {
  if (ActivitySlot* s = MySlot()) s->wait_event.store(static_cast<uint8_t>(e), std::memory_order_relaxed);
}

std::optional<ActivitySnapshot> ReadActivity(int slot, int32_t pid) {
  if (g_activity == nullptr || slot < 0 || slot >= g_activity->nslots) return std::nullopt;
  const ActivitySlot& s = g_activity->slots[slot];
  // A write is a memcpy of at most 1 kB; the bound only guards against an
  // owner that died inside one (which resets all shared memory anyway).
  for (int attempt = 0; attempt < 10000; attempt++) {
    if (attempt > 0) sched_yield();
    const uint32_t before = s.changecount.load(std::memory_order_acquire);
    if (before % 2 != 0) continue;
    ActivitySnapshot snap;
    const int32_t owner = s.owner_pid.load(std::memory_order_relaxed);
    snap.query_start_us = s.query_start_us.load(std::memory_order_relaxed);
    char text[kActivityQueryBytes];
    std::memcpy(text, s.query, sizeof text);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (s.changecount.load(std::memory_order_relaxed) != before) continue;
    if (owner != pid) return std::nullopt;
    text[kActivityQueryBytes - 1] = '\0';
    snap.query = text;
    snap.wait = static_cast<WaitEvent>(s.wait_event.load(std::memory_order_relaxed));
    return snap;
  }
  return std::nullopt;
}

}  // namespace hearth::storage
