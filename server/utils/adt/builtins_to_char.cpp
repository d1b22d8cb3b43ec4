// server/utils/adt/builtins_to_char.cpp
//
// to_char(timestamp|timestamptz, format) with PostgreSQL 15's common
// template patterns: YYYY YYY YY Y IYYY MM DD DDD D ID HH HH12 HH24 MI SS
// MS US AM/PM (am/pm, A.M./P.M.) Mon/MON/mon Month/MONTH/month Day/DAY/day
// Dy/DY/dy Q IW WW TZ/tz TZH TZM OF, the FM prefix (no padding), the TH/th
// suffix, "quoted text" and \-escaped characters. Anything else is copied.
// timestamptz is formatted in the session time zone: TZ is its
// abbreviation, OF/TZH/TZM its offset; for timestamp TZ prints nothing.
// to_char(interval, format) (what to_char of a time resolves to) formats
// the interval's own fields: hours past 24 and negative fields as they are.
#include <array>
#include <cctype>
#include <cstdio>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/interval.h"

namespace hearth::types::internal {
namespace {

constexpr std::array<const char*, 12> kMonths = {"January", "February", "March", "April", "May", "June", "July",
                                                 "August", "September", "October", "November", "December"};
constexpr std::array<const char*, 7> kDays = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                              "Saturday"};

// The moment being formatted: calendar fields plus the time of day.
struct Moment {
  CalendarFields f;
  int hour, minute, second;
  int64_t usec;
  bool with_tz;
  int32_t utoff;       // east of UTC (0 for timestamp)
  std::string abbrev;  // zone abbreviation (timestamptz)
  // An interval's fields (interval2itm): years, months, days, hours past
  // 24 and negative values as they are; f.days holds the day count.
  bool is_interval = false;
};

Moment IntervalMoment(const Interval& iv) {
  Moment m{};
  m.is_interval = true;
  m.f.year = iv.month / 12;
  m.f.month = iv.month % 12;
  m.f.day = iv.day;
  m.f.days = (m.f.year * 12 + m.f.month) * 30 + m.f.day;  // tm_yday
  m.hour = static_cast<int>(iv.time / (3600 * kUsecsPerSec));
  m.minute = static_cast<int>(iv.time / (60 * kUsecsPerSec) % 60);
  m.second = static_cast<int>(iv.time / kUsecsPerSec % 60);
  m.usec = iv.time % kUsecsPerSec;
  return m;
}

// Patterns an interval cannot answer: PostgreSQL's INVALID_FOR_INTERVAL
// ones, and the calendar ones Hearth does not compute for intervals.
void CheckIntervalPattern(const std::string& up) {
  for (const char* k : {"MONTH", "MON", "DAY", "DY", "D", "ID", "AD", "BC", "A.D.", "B.C.", "TZ", "TZH", "TZM", "OF"}) {
    if (up == k) {
      throw DbError(sqlstate::kInvalidDatetimeFormat, "invalid format specification for an interval value")
          .WithHint("Intervals are not tied to specific calendar dates.");
    }
  }
  for (const char* k : {"IYYY", "IYY", "IY", "I", "IW", "IDDD", "WW", "W", "Q", "CC", "J", "RM"}) {
    if (up == k) throw DbError(sqlstate::kFeatureNotSupported, "to_char pattern \"" + up + "\" is not supported for interval");
  }
}

Moment Split(int64_t usecs, bool with_tz) {
  Moment m{};
  if (with_tz) {
    const tz::LocalTimeType* type = nullptr;
    usecs = TimestampTzToLocal(usecs, SessionZone(), &m.utoff, &type);
    m.abbrev = type->abbrev;
  }
  m.f = SplitTimestamp(usecs);
  m.hour = static_cast<int>(m.f.usec_of_day / (3600 * kUsecsPerSec));
  m.minute = static_cast<int>(m.f.usec_of_day / (60 * kUsecsPerSec) % 60);
  m.second = static_cast<int>(m.f.usec_of_day / kUsecsPerSec % 60);
  m.usec = m.f.usec_of_day % kUsecsPerSec;
  m.with_tz = with_tz;
  return m;
}
// Render's `number` when the pattern prints no number (TH does not apply).
constexpr int64_t kNotANumber = INT64_MIN;

int Dow(int64_t days) { return IsoDow(days) % 7; }  // 0 = Sunday
int64_t DayOfYear(const Moment& m) { return m.f.days - DaysFromCivil(m.f.year, 1, 1) + 1; }

std::string Ordinal(int64_t n, bool upper) {
  int64_t last2 = (n < 0 ? -n : n) % 100, last = last2 % 10;
  const char* s = (last2 >= 11 && last2 <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  std::string r = s;
  if (upper) for (char& c : r) c = static_cast<char>(c - 32);
  return r;
}

// Zero-padded to `width` digits (a negative interval field takes one more
// place for its sign, as PostgreSQL pads it).
std::string Number(int64_t v, int width, bool fill_mode) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*lld", fill_mode ? 0 : width + (v < 0 ? 1 : 0), static_cast<long long>(v));
  return buf;
}

// A name in the pattern's case style: "Month" capitalised, "MONTH" upper,
// "month" lower; padded to `pad` characters unless in fill mode.
std::string Name(std::string_view name, std::string_view pattern, size_t pad, bool fill_mode) {
  std::string r(name);
  bool upper = pattern.size() > 1 && pattern[1] >= 'A' && pattern[1] <= 'Z';
  bool lower = pattern[0] >= 'a' && pattern[0] <= 'z';
  for (size_t i = 0; i < r.size(); ++i) {
    if (upper) r[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(r[i])));
    if (lower) r[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(r[i])));
  }
  if (!fill_mode && r.size() < pad) r.append(pad - r.size(), ' ');
  return r;
}

