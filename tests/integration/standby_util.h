// tests/integration/standby_util.h
//
// Helpers for tests that run a primary and standbys: a standby copy made by
// PostgreSQL 15's `pg_basebackup -R`, and waiting until a query answers a
// given value (a standby replays asynchronously).
#pragma once

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pg_tools.h"
#include "test_server.h"

namespace hearth::testing {

inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The value `sql` returns on `server`, or "" when the query fails (e.g. the
// standby does not accept connections yet).
inline std::string TryValue(const TestServer& server, const std::string& sql) {
  CommandResult r = server.Psql({"-A", "-t", "-q", "-c", sql});
  if (r.exit_code != 0) return "";
  std::string v = r.out;
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  return v;
}

// Waits (up to 60 s) until `sql` answers `want` on `server`.
inline void WaitForValue(const TestServer& server, const std::string& sql, const std::string& want) {
  std::string last;
  const bool ok = WaitFor(
      [&] {
        last = TryValue(server, sql);
        return last == want;
      },
      60000);
  INFO(sql << " answered \"" << last << "\", expected \"" << want << "\"\nserver log:\n" << server.log());
  REQUIRE(ok);
}

// pg_basebackup -R of `primary` into a fresh <tmp>/data; returns its path.
inline std::string BackupForStandby(const TestServer& primary, const std::vector<std::string>& extra = {}) {
  char tmpl[] = "/tmp/hearth-standby-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string copy = std::string(tmpl) + "/data";
  std::vector<std::string> argv{PgBin("pg_basebackup"), "-h", "127.0.0.1", "-p", std::to_string(primary.port()),
                                "-U", "hearth", "-D", copy, "-X", "stream", "-c", "fast", "-R"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  CommandResult r = RunCommand(argv);
  INFO(r.out << r.err << "\nprimary log:\n" << primary.log());
  REQUIRE(r.exit_code == 0);
  REQUIRE(std::filesystem::exists(copy + "/standby.signal"));
  REQUIRE(Contains(ReadWholeFile(copy + "/postgresql.auto.conf"), "primary_conninfo"));
  return copy;
}

}  // namespace hearth::testing
