// server/utils/adt/array_concat.cpp
//
// Principal entry points: ArrayCat, ArrayAppend, ArrayPrepend — array_cat,
// array_append, array_prepend and the three `||` operators, with
// PostgreSQL 15's dimension rules and lower bounds.
#include "utils/adt/array_funcs.h"

#include "common/error/db_error.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

constexpr char kArraySubscriptError[] = "2202E";

[[noreturn]] void Incompatible(const std::string& detail) {
  throw DbError(kArraySubscriptError, "cannot concatenate incompatible arrays").WithDetail(detail);
}

// True if the trailing dimensions of `a` starting at `from` equal b's.
bool SameInnerDims(const ArrayData& a, size_t from, const ArrayData& b, size_t bfrom) {
  if (a.dims.size() - from != b.dims.size() - bfrom) return false;
  for (size_t d = 0; d + from < a.dims.size(); ++d) {
    if (a.dims[d + from] != b.dims[d + bfrom]) return false;
  }
  return true;
}

}  // namespace

Value ArrayCat(const Value& a, const Value& b, Oid array_type) {
  if (a.is_null && b.is_null) return Value::Null(array_type);
  if (a.is_null) return b;
  if (b.is_null) return a;
  ArrayData x = DeconstructArray(a);
  ArrayData y = DeconstructArray(b);
  if (x.ndim() == 0) return b;
  if (y.ndim() == 0) return a;
  ArrayData r;
  r.elem_type = x.elem_type;
  if (x.ndim() == y.ndim()) {
    if (!SameInnerDims(x, 1, y, 1)) {
      Incompatible("Arrays with differing element dimensions are not compatible for concatenation.");
    }
    r.dims = x.dims;
    r.lbounds = x.lbounds;
    r.dims[0] += y.dims[0];
  } else if (x.ndim() == y.ndim() - 1) {
    if (!SameInnerDims(y, 1, x, 0)) {
      Incompatible("Arrays with differing dimensions are not compatible for concatenation.");
    }
    r.dims = y.dims;
    r.lbounds = y.lbounds;
    r.dims[0] += 1;
  } else if (x.ndim() - 1 == y.ndim()) {
    if (!SameInnerDims(x, 1, y, 0)) {
      Incompatible("Arrays with differing dimensions are not compatible for concatenation.");
    }
    r.dims = x.dims;
    r.lbounds = x.lbounds;
    r.dims[0] += 1;
  } else {
    Incompatible("Arrays of " + std::to_string(x.ndim()) + " and " + std::to_string(y.ndim()) +
                 " dimensions are not compatible for concatenation.");
  }
  r.elems = std::move(x.elems);
  r.elems.insert(r.elems.end(), std::make_move_iterator(y.elems.begin()), std::make_move_iterator(y.elems.end()));
  return MakeArrayValue(array_type, r);
}

namespace {

// array_append/array_prepend: the array (NULL as empty) and one element.
Value AddElement(const Value& arr, const Value& elem, Oid array_type, bool at_end) {
  ArrayData a;
  a.elem_type = ElementTypeOf(array_type);
  if (!arr.is_null) a = DeconstructArray(arr);
  if (a.ndim() > 1) throw DbError("22000", "argument must be empty or one-dimensional array");
  Value e = elem;
  e.type = a.elem_type;
  if (a.ndim() == 0) {
    a.dims = {1};
    a.lbounds = {1};
    a.elems = {std::move(e)};
    return MakeArrayValue(array_type, a);
  }
  const int64_t upper = static_cast<int64_t>(a.lbounds[0]) + a.dims[0];
  if ((at_end && upper > INT32_MAX) || (!at_end && a.lbounds[0] == INT32_MIN)) {
    throw DbError(sqlstate::kNumericValueOutOfRange, "integer out of range");
  }
  if (at_end) {
    a.elems.push_back(std::move(e));
  } else {
    a.elems.insert(a.elems.begin(), std::move(e));
  }
  a.dims[0] += 1;  // lower bound unchanged, as PostgreSQL
  return MakeArrayValue(array_type, a);
}

}  // namespace

Value ArrayAppend(const Value& arr, const Value& elem, Oid array_type) {
  return AddElement(arr, elem, array_type, true);
}

Value ArrayPrepend(const Value& elem, const Value& arr, Oid array_type) {
  return AddElement(arr, elem, array_type, false);
}

}  // namespace hearth::types
