// catalog/index_maint.cpp
//
// Principal entry points: InsertIndexEntries, ProbeHeapTuple.
#include "catalog/index_maint.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

#include <algorithm>

#include "access/heap/htup.h"
#include "access/transam/clog.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "storage/buffer/bufmgr.h"
#include "storage/lmgr/lock.h"
#include "storage/page/page.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

using nbtree::HeapTupleState;
using nbtree::UniqueProbe;

// Classifies the deleting side of a version whose inserter is settled.
UniqueProbe ProbeXmax(const heap::HeapTupleHeaderData& tup) {
  const uint16_t mask = tup.t_infomask;
  const access::TransactionId xmax = tup.t_xmax;
  if ((mask & access::kHeapXmaxInvalid) != 0 || !access::TransactionIdIsValid(xmax) ||
      (mask & access::kHeapXmaxLockOnly) != 0) {
    return {HeapTupleState::kLive, 0};
  }
  if (access::TransactionIdIsCurrentTransactionId(xmax)) return {HeapTupleState::kDead, 0};
  if ((mask & access::kHeapXmaxCommitted) != 0) return {HeapTupleState::kDead, 0};
  if (access::TransactionIdIsInProgress(xmax)) return {HeapTupleState::kInProgress, xmax};
  if (access::TransactionIdDidCommit(xmax)) return {HeapTupleState::kDead, 0};
  return {HeapTupleState::kLive, 0};  // the deleter aborted
}

// Whether the tuple's deleter committed before every running transaction
// began (TupleSatisfiesVacuum's kDead). `*horizon` caches GetOldestXmin()
// for one unique check (0 = not computed yet).
bool DeletedBeforeEveryone(const heap::HeapTupleHeaderData& tup, access::TransactionId* horizon) {
  const access::TransactionId xmax = tup.t_xmax;
  if (access::TransactionIdIsCurrentTransactionId(xmax)) return false;
  if ((tup.t_infomask & access::kHeapXmaxCommitted) == 0 && !access::TransactionIdDidCommit(xmax)) return false;
  if (*horizon == access::kInvalidTransactionId) *horizon = access::GetOldestXmin();
  return access::TransactionIdPrecedes(xmax, *horizon);
}

// The unique check's verdict on one version (inserter and deleter).
UniqueProbe ProbeVersion(const heap::HeapTupleHeaderData& tup, access::TransactionId* horizon) {
  const uint16_t mask = tup.t_infomask;
  if (tup.xmin_frozen() || (mask & access::kHeapXminCommitted) != 0) {
    UniqueProbe p = ProbeXmax(tup);
    if (p.state == HeapTupleState::kDead && horizon != nullptr && DeletedBeforeEveryone(tup, horizon)) {
      p.dead_to_all = true;
    }
    return p;
  }
  if ((mask & access::kHeapXminInvalid) != 0) return {HeapTupleState::kDead, 0, true};
  const access::TransactionId xmin = tup.t_xmin;
  if (access::TransactionIdIsCurrentTransactionId(xmin)) {
    // Our own insert: dead only if we deleted it again (nobody else can).
    if (access::TransactionIdIsValid(tup.t_xmax) && (mask & access::kHeapXmaxInvalid) == 0 &&
        (mask & access::kHeapXmaxLockOnly) == 0 && access::TransactionIdIsCurrentTransactionId(tup.t_xmax)) {
      return {HeapTupleState::kDead, 0};
    }
    return {HeapTupleState::kLive, 0};
  }
  // In-progress first: a committing transaction sets the clog before it
  // leaves the proc array.
  if (access::TransactionIdIsInProgress(xmin)) return {HeapTupleState::kInProgress, xmin};
  if (access::TransactionIdDidCommit(xmin)) {
    UniqueProbe p = ProbeXmax(tup);
    if (p.state == HeapTupleState::kDead && horizon != nullptr && DeletedBeforeEveryone(tup, horizon)) {
      p.dead_to_all = true;
    }
    return p;
  }
  return {HeapTupleState::kDead, 0, true};  // inserter aborted (or crashed): nobody ever sees it
}

}  // namespace

