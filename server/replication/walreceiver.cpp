// replication/walreceiver.cpp
//
// Principal entry point: WalReceiverMain. WalWriter puts streamed bytes into
// the segment files; ReceiverSession runs one connection's stream.
#include "replication/walreceiver.h"

#include <fcntl.h>
#include <libpq-fe.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "access/transam/transam.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_segment.h"
#include "access/transam/xlog_standby.h"
#include "config/settings.h"
#include "replication/repl_result.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::replication {

namespace {

using access::XLogRecPtr;

// Longest wait for the primary's next message before looking at the stop
// and promotion questions (and the apply position) again.
constexpr int kPollMs = 100;
constexpr auto kFirstRetryPause = std::chrono::milliseconds(100);

// Writes received WAL at its LSN into pg_wal, segment by segment; Flush
// syncs what was written and publishes it to the startup process.
class WalWriter {
 public:
  ~WalWriter() { Close(); }

  void Write(XLogRecPtr lsn, const char* data, size_t len) {
    const uint64_t seg_size = access::XLogSegmentSize();
    while (len > 0) {
      const uint64_t segno = access::XLogSegNo(lsn, seg_size);
      if (fd_ < 0 || segno != segno_) Open(segno);
      const size_t n = static_cast<size_t>(std::min<uint64_t>(len, seg_size - lsn % seg_size));
      size_t done = 0;
      while (done < n) {
        const ssize_t w = ::pwrite(fd_, data + done, n - done, static_cast<off_t>(lsn % seg_size + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw std::runtime_error("could not write to WAL segment: " + std::string(std::strerror(errno)));
        done += static_cast<size_t>(w);
      }
      lsn += n;
      data += n;
      len -= n;
      written_ = lsn;
    }
  }

  // Makes everything written durable and tells the startup process.
  void Flush() {
    if (written_ <= flushed_) return;
    SyncCurrent();
    flushed_ = written_;
    access::SetStandbyReceivedUpTo(flushed_);
  }

  XLogRecPtr written() const { return written_; }
  XLogRecPtr flushed() const { return flushed_; }
  void StartAt(XLogRecPtr lsn) { written_ = flushed_ = lsn; }

 private:
  void Open(uint64_t segno) {
    SyncCurrent();  // a segment left behind is durable before the next begins
    Close();
    access::XLogEnsureSegmentFile(segno);
    const std::string path = access::XLogSegmentPath(segno);
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error("could not open WAL segment \"" + path + "\": " + std::strerror(errno));
    segno_ = segno;
  }
  void SyncCurrent() {
    if (fd_ >= 0 && ::fdatasync(fd_) != 0) {
      throw std::runtime_error("could not fsync WAL segment: " + std::string(std::strerror(errno)));
    }
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  int fd_ = -1;
  uint64_t segno_ = 0;
  XLogRecPtr written_ = 0;
  XLogRecPtr flushed_ = 0;
};

uint64_t ReadBe64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

void PutBe64(char* p, uint64_t v) {
  v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}

struct PgConnCloser {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConnPtr = std::unique_ptr<PGconn, PgConnCloser>;

struct PgResultCloser {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResultPtr = std::unique_ptr<PGresult, PgResultCloser>;

std::string ErrorText(PGconn* conn) {
  std::string s = PQerrorMessage(conn);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// One connection to the primary, from connect to the end of its stream.
class ReceiverSession {
 public:
  ReceiverSession(config::Settings& settings, const std::function<bool()>& should_stop,
                  const std::function<void()>& reload)
      : settings_(settings), should_stop_(should_stop), reload_(reload) {}

  // Returns when told to stop or promote; throws when the connection fails.
  void Run();
  bool streamed() const { return streamed_; }

 private:
  void Connect();
  void IdentifySystem();
  void StartReplication();
  bool FollowNextTimeline();
  bool Leaving() const { return should_stop_() || access::PromotionRequested() || !access::RecoveryInProgress(); }
  void HandleMessage(const char* msg, int len);
  void SendStatus(bool reply_requested);
  void MaybeSendStatus();

  config::Settings& settings_;
  const std::function<bool()>& should_stop_;
  const std::function<void()>& reload_;
  PgConnPtr conn_;
  WalWriter writer_;
  XLogRecPtr reported_apply_ = 0;
  XLogRecPtr reported_flush_ = 0;
  std::chrono::steady_clock::time_point last_status_{};
  bool streamed_ = false;
};

void ReceiverSession::Connect() {
  const std::string conninfo = settings_.GetString("primary_conninfo");
  // As PostgreSQL's walreceiver: the conninfo is expanded as the dbname
  // keyword, then replication=true and a fallback application name apply.
  const char* keys[] = {"dbname", "replication", "fallback_application_name", nullptr};
  const char* values[] = {conninfo.c_str(), "true", "walreceiver", nullptr};
  conn_.reset(PQconnectdbParams(keys, values, /*expand_dbname=*/1));
  if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK) {
    throw std::runtime_error("could not connect to the primary server: " + ErrorText(conn_.get()));
  }
}

void ReceiverSession::IdentifySystem() {
  PgResultPtr r(PQexec(conn_.get(), "IDENTIFY_SYSTEM"));
  if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1 || PQnfields(r.get()) < 3) {
    throw std::runtime_error("could not receive database system identifier and timeline ID from the primary "
                             "server: " + ErrorText(conn_.get()));
  }
  const std::string primary_id = PQgetvalue(r.get(), 0, 0);
  const auto cf = access::ReadControlFile(access::TransamDataDir());
  const std::string own_id = cf ? std::to_string(cf->system_identifier) : "";
  if (primary_id != own_id) {
    throw std::runtime_error("database system identifier differs between the primary and standby (the "
                             "primary's identifier is " + primary_id + ", the standby's identifier is " + own_id +
                             ")");
  }
  // A primary on an older timeline than this standby's cannot feed it.
  const uint32_t primary_tli = static_cast<uint32_t>(std::strtoul(PQgetvalue(r.get(), 0, 1), nullptr, 10));
  if (primary_tli < access::XLogCurrentTimeline()) {
    throw std::runtime_error("highest timeline " + std::to_string(primary_tli) +
                             " of the primary is behind recovery timeline " +
                             std::to_string(access::XLogCurrentTimeline()));
  }
}

void ReceiverSession::StartReplication() {
  // From the start of the page holding the end of the WAL already here: the
  // page's header and valid records are rewritten with the same bytes.
  const XLogRecPtr start = access::XLogPageStart(access::StandbyReceivedUpTo());
  std::string cmd = "START_REPLICATION";
  const std::string slot = settings_.GetString("primary_slot_name");
  if (!slot.empty()) cmd += " SLOT \"" + slot + "\"";
  cmd += " PHYSICAL " + access::FormatLsn(start) + " TIMELINE " + std::to_string(access::XLogCurrentTimeline());
  PgResultPtr r(PQexec(conn_.get(), cmd.c_str()));
  if (PQresultStatus(r.get()) != PGRES_COPY_BOTH) {
    throw std::runtime_error("could not start WAL streaming: " + ErrorText(conn_.get()));
  }
  writer_.StartAt(start);
  spdlog::info("started streaming WAL from primary at {} on timeline {}", access::FormatLsn(start),
               access::XLogCurrentTimeline());
}

void ReceiverSession::HandleMessage(const char* msg, int len) {
  if (len < 1) return;
  if (msg[0] == 'w' && len >= 25) {
    const XLogRecPtr data_start = ReadBe64(msg + 1);
    writer_.Write(data_start, msg + 25, static_cast<size_t>(len - 25));
  } else if (msg[0] == 'k' && len >= 18) {
    if (msg[17] != 0) {
      writer_.Flush();
      SendStatus(false);
    }
  }
}

// Standby status update: written, flushed and applied (replayed) positions.
void ReceiverSession::SendStatus(bool reply_requested) {
  char buf[1 + 8 * 4 + 1];
  buf[0] = 'r';
  const XLogRecPtr apply = access::StandbyReplayedUpTo();
  PutBe64(buf + 1, writer_.written());
  PutBe64(buf + 9, writer_.flushed());
  PutBe64(buf + 17, apply);
  PutBe64(buf + 25, static_cast<uint64_t>(PgEpochMicrosNow()));
  buf[33] = reply_requested ? 1 : 0;
  if (PQputCopyData(conn_.get(), buf, sizeof(buf)) != 1 || PQflush(conn_.get()) != 0) {
    throw std::runtime_error("could not send data to WAL stream: " + ErrorText(conn_.get()));
  }
  reported_apply_ = apply;
  reported_flush_ = writer_.flushed();
  last_status_ = std::chrono::steady_clock::now();
}

// After each batch: report when a position moved (so the primary's
// pg_stat_replication follows replay), else every wal_receiver_status_interval.
void ReceiverSession::MaybeSendStatus() {
  const auto interval = std::chrono::seconds(settings_.GetInt("wal_receiver_status_interval"));
  const bool moved = writer_.flushed() != reported_flush_ || access::StandbyReplayedUpTo() != reported_apply_;
  if (moved || (interval.count() > 0 && std::chrono::steady_clock::now() - last_status_ >= interval)) {
    SendStatus(false);
  }
}

void ReceiverSession::Run() {
  Connect();
  IdentifySystem();
  StartReplication();
  streamed_ = true;
  access::SetWalReceiverStreaming(true);
  struct StreamingFlag {
    ~StreamingFlag() { access::SetWalReceiverStreaming(false); }
  } flag;
  SendStatus(false);
  while (!Leaving()) {
    char* buf = nullptr;
    const int n = PQgetCopyData(conn_.get(), &buf, /*async=*/1);
    if (n > 0) {
      std::unique_ptr<char, decltype(&PQfreemem)> owned(buf, PQfreemem);
      HandleMessage(buf, n);
      continue;
    }
    if (n == -1) {
      if (FollowNextTimeline()) return;  // reconnects on the new timeline
      throw std::runtime_error("replication terminated by primary server");
    }
    if (n == -2) throw std::runtime_error("could not receive data from WAL stream: " + ErrorText(conn_.get()));
    // Nothing buffered: make the batch durable, report, then wait.
    writer_.Flush();
    MaybeSendStatus();
    pollfd p{PQsocket(conn_.get()), POLLIN, 0};
    const int rc = ::poll(&p, 1, kPollMs);
    if (rc < 0 && errno != EINTR) throw std::runtime_error("poll failed: " + std::string(std::strerror(errno)));
    if (rc > 0 && PQconsumeInput(conn_.get()) == 0) {
      throw std::runtime_error("could not receive data from WAL stream: " + ErrorText(conn_.get()));
    }
    reload_();
  }
  writer_.Flush();
}

// The primary ended the stream. At the end of an earlier timeline of its
// history (it was promoted) it names the next timeline and where it begins:
// fetch that timeline's history and switch to it, as PostgreSQL's
// walreceiver does. Returns false for any other end.
bool ReceiverSession::FollowNextTimeline() {
  PgResultPtr copy_in(PQgetResult(conn_.get()));
  if (PQresultStatus(copy_in.get()) != PGRES_COPY_IN) return false;
  if (PQputCopyEnd(conn_.get(), nullptr) != 1 || PQflush(conn_.get()) != 0) {
    throw std::runtime_error("could not send end-of-streaming message to primary: " + ErrorText(conn_.get()));
  }
  uint32_t next = 0;
  XLogRecPtr start = 0;
  while (PgResultPtr r{PQgetResult(conn_.get())}) {
    const ExecStatusType st = PQresultStatus(r.get());
    if (st == PGRES_TUPLES_OK && PQntuples(r.get()) == 1 && PQnfields(r.get()) == 2) {
      next = static_cast<uint32_t>(std::strtoul(PQgetvalue(r.get(), 0, 0), nullptr, 10));
      if (!access::ParseLsn(PQgetvalue(r.get(), 0, 1), &start)) next = 0;
    } else if (st != PGRES_COMMAND_OK) {
      throw std::runtime_error("error reading result of streaming command: " + ErrorText(conn_.get()));
    }
  }
  if (next == 0) return false;
  writer_.Flush();
  if (writer_.flushed() < start) {
    throw std::runtime_error("the primary's timeline " + std::to_string(next) + " begins at " +
                             access::FormatLsn(start) + ", after the WAL received");
  }
  PgResultPtr h(PQexec(conn_.get(), ("TIMELINE_HISTORY " + std::to_string(next)).c_str()));
  if (PQresultStatus(h.get()) != PGRES_TUPLES_OK || PQntuples(h.get()) != 1 || PQnfields(h.get()) != 2) {
    throw std::runtime_error("could not receive timeline history file from the primary server: " +
                             ErrorText(conn_.get()));
  }
  access::XLogFollowTimeline(next, start, std::string(PQgetvalue(h.get(), 0, 1), PQgetlength(h.get(), 0, 1)));
  spdlog::info("new target timeline is {} (from {})", next, access::FormatLsn(start));
  return true;
}

// Sleeps `pause` in short steps, returning early when asked to stop.
void PauseUnlessStopped(std::chrono::milliseconds pause, const std::function<bool()>& should_stop) {
  const auto until = std::chrono::steady_clock::now() + pause;
  while (!should_stop() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(50),
                                                                              until - std::chrono::steady_clock::now()));
  }
}

}  // namespace

void WalReceiverMain(config::Settings& settings, const std::function<bool()>& should_stop,
                     const std::function<void()>& reload) {
  auto pause = std::chrono::milliseconds(kFirstRetryPause);
  bool warned_no_conninfo = false;
  // After a promotion it idles until the postmaster stops it.
  while (!should_stop()) {
    reload();
    if (access::PromotionRequested() || !access::RecoveryInProgress()) {
      PauseUnlessStopped(std::chrono::milliseconds(100), should_stop);
      continue;
    }
    if (settings.GetString("primary_conninfo").empty()) {
      if (!warned_no_conninfo) spdlog::warn("primary_conninfo is empty: the standby waits for WAL in pg_wal");
      warned_no_conninfo = true;
      PauseUnlessStopped(std::chrono::milliseconds(1000), should_stop);
      continue;
    }
    warned_no_conninfo = false;
    ReceiverSession session(settings, should_stop, reload);
    try {
      session.Run();
      pause = kFirstRetryPause;
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
      if (session.streamed()) pause = kFirstRetryPause;  // it worked for a while: retry soon
      const auto max_pause = std::chrono::milliseconds(settings.GetInt("wal_retrieve_retry_interval"));
      PauseUnlessStopped(pause, should_stop);
      pause = std::min(pause * 2, std::max(max_pause, kFirstRetryPause));
    }
  }
}

}  // namespace hearth::replication
