// config/settings.h
//
// Settings: the current value of every setting for this process (the
// postmaster's view; children inherit it across fork). Built as
// defaults → hearth.conf → command line (-c / --name=value; the command line
// always wins), and re-read on SIGHUP with Reload(), which changes only
// sighup/user settings and reports postmaster-only changes it ignored.
//
// Per-session values (SET, startup packet) live in SessionSettings, which is
// created from a Settings.
//
// Thread safety: none. A Settings is mutated only by its owning process's
// main thread (startup, SIGHUP handling outside the signal handler); const
// access from the same thread is always safe. Hot paths should read the
// precomputed hot() struct instead of looking names up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/conf_file.h"
#include "config/enums.h"
#include "config/registry.h"

namespace hearth::config {

// Where a setting's current value came from (higher wins).
enum class Source { kDefault, kFile, kCommandLine, kInternal };

// Commonly used server-wide values in base units, refreshed after every
// change so hot code can read plain fields.
struct HotSettings {
  int64_t port = 0;
  int64_t max_connections = 0;
  int64_t shared_buffers_blocks = 0;  // 8 kB pages
  int64_t wal_buffers_blocks = 0;     // 8 kB pages
  int64_t work_mem_kb = 0;
  int64_t maintenance_work_mem_kb = 0;
  int64_t max_message_size_bytes = 0;
  int64_t authentication_timeout_s = 0;
  bool fsync = true;
  bool full_page_writes = true;
  SynchronousCommit synchronous_commit = SynchronousCommit::kOn;
  WalSyncMethod wal_sync_method = WalSyncMethod::kFdatasync;
  WalLevel wal_level = WalLevel::kReplica;
  int64_t commit_delay_us = 0;
  int64_t commit_siblings = 0;
  int64_t wal_writer_delay_ms = 0;
  int64_t wal_writer_flush_after_blocks = 0;
  int64_t bgwriter_delay_ms = 0;
  int64_t bgwriter_lru_maxpages = 0;
  double bgwriter_lru_multiplier = 0;
  int64_t checkpoint_timeout_s = 0;
  double checkpoint_completion_target = 0;
  int64_t max_wal_size_mb = 0;
  int64_t min_wal_size_mb = 0;
  int64_t deadlock_timeout_ms = 0;
  MessageLevel log_min_messages = MessageLevel::kWarning;
  LogStatement log_statement = LogStatement::kNone;
};

// Outcome of Reload().
struct ReloadResult {
  // Settings whose value changed (canonical names, registry order).
  std::vector<std::string> changed;
  // Postmaster-context settings whose file value differs from the running
  // value; not applied. Log: parameter "x" cannot be changed without
  // restarting the server.
  std::vector<std::string> ignored_restart_required;
};

class Settings {
 public:
  // Every setting at its default (boot_value).
  Settings();

  // Applies a config file at startup. Every entry must name a known,
  // non-internal setting and carry a valid value; command-line values are
  // not overridden. All-or-nothing: on error nothing is applied.
  // Throws DbError F0000 "<path>:<line>: <message>" (hint kept) or the
  // "could not open configuration file" error.
  void ApplyFile(const std::string& path);
  // Same, for text already in memory (`filename` is used in messages).
  void ApplyConfText(std::string_view text, std::string_view filename);

  // Applies one command-line assignment (hearthd -c name=value). Wins over
  // the file regardless of order. Throws DbError 42704 (unknown name),
  // 55P02 (internal setting) or 22023 (bad value).
  void ApplyCommandLine(std::string_view name, std::string_view value);

  // Re-reads the file on SIGHUP: sighup/user settings take their file value,
  // or their default when no longer in the file (command-line values stay).
  // Postmaster settings are never changed; differing ones are listed.
  // All-or-nothing: on any error (syntax, unknown name, bad value) throws
  // like ApplyFile and leaves every value unchanged.
  ReloadResult Reload(const std::string& path);
  ReloadResult ReloadConfText(std::string_view text, std::string_view filename);

  // Sets any setting, including internal ones (data_directory,
  // in_hot_standby). For the server's own use. Throws DbError 42704/22023.
  void SetInternal(std::string_view name, std::string_view value);

  // Typed getters, names case-insensitive, values in base units (see the
  // registry). Throw std::invalid_argument for an unknown name or a type
  // mismatch (a programming error). GetString works for strings and enums
  // (canonical option name); GetEnum returns the option's value (enums.h).
  int64_t GetInt(std::string_view name) const;
  double GetReal(std::string_view name) const;
  bool GetBool(std::string_view name) const;
  const std::string& GetString(std::string_view name) const;
  int GetEnum(std::string_view name) const;

  // The value as SHOW prints it ("128MB", "5min", "on"). Throws
  // std::invalid_argument for an unknown name.
  std::string Show(std::string_view name) const;

  Source GetSource(std::string_view name) const;

  // Raw access by registry index (for SessionSettings).
  const SettingValue& ValueAt(size_t index) const { return slots_[index].value; }
  Source SourceAt(size_t index) const { return slots_[index].source; }

  const HotSettings& hot() const { return hot_; }

 private:
  struct Slot {
    SettingValue value;
    Source source = Source::kDefault;
  };

  struct PendingValue {
    size_t index;
    SettingValue value;
  };

  // Validates every entry of a file; throws F0000 with file:line on error.
  std::vector<PendingValue> ValidateEntries(const std::vector<ConfEntry>& entries,
                                            std::string_view filename) const;
  void ApplyEntries(const std::vector<ConfEntry>& entries, std::string_view filename);
  ReloadResult ReloadEntries(const std::vector<ConfEntry>& entries,
                             std::string_view filename);
  size_t IndexOrThrow(std::string_view name) const;
  const SettingDef& DefOfType(std::string_view name, SettingType type, size_t* index) const;
  void RefreshHot();

  std::vector<Slot> slots_;
  HotSettings hot_;
};

// The process's Settings. The postmaster fills it before forking; children
// inherit it. Same thread-safety rules as Settings.
Settings& ProcessSettings();

}  // namespace hearth::config
