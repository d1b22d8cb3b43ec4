// server/utils/adt/compare.cpp
//
// Principal entry point: CompareValues.
#include "utils/adt/compare.h"

#include <cmath>

#include "utils/adt/interval.h"
#include "utils/adt/array.h"
#include "utils/adt/json.h"
#include "utils/adt/numeric.h"
#include "utils/adt/time_adt.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::types {

int CompareValues(const Value& a, const Value& b) {
  switch (StorageOf(a.type)) {
    case Storage::kBool:
      return static_cast<int>(a.b) - static_cast<int>(b.b);
    case Storage::kInt:
      if (a.type == kPgLsnOid) {  // unsigned 64-bit positions
        uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      if (MayBeUserType(a.type)) return CompareEnumValues(a, b);  // the only user types with values
      return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
    case Storage::kFloat: {
      bool an = std::isnan(a.f), bn = std::isnan(b.f);
      if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
      return a.f < b.f ? -1 : (a.f > b.f ? 1 : 0);
    }
    default:
      break;
  }
  if (a.type == kIntervalOid) return CompareIntervals(DecodeInterval(a.str), DecodeInterval(b.str));
  if (a.type == kTimeTzOid) return CompareTimeTz(DecodeTimeTz(a.str), DecodeTimeTz(b.str));
  if (IsArrayType(a.type)) return CompareArrays(a, b);
  if (a.type == kJsonbOid) return CompareJsonbValues(a, b);
  if (a.type == kNumericOid) return Numeric::Compare(Numeric::Parse(a.str), Numeric::Parse(b.str));
  std::string_view x = a.str, y = b.str;
  if (a.type == kBpcharOid) {
    x = BpcharTrim(x);
    y = BpcharTrim(y);
  }
  int c = x.compare(y);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace hearth::types
