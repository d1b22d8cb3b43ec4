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

#include "access/transam/transam.h"
#include "access/transam/varsup.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_internal.h"
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

CheckpointResult CreateCheckPoint(bool shutdown) {
  const std::string& datadir = TransamDataDir();
  if (datadir.empty()) throw std::logic_error("CreateCheckPoint before TransamStartup");
  CheckpointLock lock(datadir);
  CheckpointResult res;
  const bool wal = XLogIsStarted();
  if (wal) {
    // From here on, a page changed for the first time gets a full image: its
    // on-disk copy may be written (perhaps torn) by the flush below.
    res.redo_lsn = BeginRedoPoint();
  }
  storage::Status st = storage::FlushAllBuffers();
  if (!st.ok()) throw std::runtime_error("checkpoint could not write buffers: " + st.ToString());
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
    RemovedSegments rm = RemoveOldSegments(res.redo_lsn);
    res.segments_recycled = rm.recycled;
    res.segments_removed = rm.removed;
  }
  g_last_checkpoint_ns = SteadyNs();
  return res;
}

CheckpointResult RequestCheckpoint() { return CreateCheckPoint(false); }

bool CheckpointIsDue(int64_t checkpoint_timeout_s, int64_t max_wal_size_mb) {
  const int64_t now = SteadyNs();
  if (g_last_checkpoint_ns == 0) g_last_checkpoint_ns = now;
  if (now - g_last_checkpoint_ns >= checkpoint_timeout_s * 1'000'000'000) return true;
  if (!XLogIsStarted()) return false;
  const XLogRecPtr redo = GetRedoRecPtr();
  const XLogRecPtr end = XLogInsertEndPosition();
  return end > redo && end - redo >= static_cast<uint64_t>(max_wal_size_mb) * 1024 * 1024;
}

}  // namespace hearth::access
