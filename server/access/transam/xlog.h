// access/transam/xlog.h
//
// The write-ahead log: startup/shutdown, record insertion, flushing and group
// commit. Format: xlog_format.h and wal_format.md. Statistics: xlog_stats.h.
// Segments (pre-allocation, recycling): xlog_segment.h. Reading: xlog_reader.h.
//
// Process model: XLogStartup runs once in the postmaster after the shared
// segment is laid out and before any fork (and again after a crash restart,
// on the fresh segment). Every forked child inherits the state and may call
// XLogInsert / XLogFlush* concurrently with all others; all shared state is in
// the "wal area" of the shared segment, synchronised with the locks described
// in xlog_internal.h. Within one process the functions are not thread-safe
// (Hearth backends are single-threaded).
//
// Locking rules for callers: XLogInsert may be called while holding buffer
// content locks (it takes only WAL-internal locks, and may write WAL out when
// the WAL buffers are full). XLogFlush* may block on I/O: do not call it while
// holding a spinlock. Errors (I/O failures) throw std::runtime_error; the
// caller must treat a failed WAL write or fsync as a PANIC (restart the
// cluster), as PostgreSQL does, because the on-disk state is unknown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "access/transam/xlog_format.h"
#include "storage/ipc/shmem.h"

namespace hearth::access {

enum class WalSyncMethod : uint8_t { kFdatasync, kFsync, kOpenDatasync };

struct XLogOptions {
  std::string datadir;                             // WAL goes to <datadir>/pg_wal
  uint64_t segment_size = kDefaultWalSegmentSize;  // test hook; power of two >= 64 KiB
  WalSyncMethod sync_method = WalSyncMethod::kFdatasync;
  bool fsync = true;              // false: never sync (wal_sync stays 0)
  bool track_io_timing = true;    // fill wal_write_time / wal_sync_time
  int prealloc_segments = 1;      // segments kept created ahead of the insert position
  int max_recycled_segments = 8;  // future segments RemoveOldSegments may keep (min_wal_size)
  // WAL insertion slots (PostgreSQL's NUM_XLOGINSERT_LOCKS): inserters
  // reserve space under one spinlock and copy in parallel, one per slot;
  // 1 = a single insert lock (tests); at most 8.
  int insert_slots = 8;
  int max_replication_slots = 10;  // slots xlog_keep.h may create (<= 64)
};

// Bytes the wal area needs for `wal_buffers` pages. Equals
// storage::ShmemParams::WalAreaBytes() (the storage side reserves it).
size_t XLogShmemBytes(int wal_buffers);

// What startup found on disk.
struct XLogStartupInfo {
  XLogRecPtr scan_start = 0;   // where the end-of-WAL scan began
  XLogRecPtr last_record = 0;  // start of the last valid record (0: none)
  XLogRecPtr end_of_wal = 0;   // end of valid WAL; the next insert goes here
  uint64_t records_scanned = 0;
  std::string end_reason;  // why the scan stopped (reader's words)
  std::string prealloc_error;  // non-empty: segments could not be pre-allocated (disk full)
};

// Postmaster, before fork: places the WAL state in the "wal area" of `seg`
// (reserved by shmem_layout.cpp), creates <datadir>/wal, finds the end of
// valid WAL (scanning from the control file's redo point, or from the start
// when there is none), positions the insert pointer after it and
// pre-allocates segments. Recovery (replay) is NOT done here.
// Throws std::runtime_error on I/O errors, std::logic_error when the area is
// missing or too small.
XLogStartupInfo XLogStartup(storage::ShmemSegment& seg, const storage::ShmemParams& p, const XLogOptions& opts);
// Same, on an explicit area of `area_bytes` (>= XLogShmemBytes(wal_buffers)).
XLogStartupInfo XLogStartupInArea(void* area, size_t area_bytes, int wal_buffers, const XLogOptions& opts);

// Clean shutdown (postmaster, after all backends exited; or a child at exit):
// writes and flushes everything inserted, closes this process's WAL files.
void XLogShutdown();

// True between XLogStartup and the end of the process (or XLogDetach).
bool XLogIsStarted();

// Forgets this process's WAL state without writing anything (the shared
// segment is about to be destroyed: tests simulating a crash, tools). After
// it XLogIsStarted() is false until the next XLogStartup.
void XLogDetach();

// Changes sync settings at run time (SIGHUP); any process may call it.
void XLogSetSyncOptions(bool fsync, WalSyncMethod method);

// One piece of a record's payload; pieces are concatenated.
struct XLogPart {
  const void* data;
  size_t len;
};

// Appends a record and returns its END LSN (pass it to XLogFlush to make the
// record durable, and store it as the page LSN of pages it changed). The
// payload is the concatenation of `parts` (at most kXLogMaxRecordSize minus
// the header). `fpi_count` full-page images inside the payload are counted in
// wal_fpi. `start_lsn`, when not null, receives the record's start LSN.
// When xid != 0, marks MyProc()->wrote_wal (xact clears it at transaction end).
// Never waits for a flush; may write (not fsync) WAL when the buffers are full.
XLogRecPtr XLogInsert(RmgrId rmgr, uint8_t info, uint32_t xid, std::span<const XLogPart> parts,
                      XLogRecPtr* start_lsn = nullptr, int fpi_count = 0);

// XLogInsert for records whose full-page-image decisions were taken against
// redo pointer `expected_redo` (xlog_checkpoint.h GetRedoRecPtr): inserts
// nothing and returns 0 when a checkpoint moved the redo pointer before the
// space was reserved (checked under the same spinlock the checkpoint takes),
// so the caller re-decides and retries. Else as XLogInsert.
XLogRecPtr XLogInsertIfRedoIs(XLogRecPtr expected_redo, RmgrId rmgr, uint8_t info, uint32_t xid,
                              std::span<const XLogPart> parts, int fpi_count);

// Makes WAL durable up to at least `lsn`: returns at once if already flushed;
// otherwise writes and syncs everything inserted so far (one sync covers every
// waiting committer). Processes that find a flush in progress wait for it and
// re-check instead of issuing their own sync.
void XLogFlush(XLogRecPtr lsn);

// XLogFlush for a commit record, with PostgreSQL's group-commit knobs: the
// process that becomes the flush leader sleeps `commit_delay_us` first, but
// only if commit_delay_us > 0, fsync is on and at least `commit_siblings`
// other client backends are in a transaction that wrote WAL and are not
// waiting on a lock (storage::CountActiveWalWriters). commit_siblings = 0
// means "always" (as in PostgreSQL).
void XLogFlushCommit(XLogRecPtr lsn, int commit_delay_us, int commit_siblings);

// True when WAL up to `lsn` is not yet durable (bufmgr's "needs flush" hook).
bool XLogNeedsFlush(XLogRecPtr lsn);

// Walwriter: writes and syncs everything inserted but not yet flushed (so
// asynchronous commits become durable within wal_writer_delay). Returns true
// when it flushed something. Segments are pre-allocated separately
// (XLogPreallocateSegments), so a full disk does not stop the flushing.
bool XLogBackgroundFlush();

// Before a change that will be WAL-logged, outside any critical section:
// makes sure the segment after the one being inserted into exists whole
// (pre-allocated), creating it here if the walwriter has not. So the WAL of
// a change that passed this check, its commit record included, goes into
// files that exist, and a commit's flush never has to grow a file. One
// atomic compare when the walwriter keeps up; on a full disk it throws
// ERROR 53100 ("could not write to file ...", HINT "Check free disk
// space.") before anything was changed.
void XLogEnsureSpaceForChange();

// Asks the walwriter to write and sync everything inserted so far, soon,
// and returns at once (a bulk load's ring then finds the buffers it reuses
// flushed). Requests closer than kFlushRequestStep to the last one are
// dropped, so calling it per page costs an atomic load.
inline constexpr uint64_t kFlushRequestStep = 1024 * 1024;
void XLogRequestBackgroundFlush();
// Walwriter: sleeps up to `max_ms` unless a request beyond the flushed
// position is pending or arrives; returns whether one is pending.
bool XLogWaitForFlushRequest(int max_ms);

// Positions (LSNs). Insert = end of all reserved records (where the next
// record would end up); written/flushed = durable boundaries.
XLogRecPtr XLogInsertEndPosition();
XLogRecPtr XLogWrittenUpTo();
XLogRecPtr XLogFlushedUpTo();
// Walsenders: returns the flushed position once it is past `lsn`, or after
// `timeout_ms` (bounded by the wait slice) or a spurious wakeup. Woken by
// every flush (the flush_done condition), so new WAL is sent without delay.
XLogRecPtr XLogWaitForFlushBeyond(XLogRecPtr lsn, int timeout_ms);
uint64_t XLogSegmentSize();
std::string XLogWalDir();
// <datadir>/pg_wal/<segment file name> of segment `segno`.
std::string XLogSegmentPath(uint64_t segno);

}  // namespace hearth::access
