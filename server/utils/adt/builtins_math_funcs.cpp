// server/utils/adt/builtins_math_funcs.cpp
//
// Transcendental and number-theory functions: ln/log/log10/exp, sign,
// cbrt, pi, degrees/radians, the trigonometric and hyperbolic families
// (float8), their numeric forms, and gcd/lcm for integers and numeric.
// Errors and result scales follow PostgreSQL 15 (float.c, numeric.c).
// Numeric ln/log/exp are computed in long double (about 18 significant
// digits) and rounded to PostgreSQL's result scale; digits past the 18th
// can differ from PostgreSQL's exact arithmetic.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/float_adt.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/numeric.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr Oid F8 = kFloat8Oid;
constexpr Oid NUM = kNumericOid;
const char kInvalidLogArg[] = "2201E";
const char kInvalidPowerArg[] = "2201F";

[[noreturn]] void OutOfRange() {
  throw DbError(sqlstate::kNumericValueOutOfRange, "input is out of range");
}
void CheckLogArg(bool is_zero, bool is_negative) {
  if (is_zero) throw DbError(kInvalidLogArg, "cannot take logarithm of zero");
  if (is_negative) throw DbError(kInvalidLogArg, "cannot take logarithm of a negative number");
}
double Checked(double r, double x) { return CheckFloatResult(r, std::isinf(x), x == 0, F8); }

