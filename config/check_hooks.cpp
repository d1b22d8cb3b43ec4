// config/check_hooks.cpp
//
// Principal entry points: the Check* hooks named in the registry table.

#include "config/check_hooks.h"

#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "common/tz/tz.h"

namespace hearth::config {
namespace {

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

DbError InvalidValue(const SettingDef& def, std::string_view text) {
  return DbError(sqlstate::kInvalidParameterValue,
                 "invalid value for parameter " + Quoted(def.name) + ": " + Quoted(text));
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// PostgreSQL compares encoding names after dropping punctuation and case.
std::string CleanEncodingName(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

struct KnownEncoding {
  std::string_view clean;
  std::string_view canonical;
};

// Encodings PostgreSQL knows that we recognise only to refuse clearly.
constexpr KnownEncoding kOtherEncodings[] = {
    {"latin1", "LATIN1"},     {"latin2", "LATIN2"},     {"latin3", "LATIN3"},
    {"latin4", "LATIN4"},     {"latin5", "LATIN5"},     {"latin6", "LATIN6"},
    {"latin7", "LATIN7"},     {"latin8", "LATIN8"},     {"latin9", "LATIN9"},
    {"latin10", "LATIN10"},   {"iso88591", "LATIN1"},   {"iso885915", "LATIN9"},
    {"iso88595", "ISO_8859_5"}, {"iso88596", "ISO_8859_6"}, {"iso88597", "ISO_8859_7"},
    {"iso88598", "ISO_8859_8"}, {"win1250", "WIN1250"}, {"win1251", "WIN1251"},
    {"win1252", "WIN1252"},   {"win1253", "WIN1253"},   {"win1254", "WIN1254"},
    {"win1255", "WIN1255"},   {"win1256", "WIN1256"},   {"win1257", "WIN1257"},
    {"win1258", "WIN1258"},   {"win866", "WIN866"},     {"win874", "WIN874"},
    {"koi8", "KOI8R"},        {"koi8r", "KOI8R"},       {"koi8u", "KOI8U"},
    {"eucjp", "EUC_JP"},      {"euccn", "EUC_CN"},      {"euckr", "EUC_KR"},
    {"euctw", "EUC_TW"},      {"eucjis2004", "EUC_JIS_2004"}, {"sjis", "SJIS"},
    {"shiftjis2004", "SHIFT_JIS_2004"}, {"big5", "BIG5"}, {"gbk", "GBK"},
    {"uhc", "UHC"},           {"gb18030", "GB18030"},   {"johab", "JOHAB"},
    {"muleinternal", "MULE_INTERNAL"},
};

// SET TIME ZONE INTERVAL 'x' [qualifier] arrives as "INTERVAL 'x' [qualifier]":
// "[+-]hh[:mm[:ss]]", or a number in the qualifier's leading unit
// (seconds without one). Returns the offset east of UTC in seconds.
int32_t IntervalZoneOffset(const SettingDef& def, const std::string& text) {
  size_t open = text.find('\''), close = text.rfind('\'');
  if (open == std::string::npos || close <= open) throw InvalidValue(def, text);
  std::string lit = text.substr(open + 1, close - open - 1);
  std::string qual = Lower(text.substr(close + 1));
  int sign = 1;
  size_t p = 0;
  while (p < lit.size() && std::isspace(static_cast<unsigned char>(lit[p]))) ++p;
  if (p < lit.size() && (lit[p] == '-' || lit[p] == '+')) sign = lit[p++] == '-' ? -1 : 1;
  char* end = nullptr;
  double first = std::strtod(lit.c_str() + p, &end);
  if (end == lit.c_str() + p) throw InvalidValue(def, text);
  double secs;
  if (*end == ':') {
    long m = std::strtol(end + 1, &end, 10), s = 0;
    if (*end == ':') s = std::strtol(end + 1, &end, 10);
    secs = first * 3600 + m * 60 + s;
  } else {
    std::string unit = Lower(std::string(end));
    while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(0, 1);
    if (unit.empty()) unit = qual;
    while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(0, 1);
    if (unit.rfind("day", 0) == 0 || unit.rfind("mon", 0) == 0 || unit.rfind("year", 0) == 0) {
      throw InvalidValue(def, text.substr(0, close + 1))
          .WithDetail(std::string("Cannot specify ") + (unit.rfind("day", 0) == 0 ? "days" : "months") +
                      " in time zone interval.");
    }
    double scale = unit.rfind("hour", 0) == 0 ? 3600 : unit.rfind("minute", 0) == 0 ? 60 : 1;
    secs = first * scale;
  }
  return static_cast<int32_t>(sign * secs);
}

// Splits on commas and whitespace, dropping empty items.
std::vector<std::string> SplitTokens(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(Lower(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(Lower(cur));
  return out;
}

}  // namespace

void CheckClientEncoding(const SettingDef& def, SettingValue& value, const SettingValue&) {
  std::string clean = CleanEncodingName(value.s);
  if (clean == "utf8" || clean == "unicode") {
    value.s = "UTF8";
    return;
  }
  if (clean == "sqlascii") {
    value.s = "SQL_ASCII";
    return;
  }
  for (const KnownEncoding& e : kOtherEncodings) {
    if (e.clean == clean) {
      throw DbError(sqlstate::kFeatureNotSupported,
                    "conversion between " + std::string(e.canonical) + " and UTF8 is not supported")
          .WithHint("Hearth speaks UTF8 only; set client_encoding to UTF8.");
    }
  }
  throw InvalidValue(def, value.s);
}

void CheckDateStyle(const SettingDef& def, SettingValue& value, const SettingValue& current) {
  std::string style;
  std::string order;
  auto conflict = [&] {
    return InvalidValue(def, value.s).WithDetail("Conflicting \"datestyle\" specifications.");
  };
  std::vector<std::string> tokens = SplitTokens(value.s);
  if (tokens.empty()) throw InvalidValue(def, value.s);
  for (const std::string& t : tokens) {
    std::string new_style, new_order;
    if (t == "iso") {
      new_style = "ISO";
    } else if (t == "sql") {
      new_style = "SQL";
    } else if (t == "postgres") {
      new_style = "Postgres";
    } else if (t == "german") {
      new_style = "German";
    } else if (t == "ymd") {
      new_order = "YMD";
    } else if (t == "dmy" || t == "euro" || t == "european") {
      new_order = "DMY";
    } else if (t == "mdy" || t == "us" || t == "noneuro" || t == "noneuropean") {
      new_order = "MDY";
    } else if (t == "default") {
      new_style = "ISO";
      new_order = "MDY";
    } else {
      throw InvalidValue(def, value.s)
          .WithDetail("Unrecognized key word: " + Quoted(t) + ".");
    }
    if (!new_style.empty()) {
      if (!style.empty() && style != new_style) throw conflict();
      style = new_style;
    }
    if (!new_order.empty()) {
      if (!order.empty() && order != new_order) throw conflict();
      order = new_order;
    }
  }
  // What is not given keeps its current value ("ISO, DMY" + SET DateStyle =
  // ISO stays DMY); German alone means DMY, as in PostgreSQL.
  size_t comma = current.s.find(", ");
  if (style.empty()) style = comma == std::string::npos ? "ISO" : current.s.substr(0, comma);
  if (order.empty()) {
    order = style == "German" ? "DMY" : comma == std::string::npos ? "MDY" : current.s.substr(comma + 2);
  }
  value.s = style + ", " + order;
}

void CheckTimeZone(const SettingDef& def, SettingValue& value, const SettingValue&) {
  std::string name = value.s;
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) {
    name.erase(name.begin());
  }
  std::shared_ptr<const tz::Zone> zone;
  if (Lower(name).rfind("interval", 0) == 0) {
    zone = tz::FixedZone(IntervalZoneOffset(def, name));
  } else {
    // A bare number is hours east of UTC (SQL's sign, not POSIX's).
    char* end = nullptr;
    double hours = std::strtod(name.c_str(), &end);
    if (!name.empty() && end == name.c_str() + name.size()) {
      if (!(hours >= -168 && hours <= 168)) throw InvalidValue(def, value.s);
      zone = tz::FixedZone(static_cast<int32_t>(hours * 3600));
    } else {
      zone = tz::LoadZone(name);
    }
  }
  if (!zone) throw InvalidValue(def, value.s);
  value.s = zone->name();
}

void CheckApplicationName(const SettingDef&, SettingValue& value, const SettingValue&) {
  for (char& c : value.s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 32 || u > 126) c = '?';
  }
  constexpr size_t kMaxNameBytes = 63;  // NAMEDATALEN - 1
  if (value.s.size() > kMaxNameBytes) value.s.resize(kMaxNameBytes);
}

void CheckOnlyOn(const SettingDef& def, SettingValue& value, const SettingValue&) {
  if (value.i == 0) {
    throw DbError(sqlstate::kFeatureNotSupported,
                  "parameter " + Quoted(def.name) + " can only be set to \"on\"");
  }
}

// Hearth keeps every relation in pg_default and stores every table as a
// heap: the only values are those (and "" for default_tablespace).
void CheckDefaultTablespace(const SettingDef& def, SettingValue& value, const SettingValue&) {
  if (value.s.empty() || value.s == "pg_default") return;
  throw InvalidValue(def, value.s).WithDetail("Tablespace " + Quoted(value.s) + " does not exist.");
}

void CheckTableAccessMethod(const SettingDef& def, SettingValue& value, const SettingValue&) {
  if (value.s == "heap") return;
  throw InvalidValue(def, value.s).WithDetail("Table access method " + Quoted(value.s) + " does not exist.");
}

}  // namespace hearth::config
