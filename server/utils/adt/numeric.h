// server/utils/adt/numeric.h
//
// Numeric: PostgreSQL's exact decimal type (arbitrary precision, a display
// scale that survives arithmetic: 1.50 stays 1.50), plus NaN. Values are
// kept as a decimal digit string (the unscaled magnitude) and a scale, which
// keeps the code short and exact; numeric is not on any hot path.
// Result scales follow PostgreSQL: + and - use the larger scale, * adds the
// scales, / picks at least 16 significant digits (select_div_scale), round
// is half away from zero. Immutable value type; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hearth::types {

class Numeric {
 public:
  // Zero with scale 0.
  Numeric() = default;

  // Parses PostgreSQL numeric input ("  -1.50", "1e3", "NaN"). Surrounding
  // whitespace is ignored. Throws DbError 22P02
  // `invalid input syntax for type numeric: "<text>"`.
  static Numeric Parse(std::string_view text);
  static Numeric FromInt64(int64_t v);
  // float → numeric as PostgreSQL does it: 15 significant digits (DBL_DIG).
  // Throws 22003 for infinities.
  static Numeric FromDouble(double v, int significant_digits = 15);
  static Numeric NaN();

  // Canonical text, exactly what numeric_out prints ("1.50", "-0.001", "NaN").
  std::string ToString() const;
  double ToDouble() const;
  // Rounds half away from zero; nullopt if the result does not fit or NaN.
  std::optional<int64_t> ToInt64() const;

  bool is_nan() const { return nan_; }
  bool is_negative() const { return neg_; }
  bool is_zero() const { return !nan_ && digits_.empty(); }
  int scale() const { return scale_; }
  // Unscaled magnitude as ASCII digits without leading zeros ("" for 0).
  const std::string& digits() const { return digits_; }
  // Builds a value from its parts (used by binary receive).
  static Numeric FromParts(bool negative, std::string digits, int scale);

  Numeric Add(const Numeric& b) const;
  Numeric Sub(const Numeric& b) const;
  Numeric Mul(const Numeric& b) const;
  // Throws 22012 on division by zero. Scale per PostgreSQL's select_div_scale.
  Numeric Div(const Numeric& b) const;
  // Quotient rounded (half away from zero) to exactly `rscale` digits.
  Numeric DivScale(const Numeric& b, int rscale) const;
  // Truncated integer quotient (div()), and remainder with the sign of a.
  Numeric DivTrunc(const Numeric& b) const;
  Numeric Mod(const Numeric& b) const;
  Numeric Neg() const;
  Numeric Abs() const;
  // round(x, s): s may be negative (round(1234, -2) = 1200); pads when s > scale.
  Numeric Round(int s) const;
  Numeric Trunc(int s) const;
  Numeric Ceil() const;
  Numeric Floor() const;
  // x ^ y. Integer exponents are exact (then rounded to max(16, scale)
  // digits as PostgreSQL 15 does); others go through double precision.
  // Throws 2201F for 0 ^ negative and negative ^ non-integer.
  Numeric Power(const Numeric& e) const;
  // Throws 2201F for negative input. Scale per PostgreSQL's numeric_sqrt.
  Numeric Sqrt() const;
  // Square root rounded to exactly `rscale` digits (stddev's scale).
  Numeric SqrtScale(int rscale) const;
  bool IsInteger() const;

  // Total order used by comparisons and sorting: NaN equals NaN and sorts
  // above every number. Returns <0, 0, >0.
  static int Compare(const Numeric& a, const Numeric& b);

  // Coerces to numeric(p,s) (typmod from NumericTypmod); kNoTypmod is a
  // no-op. Throws 22003 `numeric field overflow` with PostgreSQL's detail.
  Numeric ApplyTypmod(int32_t typmod) const;

 private:
  std::string digits_;  // magnitude digits, most significant first; "" = 0
  int scale_ = 0;       // digits after the decimal point (display scale)
  bool neg_ = false;    // never true for zero
  bool nan_ = false;

  void Normalize();
};

}  // namespace hearth::types
