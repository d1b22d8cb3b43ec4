// storage/file/durable_file.cpp
//
// Principal entry point: WriteFileDurably.
#include "storage/file/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "storage/file/disk_full.h"

namespace hearth::storage {

namespace {

// Out of space is ERROR 53100 (DbError is a std::runtime_error).
[[noreturn]] void ThrowIo(const std::string& what, const std::string& path, int err) {
  throw FileError(err, what + " \"" + path + "\": " + std::strerror(err));
}

}  // namespace

void WriteFileDurably(const std::string& path, std::string_view content) {
  const std::string tmp = path + ".tmp";
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) ThrowIo("could not create file", tmp, errno);
  const ssize_t n = write(fd, content.data(), content.size());
  if (n != static_cast<ssize_t>(content.size()) || fsync(fd) != 0) {
    int e = n >= 0 && n < static_cast<ssize_t>(content.size()) ? ENOSPC : errno;
    close(fd);
    unlink(tmp.c_str());
    ThrowIo("could not write to file", tmp, e);
  }
  close(fd);
  if (rename(tmp.c_str(), path.c_str()) != 0) ThrowIo("could not rename file", tmp, errno);
  // The rename itself must survive a crash: fsync the directory entry.
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
}

}  // namespace hearth::storage
