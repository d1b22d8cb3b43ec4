// replication/basebackup.cpp
//
// Principal entry point: SendBaseBackup. ParseOptions reads the option list;
// ArchiveSender writes tar members into CopyData messages (with progress,
// the manifest's checksums and MAX_RATE throttling).
#include "replication/basebackup.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <optional>
#include <thread>

#include "access/transam/crc32c.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_keep.h"
#include "common/error/db_error.h"
#include "config/enums.h"
#include "replication/backup_files.h"
#include "replication/backup_manifest.h"
#include "replication/repl_result.h"
#include "replication/tar_format.h"
#include "storage/ipc/interrupts.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::replication {

namespace {

constexpr size_t kChunk = 32 * 1024;

struct BackupOptions {
  std::string label = "base backup";
  bool progress = false;
  bool include_wal = false;
  bool manifest = false;
  bool manifest_checksums = true;  // CRC32C (the default) or NONE
  int64_t max_rate_kb = 0;         // 0: unthrottled
};

[[noreturn]] void BadValue(const std::string& what) { throw DbError(sqlstate::kInvalidParameterValue, what); }

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

BackupOptions ParseOptions(const std::vector<ReplOption>& options) {
  BackupOptions o;
  std::vector<std::string> seen;
  for (const ReplOption& opt : options) {
    const std::string& name = opt.first;
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw DbError(sqlstate::kSyntaxError, "duplicate option \"" + name + "\"");
    }
    seen.push_back(name);
    const std::string value = opt.second.value_or("");
    if (name == "label") {
      o.label = value;
    } else if (name == "progress") {
      o.progress = OptionBool(opt);
    } else if (name == "checkpoint") {
      if (Lower(value) != "fast" && Lower(value) != "spread") BadValue("unrecognized checkpoint type: \"" + value + "\"");
    } else if (name == "fast") {  // before PostgreSQL 15: CHECKPOINT 'fast'
    } else if (name == "wal") {
      o.include_wal = OptionBool(opt);
    } else if (name == "wait" || name == "nowait" || name == "tablespace_map" || name == "verify_checksums" ||
               name == "noverify_checksums") {
      OptionBool(opt);  // no WAL archiving to wait for, no tablespaces, no page checksums
    } else if (name == "max_rate") {
      const int64_t v = std::strtoll(value.c_str(), nullptr, 10);
      if (v < 32 || v > 1048576) {
        BadValue(std::to_string(v) + " is outside the valid range for parameter \"max_rate\" (32 .. 1048576)");
      }
      o.max_rate_kb = v;
    } else if (name == "manifest") {
      const std::string v = Lower(value);
      if (v == "yes" || v == "force-encode" || (opt.second && OptionBool(opt))) {
        o.manifest = true;
      } else if (v != "no" && v != "false" && v != "off" && v != "0") {
        BadValue("unrecognized manifest option: \"" + value + "\"");
      }
    } else if (name == "manifest_checksums") {
      const std::string v = Lower(value);
      if (v == "none") {
        o.manifest_checksums = false;
      } else if (v != "crc32c") {
        if (v == "sha224" || v == "sha256" || v == "sha384" || v == "sha512") {
          throw DbError(sqlstate::kFeatureNotSupported, "manifest checksum algorithm \"" + value + "\" is not supported");
        }
        BadValue("unrecognized manifest checksum algorithm: \"" + value + "\"");
      }
    } else if (name == "target") {
      if (Lower(value) != "client") {
        throw DbError(sqlstate::kFeatureNotSupported, "backup target \"" + value + "\" is not supported");
      }
    } else if (name == "compression" || name == "compression_detail") {
      throw DbError(sqlstate::kFeatureNotSupported, "server-side compression is not supported");
    } else {
      throw DbError(sqlstate::kSyntaxError, "unrecognized base backup option \"" + name + "\"");
    }
  }
  return o;
}

// Writes tar members as CopyData 'd' messages; counts bytes for progress
// and throttling.
class ArchiveSender {
 public:
  ArchiveSender(tcop::Session& session, const BackupOptions& opts) : session_(session), opts_(opts) {
    start_ = std::chrono::steady_clock::now();
  }

  uint64_t sent() const { return sent_; }

  void Bytes(const void* data, size_t len) {
    SendCopyData(session_.sock, 'd', data, len);
    sent_ += len;
    Throttle();
  }

  void Directory(const std::string& path, uint32_t mode, int64_t mtime) {
    std::array<char, kTarBlock> h;
    if (!TarHeader(path + "/", TarType::kDirectory, mode, 0, mtime, &h)) return;
    Bytes(h.data(), h.size());
  }

