// access/transam/visibility.h
//
// MVCC visibility of heap tuple versions (PostgreSQL's HeapTupleSatisfies*):
// for a reader with a snapshot, for an updater/deleter/locker, and for
// vacuum. Each takes the tuple header in the buffer and may set hint bits in
// it once a transaction's outcome is known for good; it then sets
// *hints_set = true (left unchanged otherwise, so a caller can accumulate
// over a page) and the caller must mark the buffer dirty (as a hint: no WAL).
//
// Process safety: call with at least a shared content lock on the buffer.
// Hint bits are set with an atomic OR, so concurrent readers may both set
// them. Reads the clog and the proc array (shared state, any process).
//
// "Current transaction" is the caller's xid (my_xid, from
// GetCurrentTransactionIdIfAny; invalid for a read-only transaction), with
// savepoints also every subtransaction xid of the transaction not rolled
// back (TransactionIdIsMine), and its command id (the snapshot's curcid or
// `curcid`). A rolled-back subxid is aborted in the clog like any other.
#pragma once

#include "access/heap/htup.h"
#include "access/transam/snapshot.h"
#include "access/transam/transam.h"

namespace hearth::access {

// True when the version is visible to `snap` for a transaction with xid
// `my_xid` (own changes count up to, not including, snap.curcid).
bool TupleSatisfiesMVCC(HeapTupleHeaderData& tup, const Snapshot& snap, TransactionId my_xid, bool* hints_set);

// Outcome of "may I update/delete/lock this version now?" (PostgreSQL's TM_Result).
enum class TmResult : uint8_t {
  kOk,             // latest live version: go ahead
  kInvisible,      // inserted by a later own command or by an aborted/running xact
  kSelfUpdated,    // already updated/deleted by the own transaction, by a command >= curcid
  kUpdated,        // updated by a committed transaction: follow t_ctid to the newer version
  kDeleted,        // deleted by a committed transaction
  kBeingModified,  // xmax is a running transaction (update, delete or row lock): wait on it
  kWouldBlock,     // row lock without waiting (NOWAIT / SKIP LOCKED): a conflicting holder runs
};
const char* TmResultName(TmResult r);

// Decides whether the caller (my_xid, current command curcid) may modify the
// version now. A lock-only xmax gives kBeingModified while a locker other
// than my_xid runs (whatever the modes: heap/heap_lock.h decides conflicts). Uses the live proc array and clog, not a snapshot: a
// Repeatable Read caller must itself turn kUpdated/kDeleted by a transaction
// its snapshot does not see into 40001.
TmResult TupleSatisfiesUpdate(HeapTupleHeaderData& tup, CommandId curcid, TransactionId my_xid, bool* hints_set);

enum class VacuumResult : uint8_t {
  kLive,              // visible or possibly visible to someone: keep
  kDead,              // no snapshot can see it: removable
  kRecentlyDead,      // deleted, but a snapshot older than the delete may still see it
  kInsertInProgress,  // inserting transaction still running
  kDeleteInProgress,  // deleting transaction still running
};
const char* VacuumResultName(VacuumResult r);

// Classifies the version for vacuum given GetOldestXmin()'s horizon.
VacuumResult TupleSatisfiesVacuum(HeapTupleHeaderData& tup, TransactionId oldest_xmin, bool* hints_set);

// Command ids of own changes. REQUIRES: xmin (for Cmin) resp. xmax (for Cmax)
// is the current transaction.
CommandId HeapTupleHeaderGetCmin(const HeapTupleHeaderData& tup);
CommandId HeapTupleHeaderGetCmax(const HeapTupleHeaderData& tup);

// Stamps the header for a delete/update/row-lock by (my_xid, cmax): sets
// t_xmax, t_cid (a combo id when my_xid also inserted the tuple), clears the
// xmax hints and sets kHeapXmaxLockOnly / kHeapUpdated as requested.
// REQUIRES: exclusive content lock. The caller sets t_ctid for an update.
void HeapTupleHeaderSetXmax(HeapTupleHeaderData& tup, TransactionId my_xid, CommandId cmax, bool is_update, bool lock_only);

// Commit hints for `xid` may be set only when this returns true. The WAL
// issue installs a check that the commit record is flushed (asynchronous
// commit); default: always allowed.
void SetCommitHintCheck(bool (*check)(TransactionId xid));

}  // namespace hearth::access
