// server/utils/adt/array_ops.cpp
//
// Principal entry points: CastArray, ArraySubscriptFetch,
// ArraySubscriptAssign.
#include "utils/adt/array_ops.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

constexpr char kArraySubscriptError[] = "2202E";

// Row-major offset of the element at absolute indexes `idx`, or -1 when an
// index falls outside its dimension.
int64_t OffsetOf(const ArrayData& a, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < a.dims.size(); ++d) {
    int64_t rel = idx[d] - a.lbounds[d];
    if (rel < 0 || rel >= a.dims[d]) return -1;
    off = off * a.dims[d] + rel;
  }
  return off;
}

void CheckSubscriptCount(size_t n) {
  if (n > static_cast<size_t>(kMaxArrayDims)) {
    throw DbError(sqlstate::kProgramLimitExceeded, "number of array dimensions (" + std::to_string(n) +
                                                       ") exceeds the maximum allowed (" +
                                                       std::to_string(kMaxArrayDims) + ")");
  }
}

Value FetchSlice(const ArrayData& a, const std::vector<Subscript>& subs, Oid result_type) {
  ArrayData out;
  out.elem_type = a.elem_type;
  if (a.ndim() < static_cast<int>(subs.size()) || a.ndim() == 0) return MakeArrayValue(result_type, out);
  std::vector<int64_t> lo(a.dims.size()), hi(a.dims.size());
  for (size_t d = 0; d < a.dims.size(); ++d) {
    const int64_t alo = a.lbounds[d], ahi = alo + a.dims[d] - 1;
    lo[d] = alo;
    hi[d] = ahi;
    if (d < subs.size()) {
      const Subscript& s = subs[d];
      if (!s.is_slice) {
        lo[d] = 1;  // a lone index i in a slice means 1:i
        hi[d] = s.lower;
      } else {
        if (s.has_lower) lo[d] = s.lower;
        if (s.has_upper) hi[d] = s.upper;
      }
      lo[d] = std::max(lo[d], alo);
      hi[d] = std::min(hi[d], ahi);
    }
    if (lo[d] > hi[d]) return MakeArrayValue(result_type, out);
    out.dims.push_back(static_cast<int32_t>(hi[d] - lo[d] + 1));
    out.lbounds.push_back(1);
  }
  // Iterate the box [lo, hi] in row-major order.
  std::vector<int64_t> idx = lo;
  const int64_t n = ArrayElementCount(out.dims);
  out.elems.reserve(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    out.elems.push_back(a.elems[static_cast<size_t>(OffsetOf(a, idx))]);
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] <= hi[d]) break;
      idx[d] = lo[d];
    }
  }
  return MakeArrayValue(result_type, out);
}

// A one-dimensional array grown to hold index i, the gap filled with NULLs.
void ExtendOneDim(ArrayData* a, int64_t i) {
  const int64_t lo = a->lbounds[0], hi = lo + a->dims[0] - 1;
  const int64_t new_len = std::max(hi, i) - std::min(lo, i) + 1;
  ArrayElementCount({static_cast<int32_t>(std::min<int64_t>(new_len, INT32_MAX))});  // 54000 past the limit
  if (i < lo) {
    a->elems.insert(a->elems.begin(), static_cast<size_t>(lo - i), Value::Null(a->elem_type));
    a->lbounds[0] = static_cast<int32_t>(i);
  } else if (i > hi) {
    a->elems.resize(a->elems.size() + static_cast<size_t>(i - hi), Value::Null(a->elem_type));
  }
  a->dims[0] = static_cast<int32_t>(a->elems.size());
}

// The box a slice assignment covers, per dimension [lo, hi]; a lone index
// i means 1:i, omitted bounds are the array's own.
void SliceBox(const ArrayData& a, const std::vector<Subscript>& subs, std::vector<int64_t>* lo,
              std::vector<int64_t>* hi) {
  for (size_t d = 0; d < a.dims.size(); ++d) {
    const int64_t alo = a.lbounds[d], ahi = alo + a.dims[d] - 1;
    int64_t l = alo, h = ahi;
    if (d < subs.size()) {
      const Subscript& s = subs[d];
      l = !s.is_slice ? 1 : s.has_lower ? s.lower : alo;
      h = !s.is_slice ? s.lower : s.has_upper ? s.upper : ahi;
    }
    if (h < l) throw DbError(kArraySubscriptError, "upper bound cannot be less than lower bound");
    lo->push_back(l);
    hi->push_back(h);
  }
}

