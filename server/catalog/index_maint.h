// catalog/index_maint.h
//
// Index maintenance for heap tables: after a new heap version is written
// (INSERT, UPDATE's new version unless the update was HOT, COPY), its key
// goes into every B-tree index of the table. Unique indexes check existing equal keys against the heap
// ("dirty" visibility: dead / live / being inserted or deleted by a running
// transaction) and wait for a running transaction before retrying, so two
// inserters of one key serialise and the second fails or succeeds by the
// first one's outcome. Deletes leave entries behind (scans re-check heap
// visibility; VACUUM's BtBulkDelete removes them).
//
// Process safety: per-backend; REQUIRES a transaction with an assigned xid
// and a RowExclusiveLock (or stronger) on the table.
#pragma once

#include <vector>

#include "access/heap/heap_tuple.h"
#include "access/heap/vacuumlazy.h"
#include "access/nbtree/nbtree.h"
#include "catalog/relcache.h"

namespace hearth::catalog {

// Inserts (key of `row`, tid) into every index of `rel`. Throws DbError
// 23505 `duplicate key value violates unique constraint "<index>"` (detail
// `Key (a)=(1) already exists.`) for a live duplicate; waits for a running
// inserter/deleter of an equal key (XactLockTableWait, may throw 40P01/55P03/57014).
// `scratch` is reused for the key values (no allocation per row once warm).
void InsertIndexEntries(const RelationEntry& rel, const heap::Row& row, heap::ItemPointer tid,
                        std::vector<types::Value>* scratch);

// InsertIndexEntries for the one index rel.indexes[index] (bulk loads
// insert a batch index by index, in key order).
void InsertIndexEntry(const RelationEntry& rel, size_t index, const heap::Row& row, heap::ItemPointer tid,
                      std::vector<types::Value>* scratch);

// The unique check's view of heap tuple `tid` of `heap_rel`: dead (aborted
// inserter, committed or own deleter, no such tuple), live, or in progress
// (xid of the running inserter/deleter to wait for). Takes a shared content
// lock on the heap page only; never waits. With `horizon` (a cache for
// GetOldestXmin(), 0 until first needed) it also tells whether a dead
// tuple is dead to every snapshot, so its entry may be removed. With
// `version`, receives the TID of the version along the HOT chain the
// verdict is about (ON CONFLICT locks that one).
nbtree::UniqueProbe ProbeHeapTuple(storage::RelFileLocator heap_rel, heap::ItemPointer tid,
                                   access::TransactionId* horizon = nullptr, heap::ItemPointer* version = nullptr);

// VACUUM's index cleanup for `rel`: a callback for heap::HeapVacuumRelation
// that removes the entries pointing at the given dead TIDs from every index
// (BtBulkDelete). Returns an empty callback when the table has no indexes
// (the heap then reclaims slots in one phase). `rel` must outlive the call.
// Without it, reclaimed TIDs still in an index could be reused by new rows.
heap::DeadTidCallback IndexCleanupCallback(const RelationRef& rel);

}  // namespace hearth::catalog
