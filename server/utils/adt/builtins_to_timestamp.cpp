// server/utils/adt/builtins_to_timestamp.cpp
//
// to_timestamp(text, format) and to_date(text, format): the reverse of
// to_char, with PostgreSQL 15's matching rules: outside FX mode spaces
// before a field are skipped and a format separator matches one separator
// or space in the input (or none); a number field takes its width of
// characters unless FM is given or a non-digit follows it in the format,
// then as many digits as there are; two- and three-digit years are moved
// next to 2020. Patterns: YYYY YYY YY Y Y,YYY IYYY IYY IY I MM DD DDD D ID
// IW WW J HH HH12 HH24 MI SS SSSS SSSSS MS US FF1-FF6 AM/PM A.M./P.M.
// BC/AD B.C./A.D. Mon/MON/mon Month/MONTH/month Dy/Day (read and ignored)
// Q (ignored) CC TZH TZM, "quoted text", FX. Errors carry PostgreSQL's
// messages (22007, 22008).
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"

namespace hearth::types::internal {
namespace {

constexpr const char* kMonthNames[] = {"january", "february", "march",     "april",   "may",      "june",
                                       "july",    "august",   "september", "october", "november", "december"};
constexpr const char* kDayNames[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

struct Pattern {
  const char* name;  // upper case
  int width;         // characters a number field takes
  bool is_digit;
};

// Longest first, so that a prefix never hides a longer pattern.
constexpr Pattern kPatterns[] = {
    {"Y,YYY", 5, true}, {"SSSSS", 5, true}, {"MONTH", 9, false}, {"HH24", 2, true}, {"HH12", 2, true},
    {"IYYY", 4, true},  {"YYYY", 4, true},  {"SSSS", 4, true},   {"A.M.", 4, false}, {"P.M.", 4, false},
    {"B.C.", 4, false}, {"A.D.", 4, false}, {"IYY", 3, true},    {"YYY", 3, true},   {"DDD", 3, true},
    {"MON", 3, false},  {"DAY", 9, false},  {"TZH", 3, true},    {"TZM", 2, true},   {"FF1", 1, true},
    {"FF2", 2, true},   {"FF3", 3, true},   {"FF4", 4, true},    {"FF5", 5, true},   {"FF6", 6, true},
    {"HH", 2, true},    {"IY", 2, true},    {"YY", 2, true},     {"MM", 2, true},    {"DD", 2, true},
    {"MI", 2, true},    {"SS", 2, true},    {"MS", 3, true},     {"US", 6, true},    {"AM", 2, false},
    {"PM", 2, false},   {"BC", 2, false},   {"AD", 2, false},    {"DY", 3, false},   {"ID", 1, true},
    {"IW", 2, true},    {"WW", 2, true},    {"CC", 2, true},     {"TZ", 2, false},   {"FX", 0, false},
    {"I", 1, true},     {"Y", 1, true},     {"D", 1, true},      {"J", 1, true},     {"Q", 1, true},
    {"W", 1, true},
};

struct Node {
  enum class Kind : uint8_t { kPattern, kSeparator, kChar } kind;
  const Pattern* pattern = nullptr;
  bool fill_mode = false;  // FM prefix
  std::string text;        // the pattern as written, or the character(s)
};

bool IsSeparator(char c) { return !std::isalnum(static_cast<unsigned char>(c)) && c != '"'; }

std::vector<Node> Compile(std::string_view f) {
  std::vector<Node> nodes;
  for (size_t i = 0; i < f.size();) {
    bool fm = false;
    if (f.size() - i >= 2 && std::toupper(static_cast<unsigned char>(f[i])) == 'F' &&
        std::toupper(static_cast<unsigned char>(f[i + 1])) == 'M') {
      fm = true;
      i += 2;
    }
    const Pattern* match = nullptr;
    for (const Pattern& p : kPatterns) {
      std::string_view name = p.name;
      if (f.size() - i < name.size()) continue;
      bool eq = true;
      for (size_t k = 0; k < name.size() && eq; ++k) {
        eq = std::toupper(static_cast<unsigned char>(f[i + k])) == name[k];
      }
      if (eq) {
        match = &p;
        break;
      }
    }
    if (match != nullptr) {
      size_t len = std::string_view(match->name).size();
      nodes.push_back({Node::Kind::kPattern, match, fm, std::string(f.substr(i, len))});
      i += len;
      // A TH/th suffix is read and ignored, as the number before it ends there.
      if (f.size() - i >= 2 && (f.substr(i, 2) == "TH" || f.substr(i, 2) == "th")) i += 2;
      continue;
    }
    if (f[i] == '"') {  // quoted text: each character consumes one input character
      for (++i; i < f.size() && f[i] != '"'; ++i) {
        if (f[i] == '\\' && i + 1 < f.size()) ++i;
        nodes.push_back({Node::Kind::kChar, nullptr, false, std::string(1, f[i])});
      }
      ++i;
      continue;
    }
    if (f[i] == '\\' && i + 1 < f.size() && f[i + 1] == '"') ++i;
    nodes.push_back({IsSeparator(f[i]) ? Node::Kind::kSeparator : Node::Kind::kChar, nullptr, false,
                     std::string(1, f[i])});
    ++i;
  }
  return nodes;
}

// The parsed fields; -1 (or false) = not given.
struct Parsed {
  int64_t year = INT64_MIN, iso_year = INT64_MIN, cc = INT64_MIN;
  int year_digits = 4;
  bool year_adjust = false;
  int month = -1, day = -1, doy = -1, iso_week = -1, iso_dow = -1, week = -1, dow = -1;
  int64_t julian = -1;
  int hour = -1, minute = -1, second = -1;
  int64_t ssss = -1, usec = 0;
  int clock12 = 0, pm = -1;
  bool bc = false;
  bool has_tz = false;
  int tzh = 0, tzm = 0, tz_sign = 1;
};

class Reader {
 public:
  Reader(std::string_view input, std::string_view format) : s_(input), fmt_(format) {}

  Parsed Run(const std::vector<Node>& nodes) {
    bool fx = false;
    int extra_skip = 0;
    for (size_t k = 0; k < nodes.size(); ++k) {
      const Node& n = nodes[k];
      if (n.kind == Node::Kind::kPattern && std::string_view(n.pattern->name) == "FX") {
        fx = true;
        continue;
      }
      if (!fx && (n.kind == Node::Kind::kPattern || k == 0)) {
        while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) {
          ++p_;
          ++extra_skip;
        }
      }
      if (p_ >= s_.size()) break;
      if (n.kind == Node::Kind::kSeparator) {
        if (fx) {
          ++p_;
        } else {
          --extra_skip;
          if (std::isspace(static_cast<unsigned char>(s_[p_])) || IsSeparator(s_[p_])) {
            ++p_;
            ++extra_skip;
          }
        }
        continue;
      }
      if (n.kind == Node::Kind::kChar) {
        if (!fx && extra_skip > 0) --extra_skip;
        else ++p_;
        continue;
      }
      Field(n, k + 1 < nodes.size() ? &nodes[k + 1] : nullptr);
    }
    return r_;
  }

 private:
  std::string_view s_, fmt_;
  size_t p_ = 0;
  Parsed r_;

  [[noreturn]] static void Invalid(const std::string& value, const Node& n, const std::string& detail,
                                   const std::string& hint = "") {
    DbError e(sqlstate::kInvalidDatetimeFormat, "invalid value \"" + value + "\" for \"" + n.text + "\"");
    e.WithDetail(detail);
    if (!hint.empty()) e.WithHint(hint);
    throw e;
  }

  static bool NextIsSeparator(const Node* next) {
    if (next == nullptr) return true;
    if (next->kind == Node::Kind::kPattern) return !next->pattern->is_digit;
    return !(next->text.size() == 1 && std::isdigit(static_cast<unsigned char>(next->text[0])));
  }

  // A number field; returns the digits consumed.
  int64_t Int(const Node& n, const Node* next, int* used_out = nullptr) {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
    size_t start = p_;
    std::string rest(s_.substr(p_));
    int64_t v;
    if (n.fill_mode || NextIsSeparator(next)) {
      char* end = nullptr;
      errno = 0;
      v = std::strtoll(rest.c_str(), &end, 10);
      p_ += static_cast<size_t>(end - rest.c_str());
      if (errno == ERANGE || v > INT32_MAX || v < INT32_MIN) {
        DbError e(sqlstate::kDatetimeFieldOverflow,
                  "value for \"" + n.text + "\" in source string is out of range");
        e.WithDetail("Value must be in the range -2147483648 to 2147483647.");
        throw e;
      }
    } else {
      int width = n.pattern->width;
      if (static_cast<int>(rest.size()) < width) {
        DbError e(sqlstate::kInvalidDatetimeFormat,
                  "source string too short for \"" + n.text + "\" formatting field");
        e.WithDetail("Field requires " + std::to_string(width) + " characters, but only " +
                     std::to_string(rest.size()) + " remain.");
        e.WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.");
        throw e;
      }
      std::string copy = rest.substr(0, width);
      char* end = nullptr;
      v = std::strtoll(copy.c_str(), &end, 10);
      int used = static_cast<int>(end - copy.c_str());
      if (used > 0 && used < width) {
        Invalid(copy, n,
                "Field requires " + std::to_string(width) + " characters, but only " + std::to_string(used) +
                    " could be parsed.",
                "If your source string is not fixed-width, try using the \"FM\" modifier.");
      }
      p_ += used;
    }
    if (p_ == start) Invalid(rest.substr(0, n.pattern->width), n, "Value must be an integer.");
    if (used_out) {
      int digits = 0;
      for (size_t k = start; k < p_; ++k) digits += std::isdigit(static_cast<unsigned char>(s_[k])) ? 1 : 0;
      *used_out = digits;
    }
    return v;
  }

  // One of `words` (lower case; `abbrev_len` > 0 matches that many letters).
  int Word(const Node& n, const char* const* words, int count, size_t abbrev_len) {
    std::string rest(s_.substr(p_));
    for (int i = 0; i < count; ++i) {
      std::string w = abbrev_len ? std::string(words[i]).substr(0, abbrev_len) : words[i];
      if (rest.size() < w.size()) continue;
      bool eq = true;
      for (size_t k = 0; k < w.size() && eq; ++k) eq = std::tolower(static_cast<unsigned char>(rest[k])) == w[k];
      if (eq) {
        p_ += w.size();
        return i;
      }
    }
    Invalid(rest, n, "The given value did not match any of the allowed values for this field.");
  }

  void Set(int* field, int value, const Node& n) {
    if (*field >= 0 && *field != value) {
      DbError e(sqlstate::kInvalidDatetimeFormat,
                "conflicting values for \"" + n.text + "\" field in formatting string");
      e.WithDetail("This value contradicts a previous setting for the same field type.");
      throw e;
    }
    *field = value;
  }

  void Field(const Node& n, const Node* next) {
    std::string_view name = n.pattern->name;
    static const char* const kAmPm[] = {"am", "pm"};
    static const char* const kAmPmDots[] = {"a.m.", "p.m."};
    static const char* const kAdBc[] = {"ad", "bc"};
    static const char* const kAdBcDots[] = {"a.d.", "b.c."};
    int used = 0;
    if (name == "YYYY" || name == "YYY" || name == "YY" || name == "Y" || name == "Y,YYY") {
      int64_t v;
      if (name == "Y,YYY") {
        int64_t thousands = Int(n, nullptr);
        if (p_ >= s_.size() || s_[p_] != ',') Invalid(std::string(s_.substr(p_)), n, "Value must be an integer.");
        ++p_;
        int64_t rest = 0;
        for (int k = 0; k < 3 && p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_])); ++k) {
          rest = rest * 10 + (s_[p_++] - '0');
        }
        v = thousands * 1000 + rest;
        used = 4;
      } else {
        v = Int(n, next, &used);
      }
      r_.year = v;
      r_.year_adjust = name.size() < 4 && used < 4;
    } else if (name == "IYYY" || name == "IYY" || name == "IY" || name == "I") {
      r_.iso_year = Int(n, next, &used);
      if (name.size() < 4 && used < 4) r_.iso_year = AdjustYear(r_.iso_year);
    } else if (name == "MM") {
      Set(&r_.month, static_cast<int>(Int(n, next)), n);
    } else if (name == "MON" || name == "MONTH") {
      Set(&r_.month, Word(n, kMonthNames, 12, name == "MON" ? 3 : 0) + 1, n);
    } else if (name == "DY" || name == "DAY") {
      r_.dow = Word(n, kDayNames, 7, name == "DY" ? 3 : 0);
    } else if (name == "DD") {
      Set(&r_.day, static_cast<int>(Int(n, next)), n);
    } else if (name == "DDD") {
      r_.doy = static_cast<int>(Int(n, next));
    } else if (name == "D") {
      r_.dow = static_cast<int>(Int(n, next)) - 1;
    } else if (name == "ID") {
      r_.iso_dow = static_cast<int>(Int(n, next));
    } else if (name == "IW") {
      r_.iso_week = static_cast<int>(Int(n, next));
    } else if (name == "WW") {
      r_.week = static_cast<int>(Int(n, next));
    } else if (name == "J") {
      r_.julian = Int(n, next);
    } else if (name == "HH" || name == "HH12") {
      r_.hour = static_cast<int>(Int(n, next));
      r_.clock12 = 1;
    } else if (name == "HH24") {
      r_.hour = static_cast<int>(Int(n, next));
    } else if (name == "MI") {
      r_.minute = static_cast<int>(Int(n, next));
    } else if (name == "SS") {
      r_.second = static_cast<int>(Int(n, next));
    } else if (name == "SSSS" || name == "SSSSS") {
      r_.ssss = Int(n, next);
    } else if (name == "MS") {
      r_.usec = Int(n, next, &used) * 1000;
      for (int k = used; k < 3; ++k) r_.usec *= 10;
    } else if (name == "US" || name.substr(0, 2) == "FF") {
      int width = name == "US" ? 6 : name[2] - '0';
      int64_t v = Int(n, next, &used);
      if (used > width) Invalid(std::to_string(v), n, "Value must be in the range 0 to 999999.");
      for (int k = used; k < 6; ++k) v *= 10;
      r_.usec = v;
    } else if (name == "AM" || name == "PM") {
      r_.pm = Word(n, kAmPm, 2, 0);
      r_.clock12 = 1;
    } else if (name == "A.M." || name == "P.M.") {
      r_.pm = Word(n, kAmPmDots, 2, 0);
      r_.clock12 = 1;
    } else if (name == "AD" || name == "BC") {
      r_.bc = Word(n, kAdBc, 2, 0) == 1;
    } else if (name == "A.D." || name == "B.C.") {
      r_.bc = Word(n, kAdBcDots, 2, 0) == 1;
    } else if (name == "CC") {
      r_.cc = Int(n, next);
    } else if (name == "Q" || name == "W") {
      Int(n, next);  // read and ignored, as PostgreSQL does
    } else if (name == "TZH") {
      if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-' || s_[p_] == ' ')) {
        r_.tz_sign = s_[p_] == '-' ? -1 : 1;
        ++p_;
      }
      r_.has_tz = true;
      r_.tzh = static_cast<int>(Int(n, next));
    } else if (name == "TZM") {
      r_.has_tz = true;
      r_.tzm = static_cast<int>(Int(n, next));
    } else if (name == "TZ") {
      throw DbError(sqlstate::kFeatureNotSupported, "formatting field \"" + n.text + "\" is only supported in to_char");
    }
  }

 public:
  static int64_t AdjustYear(int64_t y) {
    if (y < 70) return y + 2000;
    if (y < 100) return y + 1900;
    if (y < 520) return y + 2000;
    if (y < 1000) return y + 1000;
    return y;
  }
};

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int DaysIn(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

[[noreturn]] void OutOfRange(std::string_view text) {
  throw DbError(sqlstate::kDatetimeFieldOverflow, "date/time field value out of range: \"" + std::string(text) + "\"");
}

// Days since 2000-01-01 and µs of the day from the parsed fields.
void Assemble(const Parsed& p, std::string_view text, int64_t* days, int64_t* usec_of_day) {
  int64_t year = p.year == INT64_MIN ? 0 : (p.year_adjust ? Reader::AdjustYear(p.year) : p.year);
  if (p.year == INT64_MIN && p.cc != INT64_MIN) year = (p.cc - 1) * 100 + 1;
  if (p.year != INT64_MIN && (p.bc || year < 0)) year = year < 0 ? year + 1 : 1 - year;  // to astronomical
  if (p.julian >= 0) {
    *days = p.julian - 2451545;
  } else if (p.iso_year != INT64_MIN && p.iso_week > 0) {
    int64_t jan4 = DaysFromCivil(p.iso_year, 1, 4);
    int64_t dow4 = ((jan4 + 5) % 7 + 7) % 7 + 1;  // ISO weekday of Jan 4 (2000-01-01 was a Saturday)
    int64_t week1 = jan4 - (dow4 - 1);
    *days = week1 + (p.iso_week - 1) * 7 + (p.iso_dow > 0 ? p.iso_dow - 1 : 0);
  } else if (p.doy > 0 && p.month < 0) {
    if (p.doy > (IsLeap(year) ? 366 : 365)) OutOfRange(text);
    *days = DaysFromCivil(year, 1, 1) + p.doy - 1;
  } else {
    int month = p.month < 0 ? 1 : p.month;
    int day = p.day < 0 ? 1 : p.day;
    if (p.day < 0 && p.week > 0) day = (p.week - 1) * 7 + 1;
    if (month < 1 || month > 12 || day < 1 || day > DaysIn(year, month)) OutOfRange(text);
    *days = DaysFromCivil(year, month, day);
  }
  int hour = p.hour < 0 ? 0 : p.hour;
  if (p.clock12) {
    if (p.hour >= 0 && (hour < 1 || hour > 12)) {
      DbError e(sqlstate::kInvalidDatetimeFormat,
                "hour \"" + std::to_string(hour) + "\" is invalid for the 12-hour clock");
      e.WithHint("Use the 24-hour clock, or give an hour between 1 and 12.");
      throw e;
    }
    if (p.pm == 1 && hour < 12) hour += 12;
    else if (p.pm != 1 && hour == 12) hour = 0;
  }
  int minute = p.minute < 0 ? 0 : p.minute, second = p.second < 0 ? 0 : p.second;
  if (hour > 24 || minute > 59 || second > 59 || (hour == 24 && (minute || second || p.usec))) OutOfRange(text);
  int64_t secs = hour * 3600 + minute * 60 + second;
  if (p.ssss >= 0) {
    if (p.ssss >= 86400) OutOfRange(text);
    secs = p.ssss;
  }
  *usec_of_day = secs * kUsecsPerSec + p.usec;
}

Parsed ParseWithFormat(const Value* a) { return Reader(a[0].str, a[1].str).Run(Compile(a[1].str)); }

[[noreturn]] void RangeError(const char* what, std::string_view text) {
  throw DbError(sqlstate::kDatetimeFieldOverflow, std::string(what) + " out of range: \"" + std::string(text) + "\"");
}

Value ToTimestamp(const Value* a, int, FuncCallContext&) {
  Parsed p = ParseWithFormat(a);
  int64_t days, usec;
  Assemble(p, a[0].str, &days, &usec);
  if (days < kMinDateDays || days >= kEndTimestampUsecs / kUsecsPerDay) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  }
  int64_t local = days * kUsecsPerDay + usec;
  if (p.has_tz) {
    int64_t offset = p.tz_sign * (p.tzh * 3600 + p.tzm * 60);
    return Value::Int(kTimestampTzOid, local - offset * kUsecsPerSec);
  }
  return Value::Int(kTimestampTzOid, LocalToTimestampTz(local, SessionZone()));
}

