// server/utils/adt/type_oid.h
//
// PostgreSQL type OIDs Hearth knows, as plain constants. Clients see these
// numbers in RowDescription and ParameterDescription, so they must match
// pg_type exactly. Header-only, no state: safe from any thread or process.
#pragma once

#include <cstdint>

namespace hearth::types {

using Oid = uint32_t;

inline constexpr Oid kInvalidOid = 0;

inline constexpr Oid kBoolOid = 16;
inline constexpr Oid kRegprocOid = 24;
inline constexpr Oid kByteaOid = 17;
inline constexpr Oid kNameOid = 19;
inline constexpr Oid kInt8Oid = 20;
inline constexpr Oid kInt2Oid = 21;
inline constexpr Oid kInt4Oid = 23;
inline constexpr Oid kTextOid = 25;
inline constexpr Oid kOidOid = 26;
inline constexpr Oid kFloat4Oid = 700;
inline constexpr Oid kFloat8Oid = 701;
inline constexpr Oid kUnknownOid = 705;
inline constexpr Oid kBpcharOid = 1042;
inline constexpr Oid kVarcharOid = 1043;
inline constexpr Oid kDateOid = 1082;
inline constexpr Oid kTimeOid = 1083;
inline constexpr Oid kTimestampOid = 1114;
inline constexpr Oid kTimestampTzOid = 1184;
inline constexpr Oid kIntervalOid = 1186;
inline constexpr Oid kTimeTzOid = 1266;
inline constexpr Oid kNumericOid = 1700;
inline constexpr Oid kRegclassOid = 2205;
inline constexpr Oid kRegtypeOid = 2206;
inline constexpr Oid kUuidOid = 2950;
inline constexpr Oid kVoidOid = 2278;
// An anonymous row (ROW(1, 'a')): a text-form value "(1,a)", output only.
inline constexpr Oid kRecordOid = 2249;
inline constexpr Oid kPgLsnOid = 3220;
inline constexpr Oid kRegnamespaceOid = 4089;

// Array types Hearth refers to by name (the full list, one per base type,
// is the type catalog's; ArrayTypeOf/ElementTypeOf in type_catalog.h).
inline constexpr Oid kInt2ArrayOid = 1005;
inline constexpr Oid kInt4ArrayOid = 1007;
inline constexpr Oid kTextArrayOid = 1009;
inline constexpr Oid kOidArrayOid = 1028;

// The oid alias types (regclass, regtype, regproc, regnamespace): an oid
// whose text form is the object's name.
inline constexpr bool IsRegType(Oid t) {
  return t == kRegclassOid || t == kRegtypeOid || t == kRegprocOid || t == kRegnamespaceOid;
}

// Pseudo-types used only in function signatures.
inline constexpr Oid kAnyOid = 2276;          // "any": accepts every type as is
inline constexpr Oid kAnyNonArrayOid = 2776;  // polymorphic; unknown resolves to text
// Array polymorphism (array_length, ||, array_agg, ...): anyarray binds an
// array type, anyelement its element type; the anycompatible pair also
// promotes the arguments to a common element type (array_append(int[], numeric)).
inline constexpr Oid kAnyArrayOid = 2277;
inline constexpr Oid kAnyElementOid = 2283;
inline constexpr Oid kAnyCompatibleOid = 5077;
inline constexpr Oid kAnyCompatibleArrayOid = 5078;
// Any enum type (enum_first, enum_range, the enum comparison operators).
inline constexpr Oid kAnyEnumOid = 3500;

inline constexpr bool IsArrayPolyType(Oid t) {
  return t == kAnyArrayOid || t == kAnyElementOid || t == kAnyCompatibleOid ||
         t == kAnyCompatibleArrayOid;
}

// typmod of a type without modifiers (PostgreSQL's -1).
inline constexpr int32_t kNoTypmod = -1;

}  // namespace hearth::types
