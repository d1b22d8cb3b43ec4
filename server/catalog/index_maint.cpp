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

}  // namespace

UniqueProbe ProbeHeapTuple(storage::RelFileLocator heap_rel, heap::ItemPointer tid) {
  if (tid.block >= storage::SmgrNblocks(heap_rel, storage::ForkNumber::kMain)) return {HeapTupleState::kDead, 0};
  storage::PinnedBuffer buf = storage::ReadBuffer(heap_rel, storage::ForkNumber::kMain, tid.block);
  buf.Lock(storage::LWLockMode::kShared);
  storage::Page pg = buf.page();
  if (tid.offset < storage::kFirstOffsetNumber || tid.offset > pg.MaxOffset()) return {HeapTupleState::kDead, 0};
  if (!pg.GetItemId(tid.offset).IsNormal()) return {HeapTupleState::kDead, 0};
  const auto* tup = reinterpret_cast<const heap::HeapTupleHeaderData*>(pg.GetItem(tid.offset).data());
  const uint16_t mask = tup->t_infomask;
  if (tup->xmin_frozen() || (mask & access::kHeapXminCommitted) != 0) return ProbeXmax(*tup);
  if ((mask & access::kHeapXminInvalid) != 0) return {HeapTupleState::kDead, 0};
  const access::TransactionId xmin = tup->t_xmin;
  if (access::TransactionIdIsCurrentTransactionId(xmin)) {
    // Our own insert: dead only if we deleted it again (nobody else can).
    if (access::TransactionIdIsValid(tup->t_xmax) && (mask & access::kHeapXmaxInvalid) == 0 &&
        (mask & access::kHeapXmaxLockOnly) == 0 && access::TransactionIdIsCurrentTransactionId(tup->t_xmax)) {
      return {HeapTupleState::kDead, 0};
    }
    return {HeapTupleState::kLive, 0};
  }
  // In-progress first: a committing transaction sets the clog before it
  // leaves the proc array.
  if (access::TransactionIdIsInProgress(xmin)) return {HeapTupleState::kInProgress, xmin};
  if (access::TransactionIdDidCommit(xmin)) return ProbeXmax(*tup);
  return {HeapTupleState::kDead, 0};  // inserter aborted (or crashed)
}

void InsertIndexEntry(const RelationEntry& rel, size_t index, const heap::Row& row, heap::ItemPointer tid,
                      std::vector<types::Value>* scratch) {
  const IndexEntry& ix = rel.indexes[index];
  const storage::RelFileLocator heap_rel = rel.rel;
  const nbtree::UniqueCheckFn check = [heap_rel](heap::ItemPointer t) { return ProbeHeapTuple(heap_rel, t); };
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
