// commands/copy_server_stream.cpp
//
// Principal entry points: CopyServerStream::{OpenFile, OpenProgram, Read,
// Write, Close}.
#include "commands/copy_server_stream.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

extern char** environ;

namespace hearth::commands {

namespace {

// SQLSTATEs only this file raises.
constexpr char kDuplicateFile[] = "58P02";
constexpr char kInsufficientResources[] = "53000";
constexpr char kExternalRoutineException[] = "38000";

std::string ErrnoText(int err) { return std::strerror(err); }

// PostgreSQL's wait_result_to_str.
std::string WaitResultText(int status) {
  if (WIFEXITED(status)) {
    switch (WEXITSTATUS(status)) {
      case 126: return "command not executable";
      case 127: return "command not found";
      default: return "child process exited with exit code " + std::to_string(WEXITSTATUS(status));
    }
  }
  if (WIFSIGNALED(status)) {
    const char* name = sigdescr_np(WTERMSIG(status));
    return "child process was terminated by signal " + std::to_string(WTERMSIG(status)) + ": " +
           (name != nullptr ? name : "unrecognized signal");
  }
  return "child process exited with unrecognized status " + std::to_string(status);
}

// posix_spawn's attributes and file actions, released however we leave.
struct SpawnSetup {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  SpawnSetup() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

void CloseQuietly(int fd) {
  if (fd >= 0) ::close(fd);
}

}  // namespace

const char* FileAccessSqlstate(int err) {
  switch (err) {
    case EPERM:
    case EACCES:
    case EROFS:
      return sqlstate::kInsufficientPrivilege;
    case ENOENT:
      return sqlstate::kUndefinedFile;
    case EEXIST:
      return kDuplicateFile;
    case ENOTDIR:
    case EISDIR:
    case ENOTEMPTY:
      return sqlstate::kWrongObjectType;
    case ENOSPC:
      return sqlstate::kDiskFull;
    case ENFILE:
    case EMFILE:
      return kInsufficientResources;
    case EIO:
      return sqlstate::kIoError;
    default:
      return sqlstate::kInternalError;
  }
}

CopyServerStream CopyServerStream::OpenFile(const std::string& path, Direction dir, const std::string& shown_as) {
  const bool reading = dir == Direction::kRead;
  const std::string& name = shown_as.empty() ? path : shown_as;
  const int flags = reading ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC;
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    DbError e(FileAccessSqlstate(err), "could not open file \"" + name + "\" for " +
                                           (reading ? "reading: " : "writing: ") + ErrnoText(err));
    if (err == ENOENT || err == EACCES) {
      e.WithHint(reading ? "COPY FROM instructs the PostgreSQL server process to read a file. You may want a "
                           "client-side facility such as psql's \\copy."
                         : "COPY TO instructs the PostgreSQL server process to write a file. You may want a "
                           "client-side facility such as psql's \\copy.");
    }
    throw e;
  }
  CopyServerStream s(fd, -1, name);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    throw DbError(FileAccessSqlstate(err), "could not stat file \"" + name + "\": " + ErrnoText(err));
  }
  if (S_ISDIR(st.st_mode)) throw DbError(sqlstate::kWrongObjectType, "\"" + name + "\" is a directory");
  if (reading && S_ISREG(st.st_mode)) s.size_ = st.st_size;
  return s;
}

CopyServerStream CopyServerStream::OpenProgram(const std::string& command, Direction dir) {
  const bool reading = dir == Direction::kRead;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    const int err = errno;
    throw DbError(FileAccessSqlstate(err), "could not execute command \"" + command + "\": " + ErrnoText(err));
  }
  // Reading: the program writes fds[1] as its stdout. Writing: it reads
  // fds[0] as its stdin. Its other standard stream stays the server's.
  const int ours = reading ? fds[0] : fds[1];
  const int theirs = reading ? fds[1] : fds[0];
  SpawnSetup setup;
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&setup.attr, &all);
  posix_spawnattr_setsigmask(&setup.attr, &none);
  posix_spawnattr_setpgroup(&setup.attr, 0);
  posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  posix_spawn_file_actions_adddup2(&setup.actions, theirs, reading ? STDOUT_FILENO : STDIN_FILENO);
  if (reading) posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Nothing of the backend's (client socket, relation files) leaks into
  // the program, whatever its close-on-exec flags.
  posix_spawn_file_actions_addclosefrom_np(&setup.actions, STDERR_FILENO + 1);
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/bin/sh", &setup.actions, &setup.attr, const_cast<char* const*>(argv), environ);
  CloseQuietly(theirs);
  if (rc != 0) {
    CloseQuietly(ours);
    throw DbError(FileAccessSqlstate(rc), "could not execute command \"" + command + "\": " + ErrnoText(rc));
  }
  return CopyServerStream(ours, pid, command);
}

CopyServerStream::CopyServerStream(CopyServerStream&& other) noexcept
    : fd_(other.fd_), pid_(other.pid_), program_(other.program_), name_(std::move(other.name_)), size_(other.size_) {
  other.fd_ = -1;
  other.pid_ = -1;
}

CopyServerStream::~CopyServerStream() {
  CloseQuietly(fd_);
  if (pid_ > 0) {
    // The COPY failed: the program's output or input is of no use now.
    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

size_t CopyServerStream::Read(char* buf, size_t cap, void (*check_interrupts)()) {
  for (;;) {
    const ssize_t n = ::read(fd_, buf, cap);
    if (n >= 0) return static_cast<size_t>(n);
    const int err = errno;
    if (err == EINTR) {
      if (check_interrupts != nullptr) check_interrupts();
      continue;
    }
    throw DbError(FileAccessSqlstate(err), "could not read from COPY file: " + ErrnoText(err));
  }
}

void CopyServerStream::Write(std::string_view data, void (*check_interrupts)()) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd_, data.data(), data.size());
    if (n >= 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    const int err = errno;
    if (err == EINTR) {
      if (check_interrupts != nullptr) check_interrupts();
      continue;
    }
    if (is_program() && err == EPIPE) {
      // A better message than "Broken pipe" when the program failed.
      CloseQuietly(fd_);
      fd_ = -1;
      WaitProgram(check_interrupts);
    }
    throw DbError(FileAccessSqlstate(err),
                  std::string(program_ ? "could not write to COPY program: " : "could not write to COPY file: ") +
                      ErrnoText(err));
  }
}

void CopyServerStream::Close(void (*check_interrupts)()) {
  const int fd = fd_;
  fd_ = -1;
  if (fd >= 0 && ::close(fd) != 0 && !is_program()) {
    const int err = errno;
    throw DbError(FileAccessSqlstate(err), "could not close file \"" + name_ + "\": " + ErrnoText(err));
  }
  if (pid_ > 0) WaitProgram(check_interrupts);
}

void CopyServerStream::WaitProgram(void (*check_interrupts)()) {
  int status = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    // A cancel leaves pid_ set: the destructor kills and reaps it.
    if (check_interrupts != nullptr) check_interrupts();
  }
  pid_ = -1;  // reaped (or gone): nothing left to kill
  if (r < 0) {
    const int err = errno;
    throw DbError(FileAccessSqlstate(err), "could not close pipe to external command: " + ErrnoText(err));
  }
  if (status != 0) {
    throw DbError(kExternalRoutineException, "program \"" + name_ + "\" failed")
        .WithDetail(WaitResultText(status));
  }
}

}  // namespace hearth::commands
