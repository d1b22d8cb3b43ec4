// access/transam/xlog_internal.h
//
// INTERNAL to the xlog*.cpp files: the layout of the WAL state in the wal
// area of shared memory, and helpers shared by insert/flush/segment code.
//
// Locks and what they guard (take them in this order; never wait for
// insertions while holding write_lock or buf_mapping_lock):
//   InsertSlot::lock       one inserter per slot; held for a whole XLogInsert.
//                          XLogOptions::insert_slots (default 8 =
//                          kMaxInsertSlots; 1: a single insert lock) slots are
//                          used, picked by proc number: inserts copy in
//                          parallel and flushers wait only for slots still
//                          copying below their flush point. Callers never see
//                          the difference.
//   insert_pos_lck (spin)  cur_byte_pos, prev_lsn and the slots'
//                          inserting_at when an insert starts.
//   buf_mapping_lock       initialising WAL buffer pages (initialized_upto,
//                          xlblocks). Released before writing a page out.
//   write_lock             WALWriteLock: writing and syncing WAL files,
//                          written_upto / flushed_upto advance under it.
//   segment_lock           creating / recycling / removing segment files.
// inserting_at protocol: an inserter stores its record's start LSN under the
// spinlock, and before it may block for a buffer page it stores the LSN up to
// which it has copied all its bytes; 0 = not inserting. A flusher computes the
// end of reserved WAL, then waits until every slot is idle or past it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "access/transam/xlog.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::access::xlog_internal {

inline constexpr int kMaxInsertSlots = 8;

struct alignas(64) InsertSlot {
  storage::LWLock lock;
  std::atomic<uint64_t> inserting_at;
};

struct alignas(64) StatsShared {
  std::atomic<int64_t> wal_records;
  std::atomic<int64_t> wal_fpi;
  std::atomic<uint64_t> wal_bytes;
  std::atomic<int64_t> wal_buffers_full;
  std::atomic<int64_t> wal_write;
  std::atomic<int64_t> wal_sync;
  std::atomic<int64_t> wal_write_time_ns;
  std::atomic<int64_t> wal_sync_time_ns;
  std::atomic<int64_t> stats_reset_us;
  std::atomic<int64_t> commit_requests;
  std::atomic<int64_t> commit_already_flushed;
  std::atomic<int64_t> flush_leader;
  std::atomic<int64_t> flush_follower_waits;
  std::atomic<int64_t> commit_delays;
  std::atomic<int64_t> commit_delay_time_ns;  // sum of the commit_delay sleeps taken
  std::atomic<int64_t> flush_time_avg_ns;     // moving average of a leader's write + sync (fsync on)
  std::atomic<int64_t> checkpoints_timed;     // pg_stat_bgwriter: started by checkpoint_timeout
  std::atomic<int64_t> checkpoints_req;       // ... requested (CHECKPOINT, max_wal_size, shutdown, recovery end)
  std::atomic<int64_t> checkpoint_write_time_ns;
  std::atomic<int64_t> checkpoint_sync_time_ns;
  std::atomic<uint64_t> checkpoint_distance_estimate;  // bytes, smoothed (log_checkpoints' "estimate")
  std::atomic<int64_t> segments_created;
  std::atomic<int64_t> segments_created_on_demand;
  std::atomic<int64_t> segments_recycled;
  std::atomic<int64_t> segments_removed;
};

inline constexpr int kMaxReplSlots = 64;  // max_replication_slots upper bound
inline constexpr int kMaxBackupHolds = 80;  // concurrent base backups and WAL streams
inline constexpr size_t kSlotNameMax = 64;  // NAMEDATALEN, terminator included

struct ReplSlotShared {
  bool in_use;  // written under slot_lock
  bool temporary;
  char name[kSlotNameMax];
  int32_t owner_pid;                     // temporary slots: the session that made it
  std::atomic<int32_t> active_pid;       // streaming from it now (0: none)
  std::atomic<uint64_t> restart_lsn;     // oldest WAL it needs (0: none reserved)
};

// One timeline of the current history (xlog_timeline.h): WAL from `begin`
// on belongs to timeline `tli` (until the next entry's begin).
struct TimelineShared {
  uint32_t tli;
  uint64_t begin;
};
inline constexpr int kMaxTimelines = 64;  // history entries kept (the newest)

struct XLogShared {
  // Standby mode (xlog_standby.h RecoveryInProgress): nothing may insert.
  // Here rather than in transam's area so the check needs only the WAL.
  std::atomic<bool> in_recovery;
  // Insert position (usable byte positions, see xlog_format.h).
  alignas(64) storage::SpinLock insert_pos_lck;
  uint64_t cur_byte_pos;  // end of reserved space
  XLogRecPtr prev_lsn;    // start of the last reserved record
  InsertSlot slots[kMaxInsertSlots];
  int32_t nslots;                        // slots in use (1..kMaxInsertSlots), fixed at startup
  storage::SharedCondition insert_done;  // notified when an inserter finishes or advances

