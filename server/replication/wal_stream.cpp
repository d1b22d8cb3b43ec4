// replication/wal_stream.cpp
//
// Principal entry point: StreamWal. WalFileReader reads flushed WAL from the
// segment files; the loop sends it and answers the client.
#include "replication/wal_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "access/transam/syncrep.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_keep.h"
#include "access/transam/walsnd_status.h"
#include "common/error/db_error.h"
#include "common/log/log.h"
#include "common/protocol/wire.h"
#include "replication/lag_tracker.h"
#include "replication/repl_result.h"
#include "storage/ipc/interrupts.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::replication {

namespace {

constexpr size_t kMaxSendBytes = 128 * 1024;  // per XLogData message, as PostgreSQL
// When caught up: the longest wait for new WAL before looking at the
// client's socket again (a flush ends the wait at once).
constexpr int kIdleWaitMs = 100;

// Reads WAL bytes by LSN from pg_wal, keeping the current segment open.
class WalFileReader {
 public:
  ~WalFileReader() { Close(); }
  // Reads `len` bytes at `lsn` (within one segment) into `buf`.
  void Read(access::XLogRecPtr lsn, char* buf, size_t len) {
    const uint64_t seg_size = access::XLogSegmentSize();
    const uint64_t segno = access::XLogSegNo(lsn, seg_size);
    if (fd_ < 0 || segno != segno_) {
      Close();
      fd_ = ::open(access::XLogSegmentPath(segno).c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) ThrowRemoved(segno);
      segno_ = segno;
    }
    size_t done = 0;
    while (done < len) {
      const ssize_t n = ::pread(fd_, buf + done, len - done, static_cast<off_t>(lsn % seg_size + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw DbError(sqlstate::kIoError, "could not read from WAL segment " +
                                              access::XLogSegmentFileName(
                                                  segno, seg_size, access::XLogTimelineOfSegment(segno, seg_size)) +
                                              ": " +
                                              (n == 0 ? std::string("unexpected end of file") : std::strerror(errno)));
      }
      done += static_cast<size_t>(n);
    }
  }

  [[noreturn]] static void ThrowRemoved(uint64_t segno) {
    throw DbError(sqlstate::kUndefinedFile, "requested WAL segment " +
                                                access::XLogSegmentFileName(
                                                    segno, access::XLogSegmentSize(),
                                                    access::XLogTimelineOfSegment(segno, access::XLogSegmentSize())) +
                                                " has already been removed");
  }

 private:
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd_ = -1;
  uint64_t segno_ = 0;
};

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Checks where a stream may start; returns where it must end: the switch
// point when it asks for an earlier timeline of this server's history
// (UINT64_MAX: the current timeline, no end).
access::XLogRecPtr CheckStartPoint(const ReplCommand& cmd) {
  if (cmd.logical) throw DbError(sqlstate::kFeatureNotSupported, "logical replication is not supported");
  const uint32_t current = access::XLogCurrentTimeline();
  access::XLogRecPtr end = UINT64_MAX;
  if (cmd.timeline != 0 && cmd.timeline != current) {
    const std::optional<access::XLogRecPtr> switch_point = access::XLogTimelineEnd(cmd.timeline);
    if (!switch_point) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    "requested timeline " + std::to_string(cmd.timeline) + " is not in this server's history");
    }
    // A standby that went past the switch on the old timeline has WAL this
    // server never had (PostgreSQL's message; no SQLSTATE of its own).
    if (cmd.lsn > *switch_point) {
      throw DbError(sqlstate::kInternalError, "requested starting point " + access::FormatLsn(cmd.lsn) +
                                                  " on timeline " + std::to_string(cmd.timeline) +
                                                  " is not in this server's history")
          .WithDetail("This server's history forked from timeline " + std::to_string(cmd.timeline) + " at " +
                      access::FormatLsn(*switch_point) + ".");
    }
    end = *switch_point;
  }
  const access::XLogRecPtr flushed = access::XLogFlushedUpTo();
  if (cmd.lsn > flushed) {
    throw DbError(sqlstate::kObjectNotInPrerequisiteState,
                  "requested starting point " + access::FormatLsn(cmd.lsn) +
                      " is ahead of the WAL flush position of this server " + access::FormatLsn(flushed));
  }
  const uint64_t segno = access::XLogSegNo(cmd.lsn, access::XLogSegmentSize());
  if (::access(access::XLogSegmentPath(segno).c_str(), R_OK) != 0) WalFileReader::ThrowRemoved(segno);
  return end;
}

// The end of a stream of a historic timeline: PostgreSQL's result set
// naming the next timeline and where it starts.
void SendNextTimeline(tcop::Session& session, const ReplCommand& cmd, access::XLogRecPtr switch_point) {
  uint32_t next = 0;
  const std::vector<access::TimelineHistoryEntry> history = access::XLogTimelineHistory();
  for (size_t i = 0; i + 1 < history.size(); i++) {
    if (history[i].tli == cmd.timeline) next = history[i + 1].tli;
  }
  SendRowDescription(session.sock, {{"next_tli", kInt8Oid, 8}, {"next_tli_startpos"}});
  SendDataRow(session.sock, {std::to_string(next), access::FormatLsn(switch_point)});
}

