// config/session_settings.cpp
//
// Principal entry points: SessionSettings::Set(), SetDefault(), ResetAll(),
// Show(), ShowAll(), AtTransactionEnd(), ApplyStartupOption(),
// TakeReportChanges().

#include "config/session_settings.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "config/options_parse.h"
#include "config/value_parse.h"

namespace hearth::config {
namespace {

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// Double-quotes a list item unless it is a plain lower-case identifier, as
// PostgreSQL's quote_identifier does (keywords are not special-cased).
std::string QuoteListItem(const std::string& item) {
  bool safe = !item.empty() && ((item[0] >= 'a' && item[0] <= 'z') || item[0] == '_');
  for (char c : item) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) safe = false;
  }
  if (safe) return item;
  std::string out = "\"";
  for (char c : item) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

DbError AsFatal(const DbError& e) {
  DbError f(e.sqlstate(), e.message(), Severity::kFatal);
  if (!e.hint().empty()) f.WithHint(e.hint());
  if (!e.detail().empty()) f.WithDetail(e.detail());
  return f;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

SessionSettings::SessionSettings(const Settings& base) {
  auto all = AllSettings();
  slots_.resize(all.size());
  base_source_.resize(all.size());
  last_reported_.resize(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    slots_[i].value = base.ValueAt(i);
    slots_[i].reset = base.ValueAt(i);
    base_source_[i] = base.SourceAt(i);
  }
  RefreshHot();
}

size_t SessionSettings::CheckSettable(std::string_view name) const {
  int idx = FindSettingIndex(name);
  if (idx < 0) {
    throw DbError(sqlstate::kUndefinedObject,
                  "unrecognized configuration parameter " + Quoted(name));
  }
  const SettingDef& def = AllSettings()[idx];
  switch (def.context) {
    case Context::kInternal:
      throw DbError(sqlstate::kCantChangeRuntimeParam,
                    "parameter " + Quoted(def.name) + " cannot be changed");
    case Context::kPostmaster:
      throw DbError(sqlstate::kCantChangeRuntimeParam,
                    "parameter " + Quoted(def.name) +
                        " cannot be changed without restarting the server");
    case Context::kSighup:
      throw DbError(sqlstate::kCantChangeRuntimeParam,
                    "parameter " + Quoted(def.name) + " cannot be changed now");
    case Context::kUser:
      break;
  }
  return static_cast<size_t>(idx);
}

void SessionSettings::MarkChanged(size_t index) {
  if (AllSettings()[index].flags & kGucReport) report_dirty_ = true;
}

void SessionSettings::Assign(size_t index, SettingValue value, bool is_local) {
  Slot& s = slots_[index];
  if (s.tx == TxState::kNone) {
    s.tx_saved = s.value;
    s.tx_saved_session_set = s.session_set;
    touched_.push_back(index);
  }
  if (is_local) {
    if (s.tx == TxState::kNone) {
      s.tx = TxState::kLocal;
    } else if (s.tx == TxState::kSet) {
      s.masked = s.value;  // the SET value comes back at commit
      s.tx = TxState::kSetLocal;
    }
  } else {
    s.tx = TxState::kSet;
  }
  s.value = std::move(value);
  MarkChanged(index);
}

void SessionSettings::Set(std::string_view name, const std::vector<std::string>& values,
                          bool is_local) {
  size_t idx = CheckSettable(name);
  const SettingDef& def = AllSettings()[idx];
  if (values.empty()) {
    throw DbError(sqlstate::kSyntaxError, "SET " + std::string(def.name) + " requires a value");
  }
  if (values.size() > 1 && !(def.flags & kListInput)) {
    throw DbError(sqlstate::kSyntaxError,
                  "SET " + std::string(def.name) + " takes only one argument");
  }
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += (def.flags & kListQuote) ? QuoteListItem(values[i]) : values[i];
  }
  SetText(idx, text, is_local);
}

void SessionSettings::SetValueText(std::string_view name, std::string_view text, bool is_local) {
  SetText(CheckSettable(name), text, is_local);
}

void SessionSettings::SetText(size_t idx, std::string_view text, bool is_local) {
  SettingValue v = ParseSettingValue(AllSettings()[idx], text, slots_[idx].value);
  Assign(idx, std::move(v), is_local);
  if (!is_local) slots_[idx].session_set = true;
  RefreshHot();
}

void SessionSettings::SetDefault(std::string_view name, bool is_local) {
  size_t idx = CheckSettable(name);
  Assign(idx, slots_[idx].reset, is_local);
  if (!is_local) slots_[idx].session_set = false;
  RefreshHot();
}

void SessionSettings::Reset(std::string_view name) { SetDefault(name, false); }

void SessionSettings::ResetAll() {
  auto all = AllSettings();
  for (size_t i = 0; i < all.size(); ++i) {
    const SettingDef& def = all[i];
    if (def.context != Context::kUser || (def.flags & kNoResetAll)) continue;
    Slot& s = slots_[i];
    if (s.value == s.reset && !s.session_set) continue;
    Assign(i, s.reset, false);
    s.session_set = false;
  }
  RefreshHot();
}

void SessionSettings::SetFollowing(std::string_view name, std::string_view value, bool is_local) {
  int idx = FindSettingIndex(name);
  if (idx < 0) {
    throw DbError(sqlstate::kUndefinedObject,
                  "unrecognized configuration parameter " + Quoted(name));
  }
  Assign(static_cast<size_t>(idx), ParseSettingValue(AllSettings()[idx], value, slots_[idx].value), is_local);
  RefreshHot();
}

void SessionSettings::SetInternal(std::string_view name, std::string_view value) {
  int idx = FindSettingIndex(name);
  if (idx < 0) {
    throw DbError(sqlstate::kUndefinedObject,
                  "unrecognized configuration parameter " + Quoted(name));
  }
  Slot& s = slots_[idx];
  SettingValue v = ParseSettingValue(AllSettings()[idx], value, s.value);
  // Nothing to change (transaction_isolation at every transaction start):
  // no report, no refresh of the hot copy.
  if (s.reset_pinned && !s.session_set && !s.tx_saved_session_set && s.value == v && s.reset == v &&
      s.tx_saved == v && s.masked == v) {
    return;
  }
  s.value = v;
  s.reset = v;
  s.reset_pinned = true;
  s.session_set = false;
  // Not transactional: survives a rollback of the current transaction.
  s.tx_saved = v;
  s.tx_saved_session_set = false;
  s.masked = v;
  MarkChanged(idx);
  RefreshHot();
}

bool SessionSettings::ApplyStartupOption(std::string_view name, std::string_view value) {
  try {
    if (name == "user" || name == "database" || name == "replication") return false;
    if (name == "options") {
      for (const auto& [k, v] : ParseOptionsString(value)) ApplyStartupOption(k, v);
      return true;
    }
    size_t idx = CheckSettable(name);
    if (AllSettings()[idx].flags & kSessionChecked) {
      throw DbError(sqlstate::kInsufficientPrivilege,
                    "permission denied to set parameter " + Quoted(AllSettings()[idx].name));
    }
    Slot& s = slots_[idx];
    SettingValue v = ParseSettingValue(AllSettings()[idx], value, s.value);
    s.value = v;
    s.reset = std::move(v);
    s.reset_pinned = true;
    s.session_set = false;
    MarkChanged(idx);
    RefreshHot();
    return true;
  } catch (const DbError& e) {
    if (e.severity() == Severity::kFatal) throw;
    throw AsFatal(e);
  }
}

std::string SessionSettings::Show(std::string_view name) const {
  int idx = FindSettingIndex(name);
  if (idx < 0) {
    throw DbError(sqlstate::kUndefinedObject,
                  "unrecognized configuration parameter " + Quoted(name));
  }
  return ShownValue(static_cast<size_t>(idx));
}

std::string SessionSettings::ShownValue(size_t index) const {
  const SettingDef& def = AllSettings()[index];
  if (show_int_override_ && def.type == SettingType::kInt) {
    if (auto shown = show_int_override_(def.name, slots_[index].value.i)) return *shown;
  }
  return FormatSettingValue(def, slots_[index].value);
}

std::vector<ShowRow> SessionSettings::ShowAll() const {
  auto all = AllSettings();
  std::vector<ShowRow> rows;
  rows.reserve(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    rows.push_back({std::string(all[i].name), ShownValue(i),
                    std::string(all[i].description)});
  }
  std::sort(rows.begin(), rows.end(),
            [](const ShowRow& a, const ShowRow& b) { return Lower(a.name) < Lower(b.name); });
  return rows;
}

SettingState SessionSettings::StateAt(size_t index) const {
  const Slot& s = slots_[index];
  std::string_view source = "default";
  if (s.session_set || s.tx != TxState::kNone) {
    source = "session";
  } else if (s.reset_pinned) {
    source = AllSettings()[index].context == Context::kInternal ? "override" : "client";
  } else {
    switch (base_source_[index]) {
      case Source::kDefault: source = "default"; break;
      case Source::kFile: source = "configuration file"; break;
      case Source::kCommandLine: source = "command line"; break;
      case Source::kInternal: source = "override"; break;
    }
  }
  return SettingState{s.value, s.reset, source};
}

void SessionSettings::AtTransactionEnd(bool commit) {
  if (touched_.empty()) return;
  for (size_t idx : touched_) {
    Slot& s = slots_[idx];
    if (!commit) {
      s.value = s.tx_saved;
      s.session_set = s.tx_saved_session_set;
    } else if (s.tx == TxState::kLocal) {
      s.value = s.tx_saved;
    } else if (s.tx == TxState::kSetLocal) {
      s.value = s.masked;
    }
    s.tx = TxState::kNone;
    MarkChanged(idx);
  }
  touched_.clear();
  RefreshHot();
}

NameValueList SessionSettings::ReportedParameters() {
  NameValueList out;
  auto all = AllSettings();
  for (size_t i = 0; i < all.size(); ++i) {
    if (!(all[i].flags & kGucReport)) continue;
    last_reported_[i] = FormatSettingValue(all[i], slots_[i].value);
    out.emplace_back(std::string(all[i].name), last_reported_[i]);
  }
  report_dirty_ = false;
  return out;
}

NameValueList SessionSettings::TakeReportChanges() {
  NameValueList out;
  if (!report_dirty_) return out;
  auto all = AllSettings();
  for (size_t i = 0; i < all.size(); ++i) {
    if (!(all[i].flags & kGucReport)) continue;
    std::string shown = FormatSettingValue(all[i], slots_[i].value);
    if (shown == last_reported_[i]) continue;
    last_reported_[i] = shown;
    out.emplace_back(std::string(all[i].name), std::move(shown));
  }
  report_dirty_ = false;
  return out;
}

void SessionSettings::OnReload(const Settings& base) {
  auto all = AllSettings();
  for (size_t i = 0; i < all.size(); ++i) {
    Context c = all[i].context;
    if (c != Context::kUser && c != Context::kSighup) continue;
    Slot& s = slots_[i];
    base_source_[i] = base.SourceAt(i);
    if (!s.reset_pinned) s.reset = base.ValueAt(i);
    if (!s.session_set && s.tx == TxState::kNone && !(s.value == s.reset)) {
      s.value = s.reset;
      MarkChanged(i);
    }
  }
  RefreshHot();
}

const SettingValue& SessionSettings::TypedValue(std::string_view name, SettingType type) const {
  int idx = FindSettingIndex(name);
  if (idx < 0) throw std::invalid_argument("unknown setting: " + std::string(name));
  SettingType t = AllSettings()[idx].type;
  bool ok = t == type || (type == SettingType::kString && t == SettingType::kEnum);
  if (!ok) throw std::invalid_argument("setting " + std::string(name) + " has another type");
  return slots_[idx].value;
}

int64_t SessionSettings::GetInt(std::string_view name) const {
  return TypedValue(name, SettingType::kInt).i;
}
double SessionSettings::GetReal(std::string_view name) const {
  return TypedValue(name, SettingType::kReal).r;
}
bool SessionSettings::GetBool(std::string_view name) const {
  return TypedValue(name, SettingType::kBool).i != 0;
}
const std::string& SessionSettings::GetString(std::string_view name) const {
  return TypedValue(name, SettingType::kString).s;
}
int SessionSettings::GetEnum(std::string_view name) const {
  return static_cast<int>(TypedValue(name, SettingType::kEnum).i);
}

void SessionSettings::RefreshHot() {
  SessionHot h;
  h.extra_float_digits = static_cast<int>(GetInt("extra_float_digits"));
  h.statement_timeout_ms = GetInt("statement_timeout");
  h.client_connection_check_interval_ms = GetInt("client_connection_check_interval");
  h.lock_timeout_ms = GetInt("lock_timeout");
  h.idle_in_transaction_session_timeout_ms = GetInt("idle_in_transaction_session_timeout");
  h.deadlock_timeout_ms = GetInt("deadlock_timeout");
  h.work_mem_kb = GetInt("work_mem");
  h.hash_mem_multiplier = GetReal("hash_mem_multiplier");
  h.max_stack_depth_kb = GetInt("max_stack_depth");
  h.temp_file_limit_kb = GetInt("temp_file_limit");
  h.commit_delay_us = GetInt("commit_delay");
  h.commit_siblings = GetInt("commit_siblings");
  h.tcp_keepalives_idle_s = GetInt("tcp_keepalives_idle");
  h.tcp_keepalives_interval_s = GetInt("tcp_keepalives_interval");
  h.tcp_keepalives_count = GetInt("tcp_keepalives_count");
  h.tcp_user_timeout_ms = GetInt("tcp_user_timeout");
  h.client_min_messages = static_cast<MessageLevel>(GetEnum("client_min_messages"));
  h.log_min_messages = static_cast<MessageLevel>(GetEnum("log_min_messages"));
  h.log_statement = static_cast<LogStatement>(GetEnum("log_statement"));
  h.synchronous_commit = static_cast<SynchronousCommit>(GetEnum("synchronous_commit"));
  h.default_transaction_isolation =
      static_cast<IsolationLevel>(GetEnum("default_transaction_isolation"));
  h.default_transaction_read_only = GetBool("default_transaction_read_only");
  h.interval_style = static_cast<IntervalStyle>(GetEnum("IntervalStyle"));
  h.bytea_output = static_cast<ByteaOutput>(GetEnum("bytea_output"));
  h.enable_hashjoin = GetBool("enable_hashjoin");
  h.enable_indexscan = GetBool("enable_indexscan");
  h.search_path = GetString("search_path");
  h.role = Show("role");
  h.session_authorization = Show("session_authorization");
  h.timezone = GetString("TimeZone");
  h.datestyle = GetString("DateStyle");
  hot_ = h;
  if (hot_listener_) hot_listener_(hot_);
}

}  // namespace hearth::config
