// server/utils/adt/array_ops.h
//
// Array operations the executor reaches directly rather than through the
// function registry: element-type casts of whole arrays, subscripts,
// slices and subscripted assignment, with PostgreSQL 15's rules (a
// subscript outside the array yields NULL on fetch; assignment extends a
// one-dimensional array, filling the gap with NULLs). Stateless.
#pragma once

#include <cstdint>
#include <vector>

#include "utils/adt/cast.h"
#include "utils/adt/value.h"

namespace hearth::types {

// Casts every element of array `v` to ElementTypeOf(to) with `typmod`.
Value CastArray(const Value& v, Oid to, int32_t typmod, CoercionContext ctx);

// One dimension of a subscript: a[i] or a[lower:upper] (bounds may be
// omitted in a slice: a[:2], a[2:], a[:]).
struct Subscript {
  bool is_slice = false;
  bool has_lower = false;
  bool has_upper = false;
  int32_t lower = 0;  // the index itself when !is_slice
  int32_t upper = 0;
};

// a[i][j]...: NULL when the subscript count differs from the array's
// dimensions or an index is out of range. If any subscript is a slice,
// every one is (a lone index i meaning 1:i), and the result is an array
// with lower bounds 1 (empty when the ranges miss the array).
// REQUIRES: !arr.is_null, 1 <= subs.size().
Value ArraySubscriptFetch(const Value& arr, const std::vector<Subscript>& subs, Oid result_type);

// UPDATE ... SET a[i] = x: returns the array with the element replaced.
// A NULL or empty array becomes a new one with the subscripts as lower
// bounds. With a slice (a[1:2] = '{5,6}') `elem` is an array of the same
// type whose elements fill the slice in order (a NULL one changes
// nothing). Throws 2202E `array subscript out of range`, `wrong number of
// array subscripts`, `source array too small` as PostgreSQL.
Value ArraySubscriptAssign(const Value& arr, Oid array_type, const std::vector<Subscript>& subs,
                           const Value& elem);

}  // namespace hearth::types
