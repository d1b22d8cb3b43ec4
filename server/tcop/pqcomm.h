// tcop/pqcomm.h
//
// The backend's end of the client socket: buffered, blocking, framed reads
// and writes of protocol messages. Replies are collected in an output buffer
// and sent by Flush() (at ReadyForQuery, before blocking on input, and when
// the buffer passes a threshold), so a result set is not one syscall per row.
// One per backend process; not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;

namespace hearth::tcop {

enum class ReadStatus { kOk, kEof, kTooLarge, kMalformed, kInterrupted };

class ClientSocket {
 public:
  explicit ClientSocket(int fd) : fd_(fd) {}
  ~ClientSocket();
  ClientSocket(const ClientSocket&) = delete;
  ClientSocket& operator=(const ClientSocket&) = delete;

  // Reads the untyped startup packet (length + body, body returned without
  // the length word). kTooLarge above protocol::kMaxStartupPacket.
  ReadStatus ReadStartupPacket(std::string* body, void (*interrupt_check)() = nullptr);

  // Reads one typed message. The body excludes type and length. Messages
  // whose length exceeds `max_len` are refused with kTooLarge (the caller ends
  // the session: the stream cannot be resynchronised).
  // `interrupt_check` (may be null) runs whenever a blocking read is
  // interrupted by a signal, and may throw.
  ReadStatus ReadMessage(char* type, std::string* body, size_t max_len, void (*interrupt_check)() = nullptr);

  // True when a complete message (or EOF) is already buffered.
  bool HasBufferedInput() const { return in_pos_ < in_.size(); }

  // Queues bytes for sending; flushes when the buffer is large.
  void Send(std::string_view bytes);
  std::string& out() { return out_; }  // append directly, then MaybeFlush()
  void MaybeFlush() {
    if (out_.size() >= kFlushThreshold) Flush();
  }
  // Sends everything queued. Returns false if the peer is gone.
  bool Flush();
  bool broken() const { return broken_; }
  // After answering SSLRequest with 'S': the TLS handshake; from then on
  // every read and write is encrypted. False (with *error) when it fails or
  // the client sent plain bytes after its SSLRequest.
  bool StartTls(SSL_CTX* ctx, std::string* error);
  bool encrypted() const { return ssl_ != nullptr; }
  SSL* ssl() const { return ssl_; }  // null before StartTls
  int fd() const { return fd_; }

 private:
  static constexpr size_t kFlushThreshold = 64 * 1024;
  static constexpr size_t kMaxReadChunk = 1024 * 1024;  // per recv()
  bool WaitReadable(void (*interrupt_check)());
  // Ensures at least n unread bytes in in_; false on EOF/error.
  bool Fill(size_t n, void (*interrupt_check)(), ReadStatus* status);

  // recv/send, or SSL_read/SSL_write once StartTls succeeded.
  ssize_t RawRecv(char* buf, size_t len);
  ssize_t RawSend(const char* buf, size_t len);

  int fd_;
  SSL* ssl_ = nullptr;
  std::string in_;
  size_t in_pos_ = 0;
  // recv() lands here and is appended to in_: growing in_ to receive into
  // it directly would zero-fill the whole chunk on every message. Allocated
  // at the first read, never initialised.
  std::unique_ptr<char[]> recv_buf_;
  std::string out_;
  bool broken_ = false;
};

}  // namespace hearth::tcop
