// commands/copy_server_stream.h
//
// The byte stream of a server-side COPY: a file the server opens (COPY ...
// FROM 'file' / TO 'file') or a pipe to a program it starts (FROM PROGRAM /
// TO PROGRAM, run as `/bin/sh -c cmd`). The formats (CopyFromParser,
// CopyToFormatter) read and write it instead of the client connection.
// Errors are PostgreSQL 15's: opening a file maps errno as its
// errcode_for_file_access does (58P01 missing, 42501 no permission, 42809
// a directory, ...) with its hint; a program that ends with a non-zero
// status is 38000 `program "cmd" failed` with `child process exited with
// exit code N` (127: `command not found`, a signal: `... terminated by
// signal N: Name`).
//
// The program runs in a process group of its own with default signal
// dispositions and an empty signal mask (the backend ignores SIGPIPE; the
// program must not). A stream dropped without Close() (the COPY failed)
// closes the pipe and kills that process group, then reaps it.
// One per COPY statement, in the backend process; not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace hearth::commands {

// The SQLSTATE PostgreSQL's errcode_for_file_access gives an errno.
const char* FileAccessSqlstate(int err);

class CopyServerStream {
 public:
  enum class Direction { kRead, kWrite };

  // Opens `path` for reading or for writing (created or truncated, mode
  // 0644 as PostgreSQL's umask). Messages name the file `shown_as` (the
  // name as the user wrote it; `path` when empty). Throws: open failures
  // as above, 42809 `"name" is a directory`.
  static CopyServerStream OpenFile(const std::string& path, Direction dir, const std::string& shown_as = "");
  // Starts `/bin/sh -c command`; reading takes its standard output,
  // writing feeds its standard input. Throws when it cannot be started.
  static CopyServerStream OpenProgram(const std::string& command, Direction dir);

  CopyServerStream(CopyServerStream&& other) noexcept;
  CopyServerStream& operator=(CopyServerStream&&) = delete;
  CopyServerStream(const CopyServerStream&) = delete;
  ~CopyServerStream();

  // Reads up to `cap` bytes; 0 at end of data. `check_interrupts` (may be
  // null) runs when a signal interrupts the wait and may throw (57014).
  size_t Read(char* buf, size_t cap, void (*check_interrupts)());
  // Writes all of `data`. A program that stopped reading is reported by
  // its exit status when it has one, else as `could not write to COPY
  // program: Broken pipe`. REQUIRES: SIGPIPE ignored (as in the backend).
  void Write(std::string_view data, void (*check_interrupts)());
  // Closes the file (errors reported) or the pipe, then waits for the
  // program and throws 38000 when it failed. `check_interrupts` as Read.
  void Close(void (*check_interrupts)());

  bool is_program() const { return program_; }
  // Size of a file opened for reading (0 for a program or when unknown).
  int64_t file_size() const { return size_; }

 private:
  CopyServerStream(int fd, pid_t pid, std::string name)
      : fd_(fd), pid_(pid), program_(pid > 0), name_(std::move(name)) {}
  // Waits for the program; throws 38000 unless it exited with status 0.
  void WaitProgram(void (*check_interrupts)());

  int fd_ = -1;
  pid_t pid_ = -1;    // the program (group leader) until reaped; -1 for a file
  bool program_ = false;
  std::string name_;  // the path or the command, as the messages show it
  int64_t size_ = 0;
};

}  // namespace hearth::commands
