// server/utils/adt/builtins_math.cpp
//
// Arithmetic and comparison operators and math functions for the numeric,
// boolean and datetime types. Integer and float operators work on the
// inline Value payload and never allocate; numeric goes through Numeric.
#include <cmath>
#include <utility>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/compare.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/float_adt.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/numeric.h"
#include "utils/adt/json.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kOp = FuncKind::kOperator;
constexpr FuncKind kFn = FuncKind::kFunction;
constexpr FuncKind kAgg = FuncKind::kAggregate;
const char kInvalidPowerArg[] = "2201F";

Numeric N(const Value& v) { return Numeric::Parse(v.str); }
Value NV(const Numeric& n) { return Value::Bytes(kNumericOid, n.ToString()); }

// ---- integers -------------------------------------------------------------
template <Oid T>
Value IntPl(const Value* a, int, FuncCallContext&) { return Value::Int(T, IntAdd(a[0].i, a[1].i, T)); }
template <Oid T>
Value IntMi(const Value* a, int, FuncCallContext&) { return Value::Int(T, IntSub(a[0].i, a[1].i, T)); }
template <Oid T>
Value IntMulFn(const Value* a, int, FuncCallContext&) { return Value::Int(T, IntMul(a[0].i, a[1].i, T)); }
template <Oid T>
Value IntDv(const Value* a, int, FuncCallContext&) { return Value::Int(T, IntDiv(a[0].i, a[1].i, T)); }
template <Oid T>
Value IntMd(const Value* a, int, FuncCallContext&) { return Value::Int(T, IntMod(a[0].i, a[1].i, T)); }
template <Oid T>
Value IntUm(const Value* a, int, FuncCallContext&) { return Value::Int(T, IntSub(0, a[0].i, T)); }
template <Oid T>
Value Ident(const Value* a, int, FuncCallContext&) { return a[0]; }
template <Oid T>
Value IntAbs(const Value* a, int, FuncCallContext&) {
  return Value::Int(T, a[0].i < 0 ? IntSub(0, a[0].i, T) : a[0].i);
}

// ---- floats ---------------------------------------------------------------
bool AnyInf(const Value* a, int n) {
  for (int k = 0; k < n; ++k) {
    if (std::isinf(a[k].f)) return true;
  }
  return false;
}
template <Oid T>
Value FlPl(const Value* a, int, FuncCallContext&) {
  return Value::Float(T, CheckFloatResult(a[0].f + a[1].f, AnyInf(a, 2), true, T));
}
template <Oid T>
Value FlMi(const Value* a, int, FuncCallContext&) {
  return Value::Float(T, CheckFloatResult(a[0].f - a[1].f, AnyInf(a, 2), true, T));
}
template <Oid T>
Value FlMul(const Value* a, int, FuncCallContext&) {
  return Value::Float(T, CheckFloatResult(a[0].f * a[1].f, AnyInf(a, 2),
                                          a[0].f == 0 || a[1].f == 0, T));
}
template <Oid T>
Value FlDiv(const Value* a, int, FuncCallContext&) {
  if (a[1].f == 0) throw DbError(sqlstate::kDivisionByZero, "division by zero");
  return Value::Float(T, CheckFloatResult(a[0].f / a[1].f, AnyInf(a, 2), a[0].f == 0, T));
}
template <Oid T>
Value FlUm(const Value* a, int, FuncCallContext&) { return Value::Float(T, -a[0].f); }
template <Oid T>
Value FlAbs(const Value* a, int, FuncCallContext&) { return Value::Float(T, std::fabs(a[0].f)); }

Value Dpow(const Value* a, int, FuncCallContext&) {
  double x = a[0].f, y = a[1].f;
  if (x == 0 && y < 0) throw DbError(kInvalidPowerArg, "zero raised to a negative power is undefined");
  if (x < 0 && std::floor(y) != y && std::isfinite(y)) {
    throw DbError(kInvalidPowerArg,
                  "a negative number raised to a non-integer power yields a complex result");
  }
  double r = std::pow(x, y);
  return Value::Float8(CheckFloatResult(r, AnyInf(a, 2), x == 0 || std::isnan(r), kFloat8Oid));
}
Value Dsqrt(const Value* a, int, FuncCallContext&) {
  if (a[0].f < 0) throw DbError(kInvalidPowerArg, "cannot take square root of a negative number");
  return Value::Float8(std::sqrt(a[0].f));
}
Value Dround(const Value* a, int, FuncCallContext&) { return Value::Float8(std::rint(a[0].f)); }
Value Dtrunc(const Value* a, int, FuncCallContext&) { return Value::Float8(std::trunc(a[0].f)); }
Value Dceil(const Value* a, int, FuncCallContext&) { return Value::Float8(std::ceil(a[0].f)); }
Value Dfloor(const Value* a, int, FuncCallContext&) { return Value::Float8(std::floor(a[0].f)); }

