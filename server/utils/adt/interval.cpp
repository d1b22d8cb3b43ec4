// server/utils/adt/interval.cpp
//
// Principal entry points: ParseInterval, AppendInterval, the interval
// arithmetic and TimestampPlusInterval / TimestampAge. Behaviour follows
// PostgreSQL 15's DecodeInterval / EncodeInterval (IntervalStyle postgres)
// and its interval operators.
#include "utils/adt/interval.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/big_endian.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/value.h"

namespace hearth::types {

namespace {

constexpr int64_t kUsecsPerHour = 3600LL * kUsecsPerSec;
constexpr int64_t kUsecsPerMinute = 60LL * kUsecsPerSec;
constexpr int kDaysPerMonth = 30;
constexpr int kMonthsPerYear = 12;

[[noreturn]] void OutOfRange() { throw DbError(sqlstate::kDatetimeFieldOverflow, "interval out of range"); }

int32_t CheckedInt32(__int128 v) {
  if (v < INT32_MIN || v > INT32_MAX) OutOfRange();
  return static_cast<int32_t>(v);
}

int64_t CheckedInt64(__int128 v) {
  if (v < INT64_MIN || v > INT64_MAX) OutOfRange();
  return static_cast<int64_t>(v);
}

// ---- input ---------------------------------------------------------------

// Accumulates fields as PostgreSQL's DecodeInterval does, in wide integers
// so that overflow is detected once at the end.
struct Fields {
  __int128 months = 0, days = 0, usecs = 0;
};

class IntervalParser {
 public:
  explicit IntervalParser(std::string_view text) : text_(text) {}

  Interval Parse() {
    std::string_view s = text_;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    if (!s.empty() && (s[0] == 'P' || s[0] == 'p')) {
      ParseIso(s.substr(1));
    } else {
      ParseFields(s);
    }
    Interval iv;
    iv.month = ToInt32(f_.months);
    iv.day = ToInt32(f_.days);
    if (f_.usecs < INT64_MIN || f_.usecs > INT64_MAX) FieldOverflow();
    iv.time = static_cast<int64_t>(f_.usecs);
    return iv;
  }

 private:
  [[noreturn]] void Syntax() const {
    throw DbError(sqlstate::kInvalidDatetimeFormat,
                  "invalid input syntax for type interval: \"" + std::string(text_) + "\"");
  }
  [[noreturn]] void FieldOverflow() const {
    throw DbError(sqlstate::kIntervalFieldOverflow,
                  "interval field value out of range: \"" + std::string(text_) + "\"");
  }
  int32_t ToInt32(__int128 v) const {
    if (v < INT32_MIN || v > INT32_MAX) FieldOverflow();
    return static_cast<int32_t>(v);
  }

