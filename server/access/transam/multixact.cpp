// access/transam/multixact.cpp
//
// Principal entry points: MultiXactCreate, MultiXactGetMembers.
//
// Open addressing on id % kMultiXactSlots with linear probing. A slot is
// empty (id 0), a tombstone (id kTombstone, reusable, probing continues) or
// in use. Entries are reclaimed only when none of their members is still
// running, which is exactly the state an unknown id stands for.
#include "access/transam/multixact.h"

#include "access/transam/snapshot.h"
#include "access/transam/transam_shared.h"
#include "access/transam/varsup.h"
#include "common/error/db_error.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::access {

namespace {

constexpr TransactionId kTombstone = 1;  // below kFirstNormalTransactionId: never an id

using transam_internal::MultiXactShared;
using transam_internal::MultiXactSlot;

MultiXactShared* g_multi = nullptr;

MultiXactShared& Multi() {
  if (g_multi == nullptr) throw std::logic_error("multixact used before TransamStartup");
  return *g_multi;
}

size_t Home(TransactionId id) { return id % kMultiXactSlots; }

// The slot holding `id`, or nullptr. REQUIRES: the lock (any mode).
MultiXactSlot* Find(MultiXactShared& m, TransactionId id) {
  for (size_t i = 0, s = Home(id); i < kMultiXactSlots; ++i, s = (s + 1) % kMultiXactSlots) {
    if (m.slots[s].id == id) return &m.slots[s];
    if (m.slots[s].id == 0) return nullptr;
  }
  return nullptr;
}

// Turns every entry without a running member into a tombstone. REQUIRES: the
// lock exclusively. Runs only when the table is full.
void Reclaim(MultiXactShared& m) {
  for (MultiXactSlot& s : m.slots) {
    if (s.id == 0 || s.id == kTombstone) continue;
    bool live = s.updater != kInvalidTransactionId && TransactionIdIsInProgress(s.updater);
    for (int i = 0; i < s.nmembers && !live; ++i) live = TransactionIdIsInProgress(s.members[i].xid);
    if (!live) s.id = kTombstone;
  }
}

// A free (empty or tombstone) slot on id's probe path, or nullptr.
MultiXactSlot* FreeSlot(MultiXactShared& m, TransactionId id) {
  for (size_t i = 0, s = Home(id); i < kMultiXactSlots; ++i, s = (s + 1) % kMultiXactSlots) {
    if (m.slots[s].id == 0 || m.slots[s].id == kTombstone) return &m.slots[s];
  }
  return nullptr;
}

}  // namespace

const char* RowLockModeName(RowLockMode m) {
  switch (m) {
    case RowLockMode::kKeyShare: return "FOR KEY SHARE";
    case RowLockMode::kShare: return "FOR SHARE";
    case RowLockMode::kNoKeyUpdate: return "FOR NO KEY UPDATE";
    case RowLockMode::kUpdate: return "FOR UPDATE";
  }
  return "?";
}

TransactionId MultiXactCreate(std::span<const RowLocker> members, TransactionId updater, CommandId cmax) {
  if (members.size() > static_cast<size_t>(kMultiXactMaxMembers)) {
    throw DbError(sqlstate::kOutOfMemory, "too many transactions hold a lock on the same row")
        .WithDetail("At most " + std::to_string(kMultiXactMaxMembers) + " transactions can share a row lock.");
  }
  const TransactionId id = GetNewTransactionId(nullptr);
  MultiXactShared& m = Multi();
  storage::LWLockGuard g(m.lock, storage::LWLockMode::kExclusive);
  MultiXactSlot* s = FreeSlot(m, id);
  if (s == nullptr) {
    Reclaim(m);
    s = FreeSlot(m, id);
  }
  if (s == nullptr) {
    throw DbError(sqlstate::kOutOfMemory, "out of shared memory")
        .WithDetail("Too many rows are locked by several transactions at once.");
  }
  s->nmembers = static_cast<uint8_t>(members.size());
  s->updater = updater;
  s->cmax = cmax;
  for (size_t i = 0; i < members.size(); ++i) s->members[i] = members[i];
  s->id = id;
  return id;
}

int MultiXactGetMembers(TransactionId multi, RowLocker* out) {
  MultiXactShared& m = Multi();
  storage::LWLockGuard g(m.lock, storage::LWLockMode::kShared);
  const MultiXactSlot* s = Find(m, multi);
  if (s == nullptr) return 0;
  for (int i = 0; i < s->nmembers; ++i) out[i] = s->members[i];
  return s->nmembers;
}

CommandId MultiXactGetCmax(TransactionId multi) {
  MultiXactShared& m = Multi();
  storage::LWLockGuard g(m.lock, storage::LWLockMode::kShared);
  const MultiXactSlot* s = Find(m, multi);
  return s != nullptr ? s->cmax : kInvalidCommandId;
}

namespace transam_internal {
void MultiXactStartup(MultiXactShared* shared) {
  shared->lock.Init();
  g_multi = shared;
}
}  // namespace transam_internal

}  // namespace hearth::access