// a[lo:hi]... = src (PostgreSQL's array_set_slice). An empty target takes
// the box as its shape; a one-dimensional one grows (NULL-filled gaps); a
// multidimensional box must lie inside the array.
Value AssignSlice(ArrayData a, Oid array_type, const std::vector<Subscript>& subs, const Value& src) {
  ArrayData from = DeconstructArray(src);
  std::vector<int64_t> lo, hi;
  if (a.ndim() == 0) {
    for (const Subscript& s : subs) {
      if (s.is_slice && (!s.has_lower || !s.has_upper)) {
        throw DbError(kArraySubscriptError, "array slice subscript must provide both boundaries")
            .WithDetail("When assigning to a slice of an empty array value, slice boundaries must be fully specified.");
      }
      const int64_t l = s.is_slice ? s.lower : 1, h = s.is_slice ? s.upper : s.lower;
      if (h < l) throw DbError(kArraySubscriptError, "upper bound cannot be less than lower bound");
      a.dims.push_back(static_cast<int32_t>(std::min<int64_t>(h - l + 1, INT32_MAX)));
      a.lbounds.push_back(static_cast<int32_t>(l));
    }
    a.elems.assign(static_cast<size_t>(ArrayElementCount(a.dims)), Value::Null(a.elem_type));
  } else if (a.ndim() < static_cast<int>(subs.size())) {
    throw DbError(kArraySubscriptError, "wrong number of array subscripts");
  }
  SliceBox(a, subs, &lo, &hi);
  if (a.ndim() == 1) {
    ExtendOneDim(&a, lo[0]);
    ExtendOneDim(&a, hi[0]);
  }
  std::vector<int64_t> idx = lo;
  const int64_t n = [&] {
    std::vector<int32_t> box;
    for (size_t d = 0; d < lo.size(); ++d) box.push_back(static_cast<int32_t>(std::min<int64_t>(hi[d] - lo[d] + 1, INT32_MAX)));
    return ArrayElementCount(box);
  }();
  if (n > static_cast<int64_t>(from.elems.size())) throw DbError(kArraySubscriptError, "source array too small");
  for (int64_t k = 0; k < n; ++k) {
    const int64_t off = OffsetOf(a, idx);
    if (off < 0) throw DbError(kArraySubscriptError, "array subscript out of range");
    a.elems[static_cast<size_t>(off)] = std::move(from.elems[static_cast<size_t>(k)]);
    a.elems[static_cast<size_t>(off)].type = a.elem_type;
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] <= hi[d]) break;
      idx[d] = lo[d];
    }
  }
  return MakeArrayValue(array_type, a);
}

}  // namespace

Value CastArray(const Value& v, Oid to, int32_t typmod, CoercionContext ctx) {
  if (v.is_null) return Value::Null(to);
  ArrayData a = DeconstructArray(v);
  const Oid elem_to = ElementTypeOf(to);
  for (Value& e : a.elems) e = CastValue(e, elem_to, typmod, ctx);
  a.elem_type = elem_to;
  return MakeArrayValue(to, a);
}

Value ArraySubscriptFetch(const Value& arr, const std::vector<Subscript>& subs, Oid result_type) {
  CheckSubscriptCount(subs.size());
  ArrayData a = DeconstructArray(arr);
  for (const Subscript& s : subs) {
    if (s.is_slice) return FetchSlice(a, subs, result_type);
  }
  if (a.ndim() != static_cast<int>(subs.size())) return Value::Null(result_type);
  std::vector<int64_t> idx;
  for (const Subscript& s : subs) idx.push_back(s.lower);
  const int64_t off = OffsetOf(a, idx);
  if (off < 0) return Value::Null(result_type);
  return std::move(a.elems[static_cast<size_t>(off)]);
}

Value ArraySubscriptAssign(const Value& arr, Oid array_type, const std::vector<Subscript>& subs,
                           const Value& elem) {
  CheckSubscriptCount(subs.size());
  ArrayData a;
  a.elem_type = ElementTypeOf(array_type);
  if (!arr.is_null) a = DeconstructArray(arr);
  for (const Subscript& s : subs) {
    if (!s.is_slice) continue;
    if (elem.is_null) return arr;  // a NULL source leaves the array as it was
    return AssignSlice(std::move(a), array_type, subs, elem);
  }
  Value e = elem;
  e.type = a.elem_type;
  if (a.ndim() == 0) {  // NULL or '{}': a new array at the given position
    for (const Subscript& s : subs) {
      a.dims.push_back(1);
      a.lbounds.push_back(s.lower);
    }
    a.elems = {std::move(e)};
    return MakeArrayValue(array_type, a);
  }
  if (a.ndim() != static_cast<int>(subs.size())) {
    throw DbError(kArraySubscriptError, "wrong number of array subscripts");
  }
  std::vector<int64_t> idx;
  for (const Subscript& s : subs) idx.push_back(s.lower);
  if (a.ndim() == 1) ExtendOneDim(&a, idx[0]);
  const int64_t off = OffsetOf(a, idx);
  if (off < 0) throw DbError(kArraySubscriptError, "array subscript out of range");
  a.elems[static_cast<size_t>(off)] = std::move(e);
  return MakeArrayValue(array_type, a);
}

}  // namespace hearth::types