  // Adds `whole` units plus a signed fraction of one, as PostgreSQL's
  // Adjust* helpers: fractions of months carry into days, of days into
  // microseconds; fractions of years round to whole months.
  void AddUnit(const std::string& unit, __int128 whole, double frac) {
    auto add_years = [&](int scale) {
      f_.months += whole * scale * kMonthsPerYear;
      f_.months += static_cast<__int128>(std::rint(frac * scale * kMonthsPerYear));
    };
    auto add_fract_days = [&](double days) {
      auto extra = static_cast<int64_t>(days);
      f_.days += extra;
      f_.usecs += static_cast<__int128>(std::rint((days - static_cast<double>(extra)) * kUsecsPerDay));
    };
    auto add_usecs = [&](int64_t per) {
      f_.usecs += whole * per + static_cast<__int128>(std::rint(frac * static_cast<double>(per)));
    };
    if (unit == "microsecond" || unit == "microseconds" || unit == "us" || unit == "usec" || unit == "usecs" ||
        unit == "usecond" || unit == "useconds") {
      add_usecs(1);
    } else if (unit == "millisecond" || unit == "milliseconds" || unit == "ms" || unit == "msec" ||
               unit == "msecs" || unit == "msecond" || unit == "mseconds") {
      add_usecs(1000);
    } else if (unit == "second" || unit == "seconds" || unit == "sec" || unit == "secs" || unit == "s") {
      add_usecs(kUsecsPerSec);
    } else if (unit == "minute" || unit == "minutes" || unit == "min" || unit == "mins" || unit == "m") {
      add_usecs(kUsecsPerMinute);
    } else if (unit == "hour" || unit == "hours" || unit == "hr" || unit == "hrs" || unit == "h") {
      add_usecs(kUsecsPerHour);
    } else if (unit == "day" || unit == "days" || unit == "d") {
      f_.days += whole;
      f_.usecs += static_cast<__int128>(std::rint(frac * static_cast<double>(kUsecsPerDay)));
    } else if (unit == "week" || unit == "weeks" || unit == "w") {
      f_.days += whole * 7;
      add_fract_days(frac * 7);
    } else if (unit == "month" || unit == "months" || unit == "mon" || unit == "mons") {
      f_.months += whole;
      add_fract_days(frac * kDaysPerMonth);
    } else if (unit == "year" || unit == "years" || unit == "yr" || unit == "yrs" || unit == "y") {
      add_years(1);
    } else if (unit == "decade" || unit == "decades" || unit == "dec" || unit == "decs") {
      add_years(10);
    } else if (unit == "century" || unit == "centuries" || unit == "cent" || unit == "c") {
      add_years(100);
    } else if (unit == "millennium" || unit == "millennia" || unit == "mil" || unit == "mils") {
      add_years(1000);
    } else {
      Syntax();
    }
  }

  // A number "[+-]digits[.digits]" at s[*i]; false if none.
  bool ReadNumber(std::string_view s, size_t* i, bool* neg, __int128* whole, double* frac) {
    size_t j = *i;
    *neg = false;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) *neg = s[j++] == '-';
    size_t start = j;
    __int128 w = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      w = w * 10 + (s[j++] - '0');
      if (w > static_cast<__int128>(INT64_MAX)) FieldOverflow();
    }
    double fr = 0;
    if (j < s.size() && s[j] == '.') {
      size_t fstart = j;
      ++j;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      fr = std::strtod(std::string(s.substr(fstart, j - fstart)).c_str(), nullptr);
      if (j - fstart == 1 && j - 1 == start) return false;  // a lone "."
    } else if (j == start) {
      return false;
    }
    *whole = *neg ? -w : w;
    *frac = *neg ? -fr : fr;
    *i = j;
    return true;
  }

  // "h:m[:s[.f]]" (or "m:s.f") with the sign already consumed.
  void AddTime(std::string_view tok, bool neg) {
    int64_t parts[3] = {0, 0, 0};
    double frac = 0;
    int n = 0;
    size_t k = 0;
    while (k <= tok.size() && n < 3) {
      size_t e = k;
      while (e < tok.size() && std::isdigit(static_cast<unsigned char>(tok[e]))) ++e;
      if (e == k) Syntax();
      parts[n++] = std::stoll(std::string(tok.substr(k, e - k)));
      if (e < tok.size() && tok[e] == '.') {
        size_t fs = e;
        ++e;
        while (e < tok.size() && std::isdigit(static_cast<unsigned char>(tok[e]))) ++e;
        frac = std::strtod(std::string(tok.substr(fs, e - fs)).c_str(), nullptr);
        if (e != tok.size()) Syntax();
        k = e + 1;
        break;
      }
      if (e == tok.size()) {
        k = e + 1;
        break;
      }
      if (tok[e] != ':') Syntax();
      k = e + 1;
    }
    if (k <= tok.size()) Syntax();
    __int128 us;
    if (n == 2 && frac != 0) {  // "mm:ss.fff"
      us = static_cast<__int128>(parts[0]) * kUsecsPerMinute + static_cast<__int128>(parts[1]) * kUsecsPerSec;
    } else {
      if (n >= 2 && parts[1] > 59) FieldOverflow();
      if (n == 3 && parts[2] > 60) FieldOverflow();
      us = static_cast<__int128>(parts[0]) * kUsecsPerHour + static_cast<__int128>(parts[1]) * kUsecsPerMinute +
           static_cast<__int128>(parts[2]) * kUsecsPerSec;
    }
    us += static_cast<__int128>(std::rint(frac * kUsecsPerSec));
    f_.usecs += neg ? -us : us;
  }

