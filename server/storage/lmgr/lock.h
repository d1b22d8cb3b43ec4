// storage/lmgr/lock.h
//
// The heavyweight lock manager: transaction-duration locks on relations,
// transaction ids and (optionally) tuples, with PostgreSQL's eight lock modes
// and conflict table, FIFO wait queues, deadlock detection after
// deadlock_timeout and lock_timeout.
//
// Shared state (one region, see LockShmemSize/LockShmemInit) is a fixed-size
// table of lock objects and holder records split into kLockPartitions
// partitions by tag hash, each guarded by its own LWLock. Each process also
// keeps a private table of what it holds and how often, so re-acquiring a lock
// it already holds touches no shared memory.
//
// Process safety: every function here acts for the calling process (its proc
// slot, ClaimProcSlot must have been called). Locks belong to the process and
// are released by LockRelease / LockReleaseAll (at transaction end). Not
// thread-safe within one process (one thread per backend).
//
// Lock order: a lock partition LWLock is taken after ProcArrayShared::lock is
// released and never while holding a buffer lock; the deadlock checker takes
// all partitions in index order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/ipc/shmem.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::storage {

enum class LockTagType : uint8_t { kNone = 0, kRelation, kTransaction, kTuple, kObject };

// What is locked. Compared bytewise; build with the factory functions so the
// padding is zero.
struct LockTag {
  LockTagType type;
  uint8_t pad0;
  uint16_t field4;  // tuple: offset number
  uint32_t field1;  // relation/tuple: database oid; transaction: xid
  uint32_t field2;  // relation/tuple: relation oid
  uint32_t field3;  // tuple: block number

  static LockTag Relation(uint32_t dboid, uint32_t reloid) { return LockTag{LockTagType::kRelation, 0, 0, dboid, reloid, 0}; }
  static LockTag Transaction(TransactionId xid) { return LockTag{LockTagType::kTransaction, 0, 0, xid, 0, 0}; }
  static LockTag Tuple(uint32_t dboid, uint32_t reloid, uint32_t block, uint16_t offset) {
    return LockTag{LockTagType::kTuple, 0, offset, dboid, reloid, block};
  }
  // A lock on an arbitrary object (class oid, object oid), e.g. for catalog DDL.
  static LockTag Object(uint32_t classoid, uint32_t objoid) { return LockTag{LockTagType::kObject, 0, 0, classoid, objoid, 0}; }

  bool operator==(const LockTag& o) const {
    return type == o.type && field4 == o.field4 && field1 == o.field1 && field2 == o.field2 && field3 == o.field3;
  }
  uint32_t Hash() const;
  // "relation 16384 of database 1", "transaction 731", ...
  std::string Describe() const;
};
static_assert(sizeof(LockTag) == 16);

// PostgreSQL's lock modes, weakest first. Values index the conflict table.
enum class LockMode : uint8_t {
  kNoLock = 0,
  kAccessShare = 1,           // SELECT
  kRowShare = 2,              // SELECT FOR UPDATE/SHARE
  kRowExclusive = 3,          // INSERT, UPDATE, DELETE
  kShareUpdateExclusive = 4,  // VACUUM, ANALYZE
  kShare = 5,                 // CREATE INDEX
  kShareRowExclusive = 6,
  kExclusive = 7,
  kAccessExclusive = 8,  // DROP, TRUNCATE, ALTER TABLE
};
inline constexpr int kMaxLockMode = 8;

// True when a holder of `held` blocks a request for `requested` (symmetric).
bool LockModesConflict(LockMode requested, LockMode held);
// "AccessShareLock", "ExclusiveLock", ... as PostgreSQL names them.
const char* LockModeName(LockMode m);

enum class LockAcquireResult { kGranted, kNotAvailable };

// Number of partitions of the shared lock table (each with its own LWLock).
inline constexpr int kLockPartitions = 16;

size_t LockShmemSize(const ShmemParams& p);
void LockShmemInit(ShmemSegment& seg, const ShmemParams& p);

// Acquires `mode` on `tag` for this process. Re-entrant: each successful call
// must be matched by one LockRelease (or by LockReleaseAll).
// If the lock is not free: with dont_wait returns kNotAvailable at once;
// otherwise sleeps in the wait queue until granted. While sleeping it sets
// MyProc()->waiting_on_lock, checks postmaster death and calls the interrupt
// hook (which may throw; the request is then withdrawn and the exception
// propagates). Throws DbError 40P01 when, deadlock_timeout after the wait
// began, this process is found on a wait-for cycle (it withdraws its request;
// the other processes keep waiting), and 55P03 when lock_timeout elapses.
// Throws DbError 53200 when the shared lock table is full.
LockAcquireResult LockAcquire(const LockTag& tag, LockMode mode, bool dont_wait = false);

// Releases one acquisition of `mode` on `tag`. Returns false (and does
// nothing) when this process does not hold it. Wakes waiters that can now run.
bool LockRelease(const LockTag& tag, LockMode mode);

// Releases every lock this process holds (transaction end, error cleanup).
void LockReleaseAll();

// Subtransactions (savepoints). While the level is > 0 every acquisition is
// also noted with its level, so rolling back to a savepoint releases exactly
// what was taken since (PostgreSQL's resource owners); at level 0 (no
// savepoint, the common case) nothing is noted. LockReleaseAll forgets the
// notes.
void LockSetSubxactLevel(int level);
// Releases every acquisition noted at `level` or deeper.
void LockReleaseSubxact(int level);
// Acquisitions noted at `level` now belong to level - 1 (RELEASE SAVEPOINT).
void LockReassignSubxact(int level);

// True when this process holds `mode` on `tag` (with or_stronger: `mode` or
// any numerically higher mode).
bool LockHeldByMe(const LockTag& tag, LockMode mode, bool or_stronger = false);

// Each transaction holds ExclusiveLock on its own xid from its first write
// until it ends; waiting for a transaction = taking ShareLock on its xid.
void XactLockTableInsert(TransactionId xid);
void XactLockTableDelete(TransactionId xid);
// Sleeps until transaction `xid` has ended (committed or aborted). Same
// errors as LockAcquire (deadlock, lock_timeout, interrupts).
void XactLockTableWait(TransactionId xid);
// Non-blocking variant: true when `xid` has ended.
bool ConditionalXactLockTableWait(TransactionId xid);

// Per-process settings, in milliseconds (deadlock_timeout must be > 0;
// lock_timeout 0 disables it). Defaults 1000 and 0.
void SetLockTimeouts(int deadlock_timeout_ms, int lock_timeout_ms);

// Function called between sleeps of a lock wait; it may throw (query cancel,
// statement_timeout, termination). Default: hearth::CheckForInterrupts
// (storage/ipc/interrupts.h); nullptr disables it.
void SetLockWaitInterruptHook(void (*hook)());

// Monitoring/tests: how many processes hold or wait for `tag`.
struct LockStatus {
  int holders = 0;
  int waiters = 0;
};
LockStatus GetLockStatus(const LockTag& tag);

// One held or awaited mode (pg_locks): a holder gives one entry per mode it
// holds (granted), a waiter one entry for the mode it waits for.
struct LockInstance {
  LockTag tag;
  LockMode mode;
  bool granted;
  int32_t pid;
};
// Every held and awaited lock, consistent (all partitions locked in index
// order, as the deadlock checker does).
std::vector<LockInstance> GetLockInstances();

}  // namespace hearth::storage
