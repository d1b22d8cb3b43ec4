// common/tz/tz.cpp
//
// Principal entry points: LoadZone, FixedZone, Zone::At,
// Zone::OffsetForLocal. The TZif layout is RFC 8536; POSIX TZ strings are
// those of POSIX.1 section 8.3 plus tzcode's extensions (quoted <...>
// abbreviations, hours past 24 in rule times).
#include "common/tz/tz.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace hearth::tz {
namespace {

constexpr std::string_view kZoneDir = "/usr/share/zoneinfo";
constexpr int64_t kSecsPerDay = 86400;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ---- POSIX TZ strings -------------------------------------------------

struct Reader {
  std::string_view s;
  size_t p = 0;
  bool AtEnd() const { return p >= s.size(); }
  char Peek() const { return AtEnd() ? '\0' : s[p]; }
  bool Number(int64_t* v, int max_digits) {
    int n = 0;
    *v = 0;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(s[p])) && n < max_digits) {
      *v = *v * 10 + (s[p++] - '0');
      ++n;
    }
    return n > 0;
  }
};

bool ReadAbbrev(Reader& r, std::string* out, bool allow_empty) {
  if (r.Peek() == '<') {
    size_t close = r.s.find('>', r.p);
    if (close == std::string_view::npos) return false;
    *out = std::string(r.s.substr(r.p + 1, close - r.p - 1));
    r.p = close + 1;
    return true;
  }
  size_t start = r.p;
  while (!r.AtEnd() && std::isalpha(static_cast<unsigned char>(r.Peek()))) ++r.p;
  *out = std::string(r.s.substr(start, r.p - start));
  return allow_empty || out->size() >= 3;
}

// [+-]hh[:mm[:ss]] as seconds, in the string's own sign convention.
bool ReadHms(Reader& r, int64_t* secs, int max_hours) {
  int sign = 1;
  if (r.Peek() == '+' || r.Peek() == '-') sign = r.s[r.p++] == '-' ? -1 : 1;
  int64_t h, m = 0, sec = 0;
  if (!r.Number(&h, 3) || h > max_hours) return false;
  if (r.Peek() == ':') {
    ++r.p;
    if (!r.Number(&m, 2) || m > 59) return false;
    if (r.Peek() == ':') {
      ++r.p;
      if (!r.Number(&sec, 2) || sec > 60) return false;
    }
  }
  *secs = sign * (h * 3600 + m * 60 + sec);
  return true;
}

bool ReadRuleDate(Reader& r, RuleDate* d) {
  int64_t a, b, c;
  if (r.Peek() == 'J') {
    ++r.p;
    if (!r.Number(&a, 3) || a < 1 || a > 365) return false;
    d->kind = RuleDate::Kind::kJulianNoLeap;
    d->day = static_cast<int>(a);
  } else if (r.Peek() == 'M') {
    ++r.p;
    if (!r.Number(&a, 2) || a < 1 || a > 12 || r.Peek() != '.') return false;
    ++r.p;
    if (!r.Number(&b, 1) || b < 1 || b > 5 || r.Peek() != '.') return false;
    ++r.p;
    if (!r.Number(&c, 1) || c > 6) return false;
    d->kind = RuleDate::Kind::kMonthWeekDay;
    d->month = static_cast<int>(a);
    d->week = static_cast<int>(b);
    d->day = static_cast<int>(c);
  } else {
    if (!r.Number(&a, 3) || a > 365) return false;
    d->kind = RuleDate::Kind::kDayOfYear;
    d->day = static_cast<int>(a);
  }
  d->time = 7200;
  if (r.Peek() == '/') {
    ++r.p;
    int64_t t;
    if (!ReadHms(r, &t, 167)) return false;
    d->time = static_cast<int32_t>(t);
  }
  return true;
}

