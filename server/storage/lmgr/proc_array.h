// storage/lmgr/proc_array.h
//
// The proc array: one slot per server process (client backends first, then
// auxiliary processes), in shared memory. The postmaster hands each child its
// slot number before fork (from its private bookkeeping; it never writes the
// array itself); the child fills the slot at start and clears it at clean exit.
// A crashed child's slot is never trusted: the crash path resets all memory.
//
// Fields are atomics so that any process can read them without a lock
// (snapshot builders, group commit's "siblings" count, monitoring views).
// Transaction fields (xid, xmin) are written by their own backend; the rules
// for reading them consistently (ProcArrayShared::lock) are in
// access/transam/README.md. Snapshots are built in access/transam/snapshot.*.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "storage/ipc/shmem.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::storage {

// Transaction ids: 32-bit, handed out in increasing order by
// access/transam/varsup and never reused (no wraparound handling: a cluster
// can run at most 2^32 - 3 write transactions). Defined here, at the bottom of
// the stack, because proc slots and the lock manager store them.
using TransactionId = uint32_t;
inline constexpr TransactionId kInvalidTransactionId = 0;
inline constexpr TransactionId kBootstrapTransactionId = 1;  // catalog rows written by `hearthd init`
inline constexpr TransactionId kFrozenTransactionId = 2;     // visible to everybody
inline constexpr TransactionId kFirstNormalTransactionId = 3;
inline constexpr bool TransactionIdIsValid(TransactionId x) { return x != kInvalidTransactionId; }
inline constexpr bool TransactionIdIsNormal(TransactionId x) { return x >= kFirstNormalTransactionId; }

using ProcNumber = int32_t;
inline constexpr ProcNumber kInvalidProcNumber = -1;

enum class BackendType : uint8_t {
  kUnused = 0,
  kClient,
  kWalWriter,
  kBgWriter,
  kCheckpointer,
  kStartup,
  kAutovacuumLauncher,
  kAutovacuumWorker,  // a lock waiter cancels it (lock.cpp) instead of waiting behind it
  kWalSender,
};

// Why replay on a hot standby needs a backend out of its way (PostgreSQL's
// recovery conflict reasons).
enum class RecoveryConflict : uint8_t { kNone = 0, kSnapshot, kBufferPin, kDatabase };

enum class ProcState : uint8_t { kFree = 0, kStarting, kIdle, kActive, kIdleInTransaction, kIdleInFailedTransaction };

struct alignas(64) ProcSlot {
  std::atomic<int32_t> pid;
  std::atomic<BackendType> type;
  std::atomic<ProcState> state;
  // Set when the backend's current transaction has written WAL (PostgreSQL's
  // "logRec"); read by commit_delay's siblings count.
  std::atomic<bool> wrote_wal;
  // Set while the backend sleeps on a heavyweight lock.
  std::atomic<bool> waiting_on_lock;
  // Set by the postmaster's cancel path (through a signal to the backend,
  // which then sets its own flag) — kept here for monitoring.
  std::atomic<int64_t> state_since_us;
  // Top-level xid of the current transaction, 0 until it first writes.
  // Written by the owner (set under the xid-generation lock, cleared under
  // ProcArrayShared::lock held exclusive); read under that lock held shared.
  std::atomic<TransactionId> xid;
  // Oldest xid the backend's snapshots may still consider running (0: none).
  // Set by the owner while holding ProcArrayShared::lock shared.
  std::atomic<TransactionId> xmin;
  // The role a client backend logged in as (0 until authenticated); counted
  // for the role's CONNECTION LIMIT.
  std::atomic<uint32_t> role_oid;
  // The database a client backend (or autovacuum worker) works in (0: none
  // yet); DROP DATABASE refuses while any slot names it.
  std::atomic<uint32_t> database_oid;
  // On a hot standby: why the startup process asked this backend (SIGUSR1)
  // to give way to replay (a RecoveryConflict value; 0: none). Written by
  // the startup process, taken (exchanged with 0) by the backend.
  std::atomic<uint8_t> recovery_conflict;
};
static_assert(std::atomic<int32_t>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int64_t>::is_always_lock_free);

struct ProcArrayShared {
  // Held shared to build a snapshot or test "is xid running", exclusive to
  // clear a slot's xid at transaction end (so no snapshot sees half of it).
  LWLock lock;
  // Largest xid that has ended (committed or aborted); snapshots' xmax is
  // this + 1. Updated under `lock` held exclusive.
  std::atomic<TransactionId> latest_completed_xid;
  // Sessions counted against max_connections and max_wal_senders. The
  // postmaster hands out slots from one pool sized for both; a child knows
  // which kind it is only after the startup packet, and counts itself here.
  std::atomic<int32_t> client_sessions;
  std::atomic<int32_t> walsender_sessions;
  // The buffer the startup process waits to lock for cleanup (a BufferId;
  // -1: none): a backend told of a buffer-pin conflict gives way only if it
  // holds a pin on it.
  std::atomic<int32_t> startup_waits_for_buffer;
  int32_t nslots;
  ProcSlot slots[1];  // nslots entries
};

size_t ProcArrayShmemSize(const ShmemParams& p);
void ProcArrayShmemInit(ShmemSegment& seg, const ShmemParams& p);

// The array in the current process (inherited through fork). nullptr before init.
ProcArrayShared* ProcArray();

// This process's own slot, set by ClaimProcSlot. nullptr in the postmaster.
ProcSlot* MyProc();
ProcNumber MyProcNumber();

// Called by a child right after fork with the slot number the postmaster chose.
void ClaimProcSlot(ProcNumber n, BackendType type);
// Counts this session as a client or a walsender; false (nothing counted)
// when `limit` sessions of that kind are already counted. A counted session
// calls UncountSession once at its clean end (a crash resets the counts).
bool CountSession(bool walsender, int limit, int* count_after = nullptr);
void UncountSession(bool walsender);
// Called at clean exit of a child. Releases any heavyweight locks still held
// (callers should have ended their transaction with AbortTransaction first:
// this does not touch the clog).
void ReleaseProcSlot();

// Client backends logged in as `role_oid` (this one included once it set
// its slot's role_oid). Lock-free reads; a racing login may be missed or
// counted, as in PostgreSQL's CountUserBackends.
int CountRoleBackends(uint32_t role_oid);
// Processes (other than the caller) whose slot names database `db`, and how
// many of them are client backends (`*clients`).
int CountDatabaseBackends(uint32_t db, int* clients = nullptr);
// Their pids (DROP DATABASE ... WITH (FORCE) terminates them).
std::vector<int32_t> DatabaseBackendPids(uint32_t db);

// True when some proc slot's current xid is `xid` (takes the lock shared).
bool ProcArrayXidIsRunning(TransactionId xid);

// A fixed-size, zero-filled region reserved for access/transam's shared state
// (xid counter, clog buffers). Storage only reserves it, so the segment layout
// stays in shmem_layout.cpp without storage depending on access;
// access/transam/transam.cpp (TransamStartup) gives it meaning and
// static_asserts that its structures fit.
inline constexpr size_t kXactAreaBytes = 9 * 1024 * 1024;
size_t XactAreaShmemSize(const ShmemParams& p);
void XactAreaShmemInit(ShmemSegment& seg, const ShmemParams& p);
// The area in this process (inherited through fork); nullptr before init.
void* XactArea();

// Number of client backends other than `self` that are inside a transaction
// that wrote WAL and are not waiting on a lock (commit_siblings rule).
int CountActiveWalWriters(ProcNumber self);

}  // namespace hearth::storage
