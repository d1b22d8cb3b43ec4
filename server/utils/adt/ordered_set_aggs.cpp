// server/utils/adt/ordered_set_aggs.cpp
//
// Principal entry point: FinishOrderedSet. percentile_cont interpolates
// linearly between the values at rows floor/ceil(f * (N - 1)) (0-based);
// percentile_disc takes the first value whose position reaches f * N;
// mode takes the most frequent value, the first in sort order on ties.
#include "utils/adt/ordered_set_aggs.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/array.h"
#include "utils/adt/compare.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {

bool IsOrderedSetAggregate(std::string_view name) {
  return name == "percentile_cont" || name == "percentile_disc" || name == "mode" || IsHypotheticalSetAggregate(name);
}

bool IsHypotheticalSetAggregate(std::string_view name) {
  return name == "rank" || name == "dense_rank" || name == "percent_rank" || name == "cume_dist";
}

namespace {

double Fraction(const Value& v) {
  if (v.f < 0 || v.f > 1 || std::isnan(v.f)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v.f);
    throw DbError(sqlstate::kNumericValueOutOfRange, std::string("percentile value ") + buf +
                                                         " is not between 0 and 1");
  }
  return v.f;
}

Value Mode(const std::vector<const Value*>& sorted) {
  const Value* best = nullptr;
  size_t best_freq = 0;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i + 1;
    while (j < sorted.size() && CompareValues(*sorted[j], *sorted[i]) == 0) ++j;
    if (j - i > best_freq) {
      best = sorted[i];
      best_freq = j - i;
    }
    i = j;
  }
  return *best;
}

// One fraction of percentile_cont/disc over non-empty `sorted`.
Value Percentile(bool disc, double f, const std::vector<const Value*>& sorted) {
  const auto n = static_cast<double>(sorted.size());
  if (disc) {
    auto row = static_cast<size_t>(std::ceil(f * n));
    return *sorted[row > 1 ? row - 1 : 0];
  }
  const double pos = f * (n - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const auto hi = static_cast<size_t>(std::ceil(pos));
  const double a = sorted[lo]->f;
  if (lo == hi) return Value::Float8(a);
  const double b = sorted[hi]->f;
  return Value::Float8(a + (b - a) * (pos - static_cast<double>(lo)));
}

// percentile_*(fractions[]): every fraction is checked first, as PostgreSQL.
Value PercentileArray(bool disc, Oid result_type, const Value& fractions, const std::vector<const Value*>& sorted) {
  ArrayData a = DeconstructArray(fractions);
  for (const Value& f : a.elems) {
    if (!f.is_null) Fraction(f);
  }
  if (sorted.empty()) return Value::Null(result_type);
  a.elem_type = ElementTypeOf(result_type);
  for (Value& f : a.elems) f = f.is_null ? Value::Null(a.elem_type) : Percentile(disc, f.f, sorted);
  return MakeArrayValue(result_type, a);
}

}  // namespace

Value FinishOrderedSet(const FuncSignature* agg, Oid result_type, const std::vector<Value>& direct,
                       const std::vector<const Value*>& sorted) {
  const char* name = agg->name;
  if (std::strcmp(name, "mode") == 0) return sorted.empty() ? Value::Null(result_type) : Mode(sorted);
  if (direct.empty() || direct[0].is_null) return Value::Null(result_type);
  const bool disc = std::strcmp(name, "percentile_disc") == 0;
  if (IsArrayType(direct[0].type)) return PercentileArray(disc, result_type, direct[0], sorted);
  const double f = Fraction(direct[0]);
  if (sorted.empty()) return Value::Null(result_type);
  return Percentile(disc, f, sorted);
}

Value FinishHypothetical(const FuncSignature* agg, uint64_t before, uint64_t peers, uint64_t distinct_before,
                         uint64_t total) {
  const char* name = agg->name;
  if (std::strcmp(name, "rank") == 0) return Value::Int8(static_cast<int64_t>(before + 1));
  if (std::strcmp(name, "dense_rank") == 0) return Value::Int8(static_cast<int64_t>(distinct_before + 1));
  if (std::strcmp(name, "percent_rank") == 0) {
    return Value::Float8(total == 0 ? 0.0 : static_cast<double>(before) / static_cast<double>(total));
  }
  return Value::Float8(static_cast<double>(before + peers + 1) / static_cast<double>(total + 1));  // cume_dist
}

}  // namespace hearth::types
