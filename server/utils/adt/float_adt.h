// server/utils/adt/float_adt.h
//
// float4/float8: text input and PostgreSQL 12+ output (shortest string that
// round-trips, i.e. extra_float_digits = 1), and overflow checks for
// arithmetic. Stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"

namespace hearth::types {

// Parses float input ("1.5", " -2e10 ", "NaN", "Infinity", "-inf").
// Throws 22P02 `invalid input syntax for type double precision: "x"` (or
// `real`) and 22003 `"1e400" is out of range for type double precision`.
double ParseFloat(std::string_view text, Oid oid);

// Appends the shortest round-trip text for `v` as float4 (oid kFloat4Oid)
// or float8: "0.30000000000000004", "1e+16", "NaN", "-Infinity".
void AppendFloat(double v, Oid oid, std::string* out);
std::string FormatFloat(double v, Oid oid);

// Throws 22003 "value out of range: overflow/underflow" when an operation
// on finite inputs produced inf, or 0 from non-zero inputs (PostgreSQL's
// float_overflow_error / float_underflow_error). Returns r.
double CheckFloatResult(double r, bool inputs_inf, bool zero_is_valid, Oid oid);

}  // namespace hearth::types
