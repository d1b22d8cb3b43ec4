// server/utils/adt/datetime_parse.cpp
//
// Principal entry point: ParseDateTimeFields. Two passes as in PostgreSQL:
// Tokenize splits the text into typed fields, Decoder assigns them.
#include "utils/adt/datetime_parse.h"

#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/tz_abbrevs.h"
#include "utils/adt/value.h"

namespace hearth::types {
namespace {

enum class Kind : uint8_t { kNumber, kString, kDate, kTime, kTz };

struct Field {
  Kind kind;
  std::string text;  // lower case except kTz offsets (digits anyway)
};

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

constexpr const char* kMonthNames[] = {"january", "february", "march",     "april",   "may",      "june",
                                       "july",    "august",   "september", "october", "november", "december"};
constexpr const char* kDayNames[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

// 1..12 for a month name or its abbreviation ("jan", "sept"), else 0.
int MonthOf(std::string_view w) {
  if (w == "sept") return 9;
  for (int i = 0; i < 12; ++i) {
    std::string_view full = kMonthNames[i];
    if (w == full || (w.size() == 3 && full.substr(0, 3) == w)) return i + 1;
  }
  return 0;
}

bool IsDayName(std::string_view w) {
  for (std::string_view d : kDayNames) {
    if (w == d || (w.size() == 3 && d.substr(0, 3) == w)) return true;
  }
  return w == "tues" || w == "wednes" || w == "thur" || w == "thurs";
}

// Words of PostgreSQL's core keyword table (not zone abbreviations).
bool IsCoreKeyword(std::string_view w) {
  for (std::string_view k : {"am", "pm", "ad", "bc", "allballs", "epoch", "infinity", "now", "today", "tomorrow",
                             "yesterday", "t", "j", "julian", "on", "at", "y", "m", "d", "h"}) {
    if (w == k) return true;
  }
  return MonthOf(w) != 0 || IsDayName(w);
}

// PostgreSQL's ParseDateTime. False on characters no field can hold.
bool Tokenize(std::string_view s, std::vector<Field>* out) {
  size_t i = 0, n = s.size();
  auto read_while = [&](std::string* buf, auto pred) {
    while (i < n && pred(s[i])) buf->push_back(Lower(s[i++]));
  };
  while (i < n) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
      continue;
    }
    Field f{Kind::kNumber, {}};
    if (IsDigit(c)) {
      read_while(&f.text, IsDigit);
      if (i < n && s[i] == ':') {
        f.kind = Kind::kTime;
        read_while(&f.text, [](char x) { return IsDigit(x) || x == ':' || x == '.'; });
      } else if (i < n && (s[i] == '-' || s[i] == '/' || s[i] == '.')) {
        char delim = s[i];
        f.text.push_back(s[i++]);
        if (i < n && IsDigit(s[i])) {
          f.kind = delim == '.' ? Kind::kNumber : Kind::kDate;
          read_while(&f.text, IsDigit);
          if (i < n && s[i] == delim) {
            f.kind = Kind::kDate;
            read_while(&f.text, [delim](char x) { return IsDigit(x) || x == delim; });
          }
        } else {
          f.kind = delim == '.' && (i >= n || !IsAlpha(s[i])) ? Kind::kNumber : Kind::kDate;
          read_while(&f.text, [delim](char x) { return IsAlnum(x) || x == delim; });
        }
      }
    } else if (c == '.' && i + 1 < n && IsDigit(s[i + 1])) {
      f.text.push_back(s[i++]);
      read_while(&f.text, IsDigit);
    } else if (IsAlpha(c)) {
      f.kind = Kind::kString;
      read_while(&f.text, IsAlpha);
      bool is_date = i < n && (s[i] == '-' || s[i] == '/' || s[i] == '.');
      if (!is_date && i < n && (s[i] == '+' || IsDigit(s[i]))) is_date = !IsCoreKeyword(f.text);
      if (is_date) {
        f.kind = Kind::kDate;
        read_while(&f.text, [](char x) {
          return IsAlnum(x) || x == '+' || x == '-' || x == '/' || x == '_' || x == '.' || x == ':';
        });
      }
    } else if (c == '+' || c == '-') {
      f.text.push_back(s[i++]);
      if (i < n && IsDigit(s[i])) {
        f.kind = Kind::kTz;
        read_while(&f.text, [](char x) { return IsDigit(x) || x == ':' || x == '.'; });
      } else if (i < n && IsAlpha(s[i])) {
        f.kind = Kind::kString;
        read_while(&f.text, IsAlpha);
      } else {
        return false;
      }
    } else {
      return false;
    }
    out->push_back(std::move(f));
  }
  return true;
}

constexpr char kInvalidTimeZoneDisplacement[] = "22009";  // invalid_time_zone_displacement_value

enum class Err : uint8_t { kSyntax, kRange, kMonthDayRange, kTzRange };

struct Failure {
  Err err;
};

// Field masks, as PostgreSQL's DTK_M bits.
constexpr unsigned kYear = 1, kMonth = 2, kDay = 4, kDoy = 8, kTime = 16, kTz = 32, kAmPm = 64;
constexpr unsigned kDateMask = kYear | kMonth | kDay;

// Assigns fields to a DateTimeFields: PostgreSQL's DecodeDateTime,
// DecodeDate and DecodeNumber (each field claims a mask bit; a claimed bit
// twice is a syntax error; numbers fill year/month/day by what is known so
// far and the DateStyle order), then ValidateDate.
class Decoder {
 public:
  Decoder(Oid type, DateTimeFields* out)
      : type_(type), time_only_(type == kTimeOid || type == kTimeTzOid), r_(*out) {}

