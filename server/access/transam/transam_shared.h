// access/transam/transam_shared.h
//
// INTERNAL to access/transam: the layout of transam's shared state, placed in
// the "xact area" that storage reserves (storage/lmgr/proc_array.h,
// kXactAreaBytes). TransamStartup placement-initialises it in the postmaster;
// children inherit the pointer through fork.
//
// Locking: XidCounterShared::gen_lock guards next_xid/persisted_limit and the
// control file; ClogShared::lock guards buffer residency (see clog.cpp).
#pragma once

#include <atomic>
#include <cstdint>

#include "access/transam/multixact.h"
#include "access/transam/transam.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::access::transam_internal {

// The xid counter (PostgreSQL's nextXid) and its persisted high-water mark.
struct XidCounterShared {
  storage::LWLock gen_lock;
  // Next xid to hand out. Written under gen_lock; atomic for lock-free reads.
  std::atomic<TransactionId> next_xid;
  // Value stored in global/xid_control: every xid handed out is below it, so
  // a restart that starts from it never reuses one. Under gen_lock.
  TransactionId persisted_limit;
  // The clog page that has room on disk for the xids being handed out
  // (ClogReserveSpaceFor); -1 after startup. Under gen_lock.
  int64_t clog_reserved_page;
};

inline constexpr int kClogBuffers = 32;
inline constexpr int kClogPageBytes = 8192;
inline constexpr int kClogXidsPerByte = 4;
inline constexpr int kClogXidsPerPage = kClogPageBytes * kClogXidsPerByte;  // 32768
inline constexpr int kClogPagesPerSegment = 32;                             // 256 KiB files

struct ClogBufferDesc {
  int64_t pageno;  // -1 when empty; changes only under ClogShared::lock exclusive
  std::atomic<bool> dirty;
  std::atomic<uint64_t> last_used;  // LRU stamp
  // Highest commit-record LSN of a status on this page (0 without WAL); the
  // page may be written only after WAL is flushed up to it.
  std::atomic<uint64_t> max_lsn;
};

struct ClogShared {
  storage::LWLock lock;
  std::atomic<uint64_t> lru_clock;
  ClogBufferDesc bufs[kClogBuffers];
  alignas(4096) uint8_t pages[kClogBuffers][kClogPageBytes];
};

// The multixact table (multixact.cpp): slot id 0 = empty, 1 = tombstone.
struct MultiXactSlot {
  TransactionId id;
  uint8_t nmembers;
  TransactionId updater;  // beside-an-updater multixacts: the updater (keeps the entry alive), else 0
  CommandId cmax;         // ... and its cmax
  RowLocker members[kMultiXactMaxMembers];
};

struct MultiXactShared {
  storage::LWLock lock;
  MultiXactSlot slots[kMultiXactSlots];
};
void MultiXactStartup(MultiXactShared* shared);

// The subxid -> top-level xid map (subtrans.cpp): words of (subxid << 32 |
// top), 0 = empty; lock-free.
inline constexpr uint32_t kSubtransEntries = 1u << 20;
struct SubtransShared {
  // Running top-level transactions that have subxids (snapshots read it).
  std::atomic<int32_t> tops_running;
  // Entries with a subxid below it may be overwritten (raised lazily).
  std::atomic<TransactionId> horizon;
  std::atomic<uint64_t> entries[kSubtransEntries];
};

// Standby mode (xlog_standby.cpp): recovery flags, positions and the
// known-assigned xids of the primary. Zero = not in recovery.
struct StandbyShared {
  std::atomic<bool> consistent;
  std::atomic<bool> promote_requested;
  std::atomic<uint64_t> received_upto;
  std::atomic<uint64_t> replayed_upto;
  std::atomic<int64_t> last_xact_time_us;
  storage::SharedCondition wal_arrived;  // received_upto moved
  storage::SharedCondition replayed;     // replayed_upto moved or recovery ended
  std::atomic<bool> receiver_streaming;  // the walreceiver may be writing WAL
  std::atomic<int32_t> receiver_pid;      // while streaming
  storage::SpinLock candidate_lck;
  uint64_t candidate_checkpoint_lsn;  // under candidate_lck
  uint64_t candidate_redo_lsn;
  uint32_t candidate_next_xid;
  // Known-assigned xids: unsorted, under known_lock (exclusive to change,
  // shared for snapshots).
  storage::LWLock known_lock;
  TransactionId known_max;  // highest xid seen (0: none)
  bool known_started;       // a checkpoint record gave the starting set
  uint32_t nknown;
  TransactionId known[65536];  // kMaxKnownAssignedXids
};

// One walsender's state for pg_stat_replication (walsnd_status.cpp): a slot
// is claimed by CAS on pid; strings are written before `ready` is set.
inline constexpr int kWalSndStatusSlots = 64;
struct WalSndStatusSlot {
  std::atomic<int32_t> pid;
  std::atomic<bool> ready;
  char application_name[64];
  char usename[64];
  char client_addr[64];
  int32_t client_port;
  int64_t backend_start_us;
  std::atomic<uint8_t> state;
  std::atomic<uint64_t> sent, write, flush, replay;
  std::atomic<int64_t> reply_time_us;
  std::atomic<int64_t> write_lag_us, flush_lag_us, replay_lag_us;  // -1: none measured
};

// synchronous_standby_names as the postmaster last published it (a seqlock:
// config_seq is odd while the postmaster writes) and the committers waiting
// for standbys (syncrep.cpp).
inline constexpr int kSyncStandbyMaxNames = 16;
struct SyncRepShared {
  std::atomic<uint32_t> config_seq;
  std::atomic<uint8_t> method;  // SyncStandbyConfig::Method
  int32_t num_sync;
  int32_t nnames;
  char names[kSyncStandbyMaxNames][64];
  std::atomic<uint32_t> wake_seq;  // bumped on standby replies and config changes
  std::atomic<int32_t> waiters;
};

struct TransamShared {
  XidCounterShared xid;
  ClogShared clog;
  MultiXactShared multixact;
  SubtransShared subtrans;
  StandbyShared standby;
  WalSndStatusSlot walsnds[kWalSndStatusSlots];
  SyncRepShared syncrep;
};
static_assert(sizeof(TransamShared) <= storage::kXactAreaBytes, "grow kXactAreaBytes");

// The area in this process; nullptr before TransamStartup.
TransamShared* Shared();

// Called by TransamStartup after the area is initialised.
void XidCounterStartup(const std::string& datadir);
void XidCounterShutdown();
void ClogStartup(const std::string& datadir);

}  // namespace hearth::access::transam_internal
