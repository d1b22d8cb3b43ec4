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
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

#include "access/transam/checkpoint_schedule.h"
#include "access/transam/transam.h"
#include "access/transam/varsup.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_internal.h"
#include "access/transam/xlog_keep.h"
#include "access/transam/xlog_rmgr.h"
#include "access/transam/xlog_segment.h"
#include "access/transam/xlog_standby.h"
#include "access/transam/xlog_backup_label.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/smgr.h"
#include "storage/file/disk_full.h"

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

namespace {

// Phase ends of one checkpoint (steady-clock ns), for the statistics and the
// log line.
struct CheckpointTimes {
  int64_t start = 0, write_end = 0, sync_end = 0, end = 0;
};

double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

// The checkpoint record, its flush, pg_control, and the WAL segments that
// are no longer needed.
void WriteCheckpointRecord(const std::string& datadir, bool shutdown, CheckpointResult& res) {
  CheckpointRecord rec{};
  rec.redo_lsn = res.redo_lsn;
  rec.next_xid = ReadNextTransactionId();
  rec.next_oid = 0;  // the catalog keeps its own OID counter file
  rec.time_us = xi::NowMicrosUnix();
  rec.shutdown = shutdown ? 1 : 0;
  rec.oldest_running_xid = GetOldestRunningXid();
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

// PostgreSQL's smoothed estimate of the WAL between checkpoints: follows an
// increase at once, a decrease by a tenth. Returns the new estimate.
uint64_t UpdateDistanceEstimate(uint64_t distance) {
  std::atomic<uint64_t>& est = xi::Shared()->stats.checkpoint_distance_estimate;
  const uint64_t old = est.load(std::memory_order_relaxed);
  const uint64_t next =
      old < distance ? distance : static_cast<uint64_t>(0.9 * static_cast<double>(old) + 0.1 * static_cast<double>(distance));
  est.store(next, std::memory_order_relaxed);
  return next;
}

void CountCheckpoint(bool timed, const CheckpointTimes& t) {
  xi::StatsShared& stats = xi::Shared()->stats;
  (timed ? stats.checkpoints_timed : stats.checkpoints_req).fetch_add(1, std::memory_order_relaxed);
  stats.checkpoint_write_time_ns.fetch_add(t.write_end - t.start, std::memory_order_relaxed);
  stats.checkpoint_sync_time_ns.fetch_add(t.sync_end - t.write_end, std::memory_order_relaxed);
}

// log_checkpoints' closing line, in PostgreSQL 15's words.
void LogCheckpointComplete(const CheckpointResult& res, const storage::CheckpointWriteResult& wr,
                           const storage::SmgrSyncStats& sync, const CheckpointTimes& t, uint64_t distance,
                           uint64_t estimate) {
  const double average = sync.files > 0 ? Seconds(sync.total_ns) / sync.files : 0.0;
  spdlog::info("checkpoint complete: wrote {} buffers ({:.1f}%); 0 WAL file(s) added, {} removed, {} recycled; "
               "write={:.3f} s, sync={:.3f} s, total={:.3f} s; sync files={}, longest={:.3f} s, average={:.3f} s; "
               "distance={} kB, estimate={} kB",
               wr.written, 100.0 * static_cast<double>(wr.written) / static_cast<double>(storage::NBuffers()),
               res.segments_removed, res.segments_recycled, Seconds(t.write_end - t.start),
               Seconds(t.sync_end - t.write_end), Seconds(t.end - t.start), sync.files, Seconds(sync.longest_ns),
               average, distance / 1024, estimate / 1024);
}

// A standby's checkpoint (PostgreSQL's restartpoint): inserts no WAL; makes
// the last checkpoint record replayed the place where recovery restarts,
// once every page replayed so far is written and synced. Its redo point's
// first changes of each page carry full images (the primary logged them so),
// which is why only a primary checkpoint's redo point may serve.
CheckpointResult CreateRestartPoint(const std::string& datadir, const CheckpointOptions& opts) {
  CheckpointResult res;
  const RestartPointCandidate c = GetRestartPointCandidate();
  std::optional<ControlFileData> old = ReadControlFile(datadir);
  // Nothing newer than what pg_control names, unless a base backup's label
  // still waits for the checkpoint it started from to be made the restart point.
  const bool label = ReadBackupLabel(datadir).has_value();
  if (c.checkpoint_lsn == 0 || (old && old->checkpoint_lsn > c.checkpoint_lsn) ||
      (old && old->checkpoint_lsn == c.checkpoint_lsn && !label)) {
    return res;
  }
  if (opts.log) spdlog::info("restartpoint starting: {}", opts.cause);
  storage::CheckpointWriteResult wr;
  storage::Status st = storage::BufferSync(nullptr, &wr);
  if (!st.ok()) {
    if (st.IsDiskFull()) throw storage::DiskFullError("restartpoint could not write buffers: " + st.ToString());
    throw std::runtime_error("restartpoint could not write buffers: " + st.ToString());
  }
  storage::SmgrSyncStats sync;
  st = storage::SmgrSyncPending(&sync);
  if (!st.ok()) throw std::runtime_error("restartpoint could not sync data files: " + st.ToString());
  TransamCheckpoint();
  ControlFileData cf = old.value_or(ControlFileData{});
  cf.checkpoint_lsn = c.checkpoint_lsn;
  cf.redo_lsn = c.redo_lsn;
  cf.segment_size = XLogSegmentSize();
  if (c.next_xid > cf.next_xid) cf.next_xid = c.next_xid;
  cf.state = DbState::kInProduction;
  UpdateControlFile(datadir, cf);
  // A base backup's label named where replay had to start; pg_control now
  // names a redo point at or after it.
  if (label) RetireBackupLabel(datadir);
  res.redo_lsn = c.redo_lsn;
  res.checkpoint_lsn = c.checkpoint_lsn;
  if (opts.log) {
    spdlog::info("restartpoint complete: wrote {} buffers; recovery restart point at {:X}/{:X}", wr.written,
                 c.redo_lsn >> 32, c.redo_lsn & 0xFFFFFFFF);
  }
  return res;
}

}  // namespace

CheckpointResult CreateCheckPoint(bool shutdown, const CheckpointOptions& opts) {
  const std::string& datadir = TransamDataDir();
  if (datadir.empty()) throw std::logic_error("CreateCheckPoint before TransamStartup");
  CheckpointLock lock(datadir);
  if (RecoveryInProgress()) return CreateRestartPoint(datadir, opts);
  if (opts.log) spdlog::info("checkpoint starting: {}", shutdown ? "shutdown immediate" : opts.cause);
  CheckpointTimes t;
  t.start = SteadyNs();
  g_last_checkpoint_ns = t.start;  // checkpoint_timeout counts from start to start, as PostgreSQL
  CheckpointResult res;
  const bool wal = XLogIsStarted();
  const XLogRecPtr prior_redo = GetRedoRecPtr();
  if (wal) {
    // From here on, a page changed for the first time gets a full image: its
    // on-disk copy may be written (perhaps torn) by the write-out below.
    res.redo_lsn = BeginRedoPoint();
  }
  // Spread over the interval unless immediate (shutdown, CHECKPOINT, end of
  // recovery); no lock others wait for is held across these writes.
  storage::CheckpointPaceFn pace;
  std::optional<CheckpointSchedule> schedule;
  if (opts.pacing != nullptr && !shutdown) {
    schedule.emplace(*opts.pacing, res.redo_lsn, t.start);
    pace = [&schedule](double progress) { schedule->AfterWrite(progress); };
  }
  storage::CheckpointWriteResult wr;
  storage::Status st = storage::BufferSync(pace, &wr);
  if (!st.ok()) {
    // Out of space: the buffers stay dirty and the next checkpoint retries.
    // Any other failure (an fsync above all) may have lost data: the caller PANICs.
    if (st.IsDiskFull()) throw storage::DiskFullError("checkpoint could not write buffers: " + st.ToString());
    throw std::runtime_error("checkpoint could not write buffers: " + st.ToString());
  }
  t.write_end = SteadyNs();
  storage::SmgrSyncStats sync;
  st = storage::SmgrSyncPending(&sync);
  if (!st.ok()) throw std::runtime_error("checkpoint could not sync data files: " + st.ToString());
  t.sync_end = SteadyNs();
  TransamCheckpoint();
  if (wal) WriteCheckpointRecord(datadir, shutdown, res);
  t.end = SteadyNs();
  if (!wal) return res;
  CountCheckpoint(opts.timed, t);
  const uint64_t distance = prior_redo != 0 && res.redo_lsn > prior_redo ? res.redo_lsn - prior_redo : 0;
  const uint64_t estimate = UpdateDistanceEstimate(distance);
  if (opts.log) LogCheckpointComplete(res, wr, sync, t, distance, estimate);
  return res;
}

CheckpointResult RequestCheckpoint(bool log) {
  // A spread checkpoint the checkpointer is running meanwhile finishes at
  // full speed, so this waits seconds rather than minutes for the lock.
  CheckpointWaiterGuard waiting;
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

CheckpointDue CheckpointIsDue(int64_t checkpoint_timeout_s, int64_t max_wal_size_mb, double completion_target) {
  const int64_t now = SteadyNs();
  if (g_last_checkpoint_ns == 0) g_last_checkpoint_ns = now;
  if (now - g_last_checkpoint_ns >= checkpoint_timeout_s * 1'000'000'000) return CheckpointDue::kTime;
  if (!XLogIsStarted()) return CheckpointDue::kNone;
  const XLogRecPtr redo = GetRedoRecPtr();
  const XLogRecPtr end = XLogInsertEndPosition();
  if (end > redo && end - redo >= CheckpointWalDistance(max_wal_size_mb, completion_target)) return CheckpointDue::kWal;
  return CheckpointDue::kNone;
}

}  // namespace hearth::access
