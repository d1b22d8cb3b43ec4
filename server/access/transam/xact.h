// access/transam/xact.h
//
// The per-backend transaction state machine: start, commit, abort; lazy xid
// assignment at the first write; command ids; isolation level and the
// snapshot policy that follows from it; a registry of callbacks run at
// commit and abort (pending relation deletes, relcache cleanup, ...).
//
// This is the low level (PostgreSQL's StartTransaction/CommitTransaction);
// the BEGIN/COMMIT/ROLLBACK block state and "current transaction is aborted"
// handling belong to tcop, which calls these.
//
// Process safety: per-backend state (process globals), single-threaded; the
// shared parts (xid counter, clog, proc array, locks) are safe across
// processes. REQUIRES: TransamStartup ran (before fork) and this process
// claimed a proc slot before it assigns an xid.
//
// Commit order (CommitTransaction): pre-commit callbacks → [WAL: commit
// record + flush] → clog committed → xid leaves the proc array → heavyweight
// locks released → commit callbacks. See README.md for why.
#pragma once

#include <cstdint>
#include <vector>

#include "access/transam/snapshot.h"
#include "access/transam/transam.h"
#include "storage/smgr/relfile.h"

namespace hearth::access {

enum class SyncWaitMode : uint8_t;  // syncrep.h

enum class IsolationLevel : uint8_t { kReadCommitted, kRepeatableRead, kSerializable };

// "read committed", "repeatable read", "serializable".
const char* IsolationLevelName(IsolationLevel level);

// Level used by transactions started from now on (default_transaction_isolation).
// Throws DbError 0A000 for kSerializable.
void SetDefaultTransactionIsolation(IsolationLevel level);

// Begins a transaction. REQUIRES: none in progress (std::logic_error).
void StartTransaction();

// Commits the current transaction. If a pre-commit callback throws, nothing
// is committed and the exception propagates: the caller must then call
// AbortTransaction. REQUIRES: a transaction in progress.
void CommitTransaction();

// Aborts the current transaction (records it aborted if it had an xid),
// releases its locks and runs the abort callbacks. Never throws; a no-op when
// no transaction is in progress, so error paths may call it unconditionally.
void AbortTransaction() noexcept;

bool IsTransactionInProgress();

// The current (sub)transaction's xid, assigning one (and taking the lock on
// it) at the first call; inside a subtransaction the top-level transaction
// gets its xid first. Call before the first write. Throws as
// GetNewTransactionId (and SubtransSetTopmost for a subxid).
TransactionId GetCurrentTransactionId();
// The current (sub)transaction's xid if one was assigned, else
// kInvalidTransactionId.
TransactionId GetCurrentTransactionIdIfAny();
// True when `xid` is the current transaction's xid or the xid of one of its
// subtransactions that was not rolled back.
bool TransactionIdIsCurrentTransactionId(TransactionId xid);

namespace xact_internal {
// True from the first savepoint of a transaction to its end (subxact.cpp).
extern bool g_subxacts_active;
bool IsCurrentSubxid(TransactionId xid);
}  // namespace xact_internal

// TransactionIdIsCurrentTransactionId for hot paths (visibility): `my_xid`
// is the caller's GetCurrentTransactionIdIfAny(); without savepoints this is
// one comparison.
inline bool TransactionIdIsMine(TransactionId xid, TransactionId my_xid) {
  if (!TransactionIdIsValid(xid)) return false;
  if (xid == my_xid) return true;
  return xact_internal::g_subxacts_active && TransactionIdIsCurrentTransactionId(xid);
}

// Subtransactions (savepoints; subxact.cpp). Each level gets its own xid at
// its first write (GetCurrentTransactionId), recorded in the shared subtrans
// map. Releasing a level folds it into its parent (its xids commit with the
// top-level transaction); rolling one back marks its xids (and those of the
// levels released into it) aborted, writes an abort record, releases the
// locks it took and runs the sub-transaction callbacks. CommitTransaction and
// AbortTransaction end any levels still open.
// REQUIRES: a transaction in progress.
void BeginSubTransaction();
// Folds the innermost level into its parent. REQUIRES: a level open.
void ReleaseSubTransaction();
// Rolls the innermost level back and closes it. Never throws.
void RollbackSubTransaction() noexcept;
// Number of open levels (0 = no savepoint).
int SubTransactionLevel();

// The command id that stamps the current command's changes. Pass used=true
// when the caller writes with it (so CommandCounterIncrement advances).
CommandId GetCurrentCommandId(bool used);
// Makes the current command's changes visible to the following ones.
// Throws DbError 54000 after 2^32 - 2 commands.
void CommandCounterIncrement();

// Isolation level of the current transaction. Setting it is allowed only
// before the transaction's first snapshot (DbError 25001 otherwise);
// kSerializable is refused with 0A000.
IsolationLevel CurrentIsolationLevel();
void SetTransactionIsolation(IsolationLevel level);

// The snapshot for the statement about to run: Read Committed takes a new
// one per call (call once per statement); Repeatable Read takes one at the
// first call and returns it for the rest of the transaction. Its curcid is
// the current command id. The reference stays valid until the next call or
// transaction end. REQUIRES: a transaction in progress.
const Snapshot& GetTransactionSnapshot();
// Keeps the xmin this process advertises from moving forward until the
// transaction ends: an open cursor still reads with its DECLARE's snapshot,
// so later Read Committed statements must not let vacuum/pruning remove
// what it may see.
void KeepSnapshotXminUntilTransactionEnd();
// A fresh snapshot regardless of isolation level (Read Committed re-checks).
const Snapshot& GetLatestSnapshot();

// Start time of the current transaction, microseconds since the Unix epoch
// (now(), current_timestamp). 0 outside a transaction.
int64_t GetCurrentTransactionStartTimestamp();

// Commit durability for this process's next commits (tcop: from the
// session's commit_delay, commit_siblings and synchronous_commit before each
// statement or commit). synchronous_commit=false skips the flush: the commit
// becomes durable within wal_writer_delay. Defaults: 0 µs, 5, true.
void SetCommitDelaySettings(int commit_delay_us, int commit_siblings, bool synchronous_commit);
// synchronous_commit remote_write / on / remote_apply: after the local flush
// a commit waits for the synchronous standbys (syncrep.h) to have written,
// flushed or applied it; `wait` false (off, local) does not wait.
void SetCommitStandbyWait(bool wait, SyncWaitMode mode);

// Supplies the relation files to delete at commit (at_commit) or abort, which
// the commit/abort WAL record carries so recovery deletes them too. The
// catalog's pending-delete list installs it; appends to *out the files
// registered at subtransaction level `min_level` or deeper (0: all).
using XactRelsProvider = void (*)(bool at_commit, int min_level, std::vector<storage::RelFileLocator>* out);
void SetXactRelsProvider(XactRelsProvider provider);

// End of this backend's latest commit record (0 before any, or without
// WAL). With synchronous_commit off it may not be flushed yet when the
// kCommit callbacks run: files the commit deletes must wait for it
// (XLogNeedsFlush), or a crash could lose the commit but not the unlink.
uint64_t LastCommitRecordEnd();

enum class XactEvent : uint8_t {
  kPreCommit,  // may throw: the transaction is then aborted instead
  kCommit,     // after the commit is durable and visible; must not throw
  kAbort,      // must not throw
};
using XactCallback = void (*)(XactEvent event, void* arg);

// Registers `cb` for every future transaction end in this process, called in
// registration order. Unregister removes the matching (cb, arg) pair.
void RegisterXactCallback(XactCallback cb, void* arg);
void UnregisterXactCallback(XactCallback cb, void* arg);

// Subtransaction ends: `level` is the level closing (1 = outermost
// savepoint). kSubCommit folds it into level - 1; kSubAbort runs after its
// xids are marked aborted and its locks released. Must not throw.
enum class SubXactEvent : uint8_t { kSubCommit, kSubAbort };
using SubXactCallback = void (*)(SubXactEvent event, int level, void* arg);
void RegisterSubXactCallback(SubXactCallback cb, void* arg);

}  // namespace hearth::access