  void ParseFields(std::string_view s) {
    size_t i = 0;
    bool any = false, ago = false;
    auto skip_space = [&] {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    };
    skip_space();
    if (i < s.size() && s[i] == '@') {
      ++i;
      skip_space();
    }
    while (i < s.size()) {
      if (ago) Syntax();  // nothing may follow "ago"
      if (std::isalpha(static_cast<unsigned char>(s[i]))) {
        std::string word = ReadWord(s, &i);
        if (word != "ago" || !any) Syntax();
        ago = true;
        skip_space();
        continue;
      }
      size_t tok_start = i;
      bool neg = false;
      __int128 whole = 0;
      double frac = 0;
      if (!ReadNumber(s, &i, &neg, &whole, &frac)) Syntax();
      if (i < s.size() && s[i] == ':') {
        size_t st = tok_start + ((s[tok_start] == '+' || s[tok_start] == '-') ? 1 : 0);
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        AddTime(s.substr(st, i - st), neg);
      } else if (i < s.size() && s[i] == '-' && frac == 0 && i + 1 < s.size() &&
                 std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
        ++i;  // "years-months"
        __int128 mon = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) mon = mon * 10 + (s[i++] - '0');
        if (mon > 11) FieldOverflow();
        __int128 total = (neg ? -whole : whole) * kMonthsPerYear + mon;
        f_.months += neg ? -total : total;
      } else {
        skip_space();
        if (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) {
          size_t save = i;
          std::string unit = ReadWord(s, &i);
          if (unit == "ago") {
            i = save;
            AddBareNumber(s, i, whole, frac);
          } else {
            AddUnit(unit, whole, frac);
          }
        } else {
          AddBareNumber(s, i, whole, frac);
        }
      }
      any = true;
      skip_space();
    }
    if (!any) Syntax();
    if (ago) {
      f_.months = -f_.months;
      f_.days = -f_.days;
      f_.usecs = -f_.usecs;
    }
  }

  // A number without a unit: days before a time field ("3 4:05:06"),
  // otherwise seconds.
  void AddBareNumber(std::string_view s, size_t i, __int128 whole, double frac) {
    size_t j = i;
    while (j < s.size() && (s[j] == '+' || s[j] == '-' || std::isdigit(static_cast<unsigned char>(s[j])))) ++j;
    bool time_follows = j < s.size() && s[j] == ':';
    if (time_follows && frac == 0) {
      f_.days += whole;
    } else {
      AddUnit("second", whole, frac);
    }
  }

  static std::string ReadWord(std::string_view s, size_t* i) {
    std::string w;
    while (*i < s.size() && std::isalpha(static_cast<unsigned char>(s[*i]))) {
      w.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s[(*i)++]))));
    }
    return w;
  }

  // ISO 8601 "PnYnMnWnDTnHnMnS" (after the P).
  void ParseIso(std::string_view s) {
    bool in_time = false, any = false;
    size_t i = 0;
    while (i < s.size()) {
      char c = static_cast<char>(std::toupper(static_cast<unsigned char>(s[i])));
      if (c == 'T') {
        if (in_time) Syntax();
        in_time = true;
        ++i;
        continue;
      }
      bool neg = false;
      __int128 whole = 0;
      double frac = 0;
      if (!ReadNumber(s, &i, &neg, &whole, &frac) || i >= s.size()) Syntax();
      char u = static_cast<char>(std::toupper(static_cast<unsigned char>(s[i++])));
      const char* unit = nullptr;
      if (!in_time) {
        unit = u == 'Y' ? "year" : u == 'M' ? "month" : u == 'W' ? "week" : u == 'D' ? "day" : nullptr;
      } else {
        unit = u == 'H' ? "hour" : u == 'M' ? "minute" : u == 'S' ? "second" : nullptr;
      }
      if (unit == nullptr) Syntax();
      AddUnit(unit, whole, frac);
      any = true;
    }
    if (!any) Syntax();
  }

  std::string_view text_;
  Fields f_;
};

