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
#include "utils/adt/compare.h"

namespace hearth::types {

bool IsOrderedSetAggregate(std::string_view name) {
  return name == "percentile_cont" || name == "percentile_disc" || name == "mode";
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

}  // namespace

Value FinishOrderedSet(const FuncSignature* agg, Oid result_type, const std::vector<Value>& direct,
                       const std::vector<const Value*>& sorted) {
  const char* name = agg->name;
  if (std::strcmp(name, "mode") == 0) return sorted.empty() ? Value::Null(result_type) : Mode(sorted);
  if (direct.empty() || direct[0].is_null) return Value::Null(result_type);
  const double f = Fraction(direct[0]);
  if (sorted.empty()) return Value::Null(result_type);
  const auto n = static_cast<double>(sorted.size());
  if (std::strcmp(name, "percentile_disc") == 0) {
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

}  // namespace hearth::types
