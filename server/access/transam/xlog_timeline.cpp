// access/transam/xlog_timeline.cpp
//
// Principal entry points: XLogLoadTimelines, XLogTimelineOfSegment,
// XLogStartNewTimeline, ReadTimelineHistoryFile.
#include "access/transam/xlog_timeline.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_internal.h"

namespace hearth::access {

namespace xi = xlog_internal;

namespace {

// "0000000N.history" → N; 0 for any other name.
uint32_t HistoryFileTimeline(const std::string& name) {
  if (name.size() != 16 || name.compare(8, 8, ".history") != 0) return 0;
  uint32_t tli = 0;
  for (size_t i = 0; i < 8; i++) {
    const char c = name[i];
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) return 0;
    tli = tli << 4 | static_cast<uint32_t>(c <= '9' ? c - '0' : c - 'A' + 10);
  }
  return tli;
}

// The history that file `text` of timeline `tli` records: every line
// "parent <TAB> switch point ..." ends the parent timeline there; blank
// lines and '#' comments are skipped. Malformed lines are an error (a
// history that cannot be read must not be guessed).
std::vector<TimelineHistoryEntry> ParseHistory(const std::string& text, uint32_t tli) {
  std::vector<TimelineHistoryEntry> out;
  std::istringstream in(text);
  std::string line;
  XLogRecPtr begin = 0;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    std::istringstream fields(line.substr(start));
    uint32_t parent = 0;
    std::string lsn_text;
    XLogRecPtr switch_point = 0;
    if (!(fields >> parent >> lsn_text) || !ParseLsn(lsn_text, &switch_point) || parent == 0 || parent >= tli) {
      throw std::runtime_error("invalid data in history file of timeline " + std::to_string(tli) + ": " + line);
    }
    out.push_back({parent, begin});
    begin = switch_point;
  }
  out.push_back({tli, begin});
  return out;
}

void Publish(const std::vector<TimelineHistoryEntry>& history) {
  xi::XLogShared* sh = xi::Shared();
  // Only the newest entries fit; older ones name segments long removed.
  const size_t skip = history.size() > static_cast<size_t>(xi::kMaxTimelines)
                          ? history.size() - static_cast<size_t>(xi::kMaxTimelines)
                          : 0;
  int n = 0;
  for (size_t i = skip; i < history.size(); i++) sh->timelines[n++] = {history[i].tli, history[i].begin};
  sh->timeline_count.store(n, std::memory_order_release);
}

// Writes `bytes` as `path` durably: a temporary file, fsync, rename (the
// caller syncs the directory).
void WriteFileDurably(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) xi::ThrowErrno("create " + tmp);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      xi::ThrowErrno("write " + tmp);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    xi::ThrowErrno("fsync " + tmp);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) xi::ThrowErrno("rename " + tmp);
}

// The new timeline's copy of the switch segment: the old file's bytes up to
// the switch point, zeroes after it (the old timeline's WAL past the switch
// must never be read as the new timeline's).
void CopySwitchSegment(const std::string& from, const std::string& to, uint64_t keep, uint64_t seg_size) {
  std::string data(seg_size, '\0');
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in >= 0) {
    size_t got = 0;
    while (got < keep) {
      const ssize_t n = ::pread(in, data.data() + got, keep - got, static_cast<off_t>(got));
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    ::close(in);
  }
  WriteFileDurably(to, data);
}

// Removes segment files of timeline `tli` after segment `after` (pre-made or
// recycled by the standby; they hold nothing of the new timeline).
void RemoveLaterSegments(const std::string& wal_dir, uint32_t tli, uint64_t after, uint64_t seg_size) {
  DIR* d = ::opendir(wal_dir.c_str());
  if (d == nullptr) xi::ThrowErrno("open " + wal_dir);
  std::vector<std::string> doomed;
  while (dirent* e = ::readdir(d)) {
    uint64_t segno;
    uint32_t file_tli;
    if (XLogParseSegmentFileName(e->d_name, seg_size, &segno, &file_tli) && file_tli == tli && segno > after) {
      doomed.push_back(wal_dir + "/" + e->d_name);
    }
  }
  ::closedir(d);
  for (const std::string& path : doomed) ::unlink(path.c_str());
}

}  // namespace

std::string TimelineHistoryFileName(uint32_t tli) {
  char name[32];
  std::snprintf(name, sizeof(name), "%08X.history", tli);
  return name;
}

