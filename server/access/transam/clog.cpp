// access/transam/clog.cpp
//
// Principal entry points: TransactionIdSetStatus, TransactionIdGetStatus,
// ClogFlush, ClogStartup.
//
// Buffer protocol: with ClogShared::lock held shared, a resident page stays
// resident and its bytes may be read or updated with atomic byte operations
// (each xid's 2 bits change once, from in-progress). With the lock held
// exclusive a process may evict a page (writing it first if dirty) and read
// another one in. Page I/O therefore stalls other clog users briefly; clog
// misses are rare (32 buffers cover 1M recent xids).
#include "access/transam/clog.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "access/transam/transam_shared.h"
#include "common/error/db_error.h"
#include "storage/file/disk_full.h"

namespace hearth::access {

using namespace transam_internal;
using storage::LWLockGuard;
using storage::LWLockMode;

namespace {

std::string g_clog_dir;
void (*g_wal_flush_hook)(uint64_t) = nullptr;

std::string SegmentPath(int64_t pageno) {
  char name[16];
  std::snprintf(name, sizeof(name), "%04llX", static_cast<unsigned long long>(pageno / kClogPagesPerSegment));
  return g_clog_dir + "/" + name;
}

off_t PageOffset(int64_t pageno) { return static_cast<off_t>(pageno % kClogPagesPerSegment) * kClogPageBytes; }

// Out of space is ERROR 53100: the page stays dirty and is written later.
[[noreturn]] void ThrowIo(const char* what, const std::string& path) {
  const int err = errno;
  throw storage::FileError(err, std::string("could not ") + what + " file \"" + path + "\": " + std::strerror(err));
}

// Reads page `pageno` into `dst`; missing file or short read = zeros.
void ReadPage(int64_t pageno, uint8_t* dst) {
  std::memset(dst, 0, kClogPageBytes);
  std::string path = SegmentPath(pageno);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return;
    ThrowIo("open", path);
  }
  ssize_t n = pread(fd, dst, kClogPageBytes, PageOffset(pageno));
  int e = errno;
  close(fd);
  if (n < 0) {
    errno = e;
    ThrowIo("read", path);
  }
}

// REQUIRES: lock held exclusive.
void WritePage(int slot) {
  ClogShared& c = Shared()->clog;
  ClogBufferDesc& d = c.bufs[slot];
  uint64_t lsn = d.max_lsn.load();
  if (lsn != 0 && g_wal_flush_hook != nullptr) g_wal_flush_hook(lsn);  // WAL before clog
  std::string path = SegmentPath(d.pageno);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) ThrowIo("open", path);
  ssize_t n = pwrite(fd, c.pages[slot], kClogPageBytes, PageOffset(d.pageno));
  if (n != kClogPageBytes || fsync(fd) != 0) {
    int e = n < 0 || n == kClogPageBytes ? errno : ENOSPC;
    close(fd);
    errno = e;
    ThrowIo("write", path);
  }
  close(fd);
  d.dirty.store(false);
}

// REQUIRES: lock held (either mode). Returns the slot holding pageno or -1.
int FindSlot(int64_t pageno) {
  ClogShared& c = Shared()->clog;
  for (int i = 0; i < kClogBuffers; i++) {
    if (c.bufs[i].pageno == pageno) return i;
  }
  return -1;
}

// REQUIRES: lock held exclusive. Makes pageno resident (evicting the least
// recently used page) and returns its slot.
int LoadPage(int64_t pageno) {
  ClogShared& c = Shared()->clog;
  int slot = FindSlot(pageno);
  if (slot >= 0) return slot;
  for (int i = 0; i < kClogBuffers && slot < 0; i++) {
    if (c.bufs[i].pageno < 0) slot = i;
  }
  if (slot < 0) {
    slot = 0;
    for (int i = 1; i < kClogBuffers; i++) {
      if (c.bufs[i].last_used.load(std::memory_order_relaxed) < c.bufs[slot].last_used.load(std::memory_order_relaxed)) slot = i;
    }
    if (c.bufs[slot].dirty.load()) WritePage(slot);
  }
  ClogBufferDesc& d = c.bufs[slot];
  d.pageno = -1;  // if the read throws, the slot is simply empty
  ReadPage(pageno, c.pages[slot]);
  d.pageno = pageno;
  d.dirty.store(false);
  d.max_lsn.store(0);
  d.last_used.store(c.lru_clock.fetch_add(1) + 1);
  return slot;
}