// ---- numeric --------------------------------------------------------------
Value NumPl(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Add(N(a[1]))); }
Value NumMi(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Sub(N(a[1]))); }
Value NumMul(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Mul(N(a[1]))); }
Value NumDiv(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Div(N(a[1]))); }
Value NumMod(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Mod(N(a[1]))); }
Value NumPow(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Power(N(a[1]))); }
Value NumUm(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Neg()); }
Value NumAbs(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Abs()); }
Value NumRound(const Value* a, int n, FuncCallContext&) {
  return NV(N(a[0]).Round(n > 1 ? static_cast<int>(a[1].i) : 0));
}
Value NumTrunc(const Value* a, int n, FuncCallContext&) {
  return NV(N(a[0]).Trunc(n > 1 ? static_cast<int>(a[1].i) : 0));
}
Value NumCeil(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Ceil()); }
Value NumFloor(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Floor()); }
Value NumSqrt(const Value* a, int, FuncCallContext&) { return NV(N(a[0]).Sqrt()); }

// ---- comparisons (any type; arguments share a type after resolution) ------
template <int Op>
Value Cmp(const Value* a, int, FuncCallContext&) {
  int c = CompareValues(a[0], a[1]);
  switch (Op) {
    case 0: return Value::Bool(c == 0);
    case 1: return Value::Bool(c != 0);
    case 2: return Value::Bool(c < 0);
    case 3: return Value::Bool(c > 0);
    case 4: return Value::Bool(c <= 0);
    default: return Value::Bool(c >= 0);
  }
}

// ---- date arithmetic --------------------------------------------------------
int64_t CheckDate(int64_t d) {
  // PostgreSQL's date range: 4713-11-24 BC .. 5874897-12-31.
  if (d < -2451545 || d > 2145031948) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "date out of range");
  }
  return d;
}
Value DatePli(const Value* a, int, FuncCallContext&) { return Value::Int(kDateOid, CheckDate(a[0].i + a[1].i)); }
Value IntPlDate(const Value* a, int, FuncCallContext&) { return Value::Int(kDateOid, CheckDate(a[0].i + a[1].i)); }
Value DateMii(const Value* a, int, FuncCallContext&) { return Value::Int(kDateOid, CheckDate(a[0].i - a[1].i)); }
Value DateMi(const Value* a, int, FuncCallContext&) {
  if (a[0].i == kDateNoEnd || a[0].i == kDateNoBegin || a[1].i == kDateNoEnd || a[1].i == kDateNoBegin) {
    throw DbError(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite dates");
  }
  return Value::Int4(static_cast<int32_t>(a[0].i - a[1].i));
}

}  // namespace

