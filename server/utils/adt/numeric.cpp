// server/utils/adt/numeric.cpp
//
// Principal entry points: Numeric::Parse/ToString, the arithmetic methods and
// ApplyTypmod. Magnitudes are ASCII digit strings; the helpers below do
// schoolbook arithmetic on them (the operands are short in practice).
#include "utils/adt/numeric.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/error/db_error.h"

namespace hearth::types {
namespace {

constexpr int kMinSigDigits = 16;      // NUMERIC_MIN_SIG_DIGITS
constexpr int kMaxDisplayScale = 1000;  // NUMERIC_MAX_DISPLAY_SCALE
// round/trunc clamp their scale argument to what a numeric can hold, as
// PostgreSQL 15 does (NUMERIC_DSCALE_MAX; the weight limit times 4 digits
// below the point): round(x, 2147483647) must not build a 2 GB string.
constexpr int kMaxRoundScale = 16383;
constexpr int kMinRoundScale = -131072;
constexpr int kMaxDigits = 200000;      // guard against runaway sizes
// Exact integer powers use schoolbook multiplication; beyond this many
// result digits they would take seconds, so they are refused instead.
constexpr int kMaxPowerDigits = 20000;

const char kInvalidParam[] = "2201F";  // invalid_argument_for_power_function

void StripLeading(std::string* s) {
  size_t i = 0;
  while (i < s->size() && (*s)[i] == '0') ++i;
  s->erase(0, i);
}

int CmpMag(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string AddMag(const std::string& a, const std::string& b) {
  std::string r;
  r.resize(std::max(a.size(), b.size()) + 1);
  int carry = 0;
  size_t ia = a.size(), ib = b.size(), ir = r.size();
  while (ir > 0) {
    int d = carry;
    if (ia > 0) d += a[--ia] - '0';
    if (ib > 0) d += b[--ib] - '0';
    r[--ir] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  StripLeading(&r);
  return r;
}

// REQUIRES: a >= b.
std::string SubMag(const std::string& a, const std::string& b) {
  std::string r = a;
  int borrow = 0;
  size_t ib = b.size();
  for (size_t i = r.size(); i > 0; --i) {
    int d = (r[i - 1] - '0') - borrow - (ib > 0 ? b[--ib] - '0' : 0);
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += 10;
    r[i - 1] = static_cast<char>('0' + d);
  }
  StripLeading(&r);
  return r;
}

std::string MulMag(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return "";
  std::vector<int64_t> acc(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    int da = a[a.size() - 1 - i] - '0';
    if (da == 0) continue;
    for (size_t j = 0; j < b.size(); ++j) acc[i + j] += da * (b[b.size() - 1 - j] - '0');
  }
  std::string r(acc.size(), '0');
  int64_t carry = 0;
  for (size_t k = 0; k < acc.size(); ++k) {
    int64_t d = acc[k] + carry;
    r[r.size() - 1 - k] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  StripLeading(&r);
  return r;
}

std::string Shift(const std::string& a, int n) {
  if (a.empty() || n <= 0) return a;
  return a + std::string(static_cast<size_t>(n), '0');
}

// Truncated quotient of magnitudes; *rem receives the remainder if non-null.
// REQUIRES: b non-empty.
std::string DivMag(const std::string& a, const std::string& b, std::string* rem) {
  std::string q;
  std::string r;
  q.reserve(a.size());
  for (char c : a) {
    if (!r.empty() || c != '0') r.push_back(c);
    int count = 0;
    while (CmpMag(r, b) >= 0) {
      r = SubMag(r, b);
      ++count;
    }
    q.push_back(static_cast<char>('0' + count));
  }
  StripLeading(&q);
  if (rem) *rem = r;
  return q;
}

int FloorDiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// PostgreSQL stores numerics in base 10000; its scale choices look at the
// weight and first base-10000 digit. Returns false for zero.
bool NbaseLead(const std::string& digits, int scale, int* weight, int* first) {
  if (digits.empty()) return false;
  int e = static_cast<int>(digits.size()) - 1 - scale;  // exponent of lead digit
  int w = FloorDiv(e, 4);
  int k = -scale - 4 * w;  // |v| / 10^(4w) = digits * 10^k
  std::string lead;
  if (k >= 0) {
    lead = Shift(digits, k);
  } else {
    lead = digits.substr(0, digits.size() - static_cast<size_t>(-k));
  }
  *weight = w;
  *first = lead.empty() ? 0 : std::atoi(lead.c_str());
  return true;
}

[[noreturn]] void ThrowDivByZero() { throw DbError(sqlstate::kDivisionByZero, "division by zero"); }

[[noreturn]] void ThrowOverflow() {
  throw DbError(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
}

}  // namespace

void Numeric::Normalize() {
  StripLeading(&digits_);
  if (digits_.empty()) neg_ = false;
  if (digits_.size() > static_cast<size_t>(kMaxDigits)) ThrowOverflow();
}

Numeric Numeric::NaN() {
  Numeric n;
  n.nan_ = true;
  return n;
}

Numeric Numeric::FromParts(bool negative, std::string digits, int scale) {
  Numeric n;
  n.neg_ = negative;
  n.digits_ = std::move(digits);
  n.scale_ = scale;
  n.Normalize();
  return n;
}

Numeric Numeric::Parse(std::string_view text) {
  auto bad = [&]() -> DbError {
    return DbError(sqlstate::kInvalidTextRepresentation,
                   "invalid input syntax for type numeric: \"" + std::string(text) + "\"");
  };
  size_t i = 0, n = text.size();
  while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  while (n > i && std::isspace(static_cast<unsigned char>(text[n - 1]))) --n;
  std::string_view s = text.substr(i, n - i);
  if (s.size() == 3 && std::tolower(static_cast<unsigned char>(s[0])) == 'n' &&
      std::tolower(static_cast<unsigned char>(s[1])) == 'a' &&
      std::tolower(static_cast<unsigned char>(s[2])) == 'n') {
    return NaN();
  }
  Numeric r;
  size_t p = 0;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    r.neg_ = s[p] == '-';
    ++p;
  }
  int frac = 0;
  bool seen_digit = false, seen_point = false;
  for (; p < s.size(); ++p) {
    char c = s[p];
    if (c >= '0' && c <= '9') {
      r.digits_.push_back(c);
      seen_digit = true;
      if (seen_point) ++frac;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!seen_digit) throw bad();
  long exp = 0;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    bool eneg = false;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
      eneg = s[p] == '-';
      ++p;
    }
    if (p >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p]))) throw bad();
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) {
      exp = exp * 10 + (s[p] - '0');
      if (exp > 100000) ThrowOverflow();
      ++p;
    }
    if (eneg) exp = -exp;
  }
  if (p != s.size()) throw bad();
  long scale = frac - exp;
  if (scale < 0) {
    r.digits_ = Shift(r.digits_.empty() ? "" : r.digits_, static_cast<int>(-scale));
    scale = 0;
  }
  if (scale > 16383) ThrowOverflow();
  r.scale_ = static_cast<int>(scale);
  r.Normalize();
  return r;
}

