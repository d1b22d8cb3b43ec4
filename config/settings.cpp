// config/settings.cpp
//
// Principal entry points: Settings::ApplyFile(), ApplyCommandLine(), Reload(),
// the typed getters and Show().

#include "config/settings.h"

#include <optional>
#include <stdexcept>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "config/value_parse.h"

namespace hearth::config {
namespace {

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

DbError Unrecognized(std::string_view name) {
  return DbError(sqlstate::kUndefinedObject,
                 "unrecognized configuration parameter " + Quoted(name));
}

// Re-raises `e` as a config-file error located at filename:line.
DbError AtLine(std::string_view filename, int line, const DbError& e) {
  DbError out(kConfigFileError,
              std::string(filename) + ":" + std::to_string(line) + ": " + e.message());
  if (!e.hint().empty()) out.WithHint(e.hint());
  if (!e.detail().empty()) out.WithDetail(e.detail());
  return out;
}

}  // namespace

Settings::Settings() {
  auto all = AllSettings();
  slots_.resize(all.size());
  for (size_t i = 0; i < all.size(); ++i) slots_[i].value = BootValue(all[i]);
  RefreshHot();
}

std::vector<Settings::PendingValue> Settings::ValidateEntries(
    const std::vector<ConfEntry>& entries, std::string_view filename) const {
  std::vector<PendingValue> pending;
  for (const ConfEntry& e : entries) {
    int idx = FindSettingIndex(e.name);
    if (idx < 0) throw AtLine(filename, e.line, Unrecognized(e.name));
    const SettingDef& def = AllSettings()[idx];
    if (def.context == Context::kInternal) {
      throw AtLine(filename, e.line,
                   DbError(sqlstate::kCantChangeRuntimeParam,
                           "parameter " + Quoted(def.name) + " cannot be changed"));
    }
    try {
      pending.push_back({static_cast<size_t>(idx),
                         ParseSettingValue(def, e.value, slots_[idx].value)});
    } catch (const DbError& err) {
      throw AtLine(filename, e.line, err);
    }
  }
  return pending;
}

void Settings::ApplyFile(const std::string& path) { ApplyEntries(ReadConfFile(path), path); }

void Settings::ApplyConfText(std::string_view text, std::string_view filename) {
  ApplyEntries(ParseConfText(text, filename), filename);
}

void Settings::ApplyEntries(const std::vector<ConfEntry>& entries, std::string_view filename) {
  std::vector<PendingValue> pending = ValidateEntries(entries, filename);
  for (PendingValue& p : pending) {
    Slot& slot = slots_[p.index];
    if (slot.source == Source::kCommandLine || slot.source == Source::kInternal) continue;
    slot.value = std::move(p.value);
    slot.source = Source::kFile;
  }
  RefreshHot();
}

void Settings::ApplyCommandLine(std::string_view name, std::string_view value) {
  int idx = FindSettingIndex(name);
  if (idx < 0) throw Unrecognized(name);
  const SettingDef& def = AllSettings()[idx];
  if (def.context == Context::kInternal) {
    throw DbError(sqlstate::kCantChangeRuntimeParam,
                  "parameter " + Quoted(def.name) + " cannot be changed");
  }
  slots_[idx].value = ParseSettingValue(def, value, slots_[idx].value);
  slots_[idx].source = Source::kCommandLine;
  RefreshHot();
}

ReloadResult Settings::Reload(const std::string& path) {
  return ReloadEntries(ReadConfFile(path), path);
}

ReloadResult Settings::ReloadConfText(std::string_view text, std::string_view filename) {
  return ReloadEntries(ParseConfText(text, filename), filename);
}

ReloadResult Settings::ReloadEntries(const std::vector<ConfEntry>& entries,
                                     std::string_view filename) {
  std::vector<PendingValue> pending = ValidateEntries(entries, filename);
  auto all = AllSettings();
  std::vector<std::optional<SettingValue>> from_file(all.size());
  for (PendingValue& p : pending) from_file[p.index] = std::move(p.value);  // last wins

  ReloadResult result;
  for (size_t i = 0; i < all.size(); ++i) {
    const SettingDef& def = all[i];
    Slot& slot = slots_[i];
    if (def.context == Context::kInternal) continue;
    if (slot.source == Source::kCommandLine || slot.source == Source::kInternal) continue;
    const SettingValue& target = from_file[i] ? *from_file[i] : BootValue(def);
    Source target_source = from_file[i] ? Source::kFile : Source::kDefault;
    if (def.context == Context::kPostmaster) {
      if (!(target == slot.value)) {
        result.ignored_restart_required.emplace_back(def.name);
      } else {
        slot.source = target_source;
      }
      continue;
    }
    if (!(target == slot.value)) {
      result.changed.emplace_back(def.name);
      slot.value = target;
    }
    slot.source = target_source;
  }
  RefreshHot();
  return result;
}

void Settings::SetInternal(std::string_view name, std::string_view value) {
  int idx = FindSettingIndex(name);
  if (idx < 0) throw Unrecognized(name);
  slots_[idx].value = ParseSettingValue(AllSettings()[idx], value, slots_[idx].value);
  slots_[idx].source = Source::kInternal;
  RefreshHot();
}

size_t Settings::IndexOrThrow(std::string_view name) const {
  int idx = FindSettingIndex(name);
  if (idx < 0) throw std::invalid_argument("unknown setting: " + std::string(name));
  return static_cast<size_t>(idx);
}

const SettingDef& Settings::DefOfType(std::string_view name, SettingType type,
                                      size_t* index) const {
  *index = IndexOrThrow(name);
  const SettingDef& def = AllSettings()[*index];
  if (def.type != type) {
    throw std::invalid_argument("setting " + std::string(def.name) + " has another type");
  }
  return def;
}

int64_t Settings::GetInt(std::string_view name) const {
  size_t i;
  DefOfType(name, SettingType::kInt, &i);
  return slots_[i].value.i;
}

double Settings::GetReal(std::string_view name) const {
  size_t i;
  DefOfType(name, SettingType::kReal, &i);
  return slots_[i].value.r;
}

bool Settings::GetBool(std::string_view name) const {
  size_t i;
  DefOfType(name, SettingType::kBool, &i);
  return slots_[i].value.i != 0;
}

const std::string& Settings::GetString(std::string_view name) const {
  size_t i = IndexOrThrow(name);
  SettingType t = AllSettings()[i].type;
  if (t != SettingType::kString && t != SettingType::kEnum) {
    throw std::invalid_argument("setting " + std::string(name) + " is not a string");
  }
  return slots_[i].value.s;
}

int Settings::GetEnum(std::string_view name) const {
  size_t i;
  DefOfType(name, SettingType::kEnum, &i);
  return static_cast<int>(slots_[i].value.i);
}

std::string Settings::Show(std::string_view name) const {
  size_t i = IndexOrThrow(name);
  return FormatSettingValue(AllSettings()[i], slots_[i].value);
}

Source Settings::GetSource(std::string_view name) const {
  return slots_[IndexOrThrow(name)].source;
}

void Settings::RefreshHot() {
  HotSettings h;
  h.port = GetInt("port");
  h.max_connections = GetInt("max_connections");
  h.shared_buffers_blocks = GetInt("shared_buffers");
  h.wal_buffers_blocks = GetInt("wal_buffers");
  h.work_mem_kb = GetInt("work_mem");
  h.maintenance_work_mem_kb = GetInt("maintenance_work_mem");
  h.max_message_size_bytes = GetInt("max_message_size");
  h.authentication_timeout_s = GetInt("authentication_timeout");
  h.fsync = GetBool("fsync");
  h.full_page_writes = GetBool("full_page_writes");
  h.synchronous_commit = static_cast<SynchronousCommit>(GetEnum("synchronous_commit"));
  h.wal_sync_method = static_cast<WalSyncMethod>(GetEnum("wal_sync_method"));
  h.wal_level = static_cast<WalLevel>(GetEnum("wal_level"));
  h.commit_delay_us = GetInt("commit_delay");
  h.commit_siblings = GetInt("commit_siblings");
  h.wal_writer_delay_ms = GetInt("wal_writer_delay");
  h.wal_writer_flush_after_blocks = GetInt("wal_writer_flush_after");
  h.bgwriter_delay_ms = GetInt("bgwriter_delay");
  h.bgwriter_lru_maxpages = GetInt("bgwriter_lru_maxpages");
  h.bgwriter_lru_multiplier = GetReal("bgwriter_lru_multiplier");
  h.checkpoint_timeout_s = GetInt("checkpoint_timeout");
  h.checkpoint_completion_target = GetReal("checkpoint_completion_target");
  h.max_wal_size_mb = GetInt("max_wal_size");
  h.min_wal_size_mb = GetInt("min_wal_size");
  h.deadlock_timeout_ms = GetInt("deadlock_timeout");
  h.log_min_messages = static_cast<MessageLevel>(GetEnum("log_min_messages"));
  h.log_statement = static_cast<LogStatement>(GetEnum("log_statement"));
  hot_ = h;
}

Settings& ProcessSettings() {
  static Settings settings;
  return settings;
}

}  // namespace hearth::config
