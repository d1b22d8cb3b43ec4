// access/transam/xlog_checkpoint.cpp
//
// Principal entry points: CreateCheckPoint, RequestCheckpoint,
// CheckpointIsDue, Get/SetRedoRecPtr.
#include "access/transam/xlog_checkpoint.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

#include "access/transam/transam.h"
#include "access/transam/varsup.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_internal.h"
#include "access/transam/xlog_keep.h"
#include "access/transam/xlog_rmgr.h"
#include "access/transam/xlog_segment.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::access {

namespace {

namespace xi = xlog_internal;

// Steady-clock time of this process's last checkpoint (0: none yet).
int64_t g_last_checkpoint_ns = 0;

int64_t SteadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Holds an flock on <datadir>/global/checkpoint.lock for its lifetime.
class CheckpointLock {
 public:
  explicit CheckpointLock(const std::string& datadir) {
    const std::string path = datadir + "/global/checkpoint.lock";
    fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0) throw std::runtime_error("could not open \"" + path + "\": " + std::strerror(errno));
    while (flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        close(fd_);
        throw std::runtime_error("could not lock \"" + path + "\": " + std::strerror(errno));
      }
    }
  }
  ~CheckpointLock() {
    flock(fd_, LOCK_UN);
    close(fd_);
  }
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;

 private:
  int fd_ = -1;
};

// Takes the redo point (where the next record will start) and publishes it
// as the redo pointer in one step under the insert-position spinlock: a
// record reserved after this sees the new pointer when it re-checks (see
// HeapWalRecord::Insert), one reserved before starts below it.
XLogRecPtr BeginRedoPoint() {
  xi::XLogShared* sh = xi::Shared();
  storage::SpinLockGuard g(sh->insert_pos_lck);
  const XLogRecPtr redo = BytePosToRecPtr(sh->cur_byte_pos);
  sh->redo_rec_ptr.store(redo, std::memory_order_release);
  return redo;
}

}  // namespace

XLogRecPtr GetRedoRecPtr() {
  if (!XLogIsStarted()) return 0;
  return xi::Shared()->redo_rec_ptr.load(std::memory_order_acquire);
}

void SetRedoRecPtr(XLogRecPtr lsn) {
  if (XLogIsStarted()) xi::Shared()->redo_rec_ptr.store(lsn, std::memory_order_release);
}

CheckpointResult CreateCheckPoint(bool shutdown, const CheckpointOptions& opts) {
  const std::string& datadir = TransamDataDir();
  if (datadir.empty()) throw std::logic_error("CreateCheckPoint before TransamStartup");
  CheckpointLock lock(datadir);
  if (opts.log) spdlog::info("checkpoint starting: {}", shutdown ? "shutdown immediate" : opts.cause);
  const int64_t start_ns = SteadyNs();
  const uint64_t written_before = storage::GetBgWriterStats().buffers_checkpoint;
  CheckpointResult res;
  const bool wal = XLogIsStarted();
  if (wal) {
    // From here on, a page changed for the first time gets a full image: its
    // on-disk copy may be written (perhaps torn) by the flush below.
    res.redo_lsn = BeginRedoPoint();
  }
  storage::Status st = storage::FlushAllBuffers();
  if (!st.ok()) throw std::runtime_error("checkpoint could not write buffers: " + st.ToString());
  const int64_t written_ns = SteadyNs();
  TransamCheckpoint();
  if (wal) {
    CheckpointRecord rec{};
    rec.redo_lsn = res.redo_lsn;
    rec.next_xid = ReadNextTransactionId();
    rec.next_oid = 0;  // the catalog keeps its own OID counter file
    rec.time_us = xi::NowMicrosUnix();
    rec.shutdown = shutdown ? 1 : 0;
    res.end_lsn = XLogInsertCheckpoint(rec, &res.checkpoint_lsn);
    XLogFlush(res.end_lsn);
    ControlFileData cf;
    if (auto old = ReadControlFile(datadir)) cf = *old;
    if (cf.system_identifier == 0) cf.system_identifier = std::random_device{}() | (uint64_t{std::random_device{}()} << 32);
    cf.checkpoint_lsn = res.checkpoint_lsn;
    cf.redo_lsn = res.redo_lsn;
    cf.segment_size = XLogSegmentSize();
    cf.next_xid = rec.next_xid;
    cf.state = shutdown ? DbState::kShutdown : DbState::kInProduction;
    UpdateControlFile(datadir, cf);
    CheckPointReplicationSlots();
    RemovedSegments rm = RemoveOldSegments(res.redo_lsn);
    res.segments_recycled = rm.recycled;
    res.segments_removed = rm.removed;
  }
  g_last_checkpoint_ns = SteadyNs();
  if (wal) {
    xi::StatsShared& stats = xi::Shared()->stats;
    (opts.timed ? stats.checkpoints_timed : stats.checkpoints_req).fetch_add(1, std::memory_order_relaxed);
    stats.checkpoint_write_time_ns.fetch_add(written_ns - start_ns, std::memory_order_relaxed);
    stats.checkpoint_sync_time_ns.fetch_add(g_last_checkpoint_ns - written_ns, std::memory_order_relaxed);
  }
  if (opts.log) {
    const uint64_t written = storage::GetBgWriterStats().buffers_checkpoint - written_before;
    spdlog::info("checkpoint complete: wrote {} buffers ({:.1f}%); 0 WAL file(s) added, {} removed, {} recycled; "
                 "write={:.3f} s, sync={:.3f} s, total={:.3f} s",
                 written, 100.0 * static_cast<double>(written) / static_cast<double>(storage::NBuffers()),
                 res.segments_removed, res.segments_recycled, static_cast<double>(written_ns - start_ns) / 1e9,
                 static_cast<double>(g_last_checkpoint_ns - written_ns) / 1e9,
                 static_cast<double>(g_last_checkpoint_ns - start_ns) / 1e9);
  }
  return res;
}

CheckpointResult RequestCheckpoint(bool log) {
  CheckpointOptions opts;
  opts.log = log;
  return CreateCheckPoint(false, opts);
}

CheckpointStats GetCheckpointStats() {
  CheckpointStats st;
  if (!XLogIsStarted()) return st;
  const xi::StatsShared& s = xi::Shared()->stats;
  st.timed = s.checkpoints_timed.load(std::memory_order_relaxed);
  st.requested = s.checkpoints_req.load(std::memory_order_relaxed);
  st.write_time_ms = static_cast<double>(s.checkpoint_write_time_ns.load(std::memory_order_relaxed)) / 1e6;
  st.sync_time_ms = static_cast<double>(s.checkpoint_sync_time_ns.load(std::memory_order_relaxed)) / 1e6;
  return st;
}

CheckpointDue CheckpointIsDue(int64_t checkpoint_timeout_s, int64_t max_wal_size_mb) {
  const int64_t now = SteadyNs();
  if (g_last_checkpoint_ns == 0) g_last_checkpoint_ns = now;
  if (now - g_last_checkpoint_ns >= checkpoint_timeout_s * 1'000'000'000) return CheckpointDue::kTime;
  if (!XLogIsStarted()) return CheckpointDue::kNone;
  const XLogRecPtr redo = GetRedoRecPtr();
  const XLogRecPtr end = XLogInsertEndPosition();
  if (end > redo && end - redo >= static_cast<uint64_t>(max_wal_size_mb) * 1024 * 1024) return CheckpointDue::kWal;
  return CheckpointDue::kNone;
}

}  // namespace hearth::access
