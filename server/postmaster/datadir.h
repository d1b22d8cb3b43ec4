// postmaster/datadir.h
//
// The data directory: creating it (`hearthd init`) and checking that a
// directory is one of ours before the server starts on it.
//
// Layout:
//   HEARTH_VERSION    layout version, one line ("1")
//   hearth.conf       settings (PostgreSQL syntax), written from the registry
//   postmaster.pid    present while a server runs (pidfile.h)
//   base/             relation files, one per relation fork, named by relfilenode
//   global/           cluster-wide catalog (databases, roles)
//   wal/              write-ahead log segments
//   log/              server log when log_file is set to a relative path
#pragma once

#include <string>

namespace hearth::postmaster {

inline constexpr char kLayoutVersion[] = "3";  // 2: pg_authid, pg_auth_members, pg_hba.conf; WAL in pg_wal with PostgreSQL segment names; 3: databases (base/<db>/, shared catalogs in global/)

struct InitOptions {
  std::string datadir;
  std::string username = "hearth";
  std::string dbname = "hearth";
};

// Creates a new data directory. Fails (false, *error set) if `datadir` exists
// and is not empty, or anything cannot be written.
bool InitDataDirectory(const InitOptions& opts, std::string* error);

// True when `datadir` holds a data directory of this layout version.
bool CheckDataDirectory(const std::string& datadir, std::string* error);

}  // namespace hearth::postmaster
