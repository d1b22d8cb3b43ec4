// server/utils/adt/datetime_adt.cpp
//
// Principal entry points: ParseDate, ParseTimestamp, AppendDate,
// AppendTimestamp. Calendar conversion uses the era-based days-from-civil
// method (400-year cycles of 146097 days).
#include "utils/adt/datetime_adt.h"

#include <cctype>
#include <chrono>
#include <cstdio>

#include "common/error/db_error.h"
#include "utils/adt/value.h"

namespace hearth::types {
namespace {

// Days from 1970-01-01 to 2000-01-01.
constexpr int64_t kUnixToPgDays = 10957;

const char* DateTypeName(Oid oid) {
  switch (oid) {
    case kTimestampOid:
      return "timestamp";
    case kTimestampTzOid:
      return "timestamp with time zone";
    default:
      return "date";
  }
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// A tiny cursor over the input for the hand-written grammar below.
struct Cursor {
  std::string_view s;
  size_t p = 0;
  bool AtEnd() const { return p >= s.size(); }
  char Peek() const { return AtEnd() ? '\0' : s[p]; }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
  }
  // Reads 1+ digits; returns the count (0 if none) and the value.
  int Digits(int64_t* v) {
    int n = 0;
    *v = 0;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(s[p])) && n < 18) {
      *v = *v * 10 + (s[p] - '0');
      ++p;
      ++n;
    }
    return n;
  }
};

struct Fields {
  int64_t year = 0;
  int month = 0, day = 0;
  int hour = 0, minute = 0, second = 0;
  int64_t usec = 0;
  int tz_offset_sec = 0;
  bool bc = false;
};

enum class ParseResult { kOk, kSyntax, kRange };

bool MatchWord(std::string_view s, std::string_view w) {
  if (s.size() != w.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != w[i]) return false;
  }
  return true;
}

ParseResult ParseDatePart(Cursor& c, Fields* f) {
  int64_t a, b, d;
  size_t start = c.p;
  int na = c.Digits(&a);
  if (na == 0) return ParseResult::kSyntax;
  if (na == 8 && (c.AtEnd() || c.Peek() == ' ' || c.Peek() == 'T')) {
    // YYYYMMDD
    f->year = a / 10000;
    f->month = static_cast<int>(a / 100 % 100);
    f->day = static_cast<int>(a % 100);
  } else if (c.Peek() == '-' || c.Peek() == '/' || c.Peek() == '.') {
    char sep = c.Peek();
    ++c.p;
    if (c.Digits(&b) == 0 || c.Peek() != sep) return ParseResult::kSyntax;
    ++c.p;
    int nd = c.Digits(&d);
    if (nd == 0) return ParseResult::kSyntax;
    if (na >= 3 || sep == '-') {
      f->year = a;  // Y-M-D (ISO)
      f->month = static_cast<int>(b);
      f->day = static_cast<int>(d);
    } else {
      f->month = static_cast<int>(a);  // M/D/Y (DateStyle MDY)
      f->day = static_cast<int>(b);
      f->year = d;
    }
  } else {
    c.p = start;
    return ParseResult::kSyntax;
  }
  return ParseResult::kOk;
}

ParseResult ParseTimePart(Cursor& c, Fields* f) {
  int64_t h, m, s = 0;
  if (c.Digits(&h) == 0 || c.Peek() != ':') return ParseResult::kSyntax;
  ++c.p;
  if (c.Digits(&m) != 2) return ParseResult::kSyntax;
  if (c.Peek() == ':') {
    ++c.p;
    if (c.Digits(&s) != 2) return ParseResult::kSyntax;
    if (c.Peek() == '.') {
      ++c.p;
      int64_t frac = 0;
      int n = 0;
      while (!c.AtEnd() && std::isdigit(static_cast<unsigned char>(c.Peek()))) {
        if (n < 7) frac = frac * 10 + (c.Peek() - '0');
        ++n;
        ++c.p;
      }
      if (n == 0) return ParseResult::kSyntax;
      // Round to microseconds using the 7th digit.
      for (int k = n; k < 7; ++k) frac *= 10;
      f->usec = (frac + 5) / 10;
    }
  }
  f->hour = static_cast<int>(h);
  f->minute = static_cast<int>(m);
  f->second = static_cast<int>(s);
  // 24:00:00 is allowed, as in PostgreSQL.
  if (h > 24 || m > 59 || s > 60 || (h == 24 && (m || s || f->usec))) return ParseResult::kRange;
  return ParseResult::kOk;
}