// Local midnight (as seconds since 1970, local clock) of a rule date in `year`.
int64_t RuleDay(const RuleDate& d, int64_t year) {
  int64_t jan1 = DaysFromCivil(year, 1, 1);
  switch (d.kind) {
    case RuleDate::Kind::kJulianNoLeap:
      return (jan1 + d.day - 1 + (IsLeap(year) && d.day >= 60 ? 1 : 0)) * kSecsPerDay;
    case RuleDate::Kind::kDayOfYear:
      return (jan1 + d.day) * kSecsPerDay;
    case RuleDate::Kind::kMonthWeekDay: {
      int64_t first = DaysFromCivil(year, d.month, 1);
      int64_t dow = ((first + 4) % 7 + 7) % 7;  // 1970-01-01 was a Thursday
      int64_t mday = 1 + (d.day - dow + 7) % 7 + (d.week - 1) * 7;
      while (mday > DaysInMonth(year, d.month)) mday -= 7;
      return (first + mday - 1) * kSecsPerDay;
    }
  }
  return 0;
}

// ---- TZif ---------------------------------------------------------------

struct TzifCounts {
  uint32_t isut, isstd, leap, time, type, chars;
};

uint32_t Be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
int64_t Be64(const unsigned char* p) {
  return static_cast<int64_t>((uint64_t{Be32(p)} << 32) | Be32(p + 4));
}

bool ReadCounts(std::string_view b, size_t at, TzifCounts* c) {
  if (b.size() < at + 44 || b.substr(at, 4) != "TZif") return false;
  auto u = reinterpret_cast<const unsigned char*>(b.data()) + at + 20;
  *c = {Be32(u), Be32(u + 4), Be32(u + 8), Be32(u + 12), Be32(u + 16), Be32(u + 20)};
  return c->type > 0 && c->type <= 256 && c->chars > 0;
}

size_t BlockSize(const TzifCounts& c, int time_size) {
  return c.time * time_size + c.time + c.type * 6 + c.chars + c.leap * (time_size + 4) + c.isstd + c.isut;
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool ZoneNameSyntaxOk(std::string_view s) {
  if (s.empty() || s.front() == '/' || s.back() == '/') return false;
  if (s.find("..") != std::string_view::npos || s.find("//") != std::string_view::npos) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' || c == '+')) {
      return false;
    }
  }
  return true;
}

// The on-disk spelling of `rel` under the zone directory, matched ignoring
// case component by component; "" when there is none.
std::string FindZoneFile(std::string_view rel) {
  if (!ZoneNameSyntaxOk(rel)) return "";
  if (IsRegularFile(std::string(kZoneDir) + "/" + std::string(rel))) return std::string(rel);
  std::error_code ec;
  std::filesystem::path dir(kZoneDir);
  std::string result;
  size_t pos = 0;
  while (true) {
    size_t slash = rel.find('/', pos);
    std::string part = Lower(rel.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos));
    std::string match;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      if (Lower(name) == part) {
        match = name;
        break;
      }
    }
    if (ec || match.empty()) return "";
    result += (result.empty() ? "" : "/") + match;
    dir /= match;
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  return IsRegularFile(std::string(kZoneDir) + "/" + result) ? result : "";
}

