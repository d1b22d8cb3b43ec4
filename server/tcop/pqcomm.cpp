// tcop/pqcomm.cpp
//
// Principal entry points: ClientSocket::ReadStartupPacket, ReadMessage, Send, Flush.
#include "tcop/pqcomm.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "common/protocol/wire.h"
#include "storage/ipc/interrupts.h"

namespace hearth::tcop {

ClientSocket::~ClientSocket() {
  if (fd_ >= 0) close(fd_);
}

namespace {

// Blocks the interrupt signals for its lifetime; restores the old mask.
class InterruptSignalsBlocked {
 public:
  InterruptSignalsBlocked() {
    sigset_t block;
    sigemptyset(&block);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGALRM}) sigaddset(&block, s);
    sigprocmask(SIG_BLOCK, &block, &old_);
  }
  ~InterruptSignalsBlocked() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  const sigset_t* old() const { return &old_; }

 private:
  sigset_t old_;
};

}  // namespace

// Waits until the socket is readable. The interrupt flags are checked with
// the interrupt signals blocked, and ppoll unblocks them atomically while it
// sleeps: a SIGTERM that lands just before we block is never missed.
bool ClientSocket::WaitReadable(void (*interrupt_check)()) {
  for (;;) {
    InterruptSignalsBlocked guard;
    if (interrupt_check != nullptr) interrupt_check();
    pollfd pfd{fd_, POLLIN, 0};
    int rc = ppoll(&pfd, 1, nullptr, guard.old());
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return false;
  }
}

bool ClientSocket::Fill(size_t n, void (*interrupt_check)(), ReadStatus* status) {
  if (in_pos_ > 0 && in_pos_ == in_.size()) {
    in_.clear();
    in_pos_ = 0;
  }
  while (in_.size() - in_pos_ < n) {
    // Compact before growing so a long session does not keep consumed bytes.
    if (in_pos_ > 0 && in_pos_ > in_.size() / 2) {
      in_.erase(0, in_pos_);
      in_pos_ = 0;
    }
    if (!WaitReadable(interrupt_check)) {
      *status = ReadStatus::kEof;
      return false;
    }
    // Grow with what actually arrives: a header announcing 1 GiB must not
    // make us zero-fill 1 GiB for the few bytes that follow it.
    size_t want = std::clamp<size_t>(n - (in_.size() - in_pos_), 8192, kMaxReadChunk);
    size_t old = in_.size();
    in_.resize(old + want);
    ssize_t got = recv(fd_, in_.data() + old, want, 0);
    if (got > 0) {
      in_.resize(old + static_cast<size_t>(got));
      continue;
    }
    in_.resize(old);
    if (got < 0 && errno == EINTR) {
      if (interrupt_check != nullptr) interrupt_check();
      continue;
    }
    *status = ReadStatus::kEof;
    return false;
  }
  return true;
}

ReadStatus ClientSocket::ReadStartupPacket(std::string* body, void (*interrupt_check)()) {
  ReadStatus st = ReadStatus::kOk;
  if (!Fill(4, interrupt_check, &st)) return st;
  int32_t len = protocol::ReadInt32BE(in_.data() + in_pos_);
  if (len < 8 || static_cast<uint32_t>(len) > protocol::kMaxStartupPacket) return ReadStatus::kMalformed;
  if (!Fill(static_cast<size_t>(len), interrupt_check, &st)) return st;
  body->assign(in_.data() + in_pos_ + 4, static_cast<size_t>(len) - 4);
  in_pos_ += static_cast<size_t>(len);
  return ReadStatus::kOk;
}

ReadStatus ClientSocket::ReadMessage(char* type, std::string* body, size_t max_len, void (*interrupt_check)()) {
  ReadStatus st = ReadStatus::kOk;
  if (!Fill(5, interrupt_check, &st)) return st;
  *type = in_[in_pos_];
  int32_t len = protocol::ReadInt32BE(in_.data() + in_pos_ + 1);
  if (len < 4) return ReadStatus::kMalformed;
  if (static_cast<size_t>(len) - 4 > max_len) return ReadStatus::kTooLarge;
  if (!Fill(static_cast<size_t>(len) + 1, interrupt_check, &st)) return st;
  body->assign(in_.data() + in_pos_ + 5, static_cast<size_t>(len) - 4);
  in_pos_ += static_cast<size_t>(len) + 1;
  return ReadStatus::kOk;
}

void ClientSocket::Send(std::string_view bytes) {
  out_.append(bytes.data(), bytes.size());
  MaybeFlush();
}

bool ClientSocket::Flush() {
  size_t off = 0;
  while (off < out_.size() && !broken_) {
    ssize_t n = send(fd_, out_.data() + off, out_.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      broken_ = true;
      g_client_connection_lost = 1;  // the running statement stops at its next interrupt check
    }
  }
  out_.clear();
  return !broken_;
}

}  // namespace hearth::tcop