UniqueProbe ProbeHeapTuple(storage::RelFileLocator heap_rel, heap::ItemPointer tid, access::TransactionId* horizon,
                           heap::ItemPointer* version) {
  if (tid.block >= storage::SmgrNblocks(heap_rel, storage::ForkNumber::kMain)) return {HeapTupleState::kDead, 0};
  storage::PinnedBuffer buf = storage::ReadBuffer(heap_rel, storage::ForkNumber::kMain, tid.block);
  buf.Lock(storage::LWLockMode::kShared);
  const storage::Page pg = buf.page();
  // The entry names a HOT chain's root: the row is live if any version
  // along the chain is. Dead to everyone only if every version is.
  storage::OffsetNumber off = tid.offset;
  access::TransactionId prior_xmax = access::kInvalidTransactionId;
  bool all_dead_to_all = true;
  for (int steps = 0; steps <= pg.MaxOffset(); ++steps) {
    if (off < storage::kFirstOffsetNumber || off > pg.MaxOffset()) break;
    const storage::ItemId id = pg.GetItemId(off);
    if (id.state() == storage::ItemState::kRedirect && steps == 0) {
      off = id.offset();
      continue;
    }
    // A DEAD slot was pruned or vacuumed: its tuple is gone for everyone.
    if (!id.IsNormal()) {
      all_dead_to_all = all_dead_to_all && (steps > 0 || id.state() == storage::ItemState::kDead);
      break;
    }
    const auto* tup = reinterpret_cast<const heap::HeapTupleHeaderData*>(pg.GetItem(off).data());
    if (access::TransactionIdIsValid(prior_xmax) && tup->t_xmin != prior_xmax) break;  // chain ends
    UniqueProbe p = ProbeVersion(*tup, horizon);
    if (p.state != HeapTupleState::kDead) {
      if (version != nullptr) *version = heap::ItemPointer{tid.block, off};
      return p;
    }
    all_dead_to_all = all_dead_to_all && p.dead_to_all;
    if (!tup->hot_updated() || tup->ctid().block != tid.block) break;
    prior_xmax = tup->t_xmax;
    off = tup->ctid().offset;
  }
  return {HeapTupleState::kDead, 0, all_dead_to_all};
}

void InsertIndexEntry(const RelationEntry& rel, size_t index, const heap::Row& row, heap::ItemPointer tid,
                      std::vector<types::Value>* scratch) {
  const IndexEntry& ix = rel.indexes[index];
  const storage::RelFileLocator heap_rel = rel.rel;
  access::TransactionId horizon = access::kInvalidTransactionId;  // computed on first need
  const nbtree::UniqueCheckFn check = [heap_rel, &horizon](heap::ItemPointer t) {
    return ProbeHeapTuple(heap_rel, t, &horizon);
  };
  scratch->resize(ix.columns.size());
  for (size_t k = 0; k < ix.columns.size(); ++k) (*scratch)[k] = row[static_cast<size_t>(ix.columns[k])];
  // Bounded only by the number of conflicting transactions we wait for.
  for (;;) {
    nbtree::InsertResult r;
    try {
      r = nbtree::BtInsert(ix.desc, *scratch, tid, ix.unique ? &check : nullptr);
    } catch (DbError& e) {
      // Name the table and constraint in the error fields, as PostgreSQL does.
      if (e.sqlstate() == sqlstate::kUniqueViolation && e.table_name().empty()) {
        e.WithObject(rel.info.schema.empty() ? "public" : rel.info.schema, rel.info.name, "", ix.desc.name);
      }
      throw;
    }
    if (r.inserted) return;
    storage::XactLockTableWait(r.wait_xid);
  }
}

void InsertIndexEntries(const RelationEntry& rel, const heap::Row& row, heap::ItemPointer tid,
                        std::vector<types::Value>* scratch) {
  for (size_t i = 0; i < rel.indexes.size(); ++i) InsertIndexEntry(rel, i, row, tid, scratch);
}

heap::DeadTidCallback IndexCleanupCallback(const RelationRef& rel) {
  if (rel == nullptr || rel->indexes.empty()) return {};
  return [rel](std::span<const heap::ItemPointer> dead) {
    auto less = [](const heap::ItemPointer& a, const heap::ItemPointer& b) {
      return a.block != b.block ? a.block < b.block : a.offset < b.offset;
    };
    const auto is_dead = [&](heap::ItemPointer t) { return std::binary_search(dead.begin(), dead.end(), t, less); };
    for (const IndexEntry& ix : rel->indexes) nbtree::BtBulkDelete(ix.desc, is_dead);
  };
}

}  // namespace hearth::catalog
