// client/shell/shell.h
//
// Shell: the `hearth` interactive terminal. Connects with the client library,
// reads SQL and backslash commands from -c strings, -f files, a piped stdin
// or a libedit prompt, and prints results the way psql 15 does. One Shell
// per process (it installs a SIGINT handler that cancels the running query).
#pragma once

#include <memory>

#include "client/shell/shell_options.h"

namespace hearth::client {

// psql's exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;       // last command failed / bad usage
inline constexpr int kExitConnection = 2;  // could not connect, or connection lost
inline constexpr int kExitScriptStop = 3;  // ON_ERROR_STOP stopped a script

class Shell {
 public:
  explicit Shell(ShellOptions options);
  ~Shell();
  Shell(const Shell&) = delete;
  Shell& operator=(const Shell&) = delete;

  // Runs everything the options ask for; returns the process exit code.
  int Run();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hearth::client
