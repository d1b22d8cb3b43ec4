// server/utils/adt/datetime_out.cpp
//
// Principal entry points: AppendDate, AppendTimestamp. Output follows the
// session DateStyle as PostgreSQL's EncodeDateOnly/EncodeDateTime do:
//   ISO       1999-01-08 04:05:06-08
//   SQL       01/08/1999 04:05:06 PST      (DMY: 08/01/1999)
//   Postgres  Fri Jan 08 04:05:06 1999 PST (DMY: Fri 08 Jan ...)
//   German    08.01.1999 04:05:06 PST
// timestamptz is shown in the session time zone.
#include <cstdio>
#include <string>

#include "utils/adt/datetime_adt.h"
#include "utils/adt/datetime_session.h"
#include "utils/adt/value.h"

namespace hearth::types {
namespace {

constexpr const char* kMonthAbbrevs[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr const char* kDayAbbrevs[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

struct Parts {
  int64_t year;  // as printed (BC years counted back from 1)
  bool bc;
  int month, day, dow;
  int64_t usec_of_day;
};

Parts Split(int64_t local_usecs) {
  int64_t days = local_usecs / kUsecsPerDay;
  int64_t rem = local_usecs % kUsecsPerDay;
  if (rem < 0) {
    rem += kUsecsPerDay;
    --days;
  }
  Parts p{};
  CivilFromDays(days, &p.year, &p.month, &p.day);
  p.bc = p.year <= 0;
  if (p.bc) p.year = 1 - p.year;
  int64_t dow = (days + 6) % 7;  // 2000-01-01 was a Saturday
  p.dow = static_cast<int>(dow < 0 ? dow + 7 : dow);
  p.usec_of_day = rem;
  return p;
}

void Append(std::string* out, const char* fmt, long long a, long long b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  out->append(buf);
}
void Append(std::string* out, const char* fmt, long long a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, a);
  out->append(buf);
}

void AppendYear(const Parts& p, std::string* out) { Append(out, "%04lld", p.year); }

void AppendDateOnly(const Parts& p, std::string* out) {
  bool dmy = SessionDateOrder() == DateOrder::kDmy;
  switch (SessionDateStyle()) {
    case DateStyle::kIso:
      AppendYear(p, out);
      Append(out, "-%02lld-%02lld", p.month, p.day);
      return;
    case DateStyle::kSql:
      Append(out, "%02lld/%02lld/", dmy ? p.day : p.month, dmy ? p.month : p.day);
      break;
    case DateStyle::kGerman:
      Append(out, "%02lld.%02lld.", p.day, p.month);
      break;
    case DateStyle::kPostgres:
      Append(out, "%02lld-%02lld-", dmy ? p.day : p.month, dmy ? p.month : p.day);
      break;
  }
  AppendYear(p, out);
}

// "hh:mm:ss[.ffffff]" with trailing fractional zeros dropped.
void AppendTime(int64_t usec_of_day, std::string* out) {
  int64_t secs = usec_of_day / kUsecsPerSec;
  Append(out, "%02lld:%02lld:", secs / 3600, secs / 60 % 60);
  Append(out, "%02lld", secs % 60);
  int64_t frac = usec_of_day % kUsecsPerSec;
  if (frac != 0) {
    char buf[16];
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
    std::string f(buf);
    while (f.back() == '0') f.pop_back();
    out->append(f);
  }
}

}  // namespace

void AppendZoneOffset(int32_t utoff, std::string* out) {
  int32_t a = utoff < 0 ? -utoff : utoff;
  out->push_back(utoff < 0 ? '-' : '+');
  Append(out, "%02lld", a / 3600);
  if (a % 3600 != 0) {
    Append(out, ":%02lld", a % 3600 / 60);
    if (a % 60 != 0) Append(out, ":%02lld", a % 60);
  }
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
  Parts p = Split(days * kUsecsPerDay);
  AppendDateOnly(p, out);
  if (p.bc) out->append(" BC");
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
  bool with_tz = oid == kTimestampTzOid;
  int32_t utoff = 0;
  const tz::LocalTimeType* type = nullptr;
  int64_t local = with_tz ? TimestampTzToLocal(usecs, SessionZone(), &utoff, &type) : usecs;
  Parts p = Split(local);
  DateStyle style = SessionDateStyle();
  if (style == DateStyle::kPostgres) {
    bool dmy = SessionDateOrder() == DateOrder::kDmy;
    out->append(kDayAbbrevs[p.dow]);
    out->push_back(' ');
    if (dmy) {
      Append(out, "%02lld ", p.day);
      out->append(kMonthAbbrevs[p.month - 1]);
    } else {
      out->append(kMonthAbbrevs[p.month - 1]);
      Append(out, " %02lld", p.day);
    }
    out->push_back(' ');
    AppendTime(p.usec_of_day, out);
    out->push_back(' ');
    AppendYear(p, out);
  } else {
    AppendDateOnly(p, out);
    out->push_back(' ');
    AppendTime(p.usec_of_day, out);
  }
  if (with_tz) {
    if (style == DateStyle::kIso) {
      AppendZoneOffset(utoff, out);
    } else if (type != nullptr && !type->abbrev.empty()) {
      out->push_back(' ');
      out->append(type->abbrev);
    } else {
      out->push_back(' ');
      AppendZoneOffset(utoff, out);
    }
  }
  if (p.bc) out->append(" BC");
}

}  // namespace hearth::types