ParseResult ParseZone(Cursor& c, Fields* f) {
  c.SkipSpace();
  if (c.AtEnd()) return ParseResult::kOk;
  std::string_view rest = c.s.substr(c.p);
  if (MatchWord(rest, "z") || MatchWord(rest, "utc") || MatchWord(rest, "gmt")) {
    c.p = c.s.size();
    return ParseResult::kOk;
  }
  if (c.Peek() == '+' || c.Peek() == '-') {
    int sign = c.Peek() == '-' ? -1 : 1;
    ++c.p;
    int64_t h, m = 0;
    int nh = c.Digits(&h);
    if (nh == 0) return ParseResult::kSyntax;
    if (nh == 4) {
      m = h % 100;
      h /= 100;
    } else if (c.Peek() == ':') {
      ++c.p;
      if (c.Digits(&m) == 0) return ParseResult::kSyntax;
    }
    if (h > 15 || m > 59) return ParseResult::kRange;
    f->tz_offset_sec = sign * static_cast<int>(h * 3600 + m * 60);
    return ParseResult::kOk;
  }
  return ParseResult::kSyntax;
}

ParseResult ParseDateTime(std::string_view text, bool want_time, Fields* f) {
  Cursor c{text};
  c.SkipSpace();
  ParseResult r = ParseDatePart(c, f);
  if (r != ParseResult::kOk) return r;
  if (c.Peek() == 'T' || c.Peek() == ' ') {
    bool t = c.Peek() == 'T';
    ++c.p;
    c.SkipSpace();
    if (std::isdigit(static_cast<unsigned char>(c.Peek()))) {
      r = ParseTimePart(c, f);
      if (r == ParseResult::kSyntax) return r;
      ParseResult z = ParseZone(c, f);
      if (z != ParseResult::kOk) return z;
    } else if (t) {
      return ParseResult::kSyntax;
    }
  }
  c.SkipSpace();
  if (!c.AtEnd()) {
    std::string_view rest = c.s.substr(c.p);
    if (rest.size() >= 2 && MatchWord(rest.substr(0, 2), "bc")) {
      f->bc = true;
      c.p += 2;
      c.SkipSpace();
    }
  }
  if (!c.AtEnd()) return ParseResult::kSyntax;
  (void)want_time;
  if (r == ParseResult::kRange) return r;
  if (f->month < 1 || f->month > 12 || f->day < 1 || f->year < 1 ||
      f->day > DaysInMonth(f->bc ? 1 - f->year : f->year, f->month)) {
    return ParseResult::kRange;
  }
  return ParseResult::kOk;
}

[[noreturn]] void Throw(ParseResult r, std::string_view text, Oid oid) {
  if (r == ParseResult::kRange) {
    throw DbError(sqlstate::kDatetimeFieldOverflow,
                  "date/time field value out of range: \"" + std::string(text) + "\"");
  }
  throw DbError(sqlstate::kInvalidDatetimeFormat, std::string("invalid input syntax for type ") +
                                                      DateTypeName(oid) + ": \"" +
                                                      std::string(text) + "\"");
}

// Handles 'infinity', '-infinity' and 'epoch'; returns true if matched.
bool SpecialValue(std::string_view text, bool is_date, int64_t* out) {
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string_view w = text.substr(b, e - b);
  if (MatchWord(w, "infinity") || MatchWord(w, "+infinity")) {
    *out = is_date ? kDateNoEnd : kTimestampNoEnd;
  } else if (MatchWord(w, "-infinity")) {
    *out = is_date ? kDateNoBegin : kTimestampNoBegin;
  } else if (MatchWord(w, "epoch")) {
    *out = is_date ? -kUnixToPgDays : -kUnixToPgDays * kUsecsPerDay;
  } else if (MatchWord(w, "now")) {
    // Wall clock: input functions have no session, so this is not the
    // transaction timestamp PostgreSQL would use.
    int64_t now = CurrentTimestampUsecs();
    *out = is_date ? TimestampToDate(now) : now;
  } else if (MatchWord(w, "today") || MatchWord(w, "tomorrow") || MatchWord(w, "yesterday")) {
    int64_t day = TimestampToDate(CurrentTimestampUsecs()) +
                  (MatchWord(w, "tomorrow") ? 1 : MatchWord(w, "yesterday") ? -1 : 0);
    *out = is_date ? day : day * kUsecsPerDay;
  } else {
    return false;
  }
  return true;
}

