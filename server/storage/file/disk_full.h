// storage/file/disk_full.h
//
// How a failed file write becomes the error a statement reports. Running out
// of space (ENOSPC, EDQUOT, a short write) is never a crash: the statement
// that needed the space fails with SQLSTATE 53100 and PostgreSQL's hint
// "Check free disk space.", and the server keeps serving. Other I/O errors
// are 58030, corrupt pages XX001. Any process; no shared state.
#pragma once

#include <exception>
#include <string>

#include "common/error/db_error.h"
#include "storage/status.h"

namespace hearth::storage {

inline bool IsDiskFullErrno(int err) { return Status::IsDiskFullErrno(err); }

// ERROR 53100 `message` with HINT "Check free disk space.".
DbError DiskFullError(std::string message);

// The DbError for a failed file operation: `message` already names the file
// and the OS error; `err` (an errno) picks 53100 or 58030.
DbError FileError(int err, std::string message);

// True for an error of SQLSTATE 53100: the operation may simply be retried
// once there is space (nothing the kernel accepted was lost).
bool IsDiskFullError(const std::exception& e);

// Throws the DbError for a failed storage Status (never OK).
[[noreturn]] void ThrowStorageStatus(const Status& s);

}  // namespace hearth::storage