  // A member from memory; returns the CRC-32C of `data`.
  uint32_t Member(const std::string& path, const std::string& data, int64_t mtime) {
    std::array<char, kTarBlock> h;
    TarHeader(path, TarType::kFile, 0600, data.size(), mtime, &h);
    Bytes(h.data(), h.size());
    if (!data.empty()) Bytes(data.data(), data.size());
    Pad(data.size());
    return access::Crc32c(data.data(), data.size());
  }

  // A member copied from `full_path`; `size` bytes exactly (a file that
  // shrank meanwhile is padded with zeros, one that grew is cut: WAL replay
  // rewrites whatever changed). Returns false when the file is gone.
  bool FileMember(const std::string& path, const std::string& full_path, uint32_t mode, int64_t mtime,
                  uint64_t* size_out, uint32_t* crc_out) {
    const int fd = ::open(full_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return false;
      throw DbError(sqlstate::kIoError, "could not open file \"" + full_path + "\": " + std::strerror(errno));
    }
    struct FdCloser {
      int fd;
      ~FdCloser() { ::close(fd); }
    } closer{fd};
    struct stat st;
    if (::fstat(fd, &st) != 0) throw DbError(sqlstate::kIoError, "could not stat file \"" + full_path + "\"");
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    std::array<char, kTarBlock> h;
    if (!TarHeader(path, TarType::kFile, mode, size, mtime, &h)) return false;
    Bytes(h.data(), h.size());
    uint32_t crc = access::kCrc32cInit;
    uint64_t done = 0;
    while (done < size) {
      CheckForTermination();
      const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, size - done));
      ssize_t n = ::pread(fd, buf_, want, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw DbError(sqlstate::kIoError, "could not read file \"" + full_path + "\": " + std::strerror(errno));
      if (n == 0) {  // shrank
        std::memset(buf_, 0, want);
        n = static_cast<ssize_t>(want);
      }
      crc = access::Crc32cUpdate(crc, buf_, static_cast<size_t>(n));
      Bytes(buf_, static_cast<size_t>(n));
      done += static_cast<uint64_t>(n);
    }
    Pad(size);
    *size_out = size;
    *crc_out = access::Crc32cFinish(crc);
    return true;
  }

  void Progress() {
    const uint64_t be = __builtin_bswap64(sent_);
    SendCopyData(session_.sock, 'p', &be, sizeof(be));
  }

 private:
  void Pad(uint64_t size) {
    static const char zeros[kTarBlock] = {};
    if (const size_t pad = TarPadding(size); pad > 0) Bytes(zeros, pad);
  }

  // MAX_RATE: sleeps while ahead of the allowed rate.
  void Throttle() {
    if (opts_.max_rate_kb == 0) return;
    const double allowed_s = static_cast<double>(sent_) / (static_cast<double>(opts_.max_rate_kb) * 1024.0);
    const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (allowed_s > elapsed_s) {
      session_.sock.Flush();
      std::this_thread::sleep_for(std::chrono::duration<double>(allowed_s - elapsed_s));
    }
  }

  tcop::Session& session_;
  const BackupOptions& opts_;
  std::chrono::steady_clock::time_point start_;
  uint64_t sent_ = 0;
  char buf_[kChunk];
};

void SendPositionResult(tcop::Session& session, access::XLogRecPtr lsn) {
  SendRowDescription(session.sock, {{"recptr", kTextOid, -1, 0}, {"tli", kInt8Oid, -1, 0}});
  SendDataRow(session.sock, {access::FormatLsn(lsn), std::to_string(access::XLogCurrentTimeline())});
  SendCommandComplete(session.sock, "SELECT");
}

void SendTablespaceList(tcop::Session& session, const BackupOptions& opts, const std::vector<BackupEntry>& files) {
  uint64_t bytes = 0;
  for (const BackupEntry& e : files) bytes += e.size;
  SendRowDescription(session.sock, {{"spcoid", kOidOid, 4, 0}, {"spclocation", kTextOid, -1, 0}, {"size", kInt8Oid, 8, 0}});
  SendDataRow(session.sock, {std::nullopt, std::nullopt,
                             opts.progress ? std::optional<std::string>(std::to_string(bytes / 1024)) : std::nullopt});
  SendCommandComplete(session.sock, "SELECT");
}

