// replication/backup_manifest.cpp
//
// Principal entry points: BackupManifest::AddFile, BackupManifest::Finish.
#include "replication/backup_manifest.h"

#include <cstdio>
#include <ctime>

#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_format.h"
#include "client/sha256.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::replication {

namespace {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Hex(const unsigned char* p, size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; i++) {
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return out;
}

}  // namespace

void BackupManifest::AddFile(const std::string& path, uint64_t size, int64_t mtime, uint32_t crc32c) {
  char when[64];
  const time_t t = static_cast<time_t>(mtime);
  struct tm tm_utc;
  gmtime_r(&t, &tm_utc);
  std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S GMT", &tm_utc);
  if (!first_) text_ += ",\n";
  first_ = false;
  text_ += "{ \"Path\": " + JsonString(path) + ", \"Size\": " + std::to_string(size) + ", \"Last-Modified\": \"" +
           when + "\"";
  if (with_checksums_) {
    // PostgreSQL prints the CRC's bytes in memory (little-endian) order.
    const unsigned char bytes[4] = {static_cast<unsigned char>(crc32c), static_cast<unsigned char>(crc32c >> 8),
                                    static_cast<unsigned char>(crc32c >> 16),
                                    static_cast<unsigned char>(crc32c >> 24)};
    text_ += ", \"Checksum-Algorithm\": \"CRC32C\", \"Checksum\": \"" + Hex(bytes, 4) + "\"";
  }
  text_ += " }";
}

std::string BackupManifest::Finish(uint64_t start_lsn, uint64_t end_lsn) {
  std::string out = text_;
  out += "\n],\n\"WAL-Ranges\": [\n{ \"Timeline\": " + std::to_string(access::XLogCurrentTimeline()) +
         ", \"Start-LSN\": \"" + access::FormatLsn(start_lsn) + "\", \"End-LSN\": \"" + access::FormatLsn(end_lsn) +
         "\" }\n],\n";
  const client::Sha256Digest digest = client::Sha256(out);
  out += "\"Manifest-Checksum\": \"" + Hex(digest.data(), digest.size()) + "\"}\n";
  return out;
}

}  // namespace hearth::replication
