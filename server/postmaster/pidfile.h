// postmaster/pidfile.h
//
// postmaster.pid: written when the server starts, removed at clean exit.
// Lines: pid, data directory, start time (epoch s), port.
//
// It is also the data-directory interlock. The postmaster holds an exclusive
// flock on it, and every child inherits that open file (fork shares the
// open file description), so the lock stays held until the postmaster *and
// every process it started* are gone. A new server that cannot take the
// lock refuses to start: an old backend that outlived a killed postmaster
// still has the old shared memory mapped and may still write, as
// PostgreSQL's check of the attach count on its old segment detects. A file
// nobody holds is stale (kill -9, power loss) and is taken over in place.
#pragma once

#include <string>

namespace hearth::postmaster {

class PidFile {
 public:
  PidFile() = default;
  PidFile(const PidFile&) = delete;
  PidFile& operator=(const PidFile&) = delete;
  ~PidFile() { Release(); }

  // Opens or creates <datadir>/postmaster.pid, locks it and writes our pid.
  // Returns false with *error when a live server, or any process an old
  // server left behind, still holds the directory.
  bool Acquire(const std::string& datadir, int port, std::string* error);
  // Removes the file if this process created it (the lock goes with it).
  void Release();

 private:
  std::string path_;
  int fd_ = -1;
  int owner_pid_ = 0;
};

}  // namespace hearth::postmaster