// The stream's state between messages.
struct StreamState {
  access::XLogRecPtr sent = 0;
  int64_t last_heard_ms = 0;  // last message from the client
  bool ping_sent = false;
  bool done = false;  // client sent CopyDone
  LagTracker lags;
  bool applied_all_last_time = false;  // the previous reply's replay position was `sent`
  access::XLogRecPtr applied = 0;      // replay position the standby last reported
  int64_t last_send_ms = 0;            // when WAL last went out
};

// A reply is due soon: the standby has not reported replaying what went out
// in the last second. Its replies are then read at once (not after the idle
// wait), so the lags measure the standby, not this loop.
bool ReplyExpected(const StreamState& st, int64_t now_ms) {
  return st.applied < st.sent && now_ms - st.last_send_ms < 1000;
}

void SendKeepalive(tcop::Session& session, bool reply_requested) {
  char payload[17];
  const uint64_t end = __builtin_bswap64(access::XLogFlushedUpTo());
  const uint64_t now = __builtin_bswap64(static_cast<uint64_t>(PgEpochMicrosNow()));
  std::memcpy(payload, &end, 8);
  std::memcpy(payload + 8, &now, 8);
  payload[16] = reply_requested ? 1 : 0;
  SendCopyData(session.sock, 'k', payload, sizeof(payload));
}

// Sends up to kMaxSendBytes of flushed WAL from st.sent (one segment at most).
void SendSome(tcop::Session& session, WalFileReader& reader, std::vector<char>& buf, StreamState& st,
              access::XLogRecPtr flushed) {
  const uint64_t seg_size = access::XLogSegmentSize();
  const uint64_t seg_end = (access::XLogSegNo(st.sent, seg_size) + 1) * seg_size;
  const size_t n = static_cast<size_t>(std::min<uint64_t>({flushed - st.sent, seg_end - st.sent, kMaxSendBytes}));
  const uint64_t header[3] = {__builtin_bswap64(st.sent), __builtin_bswap64(flushed),
                              __builtin_bswap64(static_cast<uint64_t>(PgEpochMicrosNow()))};
  std::memcpy(buf.data(), header, sizeof(header));
  reader.Read(st.sent, buf.data() + sizeof(header), n);
  SendCopyData(session.sock, 'w', buf.data(), sizeof(header) + n);
  st.sent += n;
}

int64_t UnixMicrosNow() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One message from the client during the stream.
void HandleClientMessage(tcop::Session& session, const std::string& slot, char type, const std::string& body,
                         StreamState& st, access::WalSndStatusEntry& status) {
  st.last_heard_ms = NowMs();
  st.ping_sent = false;
  if (type == protocol::fe::kCopyDone) {
    st.done = true;
    return;
  }
  if (type == protocol::fe::kTerminate) throw DbError(sqlstate::kAdminShutdown, "client ended the stream", Severity::kFatal);
  if (type != protocol::fe::kCopyData || body.empty()) {
    throw DbError(sqlstate::kProtocolViolation,
                  "unexpected message type \"" + std::string(1, type) + "\" during WAL streaming", Severity::kFatal);
  }
  if (body[0] == 'r' && body.size() >= 1 + 8 * 4 + 1) {
    uint64_t be[4];  // write, flush, apply, send time (µs since 2000)
    std::memcpy(be, body.data() + 1, sizeof(be));
    const int64_t now = UnixMicrosNow();
    const access::XLogRecPtr write = __builtin_bswap64(be[0]), flush = __builtin_bswap64(be[1]),
                             apply = __builtin_bswap64(be[2]);
    // As PostgreSQL: a standby that reported everything replayed in two
    // replies running is idle, and stale lags would only mislead.
    bool clear = false;
    if (apply == st.sent) {
      clear = st.applied_all_last_time;
      st.applied_all_last_time = true;
    } else {
      st.applied_all_last_time = false;
    }
    status.SetLags(st.lags.Read(LagKind::kWrite, write, now), st.lags.Read(LagKind::kFlush, flush, now),
                   st.lags.Read(LagKind::kApply, apply, now), clear);
    status.SetReply(write, flush, apply, now);
    st.applied = apply;
    uint64_t flush_be = be[1];
    if (!slot.empty()) access::AdvanceReplicationSlot(slot, __builtin_bswap64(flush_be));
    if (body[1 + 8 * 4] != 0) SendKeepalive(session, false);
  }
  // 'h' (hot standby feedback): nothing to do without hot standby.
}

// Who streams, for pg_stat_replication.
access::WalSndInfo DescribeClient(tcop::Session& session, access::XLogRecPtr start) {
  access::WalSndInfo who;
  who.pid = session.backend_pid;
  who.application_name = session.settings.Show("application_name");
  who.usename = session.user;
  who.backend_start_us = UnixMicrosNow();
  who.state = access::WalSndState::kCatchup;
  who.sent = start;
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  char host[64] = "";
  if (::getpeername(session.sock.fd(), reinterpret_cast<sockaddr*>(&addr), &len) == 0 &&
      ::getnameinfo(reinterpret_cast<sockaddr*>(&addr), len, host, sizeof(host), nullptr, 0, NI_NUMERICHOST) == 0) {
    who.client_addr = host;
    who.client_port = addr.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port)
                                                 : ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  }
  return who;
}