std::shared_ptr<const Zone> LoadUncached(std::string_view name) {
  std::string file = FindZoneFile(name);
  if (!file.empty()) {
    std::ifstream in(std::string(kZoneDir) + "/" + file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (auto z = Zone::FromTzif(file, ss.str())) return z;
  }
  PosixRule rule;
  if (ParsePosixTz(name, &rule)) return Zone::FromPosix(std::string(name), rule);
  // UTC needs no tz database (a machine without tzdata still has it).
  for (std::string_view utc : {"UTC", "GMT", "UCT", "Etc/UTC", "Etc/GMT", "Zulu"}) {
    if (Lower(utc) == Lower(name)) {
      rule = PosixRule{};
      rule.std_type.abbrev = utc.size() == 3 ? std::string(utc) : "UTC";
      return Zone::FromPosix(std::string(utc), rule);
    }
  }
  return nullptr;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t days, int64_t* y, int* m, int* d) {
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

bool ParsePosixTz(std::string_view text, PosixRule* rule) {
  Reader r{text};
  PosixRule out;
  if (!ReadAbbrev(r, &out.std_type.abbrev, true) || r.AtEnd()) return false;
  int64_t off;
  if (!ReadHms(r, &off, 24)) return false;
  out.std_type.utoff = static_cast<int32_t>(-off);
  if (r.AtEnd()) {
    *rule = out;
    return true;
  }
  if (!ReadAbbrev(r, &out.dst_type.abbrev, false)) return false;
  out.has_dst = true;
  out.dst_type.is_dst = true;
  out.dst_type.utoff = out.std_type.utoff + 3600;
  if (!r.AtEnd() && r.Peek() != ',') {
    if (!ReadHms(r, &off, 24)) return false;
    out.dst_type.utoff = static_cast<int32_t>(-off);
  }
  if (r.AtEnd()) {
    // No rule dates: the United States rules, as tzcode's default.
    Reader d{",M3.2.0,M11.1.0"};
    ++d.p;
    ReadRuleDate(d, &out.start);
    ++d.p;
    ReadRuleDate(d, &out.end);
  } else {
    if (r.Peek() != ',') return false;
    ++r.p;
    if (!ReadRuleDate(r, &out.start) || r.Peek() != ',') return false;
    ++r.p;
    if (!ReadRuleDate(r, &out.end) || !r.AtEnd()) return false;
  }
  *rule = out;
  return true;
}

std::shared_ptr<Zone> Zone::FromPosix(std::string name, const PosixRule& rule) {
  auto z = std::make_shared<Zone>();
  z->name_ = std::move(name);
  z->types_.push_back(rule.std_type);
  z->has_footer_ = true;
  z->footer_ = rule;
  return z;
}

std::shared_ptr<Zone> Zone::FromTzif(std::string name, std::string_view b) {
  TzifCounts c;
  if (!ReadCounts(b, 0, &c)) return nullptr;
  size_t at = 44;
  int time_size = 4;
  if (b[4] >= '2') {  // skip the 32-bit block: the 64-bit one follows
    at += BlockSize(c, 4);
    if (!ReadCounts(b, at, &c)) return nullptr;
    at += 44;
    time_size = 8;
  }
  if (b.size() < at + BlockSize(c, time_size)) return nullptr;
  auto u = reinterpret_cast<const unsigned char*>(b.data());
  auto z = std::make_shared<Zone>();
  z->name_ = std::move(name);
  for (uint32_t i = 0; i < c.time; ++i) {
    const unsigned char* p = u + at + i * time_size;
    z->transitions_.push_back(time_size == 8 ? Be64(p) : static_cast<int32_t>(Be32(p)));
  }
  at += c.time * time_size;
  for (uint32_t i = 0; i < c.time; ++i) {
    if (u[at + i] >= c.type) return nullptr;
    z->transition_types_.push_back(u[at + i]);
  }
  at += c.time;
  size_t chars_at = at + c.type * 6;
  for (uint32_t i = 0; i < c.type; ++i) {
    const unsigned char* p = u + at + i * 6;
    LocalTimeType t;
    t.utoff = static_cast<int32_t>(Be32(p));
    t.is_dst = p[4] != 0;
    if (p[5] >= c.chars) return nullptr;
    const char* s = b.data() + chars_at + p[5];
    t.abbrev = std::string(s, strnlen(s, c.chars - p[5]));
    z->types_.push_back(std::move(t));
  }
  at += BlockSize(c, time_size) - c.time * time_size - c.time;
  if (time_size == 8 && at < b.size() && b[at] == '\n') {
    size_t end = b.find('\n', at + 1);
    if (end != std::string_view::npos && end > at + 1) {
      z->has_footer_ = ParsePosixTz(b.substr(at + 1, end - at - 1), &z->footer_);
    }
  }
  return z;
}

void Zone::FooterTransitions(int64_t utc, int64_t out[6], bool out_dst[6]) const {
  int64_t y;
  int m, d;
  CivilFromDays(FloorDiv(utc + footer_.std_type.utoff, kSecsPerDay), &y, &m, &d);
  for (int k = 0; k < 3; ++k) {
    int64_t year = y - 1 + k;
    int64_t start = RuleDay(footer_.start, year) + footer_.start.time - footer_.std_type.utoff;
    int64_t end = RuleDay(footer_.end, year) + footer_.end.time - footer_.dst_type.utoff;
    out[2 * k] = std::min(start, end);
    out_dst[2 * k] = start < end;
    out[2 * k + 1] = std::max(start, end);
    out_dst[2 * k + 1] = !(start < end);
  }
}

const LocalTimeType& Zone::FooterAt(int64_t utc) const {
  if (!footer_.has_dst) return footer_.std_type;
  int64_t when[6];
  bool dst[6];
  FooterTransitions(utc, when, dst);
  bool in_dst = !dst[0];  // the state before the first of them
  for (int i = 0; i < 6 && when[i] <= utc; ++i) in_dst = dst[i];
  return in_dst ? footer_.dst_type : footer_.std_type;
}

const LocalTimeType& Zone::At(int64_t utc) const {
  if (transitions_.empty()) return has_footer_ ? FooterAt(utc) : types_[0];
  if (utc < transitions_.front()) return types_[0];
  if (has_footer_ && utc >= transitions_.back()) return FooterAt(utc);
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc);
  return types_[transition_types_[it - transitions_.begin() - 1]];
}

bool Zone::NextTransition(int64_t utc, int64_t* when, const LocalTimeType** after) const {
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc);
  if (it != transitions_.end()) {
    *when = *it;
    *after = &types_[transition_types_[it - transitions_.begin()]];
    return true;
  }
  if (!has_footer_ || !footer_.has_dst) return false;
  int64_t times[6];
  bool dst[6];
  FooterTransitions(utc, times, dst);
  for (int i = 0; i < 6; ++i) {
    if (times[i] > utc) {
      *when = times[i];
      *after = dst[i] ? &footer_.dst_type : &footer_.std_type;
      return true;
    }
  }
  return false;
}

