// access/transam/xlog_control.cpp
//
// Principal entry points: UpdateControlFile, ReadControlFile.
#include "access/transam/xlog_control.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "access/transam/crc32c.h"
#include "access/transam/xlog_internal.h"
#include "storage/file/disk_full.h"

namespace hearth::access {

namespace {

// Out of space is ERROR 53100 (a DbError, which is a std::runtime_error).
[[noreturn]] void ThrowErrno(const std::string& what) {
  const int err = errno;
  throw storage::FileError(err, "control file: " + what + ": " + std::strerror(err));
}

uint32_t ControlCrc(const ControlFileData& d) { return Crc32c(&d, offsetof(ControlFileData, crc)); }

// Rewrites an existing control file in place: one 64-byte write at offset 0
// lies within one disk sector, which the storage writes whole or not at
// all (PostgreSQL relies on the same), and the CRC catches anything else.
// Needing no new space, a checkpoint (and so the end of recovery) works on a
// full disk. False when there is no full-size file to overwrite yet.
bool OverwriteInPlace(const std::string& path, const ControlFileData& d) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  if (::fstat(fd, &st) != 0 || st.st_size != static_cast<off_t>(sizeof(d))) {
    ::close(fd);
    return false;
  }
  const ssize_t n = ::pwrite(fd, &d, sizeof(d), 0);
  if (n != static_cast<ssize_t>(sizeof(d)) || ::fsync(fd) != 0) {
    int e = n >= 0 && n < static_cast<ssize_t>(sizeof(d)) ? EIO : errno;
    ::close(fd);
    errno = e;
    ThrowErrno("write " + path);
  }
  ::close(fd);
  return true;
}

}  // namespace

void UpdateControlFile(const std::string& datadir, const ControlFileData& data) {
  ControlFileData d = data;  // 64 bytes, no padding (static_assert in the header)
  d.magic = kControlFileMagic;
  d.version = kControlFileVersion;
  d.time_us = xlog_internal::NowMicrosUnix();
  d.crc = ControlCrc(d);
  const std::string dir = datadir + "/global";
  const std::string path = dir + "/pg_control";
  if (OverwriteInPlace(path, d)) return;
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) ThrowErrno("create " + tmp);
  const ssize_t n = ::write(fd, &d, sizeof(d));
  if (n != static_cast<ssize_t>(sizeof(d)) || ::fsync(fd) != 0) {
    int e = n >= 0 && n < static_cast<ssize_t>(sizeof(d)) ? ENOSPC : errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    errno = e;
    ThrowErrno("write " + tmp);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) ThrowErrno("rename to " + path);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) ThrowErrno("open " + dir);
  const int rc = ::fsync(dfd);
  ::close(dfd);
  if (rc != 0) ThrowErrno("fsync " + dir);
}

std::optional<ControlFileData> ReadControlFile(const std::string& datadir) {
  const std::string path = datadir + "/global/pg_control";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    ThrowErrno("open " + path);
  }
  ControlFileData d;
  const ssize_t n = ::read(fd, &d, sizeof(d));
  ::close(fd);
  if (n != static_cast<ssize_t>(sizeof(d))) throw std::runtime_error("control file " + path + " is truncated");
  if (d.magic != kControlFileMagic || d.version != kControlFileVersion) {
    throw std::runtime_error("control file " + path + " has a wrong magic number or version");
  }
  if (d.crc != ControlCrc(d)) throw std::runtime_error("control file " + path + " fails its CRC check");
  return d;
}

}  // namespace hearth::access
