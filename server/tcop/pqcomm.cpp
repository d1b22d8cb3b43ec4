// tcop/pqcomm.cpp
//
// Principal entry points: ClientSocket::ReadStartupPacket, ReadMessage, Send, Flush.
#include "tcop/pqcomm.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
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
  if (ssl_ != nullptr) SSL_free(ssl_);
  if (fd_ >= 0) close(fd_);
}

bool ClientSocket::StartTls(SSL_CTX* ctx, std::string* error) {
  if (in_pos_ < in_.size()) {
    *error = "received unencrypted data after SSL request";
    return false;
  }
  ssl_ = SSL_new(ctx);
  if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1) {
    *error = "could not initialize SSL connection";
    return false;
  }
  const int rc = SSL_accept(ssl_);
  if (rc != 1) {
    const unsigned long e = ERR_get_error();
    char buf[256] = "";
    if (e != 0) ERR_error_string_n(e, buf, sizeof(buf));
    *error = std::string("could not accept SSL connection: ") + (e != 0 ? buf : "EOF detected");
    SSL_free(ssl_);
    ssl_ = nullptr;
    return false;
  }
  return true;
}

ssize_t ClientSocket::RawRecv(char* buf, size_t len) {
  if (ssl_ == nullptr) return recv(fd_, buf, len, 0);
  const int n = SSL_read(ssl_, buf, static_cast<int>(std::min<size_t>(len, INT32_MAX)));
  if (n > 0) return n;
  const int err = SSL_get_error(ssl_, n);
  if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
    errno = EINTR;  // retry after the interrupt check
    return -1;
  }
  if (err == SSL_ERROR_SYSCALL && errno == EINTR) return -1;
  return err == SSL_ERROR_ZERO_RETURN ? 0 : (errno = ECONNRESET, -1);
}

ssize_t ClientSocket::RawSend(const char* buf, size_t len) {
  if (ssl_ == nullptr) return send(fd_, buf, len, MSG_NOSIGNAL);
  const int n = SSL_write(ssl_, buf, static_cast<int>(std::min<size_t>(len, INT32_MAX)));
  if (n > 0) return n;
  const int err = SSL_get_error(ssl_, n);
  if ((err == SSL_ERROR_SYSCALL && errno == EINTR) || err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
    errno = EINTR;
    return -1;
  }
  errno = EPIPE;
  return -1;
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
  // Bytes TLS already decrypted are not visible to poll.
  if (ssl_ != nullptr && SSL_pending(ssl_) > 0) return true;
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
    if (!recv_buf_) recv_buf_.reset(new char[kMaxReadChunk]);
    ssize_t got = RawRecv(recv_buf_.get(), want);
    if (got > 0) {
      in_.append(recv_buf_.get(), static_cast<size_t>(got));
      continue;
    }
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
    ssize_t n = RawSend(out_.data() + off, out_.size() - off);
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