  // WAL buffers.
  alignas(64) storage::LWLock buf_mapping_lock;
  std::atomic<uint64_t> initialized_upto;  // pages below this LSN are initialised
  int32_t nbuffers;

  // Write / flush.
  alignas(64) storage::LWLock write_lock;
  std::atomic<uint64_t> written_upto;
  std::atomic<uint64_t> flushed_upto;
  storage::SharedCondition flush_done;  // notified after every write_lock release

  // Segments and settings.
  alignas(64) storage::LWLock segment_lock;
  uint64_t segment_size;
  int32_t prealloc_segments;
  int32_t max_recycled_segments;
  std::atomic<bool> fsync;
  std::atomic<uint8_t> sync_method;  // WalSyncMethod
  std::atomic<bool> track_io_timing;
  // End LSN of the run of whole segment files known to exist from the
  // insert position on (pre-allocated, recycled or on-demand). Writers check
  // it before changing anything (XLogEnsureSpaceForChange), so a commit's
  // flush writes into existing files and never has to grow one.
  std::atomic<uint64_t> segments_ready_upto;

  StatsShared stats;

  // Asynchronous flush requests (XLogRequestBackgroundFlush): the highest
  // LSN asked for, and the condition the walwriter sleeps on.
  alignas(64) std::atomic<uint64_t> flush_request;
  storage::SharedCondition flush_requested;

  // Redo point of the last (or running) checkpoint: a page whose LSN is at or
  // below it gets a full-page image at its next change (xlog_checkpoint.h).
  alignas(64) std::atomic<uint64_t> redo_rec_ptr;
  // Processes waiting for a checkpoint of their own (CheckpointWaiterGuard):
  // a spread checkpoint stops sleeping while this is non-zero.
  std::atomic<int32_t> checkpoint_waiters;

  // WAL retention (xlog_keep.h): replication slots and running base backups
  // hold the segments they still need; RemoveOldSegments keeps them.
  alignas(64) storage::LWLock slot_lock;  // creating, acquiring, dropping slots
  int32_t max_replication_slots;
  std::atomic<uint64_t> wal_keep_bytes;  // wal_keep_size
  ReplSlotShared repl_slots[kMaxReplSlots];
  std::atomic<uint64_t> backup_holds[kMaxBackupHolds];  // 0: free

  // Timeline history, oldest first. Entries are only appended (by the
  // startup process at promotion, while nothing else writes WAL) and
  // published by storing timeline_count after them.
  TimelineShared timelines[kMaxTimelines];
  std::atomic<int32_t> timeline_count;
};

// Layout of the area: XLogShared at 0, xlblocks at kXlblocksOffset (one
// atomic end-LSN per buffer: the page the buffer holds ends there), pages at
// an 8 KiB-aligned offset after them.
inline constexpr size_t kXlblocksOffset = 32 * 1024;
static_assert(sizeof(XLogShared) <= kXlblocksOffset);

// This process's view (pointers inherited through fork). Throws
// std::logic_error before XLogStartup.
XLogShared* Shared();
std::atomic<uint64_t>* Xlblocks();
uint8_t* BufferPage(int idx);
const std::string& WalDir();

// Reserved end as an LSN.
XLogRecPtr ReservedEnd();
// Waits until all insertions into WAL below `upto` are copied; returns a
// position <= the reserved end and >= min(upto, reserved end) below which
// every byte is in the buffers. Never call while holding write_lock unless
// `upto` is already known to be finished (upto = 0 never waits).
XLogRecPtr WaitInsertionsToFinish(XLogRecPtr upto);
// REQUIRES write_lock held. Writes buffers up to `upto` (<= a finished
// position) and, if `flush`, syncs so flushed_upto >= upto.
void WriteLocked(XLogRecPtr upto, bool flush);
// Releases write_lock and wakes processes waiting for a flush.
void ReleaseWriteLock();
// Closes this process's cached WAL file descriptor.
void CloseWalFile();

// File helpers of xlog_segment.cpp: errno as a storage::FileError ("WAL:
// what: reason"; ENOSPC is 53100), existence, fsync of a directory.
[[noreturn]] void ThrowErrno(const std::string& what);
bool FileExists(const std::string& path);
void FsyncDir(const std::string& dir);

// Segment files (xlog_segment.cpp). Creates segment `segno` zero-filled and
// synced unless it exists; returns true when it created one.
bool InstallSegment(uint64_t segno, bool on_demand);
// Segments up to (not including) `end_segno` exist whole from the insert
// position on: raises segments_ready_upto (never lowers it).
void NoteSegmentsReady(uint64_t end_segno);

int64_t NowMicrosUnix();
int64_t MonotonicNanos();

}  // namespace hearth::access::xlog_internal
