// PostgreSQL 15's client programs for the replication tests (pg_basebackup,
// pg_receivewal, pg_verifybackup), and small string helpers they share.
#pragma once

#include <cstdlib>
#include <string>

namespace hearth::testing {

// <HEARTH_PG_BINDIR or /usr/lib/postgresql/15/bin>/<tool>.
inline std::string PgBin(const std::string& tool) {
  const char* dir = getenv("HEARTH_PG_BINDIR");
  return std::string(dir != nullptr ? dir : "/usr/lib/postgresql/15/bin") + "/" + tool;
}

inline bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace hearth::testing
