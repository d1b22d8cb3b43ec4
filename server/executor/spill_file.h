// server/executor/spill_file.h
//
// SpillFile: an anonymous-ish temporary file for one sorted run, one hash
// partition or one window partition, written sequentially then read back
// sequentially (or from a Seek'd record on) through a stdio buffer
// (no syscall per row). The file is created in the directory given by
// ExecContext::temp_dir as pgsql_tmp<pid>.<n> and removed by the
// destructor — RAII, so a cancel (57014) or any other error unwinding
// through the owning node leaves no file behind. Owned by one node; not
// thread-safe. Writes past temp_file_limit fail with ERROR 53400.
// A second mode serves stores read by position (a WITH query's rows read
// by several CTE Scans): raw Append, then ReadAt(offset) with pread.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace hearth::executor {

class SpillFile {
 public:
  // Creates the file (and `dir` if missing). Empty dir → system temp dir.
  // Throws DbError 58030 on I/O failure.
  explicit SpillFile(const std::string& dir);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends one record (length-prefixed).
  void Write(const std::string& record);
  // Switches from writing to reading from the start.
  void Rewind();
  // Positions reading at `offset`, a record boundary (the sum of 4 + size
  // of the records before it). REQUIRES: Rewind after the last Write.
  void Seek(uint64_t offset);
  // Reads the next record into *record; false at end of file.
  bool Read(std::string* record);
  // Random access (a store read by position, several readers at once):
  // appends raw bytes, no length prefix; ReadAt reads `n` bytes at `offset`
  // (pread, after flushing what is buffered). Do not mix with Write/Read.
  void Append(const char* p, size_t n);
  void ReadAt(uint64_t offset, size_t n, std::string* out);
  // Empties the file for writing anew (keeps the file: creating files is
  // what costs most when a hash spill uses thousands of partitions).
  // False if that failed (the file is then unusable; never throws).
  bool Truncate();

  const std::string& path() const { return path_; }

  // temp_file_limit in kB (-1: none): the total size of the temporary files
  // this process has open at any instant. Process-wide; set per statement.
  static void SetLimitKb(int64_t kb);

 private:
  [[noreturn]] void Fail(const char* what) const;
  // Counts `grow` more bytes against temp_file_limit (53400 beyond it).
  void Account(uint64_t grow);

  std::string path_;
  FILE* f_ = nullptr;
  uint64_t bytes_ = 0;  // written so far, counted in the process total
  bool unflushed_ = false;  // Append data may sit in the stdio buffer
};

}  // namespace hearth::executor