// ---- output --------------------------------------------------------------

void AddPart(int64_t value, const char* unit, bool* is_zero, bool* is_before, std::string* out) {
  if (value == 0) return;
  if (!*is_zero) out->push_back(' ');
  if (*is_before && value > 0) out->push_back('+');
  out->append(std::to_string(value));
  out->push_back(' ');
  out->append(unit);
  if (value != 1) out->push_back('s');
  *is_before = value < 0;
  *is_zero = false;
}

// Civil fields of a timestamp, for month arithmetic and age().
struct Tm {
  int64_t year;
  int mon, mday;
  int64_t usec_of_day;
};

Tm SplitTs(int64_t usecs) {
  int64_t days = usecs / kUsecsPerDay;
  int64_t rest = usecs % kUsecsPerDay;
  if (rest < 0) {
    rest += kUsecsPerDay;
    --days;
  }
  Tm t{};
  CivilFromDays(days, &t.year, &t.mon, &t.mday);
  t.usec_of_day = rest;
  return t;
}

int DaysInMonth(int64_t year, int mon) {
  int64_t next_y = mon == 12 ? year + 1 : year;
  int next_m = mon == 12 ? 1 : mon + 1;
  return static_cast<int>(DaysFromCivil(next_y, next_m, 1) - DaysFromCivil(year, mon, 1));
}

}  // namespace

std::string EncodeInterval(const Interval& iv) {
  std::string s;
  s.reserve(kIntervalLen);
  PutBigEndianBytes(static_cast<uint64_t>(iv.time), 8, &s);
  PutBigEndianBytes(static_cast<uint32_t>(iv.day), 4, &s);
  PutBigEndianBytes(static_cast<uint32_t>(iv.month), 4, &s);
  return s;
}

Interval DecodeInterval(std::string_view b) {
  Interval iv;
  iv.time = static_cast<int64_t>(GetBigEndianBytes(b, 0, 8));
  iv.day = static_cast<int32_t>(static_cast<uint32_t>(GetBigEndianBytes(b, 8, 4)));
  iv.month = static_cast<int32_t>(static_cast<uint32_t>(GetBigEndianBytes(b, 12, 4)));
  return iv;
}

Interval ParseInterval(std::string_view text) { return IntervalParser(text).Parse(); }

void AppendInterval(const Interval& iv, std::string* out) {
  bool is_zero = true, is_before = false;
  AddPart(iv.month / kMonthsPerYear, "year", &is_zero, &is_before, out);
  AddPart(iv.month % kMonthsPerYear, "mon", &is_zero, &is_before, out);
  AddPart(iv.day, "day", &is_zero, &is_before, out);
  if (!is_zero && iv.time == 0) return;
  int64_t t = iv.time;
  bool minus = t < 0;
  uint64_t a = minus ? -static_cast<uint64_t>(t) : static_cast<uint64_t>(t);
  uint64_t hours = a / kUsecsPerHour;
  uint64_t mins = a % kUsecsPerHour / kUsecsPerMinute;
  uint64_t secs = a % kUsecsPerMinute / kUsecsPerSec;
  uint64_t frac = a % kUsecsPerSec;
  if (!is_zero) out->push_back(' ');
  if (minus) {
    out->push_back('-');
  } else if (is_before) {
    out->push_back('+');
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu", static_cast<unsigned long long>(hours),
                static_cast<unsigned long long>(mins), static_cast<unsigned long long>(secs));
  out->append(buf);
  if (frac != 0) {
    std::snprintf(buf, sizeof buf, ".%06llu", static_cast<unsigned long long>(frac));
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    out->append(f);
  }
}

__int128 IntervalSpan(const Interval& iv) {
  return static_cast<__int128>(iv.time) +
         (static_cast<__int128>(iv.day) + static_cast<__int128>(iv.month) * kDaysPerMonth) * kUsecsPerDay;
}

