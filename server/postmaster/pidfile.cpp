// postmaster/pidfile.cpp
//
// Principal entry points: PidFile::Acquire, PidFile::Release.
#include "postmaster/pidfile.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

namespace hearth::postmaster {

namespace {

// A pid counts as alive if kill(pid, 0) succeeds or fails for lack of
// permission. Our own pid (a recycled pid after a container restart) is not.
bool PidAlive(pid_t pid) {
  if (pid <= 0 || pid == getpid()) return false;
  if (kill(pid, 0) == 0) return true;
  return errno == EPERM;
}

}  // namespace

bool PidFile::Acquire(const std::string& datadir, int port, std::string* error) {
  std::string path = datadir + "/postmaster.pid";
  for (int attempt = 0; attempt < 2; attempt++) {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) {
      std::string content = std::to_string(getpid()) + "\n" + datadir + "\n" +
                            std::to_string(static_cast<long long>(time(nullptr))) + "\n" +
                            std::to_string(port) + "\n";
      bool ok = write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
      ok = (fsync(fd) == 0) && ok;
      close(fd);
      if (!ok) {
        unlink(path.c_str());
        *error = "could not write lock file \"" + path + "\"";
        return false;
      }
      path_ = path;
      owner_pid_ = getpid();
      return true;
    }
    if (errno != EEXIST) {
      *error = "could not create lock file \"" + path + "\": " + std::strerror(errno);
      return false;
    }
    std::ifstream in(path);
    long pid = 0;
    in >> pid;
    if (PidAlive(static_cast<pid_t>(pid))) {
      *error = "lock file \"" + path + "\" already exists: is another hearthd (PID " + std::to_string(pid) +
               ") running in data directory \"" + datadir + "\"?";
      return false;
    }
    // Stale: the server that wrote it is gone.
    unlink(path.c_str());
  }
  *error = "could not acquire lock file \"" + path + "\"";
  return false;
}

void PidFile::Release() {
  if (!path_.empty() && owner_pid_ == getpid()) {
    unlink(path_.c_str());
    path_.clear();
  }
}

}  // namespace hearth::postmaster