void Append2(int v, std::string* out) {
  out->push_back(static_cast<char>('0' + v / 10));
  out->push_back(static_cast<char>('0' + v % 10));
}

void AppendYmd(int64_t days, std::string* out, bool* bc) {
  int64_t y;
  int m, d;
  CivilFromDays(days, &y, &m, &d);
  *bc = y <= 0;
  if (*bc) y = 1 - y;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-", static_cast<long long>(y));
  out->append(buf);
  Append2(m, out);
  out->push_back('-');
  Append2(d, out);
}

}  // namespace

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 - kUnixToPgDays;
}

void CivilFromDays(int64_t days, int64_t* y, int* m, int* d) {
  int64_t z = days + kUnixToPgDays + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

int64_t ParseDate(std::string_view text) {
  int64_t special;
  if (SpecialValue(text, true, &special)) return special;
  Fields f;
  ParseResult r = ParseDateTime(text, false, &f);
  if (r != ParseResult::kOk) Throw(r, text, kDateOid);
  if (f.year > 5874897) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "date out of range: \"" + std::string(text) + "\"");
  }
  return DaysFromCivil(f.bc ? 1 - f.year : f.year, f.month, f.day);
}

int64_t ParseTimestamp(std::string_view text, Oid oid) {
  int64_t special;
  if (SpecialValue(text, false, &special)) return special;
  Fields f;
  ParseResult r = ParseDateTime(text, true, &f);
  if (r != ParseResult::kOk) Throw(r, text, oid);
  if (f.year > 294276) {
    throw DbError(sqlstate::kDatetimeFieldOverflow,
                  "timestamp out of range: \"" + std::string(text) + "\"");
  }
  int64_t days = DaysFromCivil(f.bc ? 1 - f.year : f.year, f.month, f.day);
  int64_t secs = f.hour * 3600LL + f.minute * 60LL + f.second;
  if (oid == kTimestampTzOid) secs -= f.tz_offset_sec;
  return days * kUsecsPerDay + secs * kUsecsPerSec + f.usec;
}

void AppendDate(int64_t days, std::string* out) {
  if (days == kDateNoEnd) {
    out->append("infinity");
    return;
  }
  if (days == kDateNoBegin) {
    out->append("-infinity");
    return;
  }
  bool bc;
  AppendYmd(days, out, &bc);
  if (bc) out->append(" BC");
}

void AppendTimestamp(int64_t usecs, Oid oid, std::string* out) {
  if (usecs == kTimestampNoEnd) {
    out->append("infinity");
    return;
  }
  if (usecs == kTimestampNoBegin) {
    out->append("-infinity");
    return;
  }
  int64_t days = usecs / kUsecsPerDay;
  int64_t rem = usecs % kUsecsPerDay;
  if (rem < 0) {
    rem += kUsecsPerDay;
    --days;
  }
  bool bc;
  AppendYmd(days, out, &bc);
  int64_t secs = rem / kUsecsPerSec;
  int64_t frac = rem % kUsecsPerSec;
  out->push_back(' ');
  Append2(static_cast<int>(secs / 3600), out);
  out->push_back(':');
  Append2(static_cast<int>(secs / 60 % 60), out);
  out->push_back(':');
  Append2(static_cast<int>(secs % 60), out);
  if (frac != 0) {
    char buf[16];
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
    std::string f(buf);
    while (f.back() == '0') f.pop_back();
    out->append(f);
  }
  if (oid == kTimestampTzOid) out->append("+00");
  if (bc) out->append(" BC");
}

int64_t DateToTimestamp(int64_t days) {
  if (days == kDateNoEnd) return kTimestampNoEnd;
  if (days == kDateNoBegin) return kTimestampNoBegin;
  return days * kUsecsPerDay;
}

int64_t TimestampToDate(int64_t usecs) {
  if (usecs == kTimestampNoEnd) return kDateNoEnd;
  if (usecs == kTimestampNoBegin) return kDateNoBegin;
  int64_t d = usecs / kUsecsPerDay;
  if (usecs % kUsecsPerDay < 0) --d;
  return d;
}

int64_t CurrentTimestampUsecs() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(now).count();
  return us - kUnixToPgDays * kUsecsPerDay;
}

}  // namespace hearth::types
