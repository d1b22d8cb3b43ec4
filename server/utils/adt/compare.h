// server/utils/adt/compare.h
//
// Ordering of non-NULL values of the same type, as PostgreSQL's btree
// comparison functions define it: floats sort NaN above everything and
// treat NaN = NaN; numeric likewise; bpchar ignores trailing spaces; text
// compares bytes (C collation). Stateless; safe from any thread.
#pragma once

#include "utils/adt/value.h"

namespace hearth::types {

// Returns <0, 0, >0. REQUIRES: neither is NULL and a.type == b.type (or
// both are string types / both integer types of the same storage class).
int CompareValues(const Value& a, const Value& b);

}  // namespace hearth::types
