// client/shell/shell_options.h
//
// Command-line options of the `hearth` shell (a psql-compatible subset) and
// their parser. Pure; the environment is passed in so tests control it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hearth::client {

struct ShellOptions {
  // -c and -f run in command-line order, as in psql 15.
  struct Action {
    enum class Kind { kCommand, kFile };
    Kind kind;
    std::string value;
  };

  std::string host;
  uint16_t port = 0;
  std::string user;
  std::string dbname;
  std::string password;  // from PGPASSWORD only
  std::vector<Action> actions;
  std::map<std::string, std::string> variables;  // -v NAME=VALUE
  bool no_rc = false;         // -X (accepted; hearth has no rc file)
  bool unaligned = false;     // -A
  bool tuples_only = false;   // -t
  bool quiet = false;         // -q
  // psql's ECHO variable: -a sets kAll (echo input lines), -e sets kQueries
  // (echo each statement sent); the last one given wins.
  enum class Echo { kNone, kAll, kQueries };
  Echo echo = Echo::kNone;
  bool show_help = false;     // --help / -?
  bool show_version = false;  // -V / --version
};

// Reads a variable from the environment (getenv-like; nullptr when unset).
using EnvLookup = std::function<const char*(const char*)>;

// Parses argv[1..] (without the program name). Defaults: host PGHOST or
// 127.0.0.1, port PGPORT or 5433, user PGUSER or "hearth", dbname PGDATABASE
// or "hearth"; the first non-option argument is the dbname, the second the
// user. Accepts "-p 5433", "-p5433", "--port=5433" and "--port 5433".
// Returns nullopt and sets *error (psql-style text) on bad usage.
std::optional<ShellOptions> ParseShellOptions(const std::vector<std::string>& args,
                                              const EnvLookup& env, std::string* error);

// The --help text.
std::string ShellUsage();

// psql's boolean variable syntax: on/off, true/false, yes/no, 1/0 (any
// unique prefix, case-insensitive). nullopt when unrecognised.
std::optional<bool> ParseBoolValue(const std::string& value);

}  // namespace hearth::client
