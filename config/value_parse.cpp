// config/value_parse.cpp
//
// Principal entry points: ParseSettingValue(), FormatSettingValue(),
// ParseBoolText(), ParseIntWithUnit().

#include "config/value_parse.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::config {
namespace {

struct UnitFactor {
  std::string_view name;
  double factor;  // bytes for memory units, microseconds for time units
};

// Largest first: FormatSettingValue picks the first that divides exactly.
constexpr UnitFactor kMemoryUnits[] = {
    {"TB", 1099511627776.0}, {"GB", 1073741824.0}, {"MB", 1048576.0},
    {"kB", 1024.0},          {"B", 1.0},
};
constexpr UnitFactor kTimeUnits[] = {
    {"d", 86400e6}, {"h", 3600e6}, {"min", 60e6}, {"s", 1e6}, {"ms", 1e3}, {"us", 1.0},
};

bool IsMemory(Unit u) {
  return u == Unit::kBytes || u == Unit::kKilobytes || u == Unit::kMegabytes ||
         u == Unit::kBlocks;
}
bool IsTime(Unit u) {
  return u == Unit::kMicroseconds || u == Unit::kMilliseconds || u == Unit::kSeconds ||
         u == Unit::kMinutes;
}

// Size of one base unit in bytes (memory) or microseconds (time).
double BaseFactor(Unit u) {
  switch (u) {
    case Unit::kBytes: return 1.0;
    case Unit::kKilobytes: return 1024.0;
    case Unit::kMegabytes: return 1048576.0;
    case Unit::kBlocks: return 8192.0;
    case Unit::kMicroseconds: return 1.0;
    case Unit::kMilliseconds: return 1e3;
    case Unit::kSeconds: return 1e6;
    case Unit::kMinutes: return 60e6;
    case Unit::kNone: return 1.0;
  }
  return 1.0;
}

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Parses "<number>[ ]<unit>" into the number scaled to `base`.
std::optional<double> ParseScaled(std::string_view text, Unit base) {
  std::string s(Trim(text));
  if (s.empty()) return std::nullopt;
  size_t p = 0;
  if (s[p] == '+' || s[p] == '-') ++p;
  if (p >= s.size() || !(std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == '.')) {
    return std::nullopt;
  }
  const char* start = s.c_str();
  char* end = nullptr;
  double num = std::strtod(start, &end);
  if (end == start) return std::nullopt;
  std::string_view consumed(start, static_cast<size_t>(end - start));
  // strtod also reads hex floats; PostgreSQL's syntax here is decimal only.
  if (consumed.find_first_of("xX") != std::string_view::npos) return std::nullopt;
  if (!std::isfinite(num)) return std::nullopt;
  std::string_view unit = Trim(std::string_view(end));
  if (unit.empty()) return num;
  if (base == Unit::kNone) return std::nullopt;
  std::span<const UnitFactor> table;
  if (IsMemory(base)) table = kMemoryUnits;
  else if (IsTime(base)) table = kTimeUnits;
  for (const UnitFactor& u : table) {
    if (u.name == unit) return num * u.factor / BaseFactor(base);  // case-sensitive, as PG
  }
  return std::nullopt;
}

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string WithUnit(std::string number, Unit unit) {
  if (unit == Unit::kNone) return number;
  return number + " " + std::string(UnitName(unit));
}

std::string FormatReal(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

DbError InvalidValue(const SettingDef& def, std::string_view text) {
  DbError e(sqlstate::kInvalidParameterValue,
            "invalid value for parameter " + Quoted(def.name) + ": " + Quoted(text));
  // As PostgreSQL: the units hint only when a number came with a bad unit
  // ('5 parsecs'), not for text that is no number at all ('abc').
  size_t i = text.find_first_not_of(" \t");
  bool starts_numeric = i != std::string_view::npos &&
                        (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '-' || text[i] == '+' ||
                         text[i] == '.');
  if (starts_numeric) {
    if (std::string hint = UnitsHint(def.unit); !hint.empty()) e.WithHint(std::move(hint));
  }
  return e;
}

std::string_view CanonicalEnumName(const SettingDef& def, int value) {
  for (const EnumOption& o : def.options) {
    if (!o.hidden && o.value == value) return o.name;
  }
  return "";
}

}  // namespace

std::optional<bool> ParseBoolText(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string l(text);
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto prefix_of = [&](std::string_view word) { return word.starts_with(l); };
  if (prefix_of("true") || prefix_of("yes")) return true;
  if (prefix_of("false") || prefix_of("no")) return false;
  // "o" alone is ambiguous between on and off.
  if (l.size() >= 2 && prefix_of("on")) return true;
  if (l.size() >= 2 && prefix_of("off")) return false;
  if (l == "1") return true;
  if (l == "0") return false;
  return std::nullopt;
}

std::optional<int64_t> ParseIntWithUnit(std::string_view text, Unit base) {
  std::optional<double> v = ParseScaled(text, base);
  if (!v) return std::nullopt;
  double r = std::rint(*v);
  if (r < -9.2e18 || r > 9.2e18) return std::nullopt;
  return static_cast<int64_t>(r);
}

std::optional<double> ParseRealWithUnit(std::string_view text, Unit base) {
  return ParseScaled(text, base);
}

std::string UnitsHint(Unit base) {
  if (IsMemory(base)) {
    return "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".";
  }
  if (IsTime(base)) {
    return "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", "
           "and \"d\".";
  }
  return "";
}

SettingValue ParseSettingValue(const SettingDef& def, std::string_view text,
                               const SettingValue& current) {
  SettingValue v;
  switch (def.type) {
    case SettingType::kBool: {
      std::optional<bool> b = ParseBoolText(Trim(text));
      if (!b) {
        throw DbError(sqlstate::kInvalidParameterValue,
                      "parameter " + Quoted(def.name) + " requires a Boolean value");
      }
      v.i = *b ? 1 : 0;
      break;
    }
    case SettingType::kInt: {
      std::optional<double> scaled = ParseScaled(text, def.unit);
      if (!scaled) throw InvalidValue(def, text);
      double r = std::rint(*scaled);
      if (r < -9.2e18 || r > 9.2e18) {
        throw DbError(sqlstate::kInvalidParameterValue,
                      "invalid value for parameter " + Quoted(def.name) + ": " + Quoted(text))
            .WithHint("Value exceeds integer range.");
      }
      v.i = static_cast<int64_t>(r);
      if (v.i < def.min_int || v.i > def.max_int) {
        throw DbError(sqlstate::kInvalidParameterValue,
                      WithUnit(std::to_string(v.i), def.unit) +
                          " is outside the valid range for parameter " + Quoted(def.name) +
                          " (" + std::to_string(def.min_int) + " .. " + std::to_string(def.max_int) + ")");
      }
      break;
    }
    case SettingType::kReal: {
      std::optional<double> r = ParseScaled(text, def.unit);
      if (!r) {
        DbError e(sqlstate::kInvalidParameterValue,
                  "parameter " + Quoted(def.name) + " requires a numeric value");
        if (std::string hint = UnitsHint(def.unit); !hint.empty()) e.WithHint(hint);
        throw e;
      }
      v.r = *r;
      if (v.r < def.min_real || v.r > def.max_real) {
        throw DbError(sqlstate::kInvalidParameterValue,
                      WithUnit(FormatReal(v.r), def.unit) +
                          " is outside the valid range for parameter " + Quoted(def.name) +
                          " (" + FormatReal(def.min_real) + " .. " + FormatReal(def.max_real) + ")");
      }
      break;
    }
    case SettingType::kString:
      v.s = std::string(text);
      break;
    case SettingType::kEnum: {
      std::string_view t = Trim(text);
      const EnumOption* found = nullptr;
      for (const EnumOption& o : def.options) {
        if (NamesEqual(o.name, t)) {
          found = &o;
          break;
        }
      }
      if (!found) {
        std::string hint = "Available values: ";
        bool first = true;
        for (const EnumOption& o : def.options) {
          if (o.hidden) continue;
          if (!first) hint += ", ";
          hint += o.name;
          first = false;
        }
        hint += ".";
        throw DbError(sqlstate::kInvalidParameterValue,
                      "invalid value for parameter " + Quoted(def.name) + ": " + Quoted(text))
            .WithHint(std::move(hint));
      }
      v.i = found->value;
      v.s = std::string(CanonicalEnumName(def, found->value));
      break;
    }
  }
  if (def.check != nullptr) def.check(def, v, current);
  return v;
}

SettingValue ParseSettingValue(const SettingDef& def, std::string_view text) {
  return ParseSettingValue(def, text, BootValue(def));
}

const SettingValue& BootValue(const SettingDef& def) {
  static const std::vector<SettingValue> boot = [] {
    std::vector<SettingValue> v;
    for (const SettingDef& d : AllSettings()) {
      v.push_back(ParseSettingValue(d, d.boot_value, SettingValue{}));
    }
    return v;
  }();
  return boot[SettingIndex(def)];
}

std::string FormatSettingValue(const SettingDef& def, const SettingValue& value) {
  switch (def.type) {
    case SettingType::kBool:
      return value.i != 0 ? "on" : "off";
    case SettingType::kInt: {
      if (value.i <= 0 || def.unit == Unit::kNone) return std::to_string(value.i);
      std::span<const UnitFactor> table =
          IsMemory(def.unit) ? std::span<const UnitFactor>(kMemoryUnits)
                             : std::span<const UnitFactor>(kTimeUnits);
      // Exact integer arithmetic: factors are whole numbers and values are
      // bounded by int32 base units, so the products fit in int64. Largest
      // exact unit wins; the base unit (or a finer one) always divides.
      int64_t in_smallest = value.i * static_cast<int64_t>(BaseFactor(def.unit));
      for (const UnitFactor& u : table) {
        int64_t f = static_cast<int64_t>(u.factor);
        if (in_smallest % f == 0) return std::to_string(in_smallest / f) + std::string(u.name);
      }
      return std::to_string(value.i);
    }
    case SettingType::kReal: {
      std::string s = FormatReal(value.r);
      if (def.unit != Unit::kNone && value.r > 0) s += UnitName(def.unit);
      return s;
    }
    case SettingType::kString:
    case SettingType::kEnum:
      return value.s;
  }
  return "";
}

}  // namespace hearth::config
