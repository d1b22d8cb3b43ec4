// catalog/speculative_insert.cpp
//
// Principal entry points: FindArbiterConflict, InsertSpeculative,
// LockConflictingVersion, CheckConflictVisible (see the header for the
// scheme and why it never reports a duplicate key for an arbiter).
#include "catalog/speculative_insert.h"

#include <algorithm>

#include "access/heap/heap_lock.h"
#include "access/transam/xact.h"
#include "catalog/index_maint.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/lmgr/lock.h"

namespace hearth::catalog {

namespace {

using ConflictLock = executor::TableModifier::ConflictLock;

bool IsArbiter(const IndexEntry& ix, const std::vector<types::Oid>& arbiters) {
  return std::find(arbiters.begin(), arbiters.end(), ix.oid) != arbiters.end();
}

// The key of `row` in `ix`; false when a column is NULL (never conflicts).
bool KeyOf(const IndexEntry& ix, const heap::Row& row, std::vector<types::Value>* key) {
  key->resize(ix.columns.size());
  for (size_t k = 0; k < ix.columns.size(); ++k) {
    (*key)[k] = row[static_cast<size_t>(ix.columns[k])];
    if ((*key)[k].is_null) return false;
  }
  return true;
}

// Outcome of probing one arbiter for an equal key.
struct ArbiterProbe {
  bool live = false;                                    // *conflict is set
  access::TransactionId wait = access::kInvalidTransactionId;  // running inserter/deleter
};

ArbiterProbe ProbeArbiter(const RelationEntry& rel, const IndexEntry& ix, std::span<const types::Value> key,
                          heap::ItemPointer* conflict) {
  nbtree::ScanKey eq;
  eq.op = nbtree::ScanOp::kEq;
  eq.values.assign(key.begin(), key.end());
  nbtree::BtScan scan(ix.desc, std::span<const nbtree::ScanKey>(&eq, 1));
  access::TransactionId horizon = access::kInvalidTransactionId;
  heap::ItemPointer tid;
  while (scan.Next(&tid)) {
    const nbtree::UniqueProbe p = ProbeHeapTuple(rel.rel, tid, &horizon, conflict);
    if (p.state == nbtree::HeapTupleState::kLive) return {true, access::kInvalidTransactionId};
    if (p.state == nbtree::HeapTupleState::kInProgress) return {false, p.xid};
    if (p.dead_to_all) scan.KillCurrent();
  }
  return {};
}

// One arbiter entry for the speculative version `tid`: true when inserted;
// false when an equal key is live (*wait_xid 0) or being inserted or
// deleted by a running transaction (*wait_xid).
bool TryArbiterEntry(const RelationEntry& rel, const IndexEntry& ix, std::span<const types::Value> key,
                     heap::ItemPointer tid, access::TransactionId* wait_xid) {
  const storage::RelFileLocator heap_rel = rel.rel;
  access::TransactionId horizon = access::kInvalidTransactionId;
  const nbtree::UniqueCheckFn check = [heap_rel, &horizon](heap::ItemPointer t) {
    return ProbeHeapTuple(heap_rel, t, &horizon);
  };
  *wait_xid = access::kInvalidTransactionId;
  try {
    const nbtree::InsertResult r = nbtree::BtInsert(ix.desc, key, tid, &check);
    *wait_xid = r.inserted ? access::kInvalidTransactionId : r.wait_xid;
    return r.inserted;
  } catch (const DbError& e) {
    if (e.sqlstate() != sqlstate::kUniqueViolation) throw;
    return false;  // a live duplicate: the conflict the caller arbitrates
  }
}

[[noreturn]] void ThrowSerializationFailure() {
  throw DbError(sqlstate::kSerializationFailure, "could not serialize access due to concurrent update");
}

}  // namespace

bool FindArbiterConflict(const RelationEntry& rel, const heap::Row& row, const std::vector<types::Oid>& arbiters,
                         heap::ItemPointer* conflict, std::vector<types::Value>* scratch) {
  // Bounded by the number of running transactions we wait for.
  for (;;) {
    access::TransactionId wait = access::kInvalidTransactionId;
    for (const IndexEntry& ix : rel.indexes) {
      if (!IsArbiter(ix, arbiters) || !KeyOf(ix, row, scratch)) continue;
      const ArbiterProbe p = ProbeArbiter(rel, ix, *scratch, conflict);  // the scan's pin is gone after this
      if (p.live) return true;
      if (access::TransactionIdIsValid(p.wait)) {
        wait = p.wait;
        break;
      }
    }
    if (!access::TransactionIdIsValid(wait)) return false;
    storage::XactLockTableWait(wait);  // no buffer pinned or locked
  }
}

bool InsertSpeculative(const RelationEntry& rel, const heap::Row& row, const std::vector<types::Oid>& arbiters,
                       access::TransactionId xid, access::CommandId cid, const heap::HeapInsertOptions& opts,
                       heap::ItemPointer* tid, std::vector<types::Value>* scratch) {
  *tid = heap::HeapInsert(rel.rel, rel.desc, row, xid, cid, opts);
  // Arbiters first: a lost race then leaves no entry in the other indexes.
  for (const IndexEntry& ix : rel.indexes) {
    if (!IsArbiter(ix, arbiters)) continue;
    access::TransactionId wait = access::kInvalidTransactionId;
    if (!KeyOf(ix, row, scratch)) {
      InsertIndexEntry(rel, static_cast<size_t>(&ix - rel.indexes.data()), row, *tid, scratch);
      continue;
    }
    if (TryArbiterEntry(rel, ix, *scratch, *tid, &wait)) continue;
    // Lost the race for this key: entries already made point at a version
    // nobody sees any more (index scans and unique checks skip them).
    heap::HeapSuperDelete(rel.rel, *tid, xid);
    if (access::TransactionIdIsValid(wait)) storage::XactLockTableWait(wait);
    return false;
  }
  for (size_t i = 0; i < rel.indexes.size(); ++i) {
    if (!IsArbiter(rel.indexes[i], arbiters)) InsertIndexEntry(rel, i, row, *tid, scratch);
  }
  return true;
}

ConflictLock LockConflictingVersion(const RelationEntry& rel, heap::ItemPointer tid, access::TransactionId xid,
                                    access::CommandId cid, heap::Row* out) {
  heap::TmFailureData fd;
  const access::TmResult r =
      heap::HeapLockRow(rel.rel, tid, xid, cid, access::RowLockMode::kUpdate, heap::RowLockWait::kBlock, &fd);
  const bool rr = access::CurrentIsolationLevel() != access::IsolationLevel::kReadCommitted;
  switch (r) {
    case access::TmResult::kOk: break;
    case access::TmResult::kInvisible:     // inserted by this command
    case access::TmResult::kSelfUpdated:   // changed by this command
      return ConflictLock::kSelfModified;
    case access::TmResult::kUpdated:
    case access::TmResult::kDeleted:
      if (rr) ThrowSerializationFailure();
      return ConflictLock::kRetry;
    default: throw DbError(sqlstate::kInternalError, "unexpected heap result while locking a conflicting row");
  }
  CheckConflictVisible(rel, tid, xid);
  // Locked by us: it is the newest version, committed (or ours).
  heap::ItemPointer found;
  if (!heap::HeapFetch(rel.rel, rel.desc, tid, access::GetLatestSnapshot(), xid, out, &found) || found != tid) {
    return ConflictLock::kRetry;
  }
  return ConflictLock::kLocked;
}

void CheckConflictVisible(const RelationEntry& rel, heap::ItemPointer tid, access::TransactionId xid) {
  if (access::CurrentIsolationLevel() == access::IsolationLevel::kReadCommitted) return;
  if (!heap::HeapVersionVisibleOrMine(rel.rel, tid, access::GetTransactionSnapshot(), xid)) ThrowSerializationFailure();
}

}  // namespace hearth::catalog