Value ToDate(const Value* a, int, FuncCallContext&) {
  Parsed p = ParseWithFormat(a);
  int64_t days, usec;
  Assemble(p, a[0].str, &days, &usec);
  if (days < kMinDateDays || days >= kEndDateDays) RangeError("date", a[0].str);
  return Value::Int(kDateOid, days);
}

// to_timestamp(double precision): seconds since 1970-01-01 UTC.
Value ToTimestampEpoch(const Value* a, int, FuncCallContext&) {
  double secs = a[0].f;
  if (std::isinf(secs)) return Value::Int(kTimestampTzOid, secs > 0 ? kTimestampNoEnd : kTimestampNoBegin);
  if (std::isnan(secs)) throw DbError(sqlstate::kDatetimeFieldOverflow, "timestamp cannot be NaN");
  constexpr double kUnixToPgSecs = 946684800.0;
  double usecs = std::rint((secs - kUnixToPgSecs) * kUsecsPerSec);
  // PostgreSQL's range: 4714-11-24 BC .. 294277-01-01 (Unix seconds).
  if (!(secs >= -210866803200.0 && secs < 9224318016000.0)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", secs);
    throw DbError(sqlstate::kDatetimeFieldOverflow, std::string("timestamp out of range: \"") + buf + "\"");
  }
  return Value::Int(kTimestampTzOid, static_cast<int64_t>(usecs));
}

}  // namespace

void AddToTimestampBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("to_timestamp", FuncKind::kFunction, {kTextOid, kTextOid}, kTimestampTzOid, ToTimestamp));
  t->push_back(Row("to_timestamp", FuncKind::kFunction, {kFloat8Oid}, kTimestampTzOid, ToTimestampEpoch));
  t->push_back(Row("to_date", FuncKind::kFunction, {kTextOid, kTextOid}, kDateOid, ToDate));
}

}  // namespace hearth::types::internal