int32_t Zone::OffsetForLocal(int64_t local) const {
  int64_t prev = local - kSecsPerDay;
  int32_t before = At(prev).utoff;
  int64_t boundary;
  const LocalTimeType* next;
  if (!NextTransition(prev, &boundary, &next)) return before;
  int32_t after = next->utoff;
  int64_t before_time = local - before, after_time = local - after;
  if (before_time < boundary && after_time < boundary) return before;
  if (before_time >= boundary && after_time >= boundary) return after;
  return before_time > after_time ? before : after;
}

std::shared_ptr<const Zone> LoadZone(std::string_view name) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const Zone>, std::less<>> cache;
  std::lock_guard<std::mutex> guard(mu);
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  std::shared_ptr<const Zone> z = LoadUncached(name);
  if (z) cache.emplace(std::string(name), z);
  return z;
}

bool Zone::FixedOffset(int32_t* utoff) const {
  if (types_.empty()) return false;
  int32_t first = types_[0].utoff;
  for (const LocalTimeType& t : types_) {
    if (t.utoff != first) return false;
  }
  if (has_footer_ && (footer_.has_dst || footer_.std_type.utoff != first)) return false;
  *utoff = first;
  return true;
}

std::shared_ptr<const Zone> FixedZone(int32_t utoff) {
  int32_t abs = utoff < 0 ? -utoff : utoff;
  char hms[32];
  int n = std::snprintf(hms, sizeof hms, "%02d", abs / 3600);
  if (abs % 3600 != 0) {
    n += std::snprintf(hms + n, sizeof hms - n, ":%02d", abs % 3600 / 60);
    if (abs % 60 != 0) std::snprintf(hms + n, sizeof hms - n, ":%02d", abs % 60);
  }
  std::string name = utoff < 0 ? "<-" + std::string(hms) + ">+" + hms : "<+" + std::string(hms) + ">-" + hms;
  return LoadZone(name);
}

std::vector<std::string> ListZoneNames() {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(kZoneDir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string rel = std::filesystem::relative(it->path(), kZoneDir).string();
    if (rel.find('.') != std::string::npos || !std::isupper(static_cast<unsigned char>(rel[0]))) continue;
    if (rel.rfind("posix", 0) == 0 || rel.rfind("right", 0) == 0 || rel == "Factory") continue;
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace hearth::tz