// Runs fn(slot) with the page resident and the lock held shared.
template <typename Fn>
auto WithPage(int64_t pageno, Fn&& fn) {
  ClogShared& c = Shared()->clog;
  for (;;) {
    {
      LWLockGuard g(c.lock, LWLockMode::kShared);
      int slot = FindSlot(pageno);
      if (slot >= 0) {
        c.bufs[slot].last_used.store(c.lru_clock.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        return fn(slot);
      }
    }
    LWLockGuard g(c.lock, LWLockMode::kExclusive);
    LoadPage(pageno);
  }
}

}  // namespace

namespace transam_internal {

void ClogStartup(const std::string& datadir) {
  g_clog_dir = datadir + "/pg_xact";
  ClogShared& c = Shared()->clog;
  for (ClogBufferDesc& d : c.bufs) {
    d.pageno = -1;
    d.dirty.store(false);
    d.last_used.store(0);
    d.max_lsn.store(0);
  }
}

}  // namespace transam_internal

void TransactionIdSetStatus(TransactionId xid, XidStatus status, uint64_t commit_lsn) {
  const int64_t pageno = xid / kClogXidsPerPage;
  const int byteno = static_cast<int>(xid % kClogXidsPerPage) / kClogXidsPerByte;
  const int shift = static_cast<int>(xid % kClogXidsPerByte) * 2;
  WithPage(pageno, [&](int slot) {
    ClogShared& c = Shared()->clog;
    std::atomic_ref<uint8_t> byte(c.pages[slot][byteno]);
    uint8_t old = byte.load(std::memory_order_relaxed);
    uint8_t want;
    do {
      want = static_cast<uint8_t>((old & ~(3u << shift)) | (static_cast<unsigned>(status) << shift));
    } while (!byte.compare_exchange_weak(old, want, std::memory_order_acq_rel));
    ClogBufferDesc& d = c.bufs[slot];
    uint64_t cur = d.max_lsn.load(std::memory_order_relaxed);
    while (commit_lsn > cur && !d.max_lsn.compare_exchange_weak(cur, commit_lsn)) {
    }
    d.dirty.store(true, std::memory_order_release);
    return 0;
  });
}

XidStatus TransactionIdGetStatus(TransactionId xid) {
  if (!TransactionIdIsNormal(xid)) return TransactionIdIsValid(xid) ? XidStatus::kCommitted : XidStatus::kAborted;
  const int64_t pageno = xid / kClogXidsPerPage;
  const int byteno = static_cast<int>(xid % kClogXidsPerPage) / kClogXidsPerByte;
  const int shift = static_cast<int>(xid % kClogXidsPerByte) * 2;
  return WithPage(pageno, [&](int slot) {
    std::atomic_ref<uint8_t> byte(Shared()->clog.pages[slot][byteno]);
    return static_cast<XidStatus>((byte.load(std::memory_order_acquire) >> shift) & 3u);
  });
}

uint64_t TransactionIdGetCommitLsnBound(TransactionId xid) {
  if (!TransactionIdIsNormal(xid)) return 0;
  const int64_t pageno = xid / kClogXidsPerPage;
  return WithPage(pageno, [&](int slot) { return Shared()->clog.bufs[slot].max_lsn.load(std::memory_order_acquire); });
}

void ClogFlush() {
  ClogShared& c = Shared()->clog;
  LWLockGuard g(c.lock, LWLockMode::kExclusive);
  for (int i = 0; i < kClogBuffers; i++) {
    if (c.bufs[i].pageno >= 0 && c.bufs[i].dirty.load()) WritePage(i);
  }
}

void ClogReserveSpaceFor(int64_t pageno) {
  if (g_clog_dir.empty()) return;
  const std::string path = SegmentPath(pageno);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) ThrowIo("open", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int e = errno;
    close(fd);
    errno = e;
    ThrowIo("stat", path);
  }
  // Zeros from the end of the file up to the page's end: no hole is left
  // that a later write would have to fill. (A partial last page, from an
  // earlier failed write, is left alone: its dirty buffer rewrites it.)
  const off_t from = (st.st_size + kClogPageBytes - 1) / kClogPageBytes * kClogPageBytes;
  const off_t end = PageOffset(pageno) + kClogPageBytes;
  static const uint8_t kZeros[kClogPageBytes] = {};
  for (off_t off = from; off < end; off += kClogPageBytes) {
    const ssize_t n = pwrite(fd, kZeros, kClogPageBytes, off);
    if (n == kClogPageBytes) continue;
    const int e = n < 0 ? errno : ENOSPC;
    // No partial page may remain (a missing page reads as zeros anyway).
    [[maybe_unused]] const int cut = ftruncate(fd, off);
    close(fd);
    errno = e;
    ThrowIo("extend", path);
  }
  close(fd);
}

void SetClogWalFlushHook(void (*hook)(uint64_t lsn)) { g_wal_flush_hook = hook; }

}  // namespace hearth::access
