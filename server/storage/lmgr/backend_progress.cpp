// storage/lmgr/backend_progress.cpp
//
// Principal entry points: ProgressReport, ReadProgress.
#include "storage/lmgr/backend_progress.h"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace hearth::storage {

struct alignas(64) ProgressSlot {
  // Odd while the owner rewrites the slot; readers retry then.
  std::atomic<uint32_t> changecount;
  std::atomic<int32_t> owner_pid;  // 0: no command
  std::atomic<uint32_t> command;   // ProgressCommand
  std::atomic<uint32_t> database_oid;
  std::atomic<uint32_t> relid;
  std::atomic<int64_t> params[kProgressParams];
  // Written only between two changecount bumps; readers copy it and keep the
  // copy only if the counter did not move.
  char database_name[kProgressNameBytes];
};

namespace {

struct ProgressShared {
  int32_t nslots;
  ProgressSlot slots[1];  // nslots entries
};

ProgressShared* g_progress = nullptr;

// Owner-side write bracket (PostgreSQL's PGSTAT_BEGIN/END_WRITE_ACTIVITY).
class WriteBracket {
 public:
  explicit WriteBracket(ProgressSlot& s) : s_(s) {
    s_.changecount.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  ~WriteBracket() { s_.changecount.fetch_add(1, std::memory_order_release); }

 private:
  ProgressSlot& s_;
};

// Copies slot `s` when it holds `command`; nullopt when it does not. Retries
// while the owner writes (a write is a handful of stores; the bound only
// guards against an owner that died inside one, which resets all memory).
std::optional<ProgressSnapshot> CopySlot(const ProgressSlot& s, ProgressCommand command) {
  for (int attempt = 0; attempt < 10000; attempt++) {
    if (attempt > 0) sched_yield();
    uint32_t before = s.changecount.load(std::memory_order_acquire);
    if (before % 2 != 0) continue;
    ProgressSnapshot snap;
    bool match = s.command.load(std::memory_order_relaxed) == static_cast<uint32_t>(command);
    snap.pid = s.owner_pid.load(std::memory_order_relaxed);
    snap.database_oid = s.database_oid.load(std::memory_order_relaxed);
    snap.relid = s.relid.load(std::memory_order_relaxed);
    for (int i = 0; i < kProgressParams; i++) snap.params[i] = s.params[i].load(std::memory_order_relaxed);
    char name[kProgressNameBytes];
    std::memcpy(name, s.database_name, sizeof name);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (s.changecount.load(std::memory_order_relaxed) != before) continue;
    if (!match || snap.pid == 0) return std::nullopt;
    name[kProgressNameBytes - 1] = '\0';
    snap.database_name = name;
    return snap;
  }
  return std::nullopt;
}

}  // namespace

size_t BackendProgressShmemSize(const ShmemParams& p) {
  return sizeof(ProgressShared) + sizeof(ProgressSlot) * static_cast<size_t>(p.TotalProcs());
}

void BackendProgressShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  auto* shared = static_cast<ProgressShared*>(seg.Allocate("backend progress", BackendProgressShmemSize(p)));
  shared->nslots = p.TotalProcs();
  for (int i = 0; i < shared->nslots; i++) {
    auto* s = new (&shared->slots[i]) ProgressSlot();
    s->changecount.store(0);
    s->owner_pid.store(0);
    s->command.store(0);
    s->database_oid.store(0);
    s->relid.store(0);
    for (auto& v : s->params) v.store(0);
    s->database_name[0] = '\0';
  }
  g_progress = shared;
}

ProgressReport::ProgressReport(ProgressCommand command, uint32_t database_oid, const std::string& database_name,
                               uint32_t relid) {
  ProcNumber me = MyProcNumber();
  if (g_progress == nullptr || me < 0 || me >= g_progress->nslots) return;
  slot_ = &g_progress->slots[me];
  WriteBracket write(*slot_);
  slot_->command.store(static_cast<uint32_t>(command), std::memory_order_relaxed);
  slot_->database_oid.store(database_oid, std::memory_order_relaxed);
  slot_->relid.store(relid, std::memory_order_relaxed);
  for (auto& v : slot_->params) v.store(0, std::memory_order_relaxed);
  size_t n = std::min(database_name.size(), kProgressNameBytes - 1);
  std::memcpy(slot_->database_name, database_name.data(), n);
  slot_->database_name[n] = '\0';
  slot_->owner_pid.store(MyProc() != nullptr ? MyProc()->pid.load() : 0, std::memory_order_relaxed);
}

ProgressReport::~ProgressReport() {
  if (slot_ == nullptr) return;
  WriteBracket write(*slot_);
  slot_->owner_pid.store(0, std::memory_order_relaxed);
  slot_->command.store(static_cast<uint32_t>(ProgressCommand::kNone), std::memory_order_relaxed);
}

void ProgressReport::Update(std::initializer_list<std::pair<int, int64_t>> values) {
  if (slot_ == nullptr) return;
  WriteBracket write(*slot_);
  for (const auto& [index, value] : values) slot_->params[index].store(value, std::memory_order_relaxed);
}

std::vector<ProgressSnapshot> ReadProgress(ProgressCommand command) {
  std::vector<ProgressSnapshot> out;
  ProcArrayShared* procs = ProcArray();
  if (g_progress == nullptr || procs == nullptr) return out;
  for (int i = 0; i < g_progress->nslots && i < procs->nslots; i++) {
    std::optional<ProgressSnapshot> snap = CopySlot(g_progress->slots[i], command);
    // A slot whose owner is no longer the proc slot's process is stale.
    if (snap && snap->pid == procs->slots[i].pid.load(std::memory_order_acquire)) out.push_back(std::move(*snap));
  }
  return out;
}

}  // namespace hearth::storage
