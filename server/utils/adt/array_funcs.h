// server/utils/adt/array_funcs.h
//
// The SQL-level array functions (array_cat, array_position, ...) as plain
// C++ over array Values; builtins_array.cpp registers them. NULL handling
// follows each PostgreSQL function (most are not strict). Stateless.
#pragma once

#include "utils/adt/array.h"

namespace hearth::types {

// array_cat / array || array. NULL inputs are ignored; an empty side yields
// the other. Throws 2202E `cannot concatenate incompatible arrays`.
Value ArrayCat(const Value& a, const Value& b, Oid array_type);
// array_append / array_prepend: NULL array = empty; 22000 for >1 dimension.
Value ArrayAppend(const Value& arr, const Value& elem, Oid array_type);
Value ArrayPrepend(const Value& elem, const Value& arr, Oid array_type);

// array_position(arr, x [, start]) and array_positions(arr, x): elements
// compared as IS NOT DISTINCT FROM. 0A000 for multidimensional arrays.
Value ArrayPosition(const Value& arr, const Value& x, const Value* start);
Value ArrayPositions(const Value& arr, const Value& x);
// array_remove / array_replace (NULL matches NULL).
Value ArrayRemove(const Value& arr, const Value& x);
Value ArrayReplace(const Value& arr, const Value& from, const Value& to);

// a @> b (contains), a && b (overlaps). REQUIRES: neither is NULL.
bool ArrayContains(const Value& a, const Value& b);
bool ArrayOverlaps(const Value& a, const Value& b);

}  // namespace hearth::types
