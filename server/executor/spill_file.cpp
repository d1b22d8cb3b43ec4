// server/executor/spill_file.cpp
//
// Principal entry points: SpillFile (create/unlink), Write, Read.
#include "executor/spill_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::executor {

namespace {
constexpr size_t kBufferSize = 64 * 1024;
std::atomic<uint64_t> g_file_counter{0};
int64_t g_limit_kb = -1;
uint64_t g_process_bytes = 0;  // in every SpillFile of this process
}  // namespace

void SpillFile::SetLimitKb(int64_t kb) { g_limit_kb = kb; }

SpillFile::SpillFile(const std::string& dir) {
  std::string d = dir.empty() ? std::filesystem::temp_directory_path().string() : dir;
  std::error_code ec;
  std::filesystem::create_directories(d, ec);  // an error shows at fopen below
  path_ = d + "/pgsql_tmp" + std::to_string(getpid()) + "." + std::to_string(g_file_counter++);
  f_ = std::fopen(path_.c_str(), "w+b");
  if (f_ == nullptr) Fail("create");
  std::setvbuf(f_, nullptr, _IOFBF, kBufferSize);
}

SpillFile::~SpillFile() {
  g_process_bytes -= bytes_;
  if (f_ != nullptr) std::fclose(f_);
  std::remove(path_.c_str());
}

void SpillFile::Fail(const char* what) const {
  const int err = errno;
  std::string msg = std::string("could not ") + what + " temporary file \"" + path_ + "\": " + std::strerror(err);
  // Out of space is 53100 with PostgreSQL's hint; the file is removed by the destructor.
  if (err == ENOSPC || err == EDQUOT) throw DbError(sqlstate::kDiskFull, std::move(msg)).WithHint("Check free disk space.");
  throw DbError(sqlstate::kIoError, std::move(msg));
}

void SpillFile::Account(uint64_t grow) {
  if (g_limit_kb >= 0 && g_process_bytes + grow > static_cast<uint64_t>(g_limit_kb) * 1024) {
    throw DbError(sqlstate::kConfigurationLimitExceeded,
                  "temporary file size exceeds temp_file_limit (" + std::to_string(g_limit_kb) + "kB)");
  }
  bytes_ += grow;
  g_process_bytes += grow;
}

void SpillFile::Append(const char* p, size_t n) {
  Account(n);
  unflushed_ = true;
  if (n > 0 && fwrite_unlocked(p, 1, n, f_) != n) Fail("write to");
}

void SpillFile::ReadAt(uint64_t offset, size_t n, std::string* out) {
  if (unflushed_) {
    if (std::fflush(f_) != 0) Fail("write to");
    unflushed_ = false;
  }
  out->resize(n);
  size_t done = 0;
  while (done < n) {
    ssize_t got = pread(fileno(f_), out->data() + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) errno = EIO;  // the file is shorter than what was appended
    if (got <= 0) Fail("read from");
    done += static_cast<size_t>(got);
  }
}

void SpillFile::Write(const std::string& record) {
  auto len = static_cast<uint32_t>(record.size());
  Account(sizeof len + len);
  // One owner, one thread: the unlocked stdio calls skip a lock per record.
  if (fwrite_unlocked(&len, sizeof len, 1, f_) != 1 ||
      (len > 0 && fwrite_unlocked(record.data(), 1, len, f_) != len)) {
    Fail("write to");
  }
}

bool SpillFile::Truncate() {
  std::rewind(f_);  // also drops buffered data and switches to writing
  if (ftruncate(fileno(f_), 0) != 0) return false;
  g_process_bytes -= bytes_;
  bytes_ = 0;
  return true;
}

void SpillFile::Seek(uint64_t offset) {
  if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0) Fail("seek in");
}

void SpillFile::Rewind() {
  if (std::fflush(f_) != 0) Fail("write to");
  std::rewind(f_);
}

bool SpillFile::Read(std::string* record) {
  uint32_t len;
  if (fread_unlocked(&len, sizeof len, 1, f_) != 1) {
    if (std::ferror(f_)) Fail("read from");
    return false;
  }
  record->resize(len);
  if (len > 0 && fread_unlocked(record->data(), 1, len, f_) != len) Fail("read from");
  return true;
}

}  // namespace hearth::executor