  void Run(const std::vector<Field>& fields) {
    for (const Field& f : fields) {
      One(f);
      first_field_ = false;
    }
    Finish();
  }

 private:
  Oid type_;
  // time/timetz input (PostgreSQL's DecodeTimeOnly): bare numbers are
  // times, a word with separators after the first field is a zone name,
  // and the whole time must not pass 24:00:00.
  bool time_only_;
  bool first_field_ = true;
  DateTimeFields& r_;
  unsigned fmask_ = 0;
  bool have_text_month_ = false, two_digit_year_ = false, bc_ = false, julian_ = false, special_ = false;
  int64_t year_ = 0, doy_ = 0;
  int64_t month_ = 0, day_ = 0;
  enum class Pending : uint8_t { kNone, kJulian, kIsoTime } pending_ = Pending::kNone;
  int ampm_ = 0;  // 1 am, 2 pm

  [[noreturn]] static void Fail(Err e) { throw Failure{e}; }

  void Claim(unsigned mask) {
    if (fmask_ & mask) Fail(Err::kSyntax);
    fmask_ |= mask;
  }

  static bool AllDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s) {
      if (!IsDigit(c)) return false;
    }
    return true;
  }

  static int64_t ToInt(std::string_view s) {
    if (s.size() > 15) Fail(Err::kRange);
    int64_t v = 0;
    for (char c : s) v = v * 10 + (c - '0');
    return v;
  }

  void One(const Field& f) {
    switch (f.kind) {
      case Kind::kDate:
        DateField(f.text);
        break;
      case Kind::kTime:
        if (pending_ == Pending::kJulian) Fail(Err::kSyntax);
        pending_ = Pending::kNone;
        Time(f.text);
        break;
      case Kind::kTz:
        Offset(f.text);
        break;
      case Kind::kNumber:
        NumberField(f.text);
        break;
      case Kind::kString:
        Word(f.text);
        break;
    }
  }

  // A field with '-', '/' or '.' separators: a date, or (once month and
  // day are known) a zone name.
  void DateField(const std::string& text) {
    if (pending_ == Pending::kJulian) {  // J2452271-08: a Julian day and a zone
      size_t sign = text.find_first_of("+-");
      if (sign == std::string::npos || sign == 0) Fail(Err::kSyntax);
      NumberField(text.substr(0, sign));
      Offset(text.substr(sign));
      return;
    }
    if (time_only_ && !first_field_ && pending_ == Pending::kNone && IsAlpha(text[0])) {
      Zone(text);
      return;
    }
    if (pending_ != Pending::kNone || (fmask_ & (kMonth | kDay)) == (kMonth | kDay)) {
      if (IsDigit(text[0]) || pending_ != Pending::kNone) {
        // A run-together time with a trailing zone: hhmmss-zz.
        pending_ = Pending::kNone;
        size_t dash = text.find('-');
        if (dash == std::string::npos || dash == 0) Fail(Err::kSyntax);
        Offset(text.substr(dash));
        std::string digits = text.substr(0, dash);
        size_t dot = digits.find('.');
        if (!AllDigits(digits.substr(0, dot))) Fail(Err::kSyntax);
        NumberAsTime(digits.substr(0, dot), dot == std::string::npos ? "" : digits.substr(dot));
        return;
      }
      Zone(text);
      return;
    }
    DecodeDate(text);
  }

  // PostgreSQL's DecodeDate: month names first, then the numbers in order;
  // the field must complete the date.
  void DecodeDate(const std::string& text) {
    std::vector<std::string> parts;
    for (size_t k = 0; k < text.size();) {
      while (k < text.size() && !IsAlnum(text[k])) ++k;
      if (k >= text.size()) break;
      size_t start = k;
      if (IsDigit(text[k])) {
        while (k < text.size() && IsDigit(text[k])) ++k;
      } else {
        while (k < text.size() && IsAlpha(text[k])) ++k;
      }
      parts.push_back(text.substr(start, k - start));
    }
    for (std::string& part : parts) {
      if (!IsAlpha(part[0])) continue;
      int m = MonthOf(part);
      if (m == 0) Fail(Err::kSyntax);
      Claim(kMonth);
      month_ = m;
      have_text_month_ = true;
      part.clear();
    }
    for (const std::string& part : parts) {
      if (!part.empty()) DecodeNumber(part);
    }
    if ((fmask_ & kDateMask) != kDateMask) Fail(Err::kSyntax);
  }

  // One number of a date (PostgreSQL's DecodeNumber).
  void DecodeNumber(const std::string& digits) {
    size_t flen = digits.size();
    int64_t val = ToInt(digits);
    if (flen == 3 && (fmask_ & kDateMask) == kYear && val >= 1 && val <= 366) {
      Claim(kDoy | kMonth | kDay);
      doy_ = val;
      return;
    }
    DateOrder order = SessionDateOrder();
    unsigned got;
    switch (fmask_ & kDateMask) {
      case 0:
        got = flen >= 3 || order == DateOrder::kYmd ? kYear : order == DateOrder::kDmy ? kDay : kMonth;
        break;
      case kYear:
        got = kMonth;
        break;
      case kMonth:
        got = have_text_month_ ? (flen >= 3 || order == DateOrder::kYmd ? kYear : kDay) : kDay;
        break;
      case kYear | kMonth:
        if (have_text_month_ && flen >= 3 && two_digit_year_) {
          // The first number was taken for a year but was the day.
          Claim(kDay);
          day_ = year_;
          year_ = val;
          two_digit_year_ = false;
          return;
        }
        got = kDay;
        break;
      case kDay:
        got = kMonth;
        break;
      case kMonth | kDay:
        got = kYear;
        break;
      case kDateMask:
        NumberAsTime(digits, "");
        return;
      default:
        Fail(Err::kSyntax);
    }
    Claim(got);
    if (got == kYear) {
      year_ = val;
      two_digit_year_ = flen <= 2;
    } else if (got == kMonth) {
      month_ = val;
    } else {
      day_ = val;
    }
  }

  // A run of digits that is a whole date (YYYYMMDD, YYMMDD) or time
  // (hhmmss, hhmm), with `frac` its fractional seconds (PostgreSQL's
  // DecodeNumberField).
  void NumberAsTime(const std::string& digits, const std::string& frac) {
    size_t len = digits.size();
    if (frac.empty() && !time_only_ && (fmask_ & kDateMask) != kDateMask && len >= 6) {
      Claim(kDateMask);
      day_ = ToInt(digits.substr(len - 2));
      month_ = ToInt(digits.substr(len - 4, 2));
      year_ = ToInt(digits.substr(0, len - 4));
      two_digit_year_ = len - 4 == 2;
      return;
    }
    if (!(fmask_ & kTime) && (len == 6 || len == 4)) {
      Claim(kTime);
      double f = frac.empty() ? 0 : std::strtod(frac.c_str(), nullptr);
      SetTime(ToInt(digits.substr(0, 2)), ToInt(digits.substr(2, 2)), len == 6 ? ToInt(digits.substr(4)) : 0, f);
      return;
    }
    Fail(Err::kSyntax);
  }

  void NumberField(const std::string& text) {
    size_t dot = text.find('.');
    std::string digits = text.substr(0, dot);
    std::string frac = dot == std::string::npos ? "" : text.substr(dot);
    if (pending_ == Pending::kJulian) {
      pending_ = Pending::kNone;
      if (!AllDigits(digits)) Fail(Err::kSyntax);
      int64_t y;
      int m, d;
      CivilFromDays(ToInt(digits) - 2451545, &y, &m, &d);  // J2451545 = 2000-01-01
      Claim(kDateMask);
      year_ = y, month_ = m, day_ = d;
      julian_ = true;
      if (!frac.empty()) {
        Claim(kTime);
        r_.has_time = true;
        r_.time_usecs = static_cast<int64_t>(std::rint(std::strtod(frac.c_str(), nullptr) * kUsecsPerDay));
      }
      return;
    }
    if (pending_ == Pending::kIsoTime) {
      pending_ = Pending::kNone;
      if (!AllDigits(digits)) Fail(Err::kSyntax);
      NumberAsTime(digits, frac);
      return;
    }
    if (!digits.empty() && !AllDigits(digits)) Fail(Err::kSyntax);
    if (time_only_) {  // hhmmss[.frac] or hhmm; "12.5" and "7" are no times
      if (dot != std::string::npos && digits.size() <= 2) Fail(Err::kSyntax);
      NumberAsTime(digits, frac);
      return;
    }
    if (dot != std::string::npos && !(fmask_ & kDateMask)) {
      DecodeDate(text);
    } else if (dot != std::string::npos && digits.size() > 2) {
      NumberAsTime(digits, frac);
    } else if (dot == std::string::npos && digits.size() >= 6 &&
               ((fmask_ & kDateMask) != kDateMask || !(fmask_ & kTime))) {
      NumberAsTime(digits, frac);
    } else {
      if (dot != std::string::npos || digits.empty()) Fail(Err::kSyntax);
      DecodeNumber(digits);
    }
  }

  void Zone(const std::string& name) {
    auto z = tz::LoadZone(name);
    if (!z) throw DbError(sqlstate::kInvalidParameterValue, "time zone \"" + name + "\" not recognized");
    Claim(kTz);
    r_.zone = std::move(z);
  }

  // "hh:mm[:ss[.frac]]"
  void Time(const std::string& text) {
    Claim(kTime);
    int64_t parts[3] = {0, 0, 0};
    int nparts = 0;
    size_t k = 0;
    double frac = 0;
    while (k < text.size()) {
      size_t start = k;
      while (k < text.size() && IsDigit(text[k])) ++k;
      if (k == start || nparts == 3) Fail(Err::kSyntax);
      parts[nparts++] = ToInt(std::string_view(text).substr(start, k - start));
      if (k < text.size() && text[k] == '.') {
        size_t fs = k;
        ++k;
        while (k < text.size() && IsDigit(text[k])) ++k;
        if (k < text.size() || nparts < 2) Fail(Err::kSyntax);
        frac = std::strtod(text.c_str() + fs, nullptr);
        break;
      }
      if (k < text.size()) {
        if (text[k] != ':') Fail(Err::kSyntax);
        ++k;
        if (k == text.size()) Fail(Err::kSyntax);
      }
    }
    if (nparts < 2) Fail(Err::kSyntax);
    SetTime(parts[0], parts[1], parts[2], frac);
  }

  void SetTime(int64_t h, int64_t m, int64_t s, double frac) {
    int64_t usec = static_cast<int64_t>(std::rint(frac * kUsecsPerSec));
    if (h < 0 || m < 0 || m > 59 || s < 0 || s > 60 || usec < 0 || usec > kUsecsPerSec) Fail(Err::kRange);
    if (h > 24 || (h == 24 && (m > 0 || s > 0 || usec > 0))) Fail(Err::kRange);
    r_.has_time = true;
    r_.time_usecs = ((h * 60 + m) * 60 + s) * kUsecsPerSec + usec;
  }

  // "+hh", "+hhmm", "+hh:mm[:ss]": offset east of UTC.
  void Offset(const std::string& text) {
    int sign = text[0] == '-' ? -1 : 1;
    std::string body = text.substr(1);
    int64_t h, m = 0, s = 0;
    size_t colon = body.find(':');
    if (colon != std::string::npos) {
      std::string rest = body.substr(colon + 1);
      size_t colon2 = rest.find(':');
      if (!AllDigits(body.substr(0, colon)) || !AllDigits(rest.substr(0, colon2))) Fail(Err::kSyntax);
      h = ToInt(body.substr(0, colon));
      m = ToInt(rest.substr(0, colon2));
      if (colon2 != std::string::npos) {
        if (!AllDigits(rest.substr(colon2 + 1))) Fail(Err::kSyntax);
        s = ToInt(rest.substr(colon2 + 1));
      }
    } else {
      if (!AllDigits(body)) Fail(Err::kSyntax);
      if (body.size() <= 2) {
        h = ToInt(body);
      } else if (body.size() == 4) {
        h = ToInt(body.substr(0, 2));
        m = ToInt(body.substr(2));
      } else if (body.size() == 6) {
        h = ToInt(body.substr(0, 2));
        m = ToInt(body.substr(2, 2));
        s = ToInt(body.substr(4));
      } else {
        Fail(Err::kSyntax);
      }
    }
    if (h > 15 || m > 59 || s > 59) Fail(Err::kTzRange);
    Claim(kTz);
    r_.has_offset = true;
    r_.utoff = static_cast<int32_t>(sign * (h * 3600 + m * 60 + s));
  }

  void Word(const std::string& w) {
    if (int m = MonthOf(w)) {
      // A numeric month already read (and no day yet) was the day.
      if ((fmask_ & kMonth) && !have_text_month_ && !(fmask_ & kDay) && month_ >= 1 && month_ <= 31) {
        day_ = month_;
        fmask_ |= kDay;
      } else {
        Claim(kMonth);
      }
      have_text_month_ = true;
      month_ = m;
      return;
    }
    if (IsDayName(w) || w == "on" || w == "at") return;
    if (w == "am" || w == "pm") {
      Claim(kAmPm);
      ampm_ = w == "am" ? 1 : 2;
      return;
    }
    if (w == "bc" || w == "ad") {
      bc_ = w == "bc";
      return;
    }
    if (w == "t" || w == "j" || w == "julian") {
      pending_ = w == "t" ? Pending::kIsoTime : Pending::kJulian;
      return;
    }
    if (w == "epoch" || w == "infinity" || w == "-infinity" || w == "now") {
      Claim(kDateMask | kTime | kTz);
      r_.special = w == "epoch"      ? DateTimeFields::Special::kEpoch
                   : w == "infinity" ? DateTimeFields::Special::kInfinity
                   : w == "now"      ? DateTimeFields::Special::kNow
                                     : DateTimeFields::Special::kNegInfinity;
      special_ = true;
      return;
    }
    if (w == "today" || w == "tomorrow" || w == "yesterday") {
      Claim(kDateMask);
      r_.relative_day = true;
      r_.relative_days = w == "today" ? 0 : w == "tomorrow" ? 1 : -1;
      return;
    }
    if (w == "allballs") {  // 00:00:00 UTC
      Claim(kTime | kTz);
      SetTime(0, 0, 0, 0);
      r_.has_offset = true;
      r_.utoff = 0;
      return;
    }
    if (const TzAbbrev* a = FindTzAbbrev(w)) {
      Claim(kTz);
      r_.has_offset = true;
      r_.utoff = a->utoff;
      return;
    }
    Fail(Err::kSyntax);
  }

  // PostgreSQL's ValidateDate plus the AM/PM and completeness checks.
  void Finish() {
    if (pending_ != Pending::kNone) Fail(Err::kSyntax);
    if (special_) return;
    if (ampm_ != 0) {
      if (!r_.has_time) Fail(Err::kSyntax);
      int64_t hour = r_.time_usecs / (3600 * kUsecsPerSec);
      if (hour > 12) Fail(Err::kRange);
      if (ampm_ == 1 && hour == 12) r_.time_usecs -= 12 * 3600 * kUsecsPerSec;
      if (ampm_ == 2 && hour != 12) r_.time_usecs += 12 * 3600 * kUsecsPerSec;
    }
    if (time_only_ && r_.time_usecs > kUsecsPerDay) Fail(Err::kRange);  // time_overflows
    if (r_.relative_day) {
      r_.has_date = true;
      return;
    }
    if (fmask_ & kYear) {
      if (julian_) {
        // astronomical already
      } else if (bc_) {
        if (year_ <= 0) Fail(Err::kRange);
        year_ = 1 - year_;
      } else if (two_digit_year_) {
        year_ = year_ < 70 ? year_ + 2000 : year_ < 100 ? year_ + 1900 : year_;
      } else if (year_ <= 0) {
        Fail(Err::kRange);
      }
    }
    if (fmask_ & kDoy) {
      int64_t y;
      int m, d;
      CivilFromDays(DaysFromCivil(year_, 1, 1) + doy_ - 1, &y, &m, &d);
      year_ = y, month_ = m, day_ = d;
    } else {
      if ((fmask_ & kMonth) && (month_ < 1 || month_ > 12)) Fail(Err::kMonthDayRange);
      if ((fmask_ & kDay) && (day_ < 1 || day_ > 31)) Fail(Err::kMonthDayRange);
      if ((fmask_ & kDateMask) == kDateMask && day_ > DaysInMonthOf(year_, static_cast<int>(month_))) {
        Fail(Err::kRange);
      }
    }
    if ((fmask_ & kDateMask) == kDateMask) {
      r_.has_date = true;
      r_.year = year_;
      r_.month = static_cast<int>(month_);
      r_.day = static_cast<int>(day_);
    } else if (fmask_ & kDateMask) {
      Fail(Err::kSyntax);
    }
    (void)type_;
  }

  static int DaysInMonthOf(int64_t y, int m) {
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : kDays[m - 1];
  }
};

}  // namespace

