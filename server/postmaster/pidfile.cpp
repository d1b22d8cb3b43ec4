// postmaster/pidfile.cpp
//
// Principal entry points: PidFile::Acquire, PidFile::Release.
#include "postmaster/pidfile.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace hearth::postmaster {

namespace {

// A pid counts as alive if kill(pid, 0) succeeds or fails for lack of
// permission. Our own pid (a recycled pid after a container restart) is not.
bool PidAlive(pid_t pid) {
  if (pid <= 0 || pid == getpid()) return false;
  if (kill(pid, 0) == 0) return true;
  return errno == EPERM;
}

// The pid on the first line of the open lock file (0 if unreadable).
pid_t RecordedPid(int fd) {
  char buf[32] = {};
  ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return 0;
  return static_cast<pid_t>(std::strtol(buf, nullptr, 10));
}

// True when fd still names the file at `path` (not one a departing server
// unlinked after we opened it).
bool SameFile(int fd, const std::string& path) {
  struct stat by_fd{}, by_path{};
  if (fstat(fd, &by_fd) != 0 || stat(path.c_str(), &by_path) != 0) return false;
  return by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino;
}

std::string HeldError(const std::string& path, const std::string& datadir, pid_t pid) {
  if (PidAlive(pid)) {
    return "lock file \"" + path + "\" already exists: is another hearthd (PID " + std::to_string(pid) +
           ") running in data directory \"" + datadir + "\"?";
  }
  return "lock file \"" + path + "\" is still held by processes of an old server (PID " + std::to_string(pid) +
         ", no longer running) that remain attached to shared memory; terminate any old server processes "
         "associated with data directory \"" + datadir + "\"";
}

}  // namespace

bool PidFile::Acquire(const std::string& datadir, int port, std::string* error) {
  std::string path = datadir + "/postmaster.pid";
  for (int attempt = 0; attempt < 3; attempt++) {
    // Children never exec; O_CLOEXEC keeps the lock out of any program
    // that one might run all the same.
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      *error = "could not create lock file \"" + path + "\": " + std::strerror(errno);
      return false;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const pid_t holder = RecordedPid(fd);
      close(fd);
      *error = err == EWOULDBLOCK ? HeldError(path, datadir, holder)
                                  : "could not lock file \"" + path + "\": " + std::strerror(err);
      return false;
    }
    if (!SameFile(fd, path)) {  // unlinked by a server that just shut down
      close(fd);
      continue;
    }
    // Nobody holds the lock, so whatever the file says is stale.
    std::string content = std::to_string(getpid()) + "\n" + datadir + "\n" +
                          std::to_string(static_cast<long long>(time(nullptr))) + "\n" + std::to_string(port) + "\n";
    bool ok = ftruncate(fd, 0) == 0 &&
              pwrite(fd, content.data(), content.size(), 0) == static_cast<ssize_t>(content.size());
    ok = ok && fsync(fd) == 0;
    if (!ok) {
      *error = "could not write lock file \"" + path + "\": " + std::strerror(errno);
      unlink(path.c_str());
      close(fd);
      return false;
    }
    path_ = path;
    fd_ = fd;
    owner_pid_ = getpid();
    return true;
  }
  *error = "could not acquire lock file \"" + path + "\"";
  return false;
}

void PidFile::Release() {
  if (fd_ >= 0 && owner_pid_ == getpid()) {
    // Unlink before closing: the next server then creates a fresh file
    // rather than taking over one we still hold.
    unlink(path_.c_str());
    close(fd_);
    fd_ = -1;
    path_.clear();
  }
}

}  // namespace hearth::postmaster
