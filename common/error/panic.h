// common/error/panic.h
//
// PANIC, PostgreSQL's severity for "shared state may now be wrong": log the
// reason, flush the log, and exit with kPanicExitCode, which the postmaster
// treats as a crash (every process is stopped, shared memory is rebuilt and
// recovery replays WAL). The one way any process panics.
//
// CriticalSection is PostgreSQL's START/END_CRIT_SECTION as a guard: a
// scope that has started changing shared state (a commit record inserted,
// a page modified under its WAL record) and must not be left half done. An
// exception leaving the scope, ERROR or not, becomes a PANIC.
#pragma once

#include <exception>
#include <string>
#include <string_view>

namespace hearth {

// Exit status of a panicking process: not 0 (clean) or 1 (FATAL).
inline constexpr int kPanicExitCode = 3;

[[noreturn]] void Panic(std::string_view what);

class CriticalSection {
 public:
  explicit CriticalSection(const char* what) : what_(what), exceptions_(std::uncaught_exceptions()) {}
  ~CriticalSection() {
    if (std::uncaught_exceptions() > exceptions_) Panic(std::string("error in critical section: ") + what_);
  }
  CriticalSection(const CriticalSection&) = delete;
  CriticalSection& operator=(const CriticalSection&) = delete;

 private:
  const char* what_;
  int exceptions_;
};

}  // namespace hearth