// ---- float8 ----------------------------------------------------------------
Value Dln(const Value* a, int, FuncCallContext&) {
  double x = a[0].f;
  CheckLogArg(x == 0, x < 0);
  return Value::Float8(Checked(std::log(x), x));
}
Value Dlog10(const Value* a, int, FuncCallContext&) {
  double x = a[0].f;
  CheckLogArg(x == 0, x < 0);
  return Value::Float8(Checked(std::log10(x), x));
}
Value Dexp(const Value* a, int, FuncCallContext&) {
  double x = a[0].f;
  double r = std::exp(x);
  if (std::isinf(r) && !std::isinf(x)) {
    throw DbError(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  if (r == 0 && !std::isinf(x)) {
    throw DbError(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
  }
  return Value::Float8(r);
}
Value Dcbrt(const Value* a, int, FuncCallContext&) { return Value::Float8(std::cbrt(a[0].f)); }
Value Dsign(const Value* a, int, FuncCallContext&) {
  return Value::Float8(a[0].f > 0 ? 1.0 : a[0].f < 0 ? -1.0 : 0.0);
}
Value Dpi(const Value*, int, FuncCallContext&) { return Value::Float8(std::numbers::pi); }
Value Ddegrees(const Value* a, int, FuncCallContext&) {
  return Value::Float8(CheckFloatResult(a[0].f * (180.0 / std::numbers::pi), std::isinf(a[0].f), true, F8));
}
Value Dradians(const Value* a, int, FuncCallContext&) {
  return Value::Float8(CheckFloatResult(a[0].f * (std::numbers::pi / 180.0), std::isinf(a[0].f), true, F8));
}

// sin/cos/tan/cot reject infinities; NaN passes through.
template <double (*F)(double)>
Value Periodic(const Value* a, int, FuncCallContext&) {
  if (std::isnan(a[0].f)) return a[0];
  if (std::isinf(a[0].f)) OutOfRange();
  return Value::Float8(F(a[0].f));
}
double Cot(double x) { return 1.0 / std::tan(x); }
// asin/acos/atanh reject |x| > 1 (acosh: x < 1).
template <double (*F)(double)>
Value UnitDomain(const Value* a, int, FuncCallContext&) {
  if (std::isnan(a[0].f)) return a[0];
  if (a[0].f < -1 || a[0].f > 1) OutOfRange();
  return Value::Float8(F(a[0].f));
}
template <double (*F)(double)>
Value Plain(const Value* a, int, FuncCallContext&) { return Value::Float8(F(a[0].f)); }
Value Dacosh(const Value* a, int, FuncCallContext&) {
  if (a[0].f < 1) OutOfRange();
  return Value::Float8(std::acosh(a[0].f));
}
Value Datan2(const Value* a, int, FuncCallContext&) {
  if (std::isnan(a[0].f) || std::isnan(a[1].f)) return Value::Float8(NAN);
  return Value::Float8(std::atan2(a[0].f, a[1].f));
}
double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }
double Atan(double x) { return std::atan(x); }
double Sinh(double x) { return std::sinh(x); }
double Cosh(double x) { return std::cosh(x); }
double Tanh(double x) { return std::tanh(x); }
double Asinh(double x) { return std::asinh(x); }
double Atanh(double x) { return std::atanh(x); }

// ---- numeric ------------------------------------------------------------------
constexpr int kMinSigDigits = 16;  // PostgreSQL's NUMERIC_MIN_SIG_DIGITS
constexpr int kMaxDisplayScale = 1000;

Numeric N(const Value& v) { return Numeric::Parse(v.str); }
Value NV(const Numeric& n) { return Value::Bytes(NUM, n.ToString()); }
int ClampScale(int s) { return std::min(std::max(s, 0), kMaxDisplayScale); }

// Decimal weight of ln(x) (PostgreSQL's estimate_ln_dweight): near 1 the
// weight of x - 1, elsewhere of the logarithm itself.
int EstimateLnWeight(const Numeric& x) {
  if (x.is_negative() || x.is_zero()) return 0;
  double d = x.ToDouble();
  if (d >= 0.9 && d <= 1.1) {
    Numeric diff = x.Sub(Numeric::FromInt64(1));
    if (diff.is_zero()) return 0;
    return static_cast<int>(std::floor(std::log10(std::fabs(diff.ToDouble()))));
  }
  return static_cast<int>(std::log10(std::fabs(std::log(d))));
}

// A long double rounded to `scale` decimals as a Numeric.
Numeric FromLongDouble(long double r, int scale) {
  char buf[1200];
  std::snprintf(buf, sizeof buf, "%.*Lf", std::min(scale + 2, kMaxDisplayScale + 2), r);
  return Numeric::Parse(buf).Round(scale);
}
long double ToLongDouble(const Numeric& n) { return std::strtold(n.ToString().c_str(), nullptr); }

Numeric NumLn(const Numeric& x) {
  if (x.is_nan()) return x;
  CheckLogArg(x.is_zero(), x.is_negative());
  int scale = ClampScale(std::max(kMinSigDigits - EstimateLnWeight(x), x.scale()));
  return FromLongDouble(std::log(ToLongDouble(x)), scale);
}
// log(base, x) = ln(x) / ln(base), scale from both weights.
Numeric NumLog(const Numeric& base, const Numeric& x) {
  if (base.is_nan()) return base;
  if (x.is_nan()) return x;
  CheckLogArg(base.is_zero() || x.is_zero(), base.is_negative() || x.is_negative());
  long double lb = std::log(ToLongDouble(base));
  if (lb == 0) throw DbError(sqlstate::kDivisionByZero, "division by zero");
  int weight = EstimateLnWeight(x) - EstimateLnWeight(base);
  int scale = ClampScale(std::max({kMinSigDigits - weight, base.scale(), x.scale()}));
  return FromLongDouble(std::log(ToLongDouble(x)) / lb, scale);
}
Numeric NumExp(const Numeric& x) {
  if (x.is_nan()) return x;
  double val = x.ToDouble() * 0.434294481903252;  // log10(e)
  val = std::min(std::max(val, -2000.0), 2000.0);
  if (val > 1000) throw DbError(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
  int scale = ClampScale(std::max(kMinSigDigits - static_cast<int>(val), x.scale()));
  return FromLongDouble(std::exp(ToLongDouble(x)), scale);
}

Value NumLnFn(const Value* a, int, FuncCallContext&) { return NV(NumLn(N(a[0]))); }
Value NumLog10Fn(const Value* a, int, FuncCallContext&) {
  return NV(NumLog(Numeric::FromInt64(10), N(a[0])));
}
Value NumLogFn(const Value* a, int, FuncCallContext&) { return NV(NumLog(N(a[0]), N(a[1]))); }
Value NumExpFn(const Value* a, int, FuncCallContext&) { return NV(NumExp(N(a[0]))); }
Value NumSign(const Value* a, int, FuncCallContext&) {
  Numeric x = N(a[0]);
  if (x.is_nan()) return NV(x);
  return NV(Numeric::FromInt64(x.is_zero() ? 0 : x.is_negative() ? -1 : 1));
}
Value NumScale(const Value* a, int, FuncCallContext&) {
  Numeric x = N(a[0]);
  if (x.is_nan()) return Value::Null(kInt4Oid);
  return Value::Int4(x.scale());
}

// Trailing fractional zeros of x (at most its scale): what trim_scale drops.
int TrailingFractionZeros(const Numeric& x) {
  const std::string& d = x.digits();
  int n = 0;
  while (n < x.scale() && n < static_cast<int>(d.size()) && d[d.size() - 1 - static_cast<size_t>(n)] == '0') ++n;
  return x.is_zero() ? x.scale() : n;
}
Value NumMinScale(const Value* a, int, FuncCallContext&) {
  Numeric x = N(a[0]);
  if (x.is_nan()) return Value::Null(kInt4Oid);
  return Value::Int4(x.scale() - TrailingFractionZeros(x));
}
Value NumTrimScale(const Value* a, int, FuncCallContext&) {
  Numeric x = N(a[0]);
  if (x.is_nan()) return NV(x);
  const int drop = TrailingFractionZeros(x);
  std::string d = x.digits();
  d.resize(d.size() - std::min(d.size(), static_cast<size_t>(drop)));
  return NV(Numeric::FromParts(x.is_negative(), d, x.scale() - drop));
}

// float4send / float8send: the binary wire form, big-endian IEEE bits.
template <typename F, typename Bits>
Value FloatSend(const Value* a, int, FuncCallContext&) {
  const F f = static_cast<F>(a[0].f);
  Bits bits;
  std::memcpy(&bits, &f, sizeof bits);
  std::string out(sizeof bits, '\0');
  for (size_t i = 0; i < sizeof bits; ++i) out[i] = static_cast<char>(bits >> (8 * (sizeof bits - 1 - i)));
  return Value::Bytes(kByteaOid, std::move(out));
}

// Euclid on numerics; the result carries the larger display scale.
Numeric NumGcdOf(const Numeric& a, const Numeric& b) {
  int scale = std::max(a.scale(), b.scale());
  Numeric x = a.Abs(), y = b.Abs();
  while (!y.is_zero()) {
    Numeric r = x.Mod(y);
    x = y;
    y = r;
  }
  return x.Round(scale);
}
Value NumGcd(const Value* a, int, FuncCallContext&) {
  Numeric x = N(a[0]), y = N(a[1]);
  if (x.is_nan() || y.is_nan()) return NV(Numeric::NaN());
  return NV(NumGcdOf(x, y));
}
Value NumLcm(const Value* a, int, FuncCallContext&) {
  Numeric x = N(a[0]), y = N(a[1]);
  if (x.is_nan() || y.is_nan()) return NV(Numeric::NaN());
  int scale = std::max(x.scale(), y.scale());
  if (x.is_zero() || y.is_zero()) return NV(Numeric::FromInt64(0).Round(scale));
  Numeric g = NumGcdOf(x, y);
  return NV(x.Abs().DivTrunc(g).Mul(y.Abs()).Round(scale));
}

// ---- integers -------------------------------------------------------------------
template <Oid T>
Value IntGcd(const Value* a, int, FuncCallContext&) {
  int64_t x = a[0].i, y = a[1].i;
  // |min| has no positive counterpart in the type: PostgreSQL reports it.
  int64_t min = T == kInt4Oid ? INT32_MIN : INT64_MIN;
  if ((x == min && (y == 0 || y == min)) || (y == min && x == 0)) {
    throw DbError(sqlstate::kNumericValueOutOfRange,
                  T == kInt4Oid ? "integer out of range" : "bigint out of range");
  }
  // Work with non-positive values so min never needs negating.
  if (x > 0) x = -x;
  if (y > 0) y = -y;
  while (y != 0) {
    int64_t r = y == -1 ? 0 : x % y;  // INT64_MIN % -1 traps (SIGFPE) on x86
    x = y;
    y = r;
  }
  return Value::Int(T, -x);
}
template <Oid T>
Value IntLcm(const Value* a, int n, FuncCallContext& ctx) {
  if (a[0].i == 0 || a[1].i == 0) return Value::Int(T, 0);
  int64_t g = IntGcd<T>(a, n, ctx).i;
  int64_t r = IntMul(a[0].i / g, a[1].i, T);
  return Value::Int(T, r < 0 ? IntSub(0, r, T) : r);
}

}  // namespace

void AddMathFunctionBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("ln", kFn, {F8}, F8, Dln));
  t->push_back(Row("log", kFn, {F8}, F8, Dlog10));
  t->push_back(Row("log10", kFn, {F8}, F8, Dlog10));
  t->push_back(Row("exp", kFn, {F8}, F8, Dexp));
  t->push_back(Row("cbrt", kFn, {F8}, F8, Dcbrt));
  t->push_back(Row("||/", FuncKind::kOperator, {F8}, F8, Dcbrt));
  t->push_back(Row("sign", kFn, {F8}, F8, Dsign));
  t->push_back(Row("pi", kFn, {}, F8, Dpi));
  t->push_back(Row("degrees", kFn, {F8}, F8, Ddegrees));
  t->push_back(Row("radians", kFn, {F8}, F8, Dradians));
  t->push_back(Row("sin", kFn, {F8}, F8, Periodic<Sin>));
  t->push_back(Row("cos", kFn, {F8}, F8, Periodic<Cos>));
  t->push_back(Row("tan", kFn, {F8}, F8, Periodic<Tan>));
  t->push_back(Row("cot", kFn, {F8}, F8, Periodic<Cot>));
  t->push_back(Row("asin", kFn, {F8}, F8, UnitDomain<Asin>));
  t->push_back(Row("acos", kFn, {F8}, F8, UnitDomain<Acos>));
  t->push_back(Row("atan", kFn, {F8}, F8, Plain<Atan>));
  t->push_back(Row("atan2", kFn, {F8, F8}, F8, Datan2));
  t->push_back(Row("sinh", kFn, {F8}, F8, Plain<Sinh>));
  t->push_back(Row("cosh", kFn, {F8}, F8, Plain<Cosh>));
  t->push_back(Row("tanh", kFn, {F8}, F8, Plain<Tanh>));
  t->push_back(Row("asinh", kFn, {F8}, F8, Plain<Asinh>));
  t->push_back(Row("acosh", kFn, {F8}, F8, Dacosh));
  t->push_back(Row("atanh", kFn, {F8}, F8, UnitDomain<Atanh>));

  t->push_back(Row("ln", kFn, {NUM}, NUM, NumLnFn));
  t->push_back(Row("log", kFn, {NUM}, NUM, NumLog10Fn));
  t->push_back(Row("log10", kFn, {NUM}, NUM, NumLog10Fn));
  t->push_back(Row("log", kFn, {NUM, NUM}, NUM, NumLogFn));
  t->push_back(Row("exp", kFn, {NUM}, NUM, NumExpFn));
  t->push_back(Row("sign", kFn, {NUM}, NUM, NumSign));
  t->push_back(Row("scale", kFn, {NUM}, kInt4Oid, NumScale));
  t->push_back(Row("min_scale", kFn, {NUM}, kInt4Oid, NumMinScale));
  t->push_back(Row("trim_scale", kFn, {NUM}, NUM, NumTrimScale));
  t->push_back(Row("float4send", kFn, {kFloat4Oid}, kByteaOid, FloatSend<float, uint32_t>));
  t->push_back(Row("float8send", kFn, {F8}, kByteaOid, FloatSend<double, uint64_t>));
  t->push_back(Row("gcd", kFn, {NUM, NUM}, NUM, NumGcd));
  t->push_back(Row("lcm", kFn, {NUM, NUM}, NUM, NumLcm));
  t->push_back(Row("gcd", kFn, {kInt4Oid, kInt4Oid}, kInt4Oid, IntGcd<kInt4Oid>));
  t->push_back(Row("gcd", kFn, {kInt8Oid, kInt8Oid}, kInt8Oid, IntGcd<kInt8Oid>));
  t->push_back(Row("lcm", kFn, {kInt4Oid, kInt4Oid}, kInt4Oid, IntLcm<kInt4Oid>));
  t->push_back(Row("lcm", kFn, {kInt8Oid, kInt8Oid}, kInt8Oid, IntLcm<kInt8Oid>));
}

}  // namespace hearth::types::internal