bool StartsWith(std::string_view s, size_t i, std::string_view p) { return s.compare(i, p.size(), p) == 0; }

// The first pattern at f[i] (longest first), or "" for none.
std::string_view MatchPattern(std::string_view f, size_t i) {
  static constexpr std::string_view kPatterns[] = {
      "Y,YYY", "y,yyy", "HH24", "hh24", "HH12", "hh12", "HH", "hh", "IYYY", "iyyy", "IYY", "iyy", "IY", "iy",
      "IDDD", "iddd", "YYYY", "yyyy", "YYY", "yyy", "YY", "yy", "Y", "y", "MONTH", "Month", "month", "MON", "Mon",
      "mon", "MM", "mm", "MI", "mi", "MS", "ms", "US", "us", "SSSSS", "sssss", "SSSS", "ssss", "SS", "ss",
      "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "ff1", "ff2", "ff3", "ff4", "ff5", "ff6", "A.D.", "a.d.", "B.C.",
      "b.c.", "AD", "ad", "BC", "bc", "DAY", "Day", "day", "DDD", "ddd", "DD", "dd", "DY", "Dy", "dy", "D", "d",
      "ID", "id", "IW", "iw", "I", "i", "A.M.", "a.m.", "P.M.", "p.m.", "AM", "am", "PM", "pm", "WW", "ww", "W",
      "w", "CC", "cc", "RM", "rm", "J", "j", "Q", "q", "TZH", "tzh", "TZM", "tzm", "OF", "of", "TZ", "tz"};
  for (std::string_view p : kPatterns) {
    if (StartsWith(f, i, p)) return p;
  }
  return {};
}

