// access/transam/xlog_backup_label.cpp
//
// Principal entry points: FormatBackupLabel, ReadBackupLabel,
// RecoveryStartLsn, RetireBackupLabel.
#include "access/transam/xlog_backup_label.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "access/transam/xlog_control.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::access {

std::string FormatLsn(XLogRecPtr lsn) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%X/%X", static_cast<unsigned>(lsn >> 32), static_cast<unsigned>(lsn));
  return buf;
}

bool ParseLsn(const std::string& text, XLogRecPtr* lsn) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 >= text.size() || slash > 8 ||
      text.size() - slash - 1 > 8) {
    return false;
  }
  for (size_t i = 0; i < text.size(); i++) {
    if (i != slash && !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  const uint64_t hi = std::strtoull(text.substr(0, slash).c_str(), nullptr, 16);
  const uint64_t lo = std::strtoull(text.substr(slash + 1).c_str(), nullptr, 16);
  *lsn = hi << 32 | lo;
  return true;
}

std::string FormatBackupLabel(const BackupLabel& label, uint64_t segment_size, int64_t start_time_unix) {
  char when[64];
  const time_t t = static_cast<time_t>(start_time_unix);
  struct tm tm_utc;
  gmtime_r(&t, &tm_utc);
  std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm_utc);
  std::ostringstream out;
  out << "START WAL LOCATION: " << FormatLsn(label.start_lsn) << " (file "
      << XLogSegmentFileName(XLogSegNo(label.start_lsn, segment_size), segment_size,
                             XLogTimelineOfSegment(XLogSegNo(label.start_lsn, segment_size), segment_size))
      << ")\n"
      << "CHECKPOINT LOCATION: " << FormatLsn(label.checkpoint_lsn) << "\n"
      << "BACKUP METHOD: streamed\n"
      << "BACKUP FROM: primary\n"
      << "START TIME: " << when << "\n"
      << "LABEL: " << label.label << "\n"
      << "START TIMELINE: " << XLogCurrentTimeline() << "\n";
  return out.str();
}

std::optional<BackupLabel> ReadBackupLabel(const std::string& datadir) {
  const std::string path = datadir + "/" + kBackupLabelFile;
  if (::access(path.c_str(), F_OK) != 0 && errno == ENOENT) return std::nullopt;
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("could not read file \"" + path + "\": " + std::strerror(errno));
  }
  BackupLabel label;
  bool have_start = false;
  bool have_checkpoint = false;
  std::string line;
  auto value_after = [&line](const char* key, std::string* value) {
    const size_t n = std::strlen(key);
    if (line.compare(0, n, key) != 0) return false;
    *value = line.substr(n);
    return true;
  };
  while (std::getline(in, line)) {
    std::string v;
    if (value_after("START WAL LOCATION: ", &v)) {
      have_start = ParseLsn(v.substr(0, v.find(' ')), &label.start_lsn);
    } else if (value_after("CHECKPOINT LOCATION: ", &v)) {
      have_checkpoint = ParseLsn(v, &label.checkpoint_lsn);
    } else if (value_after("LABEL: ", &v)) {
      label.label = v;
    }
  }
  if (!have_start || !have_checkpoint || label.start_lsn == 0 || label.checkpoint_lsn < label.start_lsn) {
    throw std::runtime_error("invalid data in file \"" + path + "\"");
  }
  return label;
}

XLogRecPtr RecoveryStartLsn(const std::string& datadir) {
  if (auto label = ReadBackupLabel(datadir)) return label->start_lsn;
  if (auto cf = ReadControlFile(datadir); cf && cf->redo_lsn != 0) return cf->redo_lsn;
  return kXLogPageHeaderSize;
}

void CheckBackupWalPresent(const BackupLabel& label, XLogRecPtr last_record) {
  if (last_record >= label.checkpoint_lsn) return;
  throw std::runtime_error("could not locate required checkpoint record at " + FormatLsn(label.checkpoint_lsn) +
                           ": the WAL from " + FormatLsn(label.start_lsn) +
                           " is not in pg_wal (take the backup with -X fetch or -X stream, or copy the segments "
                           "into pg_wal)");
}

void RetireBackupLabel(const std::string& datadir) {
  const std::string path = datadir + "/" + kBackupLabelFile;
  const std::string old = path + ".old";
  if (::rename(path.c_str(), old.c_str()) != 0) {
    if (errno == ENOENT) return;
    throw std::runtime_error("could not rename file \"" + path + "\": " + std::strerror(errno));
  }
  int dfd = ::open(datadir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace hearth::access
