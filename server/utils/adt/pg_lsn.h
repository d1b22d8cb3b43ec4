// server/utils/adt/pg_lsn.h
//
// The pg_lsn type: a 64-bit WAL position written as two hexadecimal halves,
// "16/B374D848" (high 32 bits / low 32 bits, upper case, no leading zeros).
// A pg_lsn Value keeps the position in `i` (bit pattern of the uint64), so
// comparisons must go through LsnOf, never the signed `i`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/value.h"

namespace hearth::types {

// Parses "X/Y" (1..8 hex digits each, no sign, no blanks around the slash).
// Throws 22P02 `invalid input syntax for type pg_lsn: "..."`.
uint64_t ParseLsn(std::string_view text);
void AppendLsn(uint64_t lsn, std::string* out);

inline uint64_t LsnOf(const Value& v) { return static_cast<uint64_t>(v.i); }
inline Value LsnValue(uint64_t lsn) { return Value::Int(kPgLsnOid, static_cast<int64_t>(lsn)); }

// a - b as a numeric text (exact, may be negative): pg_wal_lsn_diff and the
// pg_lsn minus operator.
std::string LsnDiff(uint64_t a, uint64_t b);

}  // namespace hearth::types