std::optional<std::string> ReadTimelineHistoryFile(const std::string& wal_dir, uint32_t tli) {
  std::ifstream in(wal_dir + "/" + TimelineHistoryFileName(tli), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void XLogLoadTimelines(const std::string& wal_dir) {
  uint32_t newest = 1;
  if (DIR* d = ::opendir(wal_dir.c_str())) {
    while (dirent* e = ::readdir(d)) newest = std::max(newest, HistoryFileTimeline(e->d_name));
    ::closedir(d);
  }
  std::vector<TimelineHistoryEntry> history{{1, 0}};
  if (newest > 1) {
    const std::optional<std::string> text = ReadTimelineHistoryFile(wal_dir, newest);
    if (!text) throw std::runtime_error("could not read " + TimelineHistoryFileName(newest));
    history = ParseHistory(*text, newest);
  }
  Publish(history);
}

std::vector<TimelineHistoryEntry> XLogTimelineHistory() {
  std::vector<TimelineHistoryEntry> out;
  if (!XLogIsStarted()) return {{1, 0}};
  const xi::XLogShared* sh = xi::Shared();
  const int n = sh->timeline_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; i++) out.push_back({sh->timelines[i].tli, sh->timelines[i].begin});
  if (out.empty()) out.push_back({1, 0});
  return out;
}

uint32_t XLogCurrentTimeline() {
  if (!XLogIsStarted()) return 1;
  const xi::XLogShared* sh = xi::Shared();
  const int n = sh->timeline_count.load(std::memory_order_acquire);
  return n == 0 ? 1 : sh->timelines[n - 1].tli;
}

uint32_t XLogTimelineOfSegment(uint64_t segno, uint64_t segment_size) {
  if (!XLogIsStarted()) return 1;
  const xi::XLogShared* sh = xi::Shared();
  const XLogRecPtr seg_end = (segno + 1) * segment_size;
  for (int i = sh->timeline_count.load(std::memory_order_acquire) - 1; i >= 0; i--) {
    if (sh->timelines[i].begin < seg_end) return sh->timelines[i].tli;
  }
  return 1;
}

namespace {

// Moves this server onto timeline `new_tli` from `switch_point`: writes its
// history file `history` (the previous timelines, one line each), the new
// timeline's copy of the switch segment, retires the old timeline's files
// from there on, then publishes the history.
void SwitchTimeline(uint32_t old_tli, uint32_t new_tli, XLogRecPtr switch_point, const std::string& history) {
  xi::XLogShared* sh = xi::Shared();
  const std::string& wal_dir = xi::WalDir();
  const uint64_t seg_size = sh->segment_size;
  // The history file first: a crash after it leaves an unused timeline id.
  WriteFileDurably(wal_dir + "/" + TimelineHistoryFileName(new_tli), history);
  xi::FsyncDir(wal_dir);

  const uint64_t switch_seg = XLogSegNo(switch_point, seg_size);
  const std::string old_name = wal_dir + "/" + XLogSegmentFileName(switch_seg, seg_size, old_tli);
  CopySwitchSegment(old_name, wal_dir + "/" + XLogSegmentFileName(switch_seg, seg_size, new_tli),
                    switch_point % seg_size, seg_size);
  ::rename(old_name.c_str(), (old_name + ".partial").c_str());
  RemoveLaterSegments(wal_dir, old_tli, switch_seg, seg_size);
  xi::FsyncDir(wal_dir);

  Publish(ParseHistory(history, new_tli));
  // Only the switch segment exists on the new timeline so far.
  sh->segments_ready_upto.store((switch_seg + 1) * seg_size, std::memory_order_release);
}

}  // namespace

uint32_t XLogStartNewTimeline(XLogRecPtr switch_point) {
  const std::string& wal_dir = xi::WalDir();
  const uint32_t old_tli = XLogCurrentTimeline();
  // A timeline id never used before, even by a history file this server's
  // own history does not include (another standby's promotion).
  uint32_t new_tli = old_tli + 1;
  while (ReadTimelineHistoryFile(wal_dir, new_tli)) new_tli++;
  std::string text = ReadTimelineHistoryFile(wal_dir, old_tli).value_or("");
  if (!text.empty() && text.back() != '\n') text += '\n';
  text += std::to_string(old_tli) + "\t" + FormatLsn(switch_point) + "\tno recovery target specified\n";
  SwitchTimeline(old_tli, new_tli, switch_point, text);
  return new_tli;
}

void XLogFollowTimeline(uint32_t tli, XLogRecPtr switch_point, const std::string& history) {
  const std::vector<TimelineHistoryEntry> parsed = ParseHistory(history, tli);
  const uint32_t old_tli = XLogCurrentTimeline();
  // The history must continue ours: our timeline ends where the new one begins.
  if (parsed.size() < 2 || parsed[parsed.size() - 2].tli != old_tli || parsed.back().begin != switch_point) {
    throw std::runtime_error("the primary's timeline " + std::to_string(tli) + " did not branch off timeline " +
                             std::to_string(old_tli) + " at " + FormatLsn(switch_point));
  }
  SwitchTimeline(old_tli, tli, switch_point, history);
}

std::optional<XLogRecPtr> XLogTimelineEnd(uint32_t tli) {
  const std::vector<TimelineHistoryEntry> history = XLogTimelineHistory();
  for (size_t i = 0; i + 1 < history.size(); i++) {
    if (history[i].tli == tli) return history[i + 1].begin;
  }
  return std::nullopt;
}

}  // namespace hearth::access
