// client/frame_buffer.cpp
//
// Principal entry points: FrameBuffer::PrepareWrite, FrameBuffer::Next.
#include "client/frame_buffer.h"

#include <cstring>

#include "common/protocol/wire.h"

namespace hearth::client {

char* FrameBuffer::PrepareWrite(size_t min_bytes) {
  // Compact first so the buffer does not grow with the stream's total size.
  if (begin_ > 0 && (begin_ == end_ || begin_ >= buf_.size() / 2)) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - end_ < min_bytes) buf_.resize(end_ + min_bytes);
  return buf_.data() + end_;
}

void FrameBuffer::Append(std::string_view data) {
  char* p = PrepareWrite(data.size());
  if (!data.empty()) std::memcpy(p, data.data(), data.size());
  Commit(data.size());
}

FrameBuffer::Status FrameBuffer::Next(char* type, std::string_view* body, std::string* error) {
  const size_t avail = end_ - begin_;
  if (avail < 5) return Status::kNeedMore;
  const char* p = buf_.data() + begin_;
  const int32_t len = protocol::ReadInt32BE(p + 1);
  if (len < 4 || static_cast<uint32_t>(len - 4) > max_body_bytes_) {
    *error = "invalid message length " + std::to_string(len) + " for message type '" +
             std::string(1, p[0]) + "'";
    return Status::kMalformed;
  }
  const size_t total = 1 + static_cast<size_t>(len);
  if (avail < total) {
    // Reserve the whole message once, so a large DataRow does not regrow.
    PrepareWrite(total - avail);
    return Status::kNeedMore;
  }
  *type = p[0];
  *body = std::string_view(p + 5, static_cast<size_t>(len) - 4);
  begin_ += total;
  return Status::kReady;
}

}  // namespace hearth::client
