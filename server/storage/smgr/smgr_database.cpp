// storage/smgr/smgr_database.cpp
//
// Principal entry points: SmgrCopyDatabaseDirectory,
// SmgrRemoveDatabaseDirectory: whole database directories (base/<db>/) for
// CREATE DATABASE's copy of its template and DROP DATABASE.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "storage/smgr/smgr.h"

namespace hearth::storage {

namespace fs = std::filesystem;

namespace {

std::string DirPath(uint32_t db) { return SmgrDataDir() + "/" + DatabaseDirectory(db); }

Status FsyncPath(const std::string& path, bool directory) {
  const int fd = open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
  if (fd < 0) return Status::IoError("could not open \"" + path + "\": " + std::strerror(errno));
  const int rc = fsync(fd);
  const int err = errno;
  close(fd);
  if (rc != 0) return Status::IoError("could not fsync \"" + path + "\": " + std::strerror(err));
  return Status::Ok();
}

}  // namespace

bool SmgrDatabaseDirectoryExists(uint32_t db) {
  std::error_code ec;
  return fs::is_directory(DirPath(db), ec);
}

Status SmgrCopyDatabaseDirectory(uint32_t src_db, uint32_t dst_db) {
  const std::string src = DirPath(src_db);
  const std::string dst = DirPath(dst_db);
  std::error_code ec;
  if (!fs::create_directory(dst, ec)) {
    return Status::IoError("could not create directory \"" + dst + "\": " + (ec ? ec.message() : "exists"));
  }
  std::vector<std::string> copied;
  for (const fs::directory_entry& e : fs::directory_iterator(src, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string to = dst + "/" + e.path().filename().string();
    if (!fs::copy_file(e.path(), to, fs::copy_options::none, ec)) {
      return Status::IoError("could not copy file \"" + e.path().string() + "\" to \"" + to + "\": " + ec.message());
    }
    copied.push_back(to);
  }
  if (ec) return Status::IoError("could not read directory \"" + src + "\": " + ec.message());
  for (const std::string& f : copied) {
    Status st = FsyncPath(f, false);
    if (!st.ok()) return st;
  }
  Status st = FsyncPath(dst, true);
  if (!st.ok()) return st;
  return FsyncPath(SmgrDataDir() + "/base", true);
}

Status SmgrRemoveDatabaseDirectory(uint32_t db) {
  const std::string dir = DirPath(db);
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::Ok();
  // Descriptors of these files cached here would keep their space: close them.
  SmgrCloseAll();
  fs::remove_all(dir, ec);
  if (ec) return Status::IoError("could not remove directory \"" + dir + "\": " + ec.message());
  return FsyncPath(SmgrDataDir() + "/base", true);
}

}  // namespace hearth::storage
