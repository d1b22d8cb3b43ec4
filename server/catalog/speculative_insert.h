// catalog/speculative_insert.h
//
// INSERT ... ON CONFLICT on heap tables (the TableModifier methods of
// HeapTableProvider's modifier delegate here). The scheme is PostgreSQL's
// speculative insertion:
//   1. FindArbiterConflict: look up the proposed key in every arbiter
//      (unique) index with the unique check's view of the heap (live,
//      dead, or in progress: wait for that transaction and look again).
//   2. None: InsertSpeculative writes the heap version, then its arbiter
//      entries first. The B-tree's unique check serialises inserters of one
//      key on the leaf lock, so of two racing inserters exactly one gets its
//      entry in; the other meets a live or running duplicate, takes its
//      version back at once (heap::HeapSuperDelete: dead to everyone, never
//      a duplicate-key error), waits for the winner if it still runs, and
//      starts again at 1.
//   3. Found: DO NOTHING skips the row; DO UPDATE locks the version FOR
//      UPDATE (LockConflictingVersion), which waits for a running updater
//      or locker; a version replaced or deleted meanwhile sends the caller
//      back to 1 under Read Committed (the newest version may not conflict
//      any more), 40001 under Repeatable Read. The locked version is the
//      newest committed one, so the update never loses a concurrent one.
// Repeatable Read also refuses (40001) to skip or update a conflicting row
// its snapshot cannot see, as PostgreSQL does.
//
// Process safety: per backend; REQUIRES a transaction with an assigned
// xid and RowExclusiveLock on the table (OpenModifier).
#pragma once

#include <vector>

#include "access/heap/heapam.h"
#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

// Step 1: true with *conflict = the live version's TID when some arbiter
// (index oid in `arbiters`) holds a live row with `row`'s key.
bool FindArbiterConflict(const RelationEntry& rel, const heap::Row& row, const std::vector<types::Oid>& arbiters,
                         heap::ItemPointer* conflict, std::vector<types::Value>* scratch);

// Step 2: inserts `row` (heap version + every index entry) and returns true
// with *tid, or takes the version back and returns false (see above).
bool InsertSpeculative(const RelationEntry& rel, const heap::Row& row, const std::vector<types::Oid>& arbiters,
                       access::TransactionId xid, access::CommandId cid, const heap::HeapInsertOptions& opts,
                       heap::ItemPointer* tid, std::vector<types::Value>* scratch);

// Step 3 (DO UPDATE): locks `tid` FOR UPDATE for (xid, cid) and reads it.
executor::TableModifier::ConflictLock LockConflictingVersion(const RelationEntry& rel, heap::ItemPointer tid,
                                                             access::TransactionId xid, access::CommandId cid,
                                                             heap::Row* out);

// Step 3 (DO NOTHING): the Repeatable Read visibility check (40001).
void CheckConflictVisible(const RelationEntry& rel, heap::ItemPointer tid, access::TransactionId xid);

}  // namespace hearth::catalog
