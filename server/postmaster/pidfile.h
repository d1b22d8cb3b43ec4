// postmaster/pidfile.h
//
// postmaster.pid: written when the server starts, removed at clean exit. It
// refuses a second server on the same data directory; a file whose pid is no
// longer alive (after a crash or kill -9) is recognised as stale and replaced.
// Lines: pid, data directory, start time (epoch s), port.
#pragma once

#include <string>

namespace hearth::postmaster {

class PidFile {
 public:
  // Creates <datadir>/postmaster.pid exclusively. Returns false with *error
  // naming the running pid when another live server holds the directory.
  bool Acquire(const std::string& datadir, int port, std::string* error);
  // Removes the file if this process created it.
  void Release();
  ~PidFile() { Release(); }

 private:
  std::string path_;
  int owner_pid_ = 0;
};

}  // namespace hearth::postmaster