// The data directory's files; each is added to the manifest.
void SendDataFiles(tcop::Session& session, ArchiveSender& ar, const std::vector<BackupEntry>& files,
                   BackupManifest* manifest) {
  uint64_t last_progress = 0;
  for (const BackupEntry& e : files) {
    if (e.is_dir) {
      ar.Directory(e.path, e.mode, e.mtime);
      continue;
    }
    uint64_t size = 0;
    uint32_t crc = 0;
    if (!ar.FileMember(e.path, session.datadir + "/" + e.path, e.mode, e.mtime, &size, &crc)) continue;
    if (manifest != nullptr) manifest->AddFile(e.path, size, e.mtime, crc);
    if (ar.sent() - last_progress >= 1024 * 1024) {
      ar.Progress();
      last_progress = ar.sent();
    }
  }
}

// WAL option: the segments holding [start, end) as pg_wal/ members.
void SendWalSegments(ArchiveSender& ar, access::XLogRecPtr start, access::XLogRecPtr end) {
  const uint64_t seg_size = access::XLogSegmentSize();
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  for (uint64_t segno = access::XLogSegNo(start, seg_size); segno <= access::XLogSegNo(end - 1, seg_size); segno++) {
    const std::string name =
        access::XLogSegmentFileName(segno, seg_size, access::XLogTimelineOfSegment(segno, seg_size));
    uint64_t size = 0;
    uint32_t crc = 0;
    if (!ar.FileMember("pg_wal/" + name, access::XLogSegmentPath(segno), 0600, now, &size, &crc)) {
      throw DbError(sqlstate::kUndefinedFile, "requested WAL segment " + name + " has already been removed");
    }
  }
}

// The end of the backup: a record inserted and flushed after every file was
// read, so replay up to it covers every change the copy may have caught.
access::XLogRecPtr MarkBackupEnd() {
  const char marker[] = "backup end";
  const access::XLogPart part{marker, sizeof(marker)};
  const access::XLogRecPtr end = access::XLogInsert(access::kRmgrXLog, access::kXLogInfoNoop, 0, {&part, 1});
  access::XLogFlush(end);
  return end;
}

void SendManifest(tcop::Session& session, const std::string& text) {
  SendCopyData(session.sock, 'm', nullptr, 0);
  for (size_t off = 0; off < text.size(); off += kChunk) {
    SendCopyData(session.sock, 'd', text.data() + off, std::min(kChunk, text.size() - off));
  }
}

}  // namespace

void SendBaseBackup(tcop::Session& session, const std::vector<ReplOption>& options) {
  const BackupOptions opts = ParseOptions(options);
  if (session.settings.GetEnum("wal_level") == static_cast<int>(config::WalLevel::kMinimal)) {
    throw DbError(sqlstate::kObjectNotInPrerequisiteState, "WAL level not sufficient for making an online backup")
        .WithHint("wal_level must be set to \"replica\" or \"logical\" at server start.");
  }
  // Hold WAL from the last redo point before the checkpoint moves it.
  access::WalHold hold(access::GetRedoRecPtr());
  const access::CheckpointResult ck = access::RequestCheckpoint(session.settings.GetBool("log_checkpoints"));
  hold.Move(ck.redo_lsn);
  const int64_t start_time = static_cast<int64_t>(std::time(nullptr));
  SendPositionResult(session, ck.redo_lsn);

  const std::vector<BackupEntry> files = ListBackupFiles(session.datadir);
  SendTablespaceList(session, opts, files);
  SendCopyStart(session.sock, 'H');
  const char archive[] = "base.tar\0";  // name, then the tablespace path (none)
  SendCopyData(session.sock, 'n', archive, sizeof(archive));

  ArchiveSender ar(session, opts);
  std::optional<BackupManifest> manifest;
  if (opts.manifest) manifest.emplace(opts.manifest_checksums);
  const access::BackupLabel label{ck.redo_lsn, ck.checkpoint_lsn, opts.label};
  const std::string label_text = access::FormatBackupLabel(label, access::XLogSegmentSize(), start_time);
  const uint32_t label_crc = ar.Member(access::kBackupLabelFile, label_text, start_time);
  if (manifest) manifest->AddFile(access::kBackupLabelFile, label_text.size(), start_time, label_crc);
  // pg_basebackup syncs pg_tblspc in the copy; there are no tablespaces.
  ar.Directory("pg_tblspc", 0700, start_time);
  SendDataFiles(session, ar, files, manifest ? &*manifest : nullptr);

  const access::XLogRecPtr end = MarkBackupEnd();
  if (opts.include_wal) SendWalSegments(ar, ck.redo_lsn, end);
  static const char trailer[2 * kTarBlock] = {};
  ar.Bytes(trailer, sizeof(trailer));
  ar.Progress();
  if (manifest) SendManifest(session, manifest->Finish(ck.redo_lsn, end));
  SendCopyDone(session.sock);
  SendPositionResult(session, end);
  SendCommandComplete(session.sock, "BASE_BACKUP");
}

}  // namespace hearth::replication
