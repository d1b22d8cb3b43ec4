// client/frame_buffer.h
//
// FrameBuffer: reassembles backend messages (type byte, int32 length, body)
// from arbitrary socket reads, with a hard bound on message size so a
// malformed or hostile stream fails cleanly instead of allocating without
// limit. No I/O; the Connection feeds it. Not thread-safe per object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::client {

// Largest message body we accept (PostgreSQL's own limit for a field is 1 GiB).
inline constexpr uint32_t kDefaultMaxMessageBytes = 1u << 30;

class FrameBuffer {
 public:
  enum class Status { kNeedMore, kReady, kMalformed };

  explicit FrameBuffer(uint32_t max_body_bytes = kDefaultMaxMessageBytes)
      : max_body_bytes_(max_body_bytes) {}

  // Returns a pointer to at least `min_bytes` writable bytes at the end of the
  // buffered data; call Commit(n) after writing n of them.
  char* PrepareWrite(size_t min_bytes);
  void Commit(size_t n) { end_ += n; }
  void Append(std::string_view data);

  // Extracts the next complete message. On kReady sets *type and *body; the
  // body stays valid until the next PrepareWrite/Append/Next call. On
  // kMalformed (length < 4 or above the bound) *error says why; the buffer is
  // then unusable.
  Status Next(char* type, std::string_view* body, std::string* error);

  // Bytes received but not yet returned as a message.
  size_t buffered() const { return end_ - begin_; }

 private:
  uint32_t max_body_bytes_;
  std::string buf_;
  size_t begin_ = 0;  // first unconsumed byte
  size_t end_ = 0;    // one past the last received byte
};

}  // namespace hearth::client
