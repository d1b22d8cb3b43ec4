// access/transam/xlog_flush.cpp
//
// Principal entry points: XLogFlush, XLogFlushCommit, XLogNeedsFlush,
// XLogBackgroundFlush, XLogShutdown. Writing WAL buffers to segment files and
// syncing them; the leader/follower group commit.
//
// Group commit: a process that needs a flush first waits for the insertions
// reserved so far, then tries WALWriteLock. The one that gets it (the leader)
// optionally sleeps commit_delay (never longer than half the average flush),
// then writes and syncs EVERYTHING inserted —
// covering every committer queued behind it. The others (followers) sleep on
// flush_done, which the leader signals when it releases the lock, and
// re-check flushed_upto; they sync only if their record is still not covered.
#include <fcntl.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "access/transam/xlog.h"
#include "access/transam/xlog_standby.h"
#include "access/transam/xlog_internal.h"
#include "access/transam/xlog_segment.h"
#include "storage/file/disk_full.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access {

namespace xi = xlog_internal;

namespace {

// This process's open WAL file (written and synced only under write_lock).
int g_fd = -1;
uint64_t g_fd_segno = 0;
bool g_fd_dsync = false;

[[noreturn]] void ThrowErrno(const std::string& what) {
  const int err = errno;
  throw storage::FileError(err, "WAL: " + what + ": " + std::strerror(err));
}

WalSyncMethod Method(const xi::XLogShared* sh) {
  return static_cast<WalSyncMethod>(sh->sync_method.load(std::memory_order_relaxed));
}

int OpenSegment(uint64_t segno) {
  xi::XLogShared* sh = xi::Shared();
  const bool dsync = sh->fsync.load(std::memory_order_relaxed) && Method(sh) == WalSyncMethod::kOpenDatasync;
  if (g_fd >= 0 && g_fd_segno == segno && g_fd_dsync == dsync) return g_fd;
  xi::CloseWalFile();
  const std::string path = XLogSegmentPath(segno);
  const int flags = O_RDWR | O_CLOEXEC | (dsync ? O_DSYNC : 0);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0 && errno == ENOENT) {
    xi::InstallSegment(segno, true);
    fd = ::open(path.c_str(), flags);
  }
  if (fd < 0) ThrowErrno("open " + path);
  g_fd = fd;
  g_fd_segno = segno;
  g_fd_dsync = dsync;
  return fd;
}

// Syncs segment `segno` per wal_sync_method (nothing for open_datasync or fsync=off).
void SyncSegment(uint64_t segno) {
  xi::XLogShared* sh = xi::Shared();
  if (!sh->fsync.load(std::memory_order_relaxed)) return;
  const WalSyncMethod m = Method(sh);
  if (m == WalSyncMethod::kOpenDatasync) return;
  const int fd = OpenSegment(segno);
  const bool timing = sh->track_io_timing.load(std::memory_order_relaxed);
  const int64_t t0 = timing ? xi::MonotonicNanos() : 0;
  const int rc = m == WalSyncMethod::kFsync ? ::fsync(fd) : ::fdatasync(fd);
  if (rc != 0) ThrowErrno("sync segment " + XLogSegmentPath(segno));
  if (timing) sh->stats.wal_sync_time_ns.fetch_add(xi::MonotonicNanos() - t0, std::memory_order_relaxed);
  sh->stats.wal_sync.fetch_add(1, std::memory_order_relaxed);
}

