// tests/integration/crash_util.h
//
// Helpers for crash and load tests, beside raw_session.h's (statement
// success, kill -9 of a whole server and a restart): one integer from a
// query through psql, and the size of the largest relation file (a loaded
// table's heap, without catalog queries).
#pragma once

#include <catch2/catch.hpp>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>

#include <cstdint>
#include <string>

#include "raw_session.h"
#include "test_server.h"

namespace hearth::testing {

// The single integer `sql` returns (through psql); fails the test if none.
inline int64_t PsqlInt(const TestServer& server, const std::string& sql) {
  const std::string v = server.PsqlValue(sql);
  INFO(sql << " -> " << v);
  REQUIRE(!v.empty());
  return std::stoll(v);
}

// Size in bytes of the largest plain data file of the default database
// (<datadir>/base/5).
inline int64_t LargestRelationFileBytes(const std::string& datadir) {
  int64_t best = 0;
  DIR* d = opendir((datadir + "/base/5").c_str());
  REQUIRE(d != nullptr);
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) continue;
    struct stat st {};
    if (stat((datadir + "/base/5/" + n).c_str(), &st) == 0 && st.st_size > best) best = st.st_size;
  }
  closedir(d);
  return best;
}

}  // namespace hearth::testing
