// config/session_settings.h
//
// SessionSettings: one backend's view of the settings. Created from the
// process Settings at backend start, then changed by the startup packet
// (ApplyStartupOption), SET / SET LOCAL / RESET / SET ... TO DEFAULT, and
// rolled back or kept at transaction end (AtTransactionEnd). It also tracks
// which GUC_REPORT settings changed, so the backend can send ParameterStatus
// before ReadyForQuery.
//
// Transaction semantics (as PostgreSQL): SET inside a transaction that
// aborts is undone; SET LOCAL lasts until the end of the current transaction
// either way; SET after SET LOCAL in one transaction makes the SET win; SET
// LOCAL after SET restores the SET value at commit. The backend must call
// AtTransactionEnd() at the end of EVERY transaction, implicit ones included;
// outside a transaction block SET LOCAL therefore has no lasting effect (the
// backend should warn "SET LOCAL can only be used in transaction blocks").
//
// Thread safety: none; owned by one backend's main thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/enums.h"
#include "config/registry.h"
#include "config/settings.h"

namespace hearth::config {

// One row of SHOW ALL.
struct ShowRow {
  std::string name;  // canonical spelling ("DateStyle")
  std::string setting;
  std::string description;
};

// One setting as pg_settings shows it: the typed value in effect and the
// RESET value, and where the value came from (PostgreSQL's source names:
// "default", "configuration file", "command line", "client", "session",
// "override").
struct SettingState {
  SettingValue value;
  SettingValue reset;
  std::string_view source;
};

// Session values read per statement or per row; refreshed on every change.
struct SessionHot {
  int extra_float_digits = 1;
  int64_t statement_timeout_ms = 0;
  int64_t lock_timeout_ms = 0;
  int64_t idle_in_transaction_session_timeout_ms = 0;
  int64_t client_connection_check_interval_ms = 0;
  int64_t deadlock_timeout_ms = 0;
  int64_t work_mem_kb = 0;
  double hash_mem_multiplier = 2.0;
  int64_t max_stack_depth_kb = 2048;
  int64_t temp_file_limit_kb = -1;
  int64_t commit_delay_us = 0;
  int64_t commit_siblings = 0;
  // Socket options of the client connection (0 = the system default).
  int64_t tcp_keepalives_idle_s = 0;
  int64_t tcp_keepalives_interval_s = 0;
  int64_t tcp_keepalives_count = 0;
  int64_t tcp_user_timeout_ms = 0;
  MessageLevel client_min_messages = MessageLevel::kNotice;
  MessageLevel log_min_messages = MessageLevel::kWarning;
  LogStatement log_statement = LogStatement::kNone;
  SynchronousCommit synchronous_commit = SynchronousCommit::kOn;
  IsolationLevel default_transaction_isolation = IsolationLevel::kReadCommitted;
  bool default_transaction_read_only = false;
  IntervalStyle interval_style = IntervalStyle::kPostgres;
  ByteaOutput bytea_output = ByteaOutput::kHex;
  // Planner method switches read at every planning.
  bool enable_hashjoin = true;
  bool enable_indexscan = true;
  // Read by every unqualified relation lookup.
  std::string search_path = "\"$user\", public";
  // The acting and session roles, read at every statement start (as SHOW
  // prints them: "none" / "" when not set).
  std::string role = "none";
  std::string session_authorization;
  // Read by date/time input and output (pushed to the type library).
  std::string timezone = "UTC";
  std::string datestyle = "ISO, MDY";
};

// Replaces what SHOW prints for an integer setting whose value is only known
// outside the registry (tcp_keepalives_* = 0 shows the socket's real value,
// as a plain number, as PostgreSQL does). Returns nullopt to show the stored
// value the usual way.
using ShowIntOverride =
    std::function<std::optional<std::string>(std::string_view name, int64_t stored)>;

using NameValueList = std::vector<std::pair<std::string, std::string>>;

class SessionSettings {
 public:
  // Snapshot of `base`'s current values; `base` is not referenced afterwards.
  explicit SessionSettings(const Settings& base);

  // --- startup ---------------------------------------------------------

  // Applies one key/value from the StartupMessage. "options" is parsed as a
  // command line (-c k=v, --k=v, backslash-escaped spaces); "user",
  // "database" and "replication" are not settings and are ignored (returns
  // false). Other keys must be user-context settings; the value also becomes
  // the session's RESET value. Errors are thrown with severity FATAL:
  // 42704 unknown name, 55P02 not settable, 22023/0A000 bad value,
  // 42601 malformed options string.
  bool ApplyStartupOption(std::string_view name, std::string_view value);

  // Server-side assignment that bypasses context checks (is_superuser,
  // session_authorization, transaction_isolation at transaction start).
  // Also becomes the RESET value. Throws 42704/22023.
  void SetInternal(std::string_view name, std::string_view value);

