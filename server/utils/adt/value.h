// server/utils/adt/value.h
//
// Value: one SQL datum in memory, tagged with its type OID. Fixed-width types
// (bool, int2/4/8, oid, date, timestamp[tz], float4/8) live inline in an
// 8-byte union, so creating, copying and computing with them never touches
// the heap. Variable-width types (text, varchar, bpchar, name, unknown,
// numeric) keep their bytes in `str`; numeric keeps its canonical decimal
// text (see numeric.h), so output is a copy and parsing is cheap.
// A Value is a plain value type: not shared, no internal synchronisation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "utils/adt/type_oid.h"

namespace hearth::types {

// Date: days since 2000-01-01 (PostgreSQL's epoch). Timestamp: microseconds
// since 2000-01-01 00:00:00 UTC. Both are kept in `i`.
inline constexpr int64_t kUsecsPerSec = 1000000;
inline constexpr int64_t kUsecsPerDay = 86400LL * kUsecsPerSec;

struct Value {
  Oid type = kUnknownOid;
  bool is_null = true;
  union {
    int64_t i;
    double f;
    bool b;
  };
  std::string str;  // payload of variable-width types; empty otherwise

  Value() : i(0) {}

  static Value Null(Oid t) {
    Value v;
    v.type = t;
    return v;
  }
  static Value Int(Oid t, int64_t x) {
    Value v;
    v.type = t;
    v.is_null = false;
    v.i = x;
    return v;
  }
  static Value Int4(int32_t x) { return Int(kInt4Oid, x); }
  static Value Int8(int64_t x) { return Int(kInt8Oid, x); }
  static Value Float(Oid t, double x) {
    Value v;
    v.type = t;
    v.is_null = false;
    v.f = x;
    return v;
  }
  static Value Float8(double x) { return Float(kFloat8Oid, x); }
  static Value Bool(bool x) {
    Value v;
    v.type = kBoolOid;
    v.is_null = false;
    v.i = 0;
    v.b = x;
    return v;
  }
  static Value Bytes(Oid t, std::string s) {
    Value v;
    v.type = t;
    v.is_null = false;
    v.str = std::move(s);
    return v;
  }
  static Value Text(std::string s) { return Bytes(kTextOid, std::move(s)); }

  std::string_view view() const { return str; }
};

}  // namespace hearth::types
