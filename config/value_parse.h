// config/value_parse.h
//
// Text ↔ value conversion for settings, with PostgreSQL's syntax and error
// messages: booleans (on/off/true/false/yes/no/1/0 and unique prefixes),
// integers and reals with units ('128MB', '200ms', '1min'), enums
// (case-insensitive), bounds checks, and SHOW-style formatting.
// Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/registry.h"

namespace hearth::config {

// PostgreSQL's boolean spellings, case-insensitive: on, off, true, false,
// yes, no, 1, 0 and unique prefixes ("t", "of"; "o" is ambiguous).
// Returns nullopt when `text` is none of them.
std::optional<bool> ParseBoolText(std::string_view text);

// Number with optional unit converted to `base` (rounded to the nearest
// integer, as PostgreSQL does for fractional input such as '1.5GB').
// Memory units: B kB MB GB TB; time units: us ms s min h d (case-sensitive).
// Returns nullopt on malformed text, a unit of the wrong kind, or a unit given
// for a unitless setting. Does not check bounds.
std::optional<int64_t> ParseIntWithUnit(std::string_view text, Unit base);

// Like ParseIntWithUnit but keeps the fraction.
std::optional<double> ParseRealWithUnit(std::string_view text, Unit base);

// The HINT PostgreSQL gives for a unit-bearing setting ("Valid units for this
// parameter are ..."), or "" for unitless ones.
std::string UnitsHint(Unit base);

// Parses `text` for setting `def`: type conversion, bounds, enum lookup and
// the setting's check hook (which may normalise the value). `current` is the
// value in effect (passed to check hooks).
// Throws DbError 22023 with PostgreSQL's messages:
//   parameter "x" requires a Boolean value
//   invalid value for parameter "x": "y"   (+ units / available values hint)
//   parameter "x" requires a numeric value
//   10 kB is outside the valid range for parameter "x" (64 kB .. 2147483647 kB)
// and whatever the check hook throws.
SettingValue ParseSettingValue(const SettingDef& def, std::string_view text,
                               const SettingValue& current);

// Same, with `current` = the setting's parsed default (for contexts that have
// no current value, e.g. validating a config file).
SettingValue ParseSettingValue(const SettingDef& def, std::string_view text);

// The parsed default (boot_value) of `def`, computed once per process.
// Throws DbError only if the registry itself is broken (a unit test checks).
const SettingValue& BootValue(const SettingDef& def);

// The value as SHOW prints it: ints with units in the largest unit that
// represents them exactly ("128MB", "5min", "200ms"; 0 and negatives bare),
// reals with %g, booleans on/off, enums by canonical name, strings verbatim.
std::string FormatSettingValue(const SettingDef& def, const SettingValue& value);

}  // namespace hearth::config