  // Server-side assignment that follows a SET in the same statement
  // (is_superuser after SET ROLE): no context check, but transactional
  // like SET [LOCAL], so a rollback undoes both together.
  void SetFollowing(std::string_view name, std::string_view value, bool is_local);

  // --- SQL commands ------------------------------------------------------

  // SET [LOCAL] name = v1, v2, ... `values` are the items as the parser read
  // them (identifiers or string constants, unquoted). List settings
  // (search_path, DateStyle) join items with ", " (search_path double-quotes
  // items that need it); others take exactly one item.
  // Throws DbError:
  //   42704 unrecognized configuration parameter "x"
  //   55P02 parameter "x" cannot be changed without restarting the server
  //   55P02 parameter "x" cannot be changed now           (sighup)
  //   55P02 parameter "x" cannot be changed               (internal)
  //   42601 SET x takes only one argument
  //   22023 / 0A000 from value parsing (see value_parse.h)
  void Set(std::string_view name, const std::vector<std::string>& values, bool is_local);

  // set_config(name, text, is_local): as Set, with `text` taken whole as the
  // value (list settings are not split or quoted). Same errors.
  void SetValueText(std::string_view name, std::string_view text, bool is_local);

  // SET [LOCAL] name TO DEFAULT: back to the RESET value. Same errors.
  void SetDefault(std::string_view name, bool is_local);

  // RESET name (same as SetDefault(name, false)).
  void Reset(std::string_view name);

  // RESET ALL: every user-context setting not flagged kNoResetAll.
  void ResetAll();

  // SHOW name. Throws 42704 for an unknown name.
  std::string Show(std::string_view name) const;

  // SHOW ALL rows, sorted case-insensitively by name.
  std::vector<ShowRow> ShowAll() const;

  // Setting AllSettings()[index] for pg_settings.
  SettingState StateAt(size_t index) const;

  // Installs the SHOW override for integer settings (see ShowIntOverride).
  void SetShowIntOverride(ShowIntOverride hook) { show_int_override_ = std::move(hook); }

  // End of a transaction (commit or abort): resolves SET/SET LOCAL as
  // described above. Cheap when nothing was set in the transaction.
  void AtTransactionEnd(bool commit);

  // --- ParameterStatus ---------------------------------------------------

  // Every GUC_REPORT setting with its current value, registry order, for the
  // startup ParameterStatus burst. Marks them all as reported.
  NameValueList ReportedParameters();

  // GUC_REPORT settings whose shown value differs from what was last
  // reported; marks them reported. O(1) when nothing changed since the last
  // call (call it before every ReadyForQuery).
  NameValueList TakeReportChanges();

  // --- SIGHUP ------------------------------------------------------------

  // Adopts new values from a reloaded Settings for every setting the session
  // has not set itself (neither by SET nor by the startup packet).
  void OnReload(const Settings& base);

  // --- typed access (base units; names case-insensitive) -------------------
  // Throw std::invalid_argument for an unknown name or a type mismatch.
  int64_t GetInt(std::string_view name) const;
  double GetReal(std::string_view name) const;
  bool GetBool(std::string_view name) const;
  const std::string& GetString(std::string_view name) const;
  int GetEnum(std::string_view name) const;

  const SessionHot& hot() const { return hot_; }

  // Called with the new values after every change of any setting (and once
  // when installed), so process-wide consumers (date/time I/O) follow SET,
  // RESET and transaction rollback.
  void SetHotListener(std::function<void(const SessionHot&)> listener) {
    hot_listener_ = std::move(listener);
    if (hot_listener_) hot_listener_(hot_);
  }

 private:
  std::function<void(const SessionHot&)> hot_listener_;
  enum class TxState { kNone, kSet, kLocal, kSetLocal };

  struct Slot {
    SettingValue value;       // in effect now
    SettingValue reset;       // what RESET / DEFAULT restores
    bool reset_pinned = false;  // reset came from the client/server: reload leaves it
    bool session_set = false;   // value set by SET (not equal to reset by origin)
    TxState tx = TxState::kNone;
    SettingValue tx_saved;       // value before this transaction's first change
    bool tx_saved_session_set = false;
    SettingValue masked;         // kSetLocal: the SET value to restore at commit
  };

  // Name lookup + context check for SET-like commands. Returns the index.
  size_t CheckSettable(std::string_view name) const;
  void Assign(size_t index, SettingValue value, bool is_local);
  void SetText(size_t index, std::string_view text, bool is_local);
  void MarkChanged(size_t index);
  const SettingValue& TypedValue(std::string_view name, SettingType type) const;
  void RefreshHot();
  std::string ShownValue(size_t index) const;

  std::vector<Slot> slots_;
  std::vector<Source> base_source_;          // per slot: where the server's value came from
  std::vector<size_t> touched_;              // slots with tx != kNone
  std::vector<std::string> last_reported_;   // per slot; used for kGucReport ones
  bool report_dirty_ = true;
  SessionHot hot_;
  ShowIntOverride show_int_override_;
};

}  // namespace hearth::config
