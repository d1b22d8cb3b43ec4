// storage/file/disk_full.cpp
//
// Principal entry points: DiskFullError, FileError, IsDiskFullError, ThrowStorageStatus.
#include "storage/file/disk_full.h"

#include <utility>

#include "common/error/sqlstate.h"

namespace hearth::storage {

DbError DiskFullError(std::string message) {
  return DbError(sqlstate::kDiskFull, std::move(message)).WithHint("Check free disk space.");
}

DbError FileError(int err, std::string message) {
  if (IsDiskFullErrno(err)) return DiskFullError(std::move(message));
  return DbError(sqlstate::kIoError, std::move(message));
}

bool IsDiskFullError(const std::exception& e) {
  const auto* db = dynamic_cast<const DbError*>(&e);
  return db != nullptr && db->sqlstate() == sqlstate::kDiskFull;
}

void ThrowStorageStatus(const Status& s) {
  switch (s.code()) {
    case Status::Code::kDiskFull: throw DiskFullError(s.message());
    case Status::Code::kCorruption: throw DbError(sqlstate::kDataCorrupted, s.message());
    default: throw DbError(sqlstate::kIoError, s.message());
  }
}

}  // namespace hearth::storage