int CompareIntervals(const Interval& a, const Interval& b) {
  __int128 x = IntervalSpan(a), y = IntervalSpan(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

Interval IntervalAdd(const Interval& a, const Interval& b) {
  Interval r;
  r.month = CheckedInt32(static_cast<__int128>(a.month) + b.month);
  r.day = CheckedInt32(static_cast<__int128>(a.day) + b.day);
  r.time = CheckedInt64(static_cast<__int128>(a.time) + b.time);
  return r;
}

Interval IntervalNegate(const Interval& a) {
  Interval r;
  r.month = CheckedInt32(-static_cast<__int128>(a.month));
  r.day = CheckedInt32(-static_cast<__int128>(a.day));
  r.time = CheckedInt64(-static_cast<__int128>(a.time));
  return r;
}

namespace {

// PostgreSQL's interval_mul/interval_div after scaling: whole months and
// days are kept, their fractions carry down (a month = 30 days, a day =
// 24 hours), rounded to microseconds.
Interval CarryScaled(double month_d, double day_d, double time_d) {
  if (!(month_d >= INT32_MIN && month_d <= INT32_MAX) || !(day_d >= INT32_MIN && day_d <= INT32_MAX)) OutOfRange();
  auto tsround = [](double v) { return std::rint(v * 1e6) / 1e6; };
  Interval r;
  r.month = static_cast<int32_t>(month_d);
  r.day = static_cast<int32_t>(day_d);
  double month_rem_days = tsround((month_d - r.month) * kDaysPerMonth);
  double sec_rem = tsround((day_d - r.day + month_rem_days - static_cast<int32_t>(month_rem_days)) * 86400.0);
  if (std::fabs(sec_rem) >= 86400.0) {
    r.day = CheckedInt32(static_cast<__int128>(r.day) + static_cast<int32_t>(sec_rem / 86400.0));
    sec_rem -= static_cast<int32_t>(sec_rem / 86400.0) * 86400.0;
  }
  r.day = CheckedInt32(static_cast<__int128>(r.day) + static_cast<int32_t>(month_rem_days));
  double t = std::rint(time_d + sec_rem * kUsecsPerSec);
  if (!(t >= -9.2233720368547758e18 && t < 9.2233720368547758e18)) OutOfRange();
  r.time = static_cast<int64_t>(t);
  return r;
}

}  // namespace

Interval IntervalMultiply(const Interval& a, double factor) {
  if (std::isnan(factor)) OutOfRange();
  return CarryScaled(a.month * factor, a.day * factor, static_cast<double>(a.time) * factor);
}

Interval IntervalDivide(const Interval& a, double divisor) {
  if (divisor == 0) throw DbError(sqlstate::kDivisionByZero, "division by zero");
  if (std::isnan(divisor)) OutOfRange();
  return CarryScaled(a.month / divisor, a.day / divisor, static_cast<double>(a.time) / divisor);
}

namespace {

// The justify_* steps, as PostgreSQL's: whole days out of the time, whole
// 30-day months out of the days, then the smaller field brought to the
// sign of the larger.
void CarryTimeIntoDays(Interval& r) {
  const int64_t whole_days = r.time / kUsecsPerDay;
  r.time -= whole_days * kUsecsPerDay;
  r.day = CheckedInt32(static_cast<__int128>(r.day) + whole_days);
}

void CarryDaysIntoMonths(Interval& r) {
  const int32_t whole_months = r.day / kDaysPerMonth;
  r.day -= whole_months * kDaysPerMonth;
  r.month = CheckedInt32(static_cast<__int128>(r.month) + whole_months);
}

// `below` is the sign of what follows the months (their days, or days and time).
void AlignMonthSign(Interval& r, int below) {
  if (r.month > 0 && below < 0) {
    r.day += kDaysPerMonth;
    r.month--;
  } else if (r.month < 0 && below > 0) {
    r.day -= kDaysPerMonth;
    r.month++;
  }
}

void AlignDaySign(Interval& r) {
  if (r.day > 0 && r.time < 0) {
    r.time += kUsecsPerDay;
    r.day--;
  } else if (r.day < 0 && r.time > 0) {
    r.time -= kUsecsPerDay;
    r.day++;
  }
}

int Sign(int64_t v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

}  // namespace

Interval JustifyHours(const Interval& a) {
  Interval r = a;
  CarryTimeIntoDays(r);
  AlignDaySign(r);
  return r;
}

Interval JustifyDays(const Interval& a) {
  Interval r = a;
  CarryDaysIntoMonths(r);
  AlignMonthSign(r, Sign(r.day));
  return r;
}

Interval JustifyInterval(const Interval& a) {
  Interval r = a;
  CarryDaysIntoMonths(r);
  CarryTimeIntoDays(r);
  CarryDaysIntoMonths(r);
  AlignMonthSign(r, r.day != 0 ? Sign(r.day) : Sign(r.time));
  AlignDaySign(r);
  return r;
}

int64_t TimestampPlusInterval(int64_t usecs, const Interval& iv) {
  if (usecs == kTimestampNoBegin || usecs == kTimestampNoEnd) return usecs;
  auto overflow = [] { throw DbError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); };
  __int128 result = usecs;
  if (iv.month != 0) {
    Tm t = SplitTs(usecs);
    __int128 months = static_cast<__int128>(t.year) * 12 + (t.mon - 1) + iv.month;
    int64_t year = static_cast<int64_t>(months >= 0 ? months / 12 : (months - 11) / 12);
    int mon = static_cast<int>(months - static_cast<__int128>(year) * 12) + 1;
    if (year < -4713 || year > 294276) overflow();
    int mday = std::min(t.mday, DaysInMonth(year, mon));
    result = static_cast<__int128>(DaysFromCivil(year, mon, mday)) * kUsecsPerDay + t.usec_of_day;
  }
  result += static_cast<__int128>(iv.day) * kUsecsPerDay + iv.time;
  if (result < kMinTimestampUsecs || result >= kEndTimestampUsecs) overflow();
  return static_cast<int64_t>(result);
}

int64_t TimestampTzPlusInterval(int64_t usecs, const Interval& iv) {
  if (usecs == kTimestampNoBegin || usecs == kTimestampNoEnd) return usecs;
  // Months and days move the local wall clock (a day across a DST change
  // is 23 or 25 hours); the time part is exact elapsed time.
  const tz::Zone& zone = SessionZone();
  if (iv.month != 0) {
    Interval months;
    months.month = iv.month;
    usecs = LocalToTimestampTz(TimestampPlusInterval(TimestampTzToLocal(usecs, zone), months), zone);
  }
  if (iv.day != 0) {
    Interval days;
    days.day = iv.day;
    usecs = LocalToTimestampTz(TimestampPlusInterval(TimestampTzToLocal(usecs, zone), days), zone);
  }
  Interval time;
  time.time = iv.time;
  return TimestampPlusInterval(usecs, time);
}

Interval TimestampAge(int64_t a, int64_t b) {
  if (a == kTimestampNoBegin || a == kTimestampNoEnd || b == kTimestampNoBegin || b == kTimestampNoEnd) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  }
  Tm t1 = SplitTs(a), t2 = SplitTs(b);
  int64_t us = t1.usec_of_day - t2.usec_of_day;
  int64_t mday = t1.mday - t2.mday;
  int64_t mon = t1.mon - t2.mon;
  int64_t year = t1.year - t2.year;
  bool flip = a < b;
  if (flip) {
    us = -us;
    mday = -mday;
    mon = -mon;
    year = -year;
  }
  while (us < 0) {
    us += kUsecsPerDay;
    mday--;
  }
  while (mday < 0) {
    const Tm& ref = flip ? t1 : t2;
    mday += DaysInMonth(ref.year, ref.mon);
    mon--;
  }
  while (mon < 0) {
    mon += 12;
    year--;
  }
  if (flip) {
    us = -us;
    mday = -mday;
    mon = -mon;
    year = -year;
  }
  Interval r;
  r.month = CheckedInt32(static_cast<__int128>(year) * 12 + mon);
  r.day = CheckedInt32(mday);
  r.time = us;
  return r;
}

}  // namespace hearth::types