void WriteRun(uint64_t segno, uint64_t offset, const uint8_t* data, size_t len) {
  xi::XLogShared* sh = xi::Shared();
  const int fd = OpenSegment(segno);
  const bool timing = sh->track_io_timing.load(std::memory_order_relaxed);
  const int64_t t0 = timing ? xi::MonotonicNanos() : 0;
  size_t done = 0;
  while (done < len) {
    ssize_t n = ::pwrite(fd, data + done, len - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ThrowErrno("write segment " + XLogSegmentPath(segno));
    done += static_cast<size_t>(n);
  }
  if (timing) sh->stats.wal_write_time_ns.fetch_add(xi::MonotonicNanos() - t0, std::memory_order_relaxed);
  sh->stats.wal_write.fetch_add(1, std::memory_order_relaxed);
}

bool SiblingsActive(int commit_siblings) {
  if (commit_siblings <= 0) return true;
  return storage::CountActiveWalWriters(storage::MyProcNumber()) >= commit_siblings;
}

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A commit flush's write + sync time, as a moving average (1/8 weight per
// sample). Only leaders call it, under the WAL write lock, one at a time.
void NoteFlushTime(xi::XLogShared* sh, int64_t ns) {
  std::atomic<int64_t>& avg = sh->stats.flush_time_avg_ns;
  const int64_t old = avg.load(std::memory_order_relaxed);
  avg.store(old == 0 ? ns : old + (ns - old) / 8, std::memory_order_relaxed);
}

// How long a leader waits for followers: commit_delay is only an upper
// bound. Waiting longer than half a flush costs more than the followers it
// can gather save (they would otherwise wait at most one flush for the next
// leader), so on a fast disk a large commit_delay sleeps next to nothing;
// nothing at all until a flush has been timed.
int64_t CommitDelayNs(xi::XLogShared* sh, int commit_delay_us) {
  if (commit_delay_us <= 0) return 0;
  const int64_t half_flush = sh->stats.flush_time_avg_ns.load(std::memory_order_relaxed) / 2;
  return std::min<int64_t>(int64_t{commit_delay_us} * 1000, half_flush);
}

void FlushImpl(XLogRecPtr lsn, int commit_delay_us, int commit_siblings, bool commit) {
  xi::XLogShared* sh = xi::Shared();
  if (commit) sh->stats.commit_requests.fetch_add(1, std::memory_order_relaxed);
  if (lsn <= sh->flushed_upto.load(std::memory_order_acquire)) {
    if (commit) sh->stats.commit_already_flushed.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // A standby inserts nothing: the WAL its pages and clog depend on was
  // received and synced before it was replayed.
  if (RecoveryInProgress()) return;
  if (lsn > xi::ReservedEnd()) {
    throw std::logic_error("WAL flush request " + std::to_string(lsn) + " is beyond the end of WAL " +
                           std::to_string(xi::ReservedEnd()));
  }
  for (;;) {
    const uint32_t seen = sh->flush_done.Prepare();
    if (sh->flushed_upto.load(std::memory_order_acquire) >= lsn) return;
    // Wait for the insertions reserved so far BEFORE taking the lock: the
    // lock holder must never wait for an inserter (who may need the lock).
    XLogRecPtr target = xi::WaitInsertionsToFinish(std::max(lsn, xi::ReservedEnd()));
    if (!sh->write_lock.TryAcquire(storage::LWLockMode::kExclusive)) {
      // Someone is flushing: follow, then re-check.
      sh->stats.flush_follower_waits.fetch_add(1, std::memory_order_relaxed);
      sh->flush_done.Wait(seen);
      continue;
    }
    try {
      if (sh->flushed_upto.load(std::memory_order_relaxed) < lsn) {
        // Records finished while we waited for the lock join this flush
        // (upto = 0 never waits: it only reads how far every slot got).
        target = std::max(target, xi::WaitInsertionsToFinish(0));
        const bool fsync = sh->fsync.load(std::memory_order_relaxed);
        const int64_t delay_ns = CommitDelayNs(sh, commit_delay_us);
        if (delay_ns > 0 && fsync && SiblingsActive(commit_siblings)) {
          // Leader waits so more committers join this flush. Holding the lock
          // makes them queue as followers instead of syncing themselves.
          sh->stats.commit_delays.fetch_add(1, std::memory_order_relaxed);
          sh->stats.commit_delay_time_ns.fetch_add(delay_ns, std::memory_order_relaxed);
          const timespec ts{static_cast<time_t>(delay_ns / 1'000'000'000), static_cast<long>(delay_ns % 1'000'000'000)};
          ::nanosleep(&ts, nullptr);
          // `target` is finished, so this only picks up what completed since.
          target = xi::WaitInsertionsToFinish(target);
        }
        const int64_t start_ns = SteadyNowNs();
        xi::WriteLocked(target, true);
        if (fsync) NoteFlushTime(sh, SteadyNowNs() - start_ns);
        sh->stats.flush_leader.fetch_add(1, std::memory_order_relaxed);
      }
    } catch (...) {
      xi::ReleaseWriteLock();
      throw;
    }
    xi::ReleaseWriteLock();
  }
}

}  // namespace

namespace xlog_internal {

void CloseWalFile() {
  if (g_fd >= 0) ::close(g_fd);
  g_fd = -1;
}

void ReleaseWriteLock() {
  XLogShared* sh = Shared();
  sh->write_lock.Release(storage::LWLockMode::kExclusive);
  sh->flush_done.NotifyAll();
}

void WriteLocked(XLogRecPtr upto, bool flush) {
  XLogShared* sh = Shared();
  const uint64_t seg_size = sh->segment_size;
  const uint64_t nbuf = static_cast<uint64_t>(sh->nbuffers);
  std::atomic<uint64_t>* xlblocks = Xlblocks();
  const XLogRecPtr from = sh->written_upto.load(std::memory_order_relaxed);
  if (upto > from) {
    XLogRecPtr page = XLogPageStart(from);
    while (page < upto) {
      const uint64_t idx = (page / kXLogPageSize) % nbuf;
      if (xlblocks[idx].load(std::memory_order_acquire) != page + kXLogPageSize) {
        upto = page;  // not initialised yet: nothing complete lies beyond
        break;
      }
      // Extend the run over contiguous buffers in the same segment.
      uint64_t n = 1;
      while (page + n * kXLogPageSize < upto && idx + n < nbuf &&
             XLogSegNo(page + n * kXLogPageSize, seg_size) == XLogSegNo(page, seg_size) &&
             xlblocks[idx + n].load(std::memory_order_acquire) == page + (n + 1) * kXLogPageSize) {
        n++;
      }
      WriteRun(XLogSegNo(page, seg_size), page % seg_size, BufferPage(static_cast<int>(idx)), n * kXLogPageSize);
      page += n * kXLogPageSize;
      // A segment written to its end is synced at once, so unsynced data only
      // ever sits in the last segment written.
      if (page % seg_size == 0 && page <= upto) SyncSegment(XLogSegNo(page - 1, seg_size));
    }
    if (upto > from) sh->written_upto.store(upto, std::memory_order_release);
  }
  const XLogRecPtr written = sh->written_upto.load(std::memory_order_relaxed);
  if (flush && sh->flushed_upto.load(std::memory_order_relaxed) < written) {
    if (written % seg_size != 0) SyncSegment(XLogSegNo(written - 1, seg_size));
    sh->flushed_upto.store(written, std::memory_order_release);
  }
}

}  // namespace xlog_internal

void XLogFlush(XLogRecPtr lsn) { FlushImpl(lsn, 0, 0, false); }

void XLogFlushCommit(XLogRecPtr lsn, int commit_delay_us, int commit_siblings) {
  FlushImpl(lsn, commit_delay_us, commit_siblings, true);
}

bool XLogNeedsFlush(XLogRecPtr lsn) {
  return lsn > xi::Shared()->flushed_upto.load(std::memory_order_acquire) && !RecoveryInProgress();
}

bool XLogBackgroundFlush() {
  xi::XLogShared* sh = xi::Shared();
  bool did = false;
  const XLogRecPtr target = xi::WaitInsertionsToFinish(xi::ReservedEnd());
  if (sh->flushed_upto.load(std::memory_order_acquire) < target) {
    sh->write_lock.Acquire(storage::LWLockMode::kExclusive);
    try {
      if (sh->flushed_upto.load(std::memory_order_relaxed) < target) {
        xi::WriteLocked(target, true);
        did = true;
      }
    } catch (...) {
      xi::ReleaseWriteLock();
      throw;
    }
    xi::ReleaseWriteLock();
  }
  return did;
}

void XLogRequestBackgroundFlush() {
  xi::XLogShared* sh = xi::Shared();
  const XLogRecPtr end = xi::ReservedEnd();
  XLogRecPtr asked = sh->flush_request.load(std::memory_order_relaxed);
  if (end < asked + kFlushRequestStep || end < sh->flushed_upto.load(std::memory_order_relaxed) + kFlushRequestStep) {
    return;
  }
  while (asked < end && !sh->flush_request.compare_exchange_weak(asked, end, std::memory_order_relaxed)) {
  }
  sh->flush_requested.NotifyAll();
}

bool XLogWaitForFlushRequest(int max_ms) {
  xi::XLogShared* sh = xi::Shared();
  auto pending = [sh] {
    return sh->flush_request.load(std::memory_order_acquire) > sh->flushed_upto.load(std::memory_order_acquire);
  };
  const uint32_t seen = sh->flush_requested.Prepare();
  if (pending()) return true;
  if (max_ms > 0) sh->flush_requested.WaitFor(seen, max_ms);
  return pending();
}

void XLogShutdown() {
  if (!XLogIsStarted()) return;
  xi::XLogShared* sh = xi::Shared();
  const XLogRecPtr target = xi::WaitInsertionsToFinish(xi::ReservedEnd());
  sh->write_lock.Acquire(storage::LWLockMode::kExclusive);
  try {
    xi::WriteLocked(target, true);
  } catch (...) {
    xi::ReleaseWriteLock();
    throw;
  }
  xi::ReleaseWriteLock();
  xi::CloseWalFile();
}

void XLogSetSyncOptions(bool fsync, WalSyncMethod method) {
  xi::XLogShared* sh = xi::Shared();
  sh->fsync.store(fsync, std::memory_order_relaxed);
  sh->sync_method.store(static_cast<uint8_t>(method), std::memory_order_relaxed);
}

XLogRecPtr XLogInsertEndPosition() { return xi::ReservedEnd(); }
XLogRecPtr XLogWrittenUpTo() { return xi::Shared()->written_upto.load(std::memory_order_acquire); }
XLogRecPtr XLogFlushedUpTo() { return xi::Shared()->flushed_upto.load(std::memory_order_acquire); }

XLogRecPtr XLogWaitForFlushBeyond(XLogRecPtr lsn, int timeout_ms) {
  xi::XLogShared* sh = xi::Shared();
  const uint32_t seen = sh->flush_done.Prepare();
  const XLogRecPtr flushed = sh->flushed_upto.load(std::memory_order_acquire);
  if (flushed > lsn) return flushed;
  sh->flush_done.WaitFor(seen, timeout_ms);
  return sh->flushed_upto.load(std::memory_order_acquire);
}

}  // namespace hearth::access