void AddMathBuiltins(std::vector<FuncSignature>* t) {
  // Integer arithmetic: same-width operators; mixed widths resolve by
  // implicit promotion to the wider type.
#define HEARTH_INT_OPS(T)                                   \
  t->push_back(Row("+", kOp, {T, T}, T, IntPl<T>));        \
  t->push_back(Row("-", kOp, {T, T}, T, IntMi<T>));        \
  t->push_back(Row("*", kOp, {T, T}, T, IntMulFn<T>));       \
  t->push_back(Row("/", kOp, {T, T}, T, IntDv<T>));        \
  t->push_back(Row("%", kOp, {T, T}, T, IntMd<T>));        \
  t->push_back(Row("-", kOp, {T}, T, IntUm<T>));           \
  t->push_back(Row("+", kOp, {T}, T, Ident<T>));           \
  t->push_back(Row("@", kOp, {T}, T, IntAbs<T>));          \
  t->push_back(Row("abs", kFn, {T}, T, IntAbs<T>));        \
  t->push_back(Row("mod", kFn, {T, T}, T, IntMd<T>));
  HEARTH_INT_OPS(kInt2Oid)
  HEARTH_INT_OPS(kInt4Oid)
  HEARTH_INT_OPS(kInt8Oid)
#undef HEARTH_INT_OPS

#define HEARTH_FLOAT_OPS(T)                                 \
  t->push_back(Row("+", kOp, {T, T}, T, FlPl<T>));         \
  t->push_back(Row("-", kOp, {T, T}, T, FlMi<T>));         \
  t->push_back(Row("*", kOp, {T, T}, T, FlMul<T>));        \
  t->push_back(Row("/", kOp, {T, T}, T, FlDiv<T>));        \
  t->push_back(Row("-", kOp, {T}, T, FlUm<T>));            \
  t->push_back(Row("+", kOp, {T}, T, Ident<T>));           \
  t->push_back(Row("@", kOp, {T}, T, FlAbs<T>));           \
  t->push_back(Row("abs", kFn, {T}, T, FlAbs<T>));
  HEARTH_FLOAT_OPS(kFloat4Oid)
  HEARTH_FLOAT_OPS(kFloat8Oid)
#undef HEARTH_FLOAT_OPS

  const Oid F8 = kFloat8Oid, NUM = kNumericOid, I4 = kInt4Oid;
  // Mixed float4/float8 operators compute in float8 (float48pl etc.), which
  // is also what float4-with-integer arithmetic resolves to, as in PostgreSQL.
  for (auto [l, r] : {std::pair<Oid, Oid>{kFloat4Oid, F8}, std::pair<Oid, Oid>{F8, kFloat4Oid}}) {
    t->push_back(Row("+", kOp, {l, r}, F8, FlPl<kFloat8Oid>));
    t->push_back(Row("-", kOp, {l, r}, F8, FlMi<kFloat8Oid>));
    t->push_back(Row("*", kOp, {l, r}, F8, FlMul<kFloat8Oid>));
    t->push_back(Row("/", kOp, {l, r}, F8, FlDiv<kFloat8Oid>));
  }
  t->push_back(Row("^", kOp, {F8, F8}, F8, Dpow));
  t->push_back(Row("power", kFn, {F8, F8}, F8, Dpow));
  t->push_back(Row("pow", kFn, {F8, F8}, F8, Dpow));
  t->push_back(Row("sqrt", kFn, {F8}, F8, Dsqrt));
  t->push_back(Row("|/", kOp, {F8}, F8, Dsqrt));
  t->push_back(Row("round", kFn, {F8}, F8, Dround));
  t->push_back(Row("trunc", kFn, {F8}, F8, Dtrunc));
  t->push_back(Row("ceil", kFn, {F8}, F8, Dceil));
  t->push_back(Row("ceiling", kFn, {F8}, F8, Dceil));
  t->push_back(Row("floor", kFn, {F8}, F8, Dfloor));

  t->push_back(Row("+", kOp, {NUM, NUM}, NUM, NumPl));
  t->push_back(Row("-", kOp, {NUM, NUM}, NUM, NumMi));
  t->push_back(Row("*", kOp, {NUM, NUM}, NUM, NumMul));
  t->push_back(Row("/", kOp, {NUM, NUM}, NUM, NumDiv));
  t->push_back(Row("%", kOp, {NUM, NUM}, NUM, NumMod));
  t->push_back(Row("^", kOp, {NUM, NUM}, NUM, NumPow));
  t->push_back(Row("-", kOp, {NUM}, NUM, NumUm));
  t->push_back(Row("+", kOp, {NUM}, NUM, Ident<kNumericOid>));
  t->push_back(Row("@", kOp, {NUM}, NUM, NumAbs));
  t->push_back(Row("abs", kFn, {NUM}, NUM, NumAbs));
  t->push_back(Row("mod", kFn, {NUM, NUM}, NUM, NumMod));
  t->push_back(Row("power", kFn, {NUM, NUM}, NUM, NumPow));
  t->push_back(Row("pow", kFn, {NUM, NUM}, NUM, NumPow));
  t->push_back(Row("sqrt", kFn, {NUM}, NUM, NumSqrt));
  t->push_back(Row("round", kFn, {NUM}, NUM, NumRound));
  t->push_back(Row("round", kFn, {NUM, I4}, NUM, NumRound));
  t->push_back(Row("trunc", kFn, {NUM}, NUM, NumTrunc));
  t->push_back(Row("trunc", kFn, {NUM, I4}, NUM, NumTrunc));
  t->push_back(Row("ceil", kFn, {NUM}, NUM, NumCeil));
  t->push_back(Row("ceiling", kFn, {NUM}, NUM, NumCeil));
  t->push_back(Row("floor", kFn, {NUM}, NUM, NumFloor));
  t->push_back(Row("div", kFn, {NUM, NUM}, NUM, [](const Value* a, int, FuncCallContext&) {
    return NV(N(a[0]).DivTrunc(N(a[1])));
  }));

  // Comparison operators for every ordered type.
  for (Oid T : {kBoolOid, kInt2Oid, kInt4Oid, kInt8Oid, kFloat4Oid, kFloat8Oid, kNumericOid,
                kTextOid, kBpcharOid, kNameOid, kOidOid, kDateOid, kTimestampOid,
                kTimestampTzOid, kPgLsnOid, kUuidOid, kByteaOid, kIntervalOid, kJsonbOid, kTimeOid, kTimeTzOid,
                kAnyArrayOid /* arrays: CompareValues orders them as btarraycmp */}) {
    t->push_back(Row("=", kOp, {T, T}, kBoolOid, Cmp<0>));
    t->push_back(Row("<>", kOp, {T, T}, kBoolOid, Cmp<1>));
    t->push_back(Row("<", kOp, {T, T}, kBoolOid, Cmp<2>));
    t->push_back(Row(">", kOp, {T, T}, kBoolOid, Cmp<3>));
    t->push_back(Row("<=", kOp, {T, T}, kBoolOid, Cmp<4>));
    t->push_back(Row(">=", kOp, {T, T}, kBoolOid, Cmp<5>));
  }

  const Oid D = kDateOid;
  t->push_back(Row("+", kOp, {D, I4}, D, DatePli));
  t->push_back(Row("+", kOp, {I4, D}, D, IntPlDate));
  t->push_back(Row("-", kOp, {D, I4}, D, DateMii));
  t->push_back(Row("-", kOp, {D, D}, I4, DateMi));

  // Aggregates: signatures only (result types as PostgreSQL), executed by
  // the executor's aggregation node.
  const Oid I2 = kInt2Oid, I8 = kInt8Oid, F4 = kFloat4Oid;
  t->push_back(Row("count", kAgg, {}, I8, nullptr, false));
  t->push_back(Row("count", kAgg, {kAnyOid}, I8, nullptr, false));
  t->push_back(Row("sum", kAgg, {I2}, I8, nullptr));
  t->push_back(Row("sum", kAgg, {I4}, I8, nullptr));
  t->push_back(Row("sum", kAgg, {I8}, NUM, nullptr));
  t->push_back(Row("sum", kAgg, {NUM}, NUM, nullptr));
  t->push_back(Row("sum", kAgg, {F4}, F4, nullptr));
  t->push_back(Row("sum", kAgg, {F8}, F8, nullptr));
  for (Oid T : {I2, I4, I8, NUM}) t->push_back(Row("avg", kAgg, {T}, NUM, nullptr));
  t->push_back(Row("avg", kAgg, {F4}, F8, nullptr));
  t->push_back(Row("avg", kAgg, {F8}, F8, nullptr));
  t->push_back(Row("sum", kAgg, {kIntervalOid}, kIntervalOid, nullptr));
  t->push_back(Row("avg", kAgg, {kIntervalOid}, kIntervalOid, nullptr));
  for (Oid T : {I2, I4, I8, F4, F8, NUM, kTextOid, kBpcharOid, kDateOid, kTimestampOid,
                kTimestampTzOid, kOidOid, kIntervalOid, kTimeOid, kTimeTzOid}) {
    t->push_back(Row("min", kAgg, {T}, T, nullptr));
    t->push_back(Row("max", kAgg, {T}, T, nullptr));
  }
  t->push_back(Row("bool_and", kAgg, {kBoolOid}, kBoolOid, nullptr));
  t->push_back(Row("bool_or", kAgg, {kBoolOid}, kBoolOid, nullptr));
  t->push_back(Row("every", kAgg, {kBoolOid}, kBoolOid, nullptr));
}

}  // namespace hearth::types::internal