const char* DateTimeTypeName(Oid type) {
  switch (type) {
    case kTimeOid:
      return "time";
    case kTimeTzOid:
      return "time with time zone";
    case kTimestampOid:
      return "timestamp";
    case kTimestampTzOid:
      return "timestamp with time zone";
    default:
      return "date";
  }
}

void ThrowDateTimeSyntax(std::string_view text, Oid type) {
  throw DbError(sqlstate::kInvalidDatetimeFormat, std::string("invalid input syntax for type ") +
                                                      DateTimeTypeName(type) + ": \"" + std::string(text) + "\"");
}

void ThrowDateTimeRange(std::string_view text) {
  throw DbError(sqlstate::kDatetimeFieldOverflow,
                "date/time field value out of range: \"" + std::string(text) + "\"");
}

DateTimeFields ParseDateTimeFields(std::string_view text, Oid type) {
  DateTimeFields r;
  std::vector<Field> fields;
  if (!Tokenize(text, &fields) || fields.empty()) ThrowDateTimeSyntax(text, type);
  try {
    Decoder(type, &r).Run(fields);
  } catch (const Failure& f) {
    switch (f.err) {
      case Err::kSyntax:
        ThrowDateTimeSyntax(text, type);
      case Err::kRange:
        ThrowDateTimeRange(text);
      case Err::kMonthDayRange:
        throw DbError(sqlstate::kDatetimeFieldOverflow,
                      "date/time field value out of range: \"" + std::string(text) + "\"")
            .WithHint("Perhaps you need a different \"datestyle\" setting.");
      case Err::kTzRange:
        throw DbError(kInvalidTimeZoneDisplacement,
                      "time zone displacement out of range: \"" + std::string(text) + "\"");
    }
  }
  return r;
}

}  // namespace hearth::types
