// replication/backup_manifest.h
//
// PostgreSQL's backup manifest (version 1 JSON, what pg_verifybackup reads):
// one entry per file sent (path, size, last modification, CRC-32C of the
// contents unless checksums are off), the WAL range the backup needs, and a
// SHA-256 of everything before the "Manifest-Checksum" line.
#pragma once

#include <cstdint>
#include <string>

namespace hearth::replication {

class BackupManifest {
 public:
  explicit BackupManifest(bool with_checksums) : with_checksums_(with_checksums) {}
  // `crc32c` is the finished CRC-32C of the file's bytes.
  void AddFile(const std::string& path, uint64_t size, int64_t mtime, uint32_t crc32c);
  // The complete manifest text.
  std::string Finish(uint64_t start_lsn, uint64_t end_lsn);

 private:
  bool with_checksums_;
  bool first_ = true;
  std::string text_ = "{ \"PostgreSQL-Backup-Manifest-Version\": 1,\n\"Files\": [\n";
};

}  // namespace hearth::replication
