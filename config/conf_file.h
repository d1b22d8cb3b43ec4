// config/conf_file.h
//
// Reader for hearth.conf (PostgreSQL's postgresql.conf syntax, minus include):
//
//   # comment                         blank lines are ignored
//   shared_buffers = 128MB            name = value
//   port 5433                         the '=' is optional
//   log_file = 'logs/server.log'      single-quoted values; '' is a quote,
//   search_path = '"$user", public'   backslash escapes \\ \' \n \t \r \b \f
//   work_mem = 4MB   # trailing comment
//
// This layer only tokenises; it does not know which names exist (Settings
// validates names and values and reports them with the same file:line).
// Stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hearth::config {

// SQLSTATE config_file_error, used for every error about a settings file.
inline constexpr char kConfigFileError[] = "F0000";

struct ConfEntry {
  std::string name;   // as written (names are case-insensitive)
  std::string value;  // unquoted, escapes resolved
  int line = 0;       // 1-based
};

// Parses the text of a config file. `filename` is used only in messages.
// Entries come back in file order; a name may appear more than once (the
// last one wins when applied).
// Throws DbError F0000 "<filename>:<line>: syntax error near "<token>"" or
// "<filename>:<line>: unterminated quoted string".
std::vector<ConfEntry> ParseConfText(std::string_view text, std::string_view filename);

// Reads and parses `path`. Throws DbError F0000
// "could not open configuration file "<path>": <reason>" when unreadable,
// plus the errors of ParseConfText.
std::vector<ConfEntry> ReadConfFile(const std::string& path);

// The server's configuration files in `datadir`, in reading order:
// hearth.conf, then postgresql.auto.conf when it exists (pg_basebackup -R
// writes primary_conninfo there; PostgreSQL reads that file after its main
// one, and so does Hearth).
inline constexpr char kAutoConfFile[] = "postgresql.auto.conf";
std::vector<std::string> ConfigFiles(const std::string& datadir);
// Their text, one after the other (for Settings::ReloadConfText: later
// values win). Throws DbError like ReadConfFile.
std::string ReadServerConfText(const std::string& datadir);

}  // namespace hearth::config