// Looks for client input (waiting up to `timeout_ms`); true when a message can be read.
bool ClientReadable(tcop::Session& session, int timeout_ms) {
  if (session.sock.HasBufferedInput()) return true;
  pollfd p{session.sock.fd(), POLLIN, 0};
  const int rc = ::poll(&p, 1, timeout_ms);
  if (rc < 0 && errno == EINTR) {
    CheckForTermination();
    return false;
  }
  return rc > 0;
}

// Releases the slot the stream used.
struct SlotRelease {
  const std::string& name;
  int32_t pid;
  ~SlotRelease() {
    if (!name.empty()) access::ReleaseReplicationSlot(name, pid);
  }
};

}  // namespace

void StreamWal(tcop::Session& session, const ReplCommand& cmd) {
  CheckStartPoint(cmd);
  if (!cmd.name.empty()) access::AcquireReplicationSlot(cmd.name, session.backend_pid, cmd.lsn);
  SlotRelease release{cmd.name, session.backend_pid};
  access::WalHold hold(cmd.lsn);
  // (Again: the segment may have gone before the hold was set.)
  const access::XLogRecPtr timeline_end = CheckStartPoint(cmd);
  bool ended_timeline = false;  // sent CopyDone at the end of a historic timeline
  SendCopyStart(session.sock, 'W');
  session.sock.Flush();

  WalFileReader reader;
  std::vector<char> buf(24 + kMaxSendBytes);
  StreamState st;
  st.sent = cmd.lsn;
  access::WalSndStatusEntry status(DescribeClient(session, cmd.lsn));
  st.last_heard_ms = NowMs();
  const size_t max_message = static_cast<size_t>(session.settings.GetInt("max_message_size"));
  std::string body;
  while (!st.done) {
    CheckForTermination();
    const access::XLogRecPtr flushed = std::min(access::XLogFlushedUpTo(), timeline_end);
    const bool caught_up = st.sent >= flushed;
    if (st.sent >= timeline_end && !ended_timeline) {
      // All of the old timeline is sent: end the copy; the client answers
      // with its CopyDone and then reads which timeline follows.
      SendCopyDone(session.sock);
      session.sock.Flush();
      ended_timeline = true;
    }
    if (!caught_up) {
      SendSome(session, reader, buf, st, flushed);
      st.lags.Sent(st.sent, UnixMicrosNow());
      st.last_send_ms = NowMs();
      hold.Move(st.sent);
      status.SetSent(st.sent);
    } else {
      status.SetState(access::WalSndState::kStreaming);
    }
    const int64_t timeout_ms = session.settings.GetInt("wal_sender_timeout");
    const int64_t silent_ms = NowMs() - st.last_heard_ms;
    if (timeout_ms > 0 && silent_ms > timeout_ms) {
      spdlog::info("terminating walsender process due to replication timeout");
      throw DbError(sqlstate::kProtocolViolation, "terminating walsender process due to replication timeout",
                    Severity::kFatal);
    }
    if (timeout_ms > 0 && !st.ping_sent && !ended_timeline && silent_ms > timeout_ms / 2) {
      SendKeepalive(session, true);
      st.ping_sent = true;
    }
    if (caught_up && !session.sock.Flush()) {
      throw DbError(sqlstate::kConnectionFailure, "could not send data to client", Severity::kFatal);
    }
    if (!ClientReadable(session, ended_timeline ? kIdleWaitMs : 0)) {
      if (ended_timeline) continue;  // nothing more to send: wait for the client's CopyDone
      // With synchronous standbys configured, committers wait for this
      // standby's reply: look at the socket every millisecond rather than
      // only after the next flush.
      const bool fast = access::SyncReplicationConfigured() || ReplyExpected(st, NowMs());
      if (caught_up) access::XLogWaitForFlushBeyond(st.sent, fast ? 1 : kIdleWaitMs);
      continue;
    }
    char type = 0;
    const tcop::ReadStatus rs = session.sock.ReadMessage(&type, &body, max_message, CheckForTermination);
    if (rs == tcop::ReadStatus::kEof) throw DbError(sqlstate::kConnectionFailure, "unexpected EOF on client connection", Severity::kFatal);
    if (rs != tcop::ReadStatus::kOk) {
      throw DbError(sqlstate::kProtocolViolation, "invalid message format", Severity::kFatal);
    }
    HandleClientMessage(session, cmd.name, type, body, st, status);
  }
  if (ended_timeline) {
    SendNextTimeline(session, cmd, timeline_end);
  } else {
    SendCopyDone(session.sock);
  }
  SendCommandComplete(session.sock, "START_STREAMING");
  SendCommandComplete(session.sock, "START_REPLICATION");
}

}  // namespace hearth::replication
