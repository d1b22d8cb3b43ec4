// storage/status.h
//
// Status: the result of a storage operation that can fail for reasons outside
// the program (I/O errors, missing files). OK carries no message and does not
// allocate. Value type; safe anywhere.
#pragma once

#include <cerrno>
#include <string>
#include <utility>

namespace hearth::storage {

class [[nodiscard]] Status {
 public:
  enum class Code : unsigned char { kOk, kNotFound, kIoError, kCorruption, kInvalidArgument, kDiskFull };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status IoError(std::string msg) { return Status(Code::kIoError, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  // No space left (ENOSPC, EDQUOT, or a short write): nothing is lost, the
  // statement that needed the space fails with SQLSTATE 53100.
  static Status DiskFull(std::string msg) { return Status(Code::kDiskFull, std::move(msg)); }
  // DiskFull for ENOSPC/EDQUOT, else IoError.
  static Status FromErrno(int err, std::string msg) {
    return IsDiskFullErrno(err) ? DiskFull(std::move(msg)) : IoError(std::move(msg));
  }
  static bool IsDiskFullErrno(int err) { return err == ENOSPC || err == EDQUOT; }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsDiskFull() const { return code_ == Code::kDiskFull; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const { return ok() ? std::string("OK") : message_; }

 private:
  Status(Code c, std::string msg) : code_(c), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace hearth::storage
