// server/utils/adt/array_search.cpp
//
// Principal entry points: ArrayPosition, ArrayPositions, ArrayRemove,
// ArrayReplace, ArrayContains, ArrayOverlaps — the array functions that
// look for elements, comparing them with the element type's equality
// (numeric 1.0 = 1.00, bpchar ignoring trailing blanks).
#include "common/error/db_error.h"
#include "utils/adt/array_funcs.h"
#include "utils/adt/compare.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

// IS NOT DISTINCT FROM on two elements of one type.
bool NotDistinct(const Value& a, const Value& b) {
  if (a.is_null || b.is_null) return a.is_null && b.is_null;
  return CompareValues(a, b) == 0;
}

ArrayData OneDimensional(const Value& arr, const char* what) {
  ArrayData a = DeconstructArray(arr);
  if (a.ndim() > 1) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string(what) + " multidimensional arrays is not supported");
  }
  return a;
}

// Retags x (already coerced by the binder) as the array's element type.
Value AsElement(const ArrayData& a, const Value& x) {
  Value e = x;
  e.type = a.elem_type;
  return e;
}

}  // namespace

Value ArrayPosition(const Value& arr, const Value& x, const Value* start) {
  if (arr.is_null) return Value::Null(kInt4Oid);
  ArrayData a = OneDimensional(arr, "searching for elements in");
  if (start != nullptr && start->is_null) {
    throw DbError(sqlstate::kNullValueNotAllowed, "initial position must not be null");
  }
  if (a.ndim() == 0) return Value::Null(kInt4Oid);
  const Value e = AsElement(a, x);
  const int64_t lb = a.lbounds[0];
  const int64_t from = start != nullptr ? std::max<int64_t>(start->i, lb) : lb;
  for (int64_t k = from - lb; k < static_cast<int64_t>(a.elems.size()); ++k) {
    if (NotDistinct(a.elems[static_cast<size_t>(k)], e)) return Value::Int4(static_cast<int32_t>(k + lb));
  }
  return Value::Null(kInt4Oid);
}

Value ArrayPositions(const Value& arr, const Value& x) {
  if (arr.is_null) return Value::Null(kInt4ArrayOid);
  ArrayData a = OneDimensional(arr, "searching for elements in");
  std::vector<Value> found;
  const Value e = AsElement(a, x);
  for (size_t k = 0; k < a.elems.size(); ++k) {
    if (NotDistinct(a.elems[k], e)) found.push_back(Value::Int4(static_cast<int32_t>(k + a.lbounds[0])));
  }
  return MakeArray1D(kInt4Oid, std::move(found));
}

Value ArrayRemove(const Value& arr, const Value& x) {
  if (arr.is_null) return arr;
  ArrayData a = OneDimensional(arr, "removing elements from");
  const Value e = AsElement(a, x);
  std::vector<Value> kept;
  for (Value& v : a.elems) {
    if (!NotDistinct(v, e)) kept.push_back(std::move(v));
  }
  if (kept.size() == a.elems.size()) return arr;
  if (kept.empty()) {
    a.dims.clear();
    a.lbounds.clear();
  } else {
    a.dims[0] = static_cast<int32_t>(kept.size());
  }
  a.elems = std::move(kept);
  return MakeArrayValue(arr.type, a);
}

Value ArrayReplace(const Value& arr, const Value& from, const Value& to) {
  if (arr.is_null) return arr;
  ArrayData a = DeconstructArray(arr);
  const Value f = AsElement(a, from);
  const Value t = AsElement(a, to);
  for (Value& v : a.elems) {
    if (NotDistinct(v, f)) v = t;
  }
  return MakeArrayValue(arr.type, a);
}

bool ArrayContains(const Value& a, const Value& b) {
  ArrayData big = DeconstructArray(a);
  ArrayData small = DeconstructArray(b);
  for (const Value& s : small.elems) {
    if (s.is_null) return false;  // NULL is never known to be contained
    bool found = false;
    for (const Value& v : big.elems) {
      if (!v.is_null && CompareValues(v, s) == 0) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

bool ArrayOverlaps(const Value& a, const Value& b) {
  ArrayData x = DeconstructArray(a);
  ArrayData y = DeconstructArray(b);
  for (const Value& s : x.elems) {
    if (s.is_null) continue;
    for (const Value& v : y.elems) {
      if (!v.is_null && CompareValues(v, s) == 0) return true;
    }
  }
  return false;
}

}  // namespace hearth::types
