// config/registry.h
//
// The settings registry: one static, immutable table describing every setting
// Hearth knows (name, type, default, bounds, unit, context, flags, category,
// description), in the spirit of PostgreSQL's GUC tables. Everything else in
// config/ (parsing, Settings, SessionSettings, the sample file) is driven by it.
//
// Thread/process safety: the table is constant data; every function here is
// safe to call from any thread or process at any time.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace hearth::config {

enum class SettingType { kBool, kInt, kReal, kString, kEnum };

// Base unit of an int/real setting. Plain numbers are read in this unit and
// typed getters return values in it. Memory units accept B/kB/MB/GB/TB, time
// units accept us/ms/s/min/h/d.
enum class Unit {
  kNone,
  kBytes,
  kKilobytes,
  kMegabytes,
  kBlocks,  // 8 kB pages, like shared_buffers
  kMicroseconds,
  kMilliseconds,
  kSeconds,
  kMinutes,
};

// When a setting may change (PostgreSQL's GucContext, reduced).
enum class Context {
  kInternal,    // fixed by the server; read-only for everyone
  kPostmaster,  // file or command line, at server start only
  kSighup,      // file or command line; re-read on SIGHUP
  kUser,        // additionally per session: SET, startup packet
};

// Sections of hearth.conf.sample, in file order.
enum class Category {
  kFileLocations,
  kConnections,
  kResources,
  kWal,
  kQueryTuning,
  kLocks,
  kLogging,
  kAutovacuum,
  kClientDefaults,
  kCompatibility,
  kPreset,
};

// Flag bits for SettingDef::flags.
inline constexpr uint32_t kGucReport = 1u << 0;    // send ParameterStatus when it changes
inline constexpr uint32_t kListInput = 1u << 1;    // SET x = a, b joins the items with ", "
inline constexpr uint32_t kListQuote = 1u << 2;    // list items are double-quoted if needed
inline constexpr uint32_t kNoSample = 1u << 3;     // omitted from hearth.conf.sample
inline constexpr uint32_t kNoResetAll = 1u << 4;   // RESET ALL leaves it alone
// Changed only by SET/RESET after the session checked the caller may (role,
// session_authorization); refused in the startup packet.
inline constexpr uint32_t kSessionChecked = 1u << 5;

// One allowed value of an enum setting. `value` is what typed getters return
// (it matches the C++ enums in config/enums.h); hidden aliases are accepted
// on input but never shown (e.g. synchronous_commit = true → on).
struct EnumOption {
  std::string_view name;
  int value;
  bool hidden = false;
};

// A parsed value. Which member is meaningful depends on the setting's type:
// bool → i (0/1); int → i; real → r; string → s; enum → i (option value) and
// s (canonical option name).
struct SettingValue {
  int64_t i = 0;
  double r = 0;
  std::string s;

  bool operator==(const SettingValue&) const = default;
};

struct SettingDef;

// Optional validation/normalisation run after type parsing (e.g. TimeZone,
// client_encoding). May rewrite `value`; throws DbError to reject it.
// `current` is the value in effect, for settings where unspecified parts
// keep their old meaning (DateStyle "dmy" keeps the output style).
using CheckHook = void (*)(const SettingDef& def, SettingValue& value,
                           const SettingValue& current);

struct SettingDef {
  std::string_view name;  // canonical spelling, e.g. "DateStyle"
  SettingType type;
  Context context;
  Category category;
  std::string_view boot_value;  // default, written in hearth.conf syntax
  Unit unit = Unit::kNone;
  int64_t min_int = 0;  // bounds for kInt, in the base unit
  int64_t max_int = 0;
  double min_real = 0;  // bounds for kReal
  double max_real = 0;
  std::span<const EnumOption> options = {};  // kEnum only
  uint32_t flags = 0;
  std::string_view description;
  CheckHook check = nullptr;
};

// Every setting, in registry order (grouped by category; the order of
// hearth.conf.sample). Indices into this span are stable within a build and
// are what Settings/SessionSettings use internally.
std::span<const SettingDef> AllSettings();

// Case-insensitive lookup. Returns nullptr for an unknown name.
const SettingDef* FindSetting(std::string_view name);

// Index of `def` in AllSettings(). REQUIRES: def points into the table.
size_t SettingIndex(const SettingDef& def);

// Index by name, or -1 when unknown (case-insensitive).
int FindSettingIndex(std::string_view name);

// Human-readable names, used in messages, SHOW ALL and the sample file.
std::string_view UnitName(Unit unit);        // "kB", "8kB", "ms", "" for kNone
std::string_view CategoryTitle(Category c);  // "WRITE-AHEAD LOG"
std::string_view ContextName(Context c);     // "internal", "postmaster", ...

// ASCII case-insensitive equality, as used for setting names and enum values.
bool NamesEqual(std::string_view a, std::string_view b);

}  // namespace hearth::config