// Numeric value of a pattern, or the text it prints.
std::string Render(std::string_view p, const Moment& m, bool fm, int64_t* number) {
  std::string up(p);
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (m.is_interval) CheckIntervalPattern(up);
  int64_t sql_year = m.is_interval ? m.f.year : m.f.year > 0 ? m.f.year : 1 - m.f.year;
  *number = kNotANumber;
  auto num = [&](int64_t v, int width) {
    *number = v;
    return Number(v, width, fm);
  };
  if (up == "HH24") return num(m.hour, 2);
  if (up == "HH12" || up == "HH") return num(m.hour % 12 == 0 ? 12 : m.hour % 12, 2);
  if (up == "YYYY") return num(sql_year, 4);
  if (up == "YYY") return num(sql_year % 1000, 3);
  if (up == "YY") return num(sql_year % 100, 2);
  if (up == "Y") return num(sql_year % 10, 1);
  if (up == "IYYY") {
    int64_t iy, wk;
    IsoWeek(m.f.days, &iy, &wk);
    return num(iy, 4);
  }
  if (up == "IW") {
    int64_t iy, wk;
    IsoWeek(m.f.days, &iy, &wk);
    return num(wk, 2);
  }
  if (up == "IYY" || up == "IY" || up == "I") {
    int64_t iy, wk;
    IsoWeek(m.f.days, &iy, &wk);
    int width = static_cast<int>(up.size());
    return num(iy % (width == 3 ? 1000 : width == 2 ? 100 : 10), width);
  }
  if (up == "IDDD") {
    int64_t iy, wk;
    IsoWeek(m.f.days, &iy, &wk);
    return num((wk - 1) * 7 + (Dow(m.f.days) == 0 ? 7 : Dow(m.f.days)), 3);
  }
  if (up == "Y,YYY") {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld,%03lld", static_cast<long long>(sql_year / 1000),
                  static_cast<long long>(sql_year % 1000));
    return buf;
  }
  if (up == "CC") {
    int64_t y = m.f.year > 0 ? m.f.year : m.f.year - 1;  // SQL year, no year 0
    int64_t cc = y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100);
    return num(cc, 2);  // Number gives a negative century its sign place
  }
  if (up == "J") return num(m.f.days + 2451545, 1);
  if (up == "W") return num((m.f.day - 1) / 7 + 1, 1);
  if (up == "SSSS" || up == "SSSSS") return num(m.hour * 3600 + m.minute * 60 + m.second, 1);
  if (up.size() == 3 && up[0] == 'F' && up[1] == 'F') {
    int digits = up[2] - '0';
    int64_t v = m.usec;
    for (int k = digits; k < 6; ++k) v /= 10;
    return Number(v, digits, false);
  }
  if (up == "RM") {
    static const char* const kRoman[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};
    return Name(kRoman[m.f.month - 1], p[0] == 'r' ? "rm" : "RM", 4, fm);
  }
  if (up == "AD" || up == "BC" || up == "A.D." || up == "B.C.") {
    bool bc = m.f.year <= 0;
    bool dots = up.size() == 4;
    std::string r = dots ? (bc ? "B.C." : "A.D.") : (bc ? "BC" : "AD");
    if (p[0] >= 'a') {
      for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return r;
  }
  if (up == "MONTH") return Name(kMonths[m.f.month - 1], p, 9, fm);
  if (up == "MON") return Name(std::string_view(kMonths[m.f.month - 1]).substr(0, 3), p, 3, fm);
  if (up == "MM") return num(m.f.month, 2);
  if (up == "MI") return num(m.minute, 2);
  if (up == "SS") return num(m.second, 2);
  if (up == "MS") return num(m.usec / 1000, 3);
  if (up == "US") return num(m.usec, 6);
  if (up == "DAY") return Name(kDays[Dow(m.f.days)], p, 9, fm);
  if (up == "DY") return Name(std::string_view(kDays[Dow(m.f.days)]).substr(0, 3), p, 3, fm);
  if (up == "DDD") return num(m.is_interval ? m.f.days : DayOfYear(m), 3);
  if (up == "DD") return num(m.f.day, 2);
  if (up == "D") return num(Dow(m.f.days) + 1, 1);
  if (up == "ID") return num(Dow(m.f.days) == 0 ? 7 : Dow(m.f.days), 1);
  if (up == "WW") return num((DayOfYear(m) - 1) / 7 + 1, 2);
  if (up == "Q") return num((m.f.month - 1) / 3 + 1, 1);
  bool pm = m.hour % 24 >= 12;
  bool lower = p[0] >= 'a';
  if (up == "AM" || up == "PM") return lower ? (pm ? "pm" : "am") : (pm ? "PM" : "AM");
  if (up == "A.M." || up == "P.M.") return lower ? (pm ? "p.m." : "a.m.") : (pm ? "P.M." : "A.M.");
  if (up == "TZ") {
    if (!m.with_tz) return "";
    std::string r = m.abbrev;
    for (char& c : r) {
      auto u = static_cast<unsigned char>(c);
      c = static_cast<char>(lower ? std::tolower(u) : std::toupper(u));
    }
    return r;
  }
  int32_t abs_off = m.utoff < 0 ? -m.utoff : m.utoff;
  std::string sign = m.utoff < 0 ? "-" : "+";
  if (up == "TZH") return sign + Number(abs_off / 3600, 2, false);
  if (up == "TZM") return Number(abs_off / 60 % 60, 2, false);
  if (up == "OF") {
    std::string r = sign + Number(abs_off / 3600, 2, false);
    if (abs_off % 3600 != 0) r += ":" + Number(abs_off / 60 % 60, 2, false);
    return r;
  }
  return std::string(p);
}

std::string Format(const Moment& m, std::string_view f) {
  std::string out;
  for (size_t i = 0; i < f.size();) {
    if (f[i] == '"') {  // quoted literal; \" inside is a quote
      for (++i; i < f.size() && f[i] != '"'; ++i) {
        if (f[i] == '\\' && i + 1 < f.size()) ++i;
        out += f[i];
      }
      ++i;
      continue;
    }
    if (f[i] == '\\' && i + 1 < f.size() && f[i + 1] == '"') {
      out += '"';
      i += 2;
      continue;
    }
    bool fm = false;
    size_t j = i;
    if (StartsWith(f, j, "FM") || StartsWith(f, j, "fm")) {
      fm = true;
      j += 2;
    }
    std::string_view p = MatchPattern(f, j);
    if (p.empty()) {
      out += f[i++];
      continue;
    }
    int64_t number;
    out += Render(p, m, fm, &number);
    j += p.size();
    if (number != kNotANumber && (StartsWith(f, j, "TH") || StartsWith(f, j, "th"))) {
      out += Ordinal(number, f[j] == 'T');
      j += 2;
    }
    i = j;
  }
  return out;
}

Value ToChar(const Value* a, int, FuncCallContext&) {
  if (a[0].i == kTimestampNoBegin || a[0].i == kTimestampNoEnd) return Value::Null(kTextOid);
  return Value::Text(Format(Split(a[0].i, a[0].type == kTimestampTzOid), a[1].str));
}

// to_char(interval) — also what to_char of a time calls (time → interval).
Value ToCharInterval(const Value* a, int, FuncCallContext&) {
  return Value::Text(Format(IntervalMoment(DecodeInterval(a[0].str)), a[1].str));
}

}  // namespace

void AddToCharBuiltins(std::vector<FuncSignature>* t) {
  for (Oid x : {kTimestampOid, kTimestampTzOid}) {
    t->push_back(Row("to_char", FuncKind::kFunction, {x, kTextOid}, kTextOid, ToChar));
  }
  t->push_back(Row("to_char", FuncKind::kFunction, {kIntervalOid, kTextOid}, kTextOid, ToCharInterval));
}

}  // namespace hearth::types::internal
