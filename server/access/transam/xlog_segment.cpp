// access/transam/xlog_segment.cpp
//
// Principal entry points: InstallSegment (internal), XLogPreallocateSegments,
// RemoveOldSegments.
#include "access/transam/xlog_segment.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "access/transam/xlog_internal.h"
#include "storage/file/disk_full.h"
#include "access/transam/xlog_keep.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::access {

namespace xi = xlog_internal;

namespace xlog_internal {

// Out of space is ERROR 53100 (a DbError, which is a std::runtime_error).
[[noreturn]] void ThrowErrno(const std::string& what) {
  const int err = errno;
  throw storage::FileError(err, "WAL: " + what + ": " + std::strerror(err));
}

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

void FsyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) ThrowErrno("open directory " + dir);
  if (::fsync(fd) != 0) {
    int e = errno;
    ::close(fd);
    errno = e;
    ThrowErrno("fsync directory " + dir);
  }
  ::close(fd);
}

}  // namespace xlog_internal

namespace {

using xi::FileExists;
using xi::FsyncDir;
using xi::ThrowErrno;

// Segment numbers of all segment files present (of the timeline each
// segment number belongs to: older timelines' copies are not counted).
std::vector<uint64_t> ListSegments() {
  std::vector<uint64_t> out;
  DIR* d = ::opendir(xi::WalDir().c_str());
  if (d == nullptr) ThrowErrno("open " + xi::WalDir());
  while (dirent* e = ::readdir(d)) {
    uint64_t segno;
    uint32_t tli;
    const uint64_t seg_size = xi::Shared()->segment_size;
    if (XLogParseSegmentFileName(e->d_name, seg_size, &segno, &tli) && tli == XLogTimelineOfSegment(segno, seg_size)) {
      out.push_back(segno);
    }
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

namespace xlog_internal {

bool InstallSegment(uint64_t segno, bool on_demand) {
  XLogShared* sh = Shared();
  storage::LWLockGuard g(sh->segment_lock, storage::LWLockMode::kExclusive);
  const std::string path = XLogSegmentPath(segno);
  if (FileExists(path)) return false;
  // Build the file under a temporary name, then link it into place, so a
  // crash never leaves a short segment under a real name.
  const std::string tmp = WalDir() + "/xlogtemp." + std::to_string(::getpid());
  ::unlink(tmp.c_str());
  int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) ThrowErrno("create " + tmp);
  static const std::vector<uint8_t> zeros(64 * 1024, 0);
  uint64_t done = 0;
  while (done < sh->segment_size) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(zeros.size(), sh->segment_size - done));
    ssize_t w = ::pwrite(fd, zeros.data(), n, static_cast<off_t>(done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      // Nothing was promised yet: the partial file goes, its space returns.
      const int e = w < 0 ? errno : ENOSPC;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw storage::FileError(e, "could not write to file \"wal/" + tmp.substr(tmp.rfind('/') + 1) +
                                      "\": " + std::strerror(e));
    }
    done += static_cast<uint64_t>(w);
  }
  if (sh->fsync.load(std::memory_order_relaxed) && ::fsync(fd) != 0) {
    int e = errno;
    ::close(fd);
    errno = e;
    ThrowErrno("fsync " + tmp);
  }
  ::close(fd);
  if (::link(tmp.c_str(), path.c_str()) != 0 && errno != EEXIST) ThrowErrno("link " + path);
  ::unlink(tmp.c_str());
  if (sh->fsync.load(std::memory_order_relaxed)) FsyncDir(WalDir());
  sh->stats.segments_created.fetch_add(1, std::memory_order_relaxed);
  if (on_demand) sh->stats.segments_created_on_demand.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace xlog_internal

namespace xlog_internal {

void NoteSegmentsReady(uint64_t end_segno) {
  XLogShared* sh = Shared();
  const XLogRecPtr end = end_segno * sh->segment_size;
  XLogRecPtr seen = sh->segments_ready_upto.load(std::memory_order_relaxed);
  while (seen < end && !sh->segments_ready_upto.compare_exchange_weak(seen, end, std::memory_order_release)) {
  }
}

}  // namespace xlog_internal

int XLogPreallocateSegments() {
  xi::XLogShared* sh = xi::Shared();
  const uint64_t cur = XLogSegNo(xi::ReservedEnd(), sh->segment_size);
  int created = 0;
  for (uint64_t s = cur; s <= cur + static_cast<uint64_t>(std::max(0, sh->prealloc_segments)); s++) {
    if (xi::InstallSegment(s, false)) created++;
    xi::NoteSegmentsReady(s + 1);  // cur..s exist whole (installed, recycled or written)
  }
  return created;
}

void XLogEnsureSegmentFile(uint64_t segno) { xi::InstallSegment(segno, /*on_demand=*/true); }

void XLogEnsureSpaceForChange() {
  if (!XLogIsStarted()) return;
  xi::XLogShared* sh = xi::Shared();
  // Page granularity is enough: initialized_upto trails the insert position
  // by less than a page and is one atomic load (ReservedEnd takes a spinlock).
  const XLogRecPtr at = sh->initialized_upto.load(std::memory_order_acquire);
  const XLogRecPtr need = (XLogSegNo(at, sh->segment_size) + 2) * sh->segment_size;
  if (sh->segments_ready_upto.load(std::memory_order_acquire) >= need) return;
  // The walwriter has fallen behind, or the disk is full: make just the
  // segments this writer needs, here. On a full disk this throws ERROR 53100
  // before anything changed.
  const uint64_t cur = XLogSegNo(at, sh->segment_size);
  for (uint64_t seg = cur; seg <= cur + 1; seg++) {
    xi::InstallSegment(seg, /*on_demand=*/true);
    xi::NoteSegmentsReady(seg + 1);
  }
}

RemovedSegments RemoveOldSegments(XLogRecPtr redo_lsn) {
  xi::XLogShared* sh = xi::Shared();
  RemovedSegments result;
  XLogRecPtr limit = std::min(redo_lsn, XLogFlushedUpTo());
  // Replication slots, running base backups and wal_keep_size (xlog_keep.h).
  if (const XLogRecPtr keep = WalRetentionLimit(); keep != 0) limit = std::min(limit, keep);
  const uint64_t keep_from = XLogSegNo(limit, sh->segment_size);
  const uint64_t insert_seg = XLogSegNo(xi::ReservedEnd(), sh->segment_size);
  storage::LWLockGuard g(sh->segment_lock, storage::LWLockMode::kExclusive);
  std::vector<uint64_t> segs = ListSegments();
  uint64_t highest = segs.empty() ? insert_seg : std::max(segs.back(), insert_seg);
  const uint64_t highest_before = highest;
  bool changed = false;
  for (uint64_t segno : segs) {
    if (segno >= keep_from) break;
    const std::string old_path = XLogSegmentPath(segno);
    if (highest - insert_seg < static_cast<uint64_t>(std::max(0, sh->max_recycled_segments))) {
      const std::string new_path = XLogSegmentPath(highest + 1);
      if (FileExists(new_path)) throw std::logic_error("WAL: recycle target exists: " + new_path);
      if (::rename(old_path.c_str(), new_path.c_str()) != 0) ThrowErrno("rename " + old_path);
      highest++;
      result.recycled++;
    } else {
      if (::unlink(old_path.c_str()) != 0) ThrowErrno("unlink " + old_path);
      result.removed++;
    }
    changed = true;
  }
  if (changed && sh->fsync.load(std::memory_order_relaxed)) FsyncDir(xi::WalDir());
  // Recycled files are whole segments named right after the highest one: if
  // the run already reached it, it now reaches the last recycled name.
  if (result.recycled > 0 &&
      sh->segments_ready_upto.load(std::memory_order_acquire) >= (highest_before + 1) * sh->segment_size) {
    xi::NoteSegmentsReady(highest + 1);
  }
  sh->stats.segments_recycled.fetch_add(result.recycled, std::memory_order_relaxed);
  sh->stats.segments_removed.fetch_add(result.removed, std::memory_order_relaxed);
  return result;
}

}  // namespace hearth::access
