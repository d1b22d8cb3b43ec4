// server/utils/adt/int_adt.h
//
// Integer types (int2, int4, int8, oid): text input with PostgreSQL's exact
// errors, and overflow-checked arithmetic. Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "utils/adt/type_oid.h"

namespace hearth::types {

// Parses `text` as integer type `oid` (int2/int4/int8/oid). Leading and
// trailing whitespace is allowed. Throws 22P02
// `invalid input syntax for type integer: "abc"` or 22003
// `value "99999999999" is out of range for type integer`.
int64_t ParseInteger(std::string_view text, Oid oid);

// Throws 22003 "<smallint|integer|bigint> out of range" for `oid`.
[[noreturn]] void ThrowIntegerOutOfRange(Oid oid);

// True if v fits the range of integer type `oid`.
inline bool FitsInteger(int64_t v, Oid oid) {
  switch (oid) {
    case kInt2Oid:
      return v >= INT16_MIN && v <= INT16_MAX;
    case kInt4Oid:
      return v >= INT32_MIN && v <= INT32_MAX;
    case kOidOid:
    case kRegclassOid:
    case kRegtypeOid:
    case kRegprocOid:
    case kRegnamespaceOid:
      return v >= 0 && v <= UINT32_MAX;
    default:
      return true;
  }
}

// Checked arithmetic in the width of `oid` (int2/int4/int8). Inline because
// they sit in expression-evaluation loops; they never allocate.
inline int64_t IntAdd(int64_t a, int64_t b, Oid oid) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r) || !FitsInteger(r, oid)) ThrowIntegerOutOfRange(oid);
  return r;
}
inline int64_t IntSub(int64_t a, int64_t b, Oid oid) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r) || !FitsInteger(r, oid)) ThrowIntegerOutOfRange(oid);
  return r;
}
inline int64_t IntMul(int64_t a, int64_t b, Oid oid) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || !FitsInteger(r, oid)) ThrowIntegerOutOfRange(oid);
  return r;
}
// Truncating division; throws 22012 "division by zero".
int64_t IntDiv(int64_t a, int64_t b, Oid oid);
// Remainder with the sign of a; throws 22012.
int64_t IntMod(int64_t a, int64_t b, Oid oid);

}  // namespace hearth::types
