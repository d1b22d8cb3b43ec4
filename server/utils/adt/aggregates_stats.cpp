// server/utils/adt/aggregates_stats.cpp
//
// The statistics aggregates of AggregateState: var_pop/var_samp/variance
// and stddev_pop/stddev_samp/stddev (one variable) and corr, covar_pop,
// covar_samp and regr_* (two float8 variables, Y first as in PostgreSQL).
// Float inputs use the Youngs-Cramer running sums PostgreSQL uses (N, Sx,
// Sxx, ...), so results agree to the last bit. Integer and numeric inputs
// are exact: N, sum(X) and sum(X*X) are kept exactly (128-bit integers for
// int2/int4, numeric otherwise) and the result is
// (N*sum(X*X) - sum(X)^2) / (N*(N-1) or N*N) at numeric division's scale,
// its square root at that same scale, as numeric_stddev_internal computes.
#include <cmath>
#include <limits>

#include "utils/adt/aggregates.h"

namespace hearth::types {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

void AggregateState::AccumulateMoments(const Value& v) {
  Oid in = agg_->args[0];
  if (in == kFloat4Oid || in == kFloat8Oid) {
    // Youngs-Cramer: Sxx grows by (x*N - Sx)^2 / (N * (N-1)).
    const double n = static_cast<double>(count_);
    float_sum_ += v.f;
    if (count_ > 1) {
      const double t = v.f * n - float_sum_;
      m_[0] += t * t / (n * (n - 1));
      if (std::isinf(float_sum_) || std::isinf(m_[0])) m_[0] = kNaN;
    } else if (std::isnan(v.f) || std::isinf(v.f)) {
      m_[0] = kNaN;
    }
    return;
  }
  if (in == kInt2Oid || in == kInt4Oid) {
    int_sum_ += v.i;
    int_sum2_ += static_cast<__int128>(v.i) * v.i;
    return;
  }
  Numeric x = in == kInt8Oid ? Numeric::FromInt64(v.i) : Numeric::Parse(v.str);
  numeric_sum_ = numeric_sum_.Add(x);
  numeric_sum2_ = numeric_sum2_.Add(x.Mul(x));
}

Value AggregateState::FinishMoments() const {
  const bool sample = op_ == Op::kVarSamp || op_ == Op::kStddevSamp;
  const bool root = op_ == Op::kStddevPop || op_ == Op::kStddevSamp;
  if (sample && count_ < 2) return Value::Null(agg_->result);
  Oid in = agg_->args[0];
  if (in == kFloat4Oid || in == kFloat8Oid) {
    double var = m_[0] / static_cast<double>(sample ? count_ - 1 : count_);
    return Value::Float8(root ? std::sqrt(var) : var);
  }
  const bool small = in == kInt2Oid || in == kInt4Oid;
  Numeric sum = small ? FromInt128(int_sum_) : numeric_sum_;
  Numeric sum2 = small ? FromInt128(int_sum2_) : numeric_sum2_;
  if (sum.is_nan() || sum2.is_nan()) return Value::Bytes(kNumericOid, Numeric::NaN().ToString());
  Numeric n = Numeric::FromInt64(count_);
  Numeric num = n.Mul(sum2).Sub(sum.Mul(sum));
  // Rounding can leave a negative numerator; PostgreSQL returns plain 0 then.
  if (num.is_zero() || num.is_negative()) return Value::Bytes(kNumericOid, "0");
  Numeric den = n.Mul(sample ? Numeric::FromInt64(count_ - 1) : n);
  Numeric var = num.Div(den);
  if (root) var = var.SqrtScale(var.scale());
  return Value::Bytes(kNumericOid, var.ToString());
}

void AggregateState::AccumulateRegression(double y, double x) {
  // m_ = Sx, Sxx, Sy, Syy, Sxy (Youngs-Cramer, as float8_regr_accum).
  const double n_old = static_cast<double>(count_++);
  const double n = n_old + 1;
  m_[0] += x;
  m_[2] += y;
  if (n_old > 0) {
    const double tx = x * n - m_[0];
    const double ty = y * n - m_[2];
    const double scale = 1.0 / (n * n_old);
    m_[1] += tx * tx * scale;
    m_[3] += ty * ty * scale;
    m_[4] += tx * ty * scale;
    if (std::isinf(m_[0]) || std::isinf(m_[1])) m_[1] = kNaN;
    if (std::isinf(m_[2]) || std::isinf(m_[3])) m_[3] = kNaN;
    if (std::isinf(m_[4])) m_[4] = kNaN;
  } else {
    if (std::isnan(x) || std::isinf(x)) m_[1] = m_[4] = kNaN;
    if (std::isnan(y) || std::isinf(y)) m_[3] = m_[4] = kNaN;
  }
}

Value AggregateState::FinishRegression() const {
  const double n = static_cast<double>(count_);
  const double sx = m_[0], sxx = m_[1], sy = m_[2], syy = m_[3], sxy = m_[4];
  const Value null = Value::Null(agg_->result);
  switch (op_) {
    case Op::kRegrSxx: return Value::Float8(sxx);
    case Op::kRegrSyy: return Value::Float8(syy);
    case Op::kRegrSxy: return Value::Float8(sxy);
    case Op::kRegrAvgX: return Value::Float8(sx / n);
    case Op::kRegrAvgY: return Value::Float8(sy / n);
    case Op::kCovarPop: return Value::Float8(sxy / n);
    case Op::kCovarSamp: return count_ < 2 ? null : Value::Float8(sxy / (n - 1));
    case Op::kCorr: return sxx == 0 || syy == 0 ? null : Value::Float8(sxy / std::sqrt(sxx * syy));
    case Op::kRegrR2:
      if (sxx == 0) return null;
      return syy == 0 ? Value::Float8(1.0) : Value::Float8((sxy * sxy) / (sxx * syy));
    case Op::kRegrSlope: return sxx == 0 ? null : Value::Float8(sxy / sxx);
    case Op::kRegrIntercept: return sxx == 0 ? null : Value::Float8((sy - sx * sxy / sxx) / n);
    default: return null;
  }
}

}  // namespace hearth::types
