// storage/lmgr/deadlock.cpp
//
// Principal entry point: DeadLockCheck.
//
// The checker runs in the waiting process itself, deadlock_timeout after its
// wait began, with every lock partition held so the graph cannot change under
// it. It only looks for cycles through itself; if it finds one it withdraws
// its own request before releasing the partitions (lock.cpp), so a second
// process on the same cycle that checks later sees the cycle broken and keeps
// waiting: exactly one victim per cycle.
//
// Unlike PostgreSQL we never rearrange wait queues to resolve "soft" edges
// (waiting behind a conflicting waiter); such a cycle is reported as a
// deadlock. That is conservative: it can abort a transaction that a queue
// rearrangement would have saved, never the reverse.
#include "storage/lmgr/deadlock.h"

#include <vector>

namespace hearth::storage::lock_internal {

namespace {

// Appends the procs `p` waits for. Holder edges first (they explain the
// block best in the detail message), then queue-order edges.
void Successors(const LockTableView& t, int32_t p, std::vector<int32_t>* out) {
  out->clear();
  const LockProcState& ps = t.procs[p];
  if (ps.status.load(std::memory_order_relaxed) != kWaiting || ps.waiting_lock == kNil) return;
  const LockObject& lock = t.locks[ps.waiting_lock];
  uint16_t conflicts = ConflictMask(ps.wait_mode);
  for (int32_t h = lock.holders_head; h != kNil; h = t.holders[h].next) {
    const LockHolder& holder = t.holders[h];
    if (holder.proc != p && (holder.held_mask & conflicts) != 0) out->push_back(holder.proc);
  }
  for (int32_t w = lock.wait_head; w != kNil && w != p; w = t.procs[w].next_waiter) {
    if ((conflicts & ModeBit(t.procs[w].wait_mode)) != 0) out->push_back(w);
  }
}

// Depth-first search for a path from `p` back to `target`; `path` holds the
// procs on the current path (starting with target).
bool Search(const LockTableView& t, int32_t p, int32_t target, std::vector<uint8_t>* visited, std::vector<int32_t>* path) {
  std::vector<int32_t> next;
  Successors(t, p, &next);
  for (int32_t q : next) {
    if (q == target) return true;
    if ((*visited)[q]) continue;
    (*visited)[q] = 1;
    path->push_back(q);
    if (Search(t, q, target, visited, path)) return true;
    path->pop_back();
  }
  return false;
}

std::string DescribeWait(const LockTableView& t, int32_t p, int32_t blocker) {
  const LockProcState& ps = t.procs[p];
  const LockObject& lock = t.locks[ps.waiting_lock];
  const ProcArrayShared* pa = ProcArray();
  int pid = pa != nullptr ? pa->slots[p].pid.load() : 0;
  int bpid = pa != nullptr ? pa->slots[blocker].pid.load() : 0;
  return "Process " + std::to_string(pid) + " waits for " + LockModeName(static_cast<LockMode>(ps.wait_mode)) + " on " +
         lock.tag.Describe() + "; blocked by process " + std::to_string(bpid) + ".";
}

}  // namespace

bool DeadLockCheck(int32_t me, std::string* detail) {
  const LockTableView& t = Table();
  std::vector<uint8_t> visited(static_cast<size_t>(t.shared->nprocs), 0);
  std::vector<int32_t> path{me};
  visited[me] = 1;
  if (!Search(t, me, me, &visited, &path)) return false;
  if (detail != nullptr) {
    detail->clear();
    for (size_t i = 0; i < path.size(); i++) {
      if (i > 0) detail->push_back('\n');
      *detail += DescribeWait(t, path[i], path[(i + 1) % path.size()]);
    }
  }
  return true;
}

int32_t BlockingAutovacuumPid(int32_t me) {
  const LockTableView& t = Table();
  const ProcArrayShared* pa = ProcArray();
  if (pa == nullptr) return 0;
  std::vector<int32_t> blockers;
  Successors(t, me, &blockers);
  for (int32_t p : blockers) {
    const ProcSlot& slot = pa->slots[p];
    if (slot.type.load(std::memory_order_relaxed) != BackendType::kAutovacuumWorker) continue;
    // Only holders count: a worker merely queued ahead will be granted and cancelled later.
    const LockObject& lock = t.locks[t.procs[me].waiting_lock];
    for (int32_t h = lock.holders_head; h != kNil; h = t.holders[h].next) {
      if (t.holders[h].proc == p && (t.holders[h].held_mask & ConflictMask(t.procs[me].wait_mode)) != 0) {
        return slot.pid.load(std::memory_order_relaxed);
      }
    }
  }
  return 0;
}

}  // namespace hearth::storage::lock_internal