Numeric Numeric::FromInt64(int64_t v) {
  Numeric r;
  r.neg_ = v < 0;
  uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  r.digits_ = mag == 0 ? "" : std::to_string(mag);
  return r;
}

Numeric Numeric::FromDouble(double v, int significant_digits) {
  if (std::isnan(v)) return NaN();
  if (std::isinf(v)) {
    throw DbError(sqlstate::kFeatureNotSupported, "cannot convert infinity to numeric");
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant_digits, v);
  return Parse(buf);
}

std::string Numeric::ToString() const {
  if (nan_) return "NaN";
  std::string d = digits_;
  if (d.size() < static_cast<size_t>(scale_) + 1) {
    d.insert(0, static_cast<size_t>(scale_) + 1 - d.size(), '0');
  }
  if (scale_ > 0) d.insert(d.size() - static_cast<size_t>(scale_), 1, '.');
  if (neg_) d.insert(0, 1, '-');
  return d;
}

double Numeric::ToDouble() const {
  if (nan_) return std::nan("");
  return std::strtod(ToString().c_str(), nullptr);
}

std::optional<int64_t> Numeric::ToInt64() const {
  if (nan_) return std::nullopt;
  Numeric r = Round(0);
  if (r.digits_.size() > 19) return std::nullopt;
  uint64_t mag = 0;
  for (char c : r.digits_) mag = mag * 10 + static_cast<uint64_t>(c - '0');
  if (r.neg_) {
    if (mag > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
    return static_cast<int64_t>(0 - mag);
  }
  if (mag > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(mag);
}

bool Numeric::IsInteger() const {
  if (nan_) return false;
  if (scale_ == 0) return true;
  size_t n = digits_.size();
  for (int k = 0; k < scale_ && static_cast<size_t>(k) < n; ++k) {
    if (digits_[n - 1 - static_cast<size_t>(k)] != '0') return false;
  }
  return true;
}

Numeric Numeric::Add(const Numeric& b) const {
  if (nan_ || b.nan_) return NaN();
  int s = std::max(scale_, b.scale_);
  std::string x = Shift(digits_, s - scale_);
  std::string y = Shift(b.digits_, s - b.scale_);
  Numeric r;
  r.scale_ = s;
  if (neg_ == b.neg_) {
    r.digits_ = AddMag(x, y);
    r.neg_ = neg_;
  } else {
    int c = CmpMag(x, y);
    if (c >= 0) {
      r.digits_ = SubMag(x, y);
      r.neg_ = neg_;
    } else {
      r.digits_ = SubMag(y, x);
      r.neg_ = b.neg_;
    }
  }
  r.Normalize();
  return r;
}

Numeric Numeric::Neg() const {
  Numeric r = *this;
  if (!r.nan_ && !r.digits_.empty()) r.neg_ = !r.neg_;
  return r;
}

Numeric Numeric::Abs() const {
  Numeric r = *this;
  r.neg_ = false;
  return r;
}

Numeric Numeric::Sub(const Numeric& b) const { return Add(b.Neg()); }

Numeric Numeric::Mul(const Numeric& b) const {
  if (nan_ || b.nan_) return NaN();
  Numeric r;
  r.digits_ = MulMag(digits_, b.digits_);
  r.scale_ = scale_ + b.scale_;
  r.neg_ = neg_ != b.neg_;
  r.Normalize();
  if (r.scale_ > kMaxDisplayScale) r = r.Round(kMaxDisplayScale);
  return r;
}

Numeric Numeric::DivScale(const Numeric& b, int rscale) const {
  if (nan_ || b.nan_) return NaN();
  if (b.is_zero()) ThrowDivByZero();
  // |a/b| * 10^(rscale+1) = A * 10^(sb + rscale + 1) / (B * 10^sa)
  std::string num = Shift(digits_, b.scale_ + rscale + 1);
  std::string den = Shift(b.digits_, scale_);
  std::string q = DivMag(num, den, nullptr);
  // Round on the extra digit, half away from zero.
  bool up = !q.empty() && q.back() >= '5';
  if (!q.empty()) q.pop_back();
  if (up) q = AddMag(q, "1");
  Numeric r;
  r.digits_ = q;
  r.scale_ = rscale;
  r.neg_ = neg_ != b.neg_;
  r.Normalize();
  return r;
}

Numeric Numeric::Div(const Numeric& b) const {
  if (nan_ || b.nan_) return NaN();
  if (b.is_zero()) ThrowDivByZero();
  int w1 = 0, f1 = 0, w2 = 0, f2 = 0;
  NbaseLead(digits_, scale_, &w1, &f1);
  NbaseLead(b.digits_, b.scale_, &w2, &f2);
  int qweight = w1 - w2;
  if (f1 <= f2) --qweight;
  int rscale = kMinSigDigits - qweight * 4;
  rscale = std::max({rscale, scale_, b.scale_, 0});
  rscale = std::min(rscale, kMaxDisplayScale);
  return DivScale(b, rscale);
}

Numeric Numeric::DivTrunc(const Numeric& b) const {
  if (nan_ || b.nan_) return NaN();
  if (b.is_zero()) ThrowDivByZero();
  Numeric r;
  r.digits_ = DivMag(Shift(digits_, b.scale_), Shift(b.digits_, scale_), nullptr);
  r.neg_ = neg_ != b.neg_;
  r.Normalize();
  return r;
}

Numeric Numeric::Mod(const Numeric& b) const {
  if (nan_ || b.nan_) return NaN();
  Numeric q = DivTrunc(b);
  return Sub(q.Mul(b));
}

Numeric Numeric::Round(int s) const {
  if (nan_) return *this;
  s = std::clamp(s, kMinRoundScale, kMaxRoundScale);
  Numeric r = *this;
  if (s >= scale_) {
    r.digits_ = Shift(digits_, s - scale_);
    r.scale_ = s;
    return r;
  }
  size_t drop = static_cast<size_t>(scale_ - s);
  size_t len = digits_.size();
  std::string keep = drop < len ? digits_.substr(0, len - drop) : "";
  char round_digit = drop <= len ? digits_[len - drop] : '0';
  if (round_digit >= '5') keep = AddMag(keep, "1");
  if (s < 0) {
    keep = Shift(keep, -s);
    r.scale_ = 0;
  } else {
    r.scale_ = s;
  }
  r.digits_ = keep;
  r.Normalize();
  return r;
}

Numeric Numeric::Trunc(int s) const {
  if (nan_) return *this;
  s = std::clamp(s, kMinRoundScale, kMaxRoundScale);
  Numeric r = *this;
  if (s >= scale_) {
    r.digits_ = Shift(digits_, s - scale_);
    r.scale_ = s;
    return r;
  }
  size_t drop = static_cast<size_t>(scale_ - s);
  size_t len = digits_.size();
  std::string keep = drop < len ? digits_.substr(0, len - drop) : "";
  if (s < 0) {
    keep = Shift(keep, -s);
    r.scale_ = 0;
  } else {
    r.scale_ = s;
  }
  r.digits_ = keep;
  r.Normalize();
  return r;
}

Numeric Numeric::Ceil() const {
  if (nan_) return *this;
  Numeric t = Trunc(0);
  if (!neg_ && !IsInteger()) t = t.Add(FromInt64(1));
  return t;
}

Numeric Numeric::Floor() const {
  if (nan_) return *this;
  Numeric t = Trunc(0);
  if (neg_ && !IsInteger()) t = t.Sub(FromInt64(1));
  return t;
}

Numeric Numeric::Power(const Numeric& e) const {
  if (nan_ || e.nan_) {
    // PostgreSQL: 1 ^ NaN = 1 and NaN ^ 0 = 1.
    if (!nan_ && digits_ == "1" && scale_ == 0 && !neg_) return FromInt64(1);
    if (!e.nan_ && e.is_zero()) return FromInt64(1);
    return NaN();
  }
  if (is_zero() && e.neg_) {
    throw DbError(kInvalidParam, "zero raised to a negative power is undefined");
  }
  if (neg_ && !e.IsInteger()) {
    throw DbError(kInvalidParam, "a negative number raised to a non-integer power yields a complex result");
  }
  if (e.IsInteger()) {
    std::optional<int64_t> ev = e.ToInt64();
    if (!ev || *ev > INT32_MAX || *ev < INT32_MIN) ThrowOverflow();
    int rscale = std::min(std::max(kMinSigDigits, scale_), kMaxDisplayScale);
    int64_t n = *ev < 0 ? -*ev : *ev;
    if (!is_zero() && !(digits_ == "1" && scale_ == 0) &&
        static_cast<double>(n) * static_cast<double>(digits_.size()) > kMaxPowerDigits) {
      ThrowOverflow();
    }
    Numeric result = FromInt64(1);
    Numeric base = *this;
    while (n > 0) {
      if (n & 1) result = result.Mul(base);
      n >>= 1;
      if (n > 0) base = base.Mul(base);
    }
    if (*ev < 0) return FromInt64(1).DivScale(result, rscale);
    return result.Round(rscale);
  }
  // Non-integer exponent: approximate through double precision.
  double r = std::pow(ToDouble(), e.ToDouble());
  if (!std::isfinite(r)) ThrowOverflow();
  int rscale = kMinSigDigits;
  if (r != 0) rscale -= static_cast<int>(std::floor(std::log10(std::fabs(r))));
  rscale = std::min(std::max({rscale, scale_, e.scale_, 0}), kMaxDisplayScale);
  return FromDouble(r, 17).Round(rscale);
}

Numeric Numeric::Sqrt() const {
  if (nan_) return *this;
  if (neg_) {
    throw DbError(kInvalidParam, "cannot take square root of a negative number");
  }
  int w = 0, f = 0;
  NbaseLead(digits_, scale_, &w, &f);
  int sweight = (w + 1) * 4 / 2 - 1;
  return SqrtScale(std::min(std::max({kMinSigDigits - sweight, scale_, 0}), kMaxDisplayScale));
}

Numeric Numeric::SqrtScale(int rscale) const {
  if (nan_) return *this;
  if (neg_) {
    throw DbError(kInvalidParam, "cannot take square root of a negative number");
  }
  if (is_zero()) return FromInt64(0).Round(rscale);
  // floor(sqrt(A * 10^(2(r+1) - sa))) has scale r+1; round it to r.
  std::string n = Shift(digits_, 2 * (rscale + 1) - scale_);
  if (n.size() % 2) n.insert(0, 1, '0');
  std::string root, rem;
  for (size_t i = 0; i < n.size(); i += 2) {
    rem.push_back(n[i]);
    rem.push_back(n[i + 1]);
    StripLeading(&rem);
    std::string base = MulMag(root, "20");
    int x = 9;
    std::string t;
    for (; x >= 0; --x) {
      t = MulMag(AddMag(base, std::string(1, static_cast<char>('0' + x))),
                 std::string(1, static_cast<char>('0' + x)));
      if (CmpMag(t, rem) <= 0) break;
    }
    rem = SubMag(rem, t);
    root.push_back(static_cast<char>('0' + x));
    StripLeading(&root);
  }
  Numeric r;
  r.digits_ = root;
  r.scale_ = rscale + 1;
  r.Normalize();
  return r.Round(rscale);
}

int Numeric::Compare(const Numeric& a, const Numeric& b) {
  if (a.nan_ || b.nan_) {
    if (a.nan_ && b.nan_) return 0;
    return a.nan_ ? 1 : -1;
  }
  if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
  int s = std::max(a.scale_, b.scale_);
  int c = CmpMag(Shift(a.digits_, s - a.scale_), Shift(b.digits_, s - b.scale_));
  return a.neg_ ? -c : c;
}

Numeric Numeric::ApplyTypmod(int32_t typmod) const {
  if (typmod < 4 || nan_) return *this;
  int precision = ((typmod - 4) >> 16) & 0xffff;
  int scale = (typmod - 4) & 0xffff;
  Numeric r = Round(scale);
  int maxdigits = precision - scale;
  int intdigits = static_cast<int>(r.digits_.size()) - r.scale_;
  if (!r.digits_.empty() && intdigits > maxdigits) {
    std::string limit = maxdigits > 0 ? "10^" + std::to_string(maxdigits) : "1";
    throw DbError(sqlstate::kNumericValueOutOfRange, "numeric field overflow")
        .WithDetail("A field with precision " + std::to_string(precision) + ", scale " +
                    std::to_string(scale) + " must round to an absolute value less than " +
                    limit + ".");
  }
  return r;
}

}  // namespace hearth::types
