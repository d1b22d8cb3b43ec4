// replication/backup_files.h
//
// What a base backup copies of the data directory: every directory and
// regular file, in a stable (sorted) order, except what PostgreSQL also
// leaves out or what would be wrong in a copy: postmaster.pid and
// postmaster.opts, a previous backup_label, temporary files (pgsql_tmp*,
// *.tmp), the contents of pg_wal (the backup sends WAL separately, or the
// client streams it), of log (the server log) and of pg_replslot (a copy
// starts without the primary's slots), sockets and other special
// files. global/pg_control is listed last, as PostgreSQL sends it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hearth::replication {

struct BackupEntry {
  std::string path;  // relative to the data directory
  bool is_dir = false;
  uint32_t mode = 0;
  uint64_t size = 0;  // at listing time; the sender re-reads it
  int64_t mtime = 0;
};

std::vector<BackupEntry> ListBackupFiles(const std::string& datadir);

}  // namespace hearth::replication
