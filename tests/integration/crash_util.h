// tests/integration/crash_util.h
//
// Helpers for crash and load tests: kill -9 of a whole server and a restart
// (crash recovery runs before it accepts connections), one integer from a
// query through psql, and the size of the largest relation file (a loaded
// table's heap, without catalog queries).
#pragma once

#include <catch2/catch.hpp>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>

#include <cstdint>
#include <string>

#include "test_server.h"

namespace hearth::testing {

// kill -9 of the postmaster and all its children, then a restart on the same
// data directory. `between` runs while nothing is up (to damage files).
template <typename Between>
void CrashAndRestart(TestServer& server, Between between) {
  const auto children = server.ChildPids();
  server.Stop(SIGKILL);
  for (pid_t p : children) kill(p, SIGKILL);
  REQUIRE(WaitFor([&] {
    for (pid_t p : children) {
      if (kill(p, 0) == 0) return false;
    }
    return true;
  }, 10000));
  KillProcessesMentioning(server.datadir());
  between();
  REQUIRE_NOTHROW(server.Start());
}
inline void CrashAndRestart(TestServer& server) {
  CrashAndRestart(server, [] {});
}

// The single integer `sql` returns (through psql); fails the test if none.
inline int64_t PsqlInt(const TestServer& server, const std::string& sql) {
  const std::string v = server.PsqlValue(sql);
  INFO(sql << " -> " << v);
  REQUIRE(!v.empty());
  return std::stoll(v);
}

// Size in bytes of the largest plain data file under <datadir>/base.
inline int64_t LargestRelationFileBytes(const std::string& datadir) {
  int64_t best = 0;
  DIR* d = opendir((datadir + "/base").c_str());
  REQUIRE(d != nullptr);
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) continue;
    struct stat st {};
    if (stat((datadir + "/base/" + n).c_str(), &st) == 0 && st.st_size > best) best = st.st_size;
  }
  closedir(d);
  return best;
}

}  // namespace hearth::testing
