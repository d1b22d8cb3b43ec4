// server/utils/adt/cast.cpp
//
// Principal entry points: CanCoerce, CastValue. The table below mirrors the
// pg_cast rows between Hearth's built-in types.
#include "utils/adt/cast.h"

#include <array>
#include <cmath>

#include "common/error/db_error.h"
#include "utils/adt/array_ops.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/float_adt.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/numeric.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/json.h"
#include "utils/adt/time_adt.h"

namespace hearth::types {
namespace {

struct CastRow {
  Oid from;
  Oid to;
  CoercionContext ctx;
};

constexpr CoercionContext I = CoercionContext::kImplicit;
constexpr CoercionContext A = CoercionContext::kAssignment;
constexpr CoercionContext E = CoercionContext::kExplicit;

constexpr std::array<CastRow, 53> kCasts = {{
    {kInt2Oid, kInt4Oid, I},       {kInt2Oid, kInt8Oid, I},         {kInt2Oid, kFloat4Oid, I},
    {kInt2Oid, kFloat8Oid, I},     {kInt2Oid, kNumericOid, I},      {kInt2Oid, kOidOid, I},
    {kInt4Oid, kInt2Oid, A},       {kInt4Oid, kInt8Oid, I},         {kInt4Oid, kFloat4Oid, I},
    {kInt4Oid, kFloat8Oid, I},     {kInt4Oid, kNumericOid, I},      {kInt4Oid, kBoolOid, E},
    {kInt4Oid, kOidOid, I},        {kInt4Oid, kRegclassOid, I},     {kInt8Oid, kInt2Oid, A},
    {kInt8Oid, kInt4Oid, A},       {kInt8Oid, kFloat4Oid, I},       {kInt8Oid, kFloat8Oid, I},
    {kInt8Oid, kNumericOid, I},    {kInt8Oid, kOidOid, I},          {kInt8Oid, kRegclassOid, I},
    {kFloat4Oid, kInt2Oid, A},     {kFloat4Oid, kInt4Oid, A},       {kFloat4Oid, kInt8Oid, A},
    {kFloat4Oid, kFloat8Oid, I},   {kFloat4Oid, kNumericOid, A},    {kFloat8Oid, kInt2Oid, A},
    {kFloat8Oid, kInt4Oid, A},     {kFloat8Oid, kInt8Oid, A},       {kFloat8Oid, kFloat4Oid, A},
    {kFloat8Oid, kNumericOid, A},  {kNumericOid, kInt2Oid, A},      {kNumericOid, kInt4Oid, A},
    {kNumericOid, kInt8Oid, A},    {kNumericOid, kFloat4Oid, I},    {kNumericOid, kFloat8Oid, I},
    {kBoolOid, kInt4Oid, E},       {kOidOid, kInt4Oid, A},          {kOidOid, kInt8Oid, A},
    {kOidOid, kRegclassOid, I},    {kRegclassOid, kOidOid, I},      {kTextOid, kVarcharOid, I},
    {kTextOid, kBpcharOid, I},     {kTextOid, kNameOid, I},         {kVarcharOid, kTextOid, I},
    {kVarcharOid, kBpcharOid, I},  {kVarcharOid, kNameOid, I},      {kBpcharOid, kTextOid, I},
    {kBpcharOid, kVarcharOid, I},  {kNameOid, kTextOid, I},         {kDateOid, kTimestampOid, I},
    {kDateOid, kTimestampTzOid, I}, {kTimestampOid, kTimestampTzOid, I},
}};

constexpr std::array<CastRow, 30> kMoreCasts = {{
    {kTextOid, kRegclassOid, I},  // regclass input: the name's relation (text_io.h)
    // regtype, regproc, regnamespace as PostgreSQL: binary-coercible with
    // oid, integers cast implicitly, text through their input function.
    {kOidOid, kRegtypeOid, I}, {kRegtypeOid, kOidOid, I}, {kInt4Oid, kRegtypeOid, I}, {kInt8Oid, kRegtypeOid, I},
    {kTextOid, kRegtypeOid, I}, {kOidOid, kRegprocOid, I}, {kRegprocOid, kOidOid, I}, {kInt4Oid, kRegprocOid, I},
    {kInt8Oid, kRegprocOid, I}, {kTextOid, kRegprocOid, I}, {kOidOid, kRegnamespaceOid, I},
    {kRegnamespaceOid, kOidOid, I}, {kInt4Oid, kRegnamespaceOid, I}, {kInt8Oid, kRegnamespaceOid, I},
    {kTextOid, kRegnamespaceOid, I}, {kRegclassOid, kInt8Oid, A}, {kRegtypeOid, kInt8Oid, A},
    {kRegprocOid, kInt8Oid, A},
    {kTimestampOid, kDateOid, A},
    {kTimestampTzOid, kDateOid, A},
    {kTimestampTzOid, kTimestampOid, A},
    {kBpcharOid, kNameOid, A},
    // time and timetz (pg_cast): time widens to interval and timetz.
    {kTimeOid, kIntervalOid, I}, {kTimeOid, kTimeTzOid, I}, {kTimeTzOid, kTimeOid, A},
    {kTimestampOid, kTimeOid, A}, {kTimestampTzOid, kTimeOid, A}, {kTimestampTzOid, kTimeTzOid, A},
    {kIntervalOid, kTimeOid, A},
}};

bool IsStringType(Oid t) {
  return t == kTextOid || t == kVarcharOid || t == kBpcharOid || t == kNameOid;
}

bool IsIntType(Oid t) {
  return t == kInt2Oid || t == kInt4Oid || t == kInt8Oid || t == kOidOid || IsRegType(t);
}

bool IsFloatType(Oid t) { return t == kFloat4Oid || t == kFloat8Oid; }

int64_t CheckedInt(int64_t x, Oid to) {
  if (!FitsInteger(x, to)) ThrowIntegerOutOfRange(to);
  return x;
}

// Converts a string payload to another string type, applying typmod.
Value StringToString(std::string s, Oid from, Oid to, int32_t typmod, bool is_explicit) {
  // bpchar's trailing blanks are not significant and vanish on conversion.
  if (from == kBpcharOid && to != kBpcharOid) s = std::string(BpcharTrim(s));
  if (to == kNameOid) {
    if (s.size() > 63) s.resize(63);
    return Value::Bytes(to, std::move(s));
  }
  return Value::Bytes(to, ApplyCharTypmod(std::move(s), to, typmod, is_explicit));
}

}  // namespace

bool CanCoerce(Oid from, Oid to, CoercionContext ctx) {
  if (from == to) return true;
  if (from == kUnknownOid) return true;
  if (to == kAnyOid || to == kAnyNonArrayOid) return true;
  // Array coercion: element by element, allowed where the element cast is.
  if (IsArrayType(from) && IsArrayType(to)) return CanCoerce(ElementTypeOf(from), ElementTypeOf(to), ctx);
  for (const CastRow& r : kCasts) {
    if (r.from == from && r.to == to) return ctx >= r.ctx;
  }
  for (const CastRow& r : kMoreCasts) {
    if (r.from == from && r.to == to) return ctx >= r.ctx;
  }
  if (std::optional<CoercionContext> json = JsonCastContext(from, to)) return ctx >= *json;
  if (LookupType(from) == nullptr || LookupType(to) == nullptr) return false;
  // I/O conversion casts: anything → string by assignment, string → anything explicitly.
  if (IsStringType(to) && ctx >= CoercionContext::kAssignment) return true;
  if (IsStringType(from) && ctx == CoercionContext::kExplicit) return true;
  return false;
}

Value CastValue(const Value& v, Oid to, int32_t typmod, CoercionContext ctx) {
  const bool is_explicit = ctx == CoercionContext::kExplicit;
  Oid from = v.type;
  if (v.is_null) return Value::Null(to);
  if ((to == kTimestampOid || to == kTimestampTzOid) && typmod >= 0) {
    Value r = CastValue(v, to, kNoTypmod, ctx);
    r.i = RoundTimestampPrecision(r.i, typmod);
    return r;
  }
  if ((to == kTimeOid || to == kTimeTzOid) && typmod >= 0) return RoundTimeValue(CastValue(v, to, kNoTypmod, ctx), typmod);
  if (IsArrayType(to) && IsArrayType(from)) {
    if (from == to && typmod < 0) return v;
    return CastArray(v, to, typmod, ctx);
  }
  if (from == to) {
    if (typmod < 0) return v;
    if (to == kNumericOid) return Value::Bytes(to, Numeric::Parse(v.str).ApplyTypmod(typmod).ToString());
    if (to == kVarcharOid || to == kBpcharOid) {
      return Value::Bytes(to, ApplyCharTypmod(v.str, to, typmod, is_explicit));
    }
    return v;
  }
  if (from == kUnknownOid) return InputValue(to, typmod, v.str);
  if (!CanCoerce(from, to, ctx)) {
    throw DbError(sqlstate::kCannotCoerce,
                  "cannot cast type " + FormatType(from) + " to " + FormatType(to));
  }
  if (JsonCastContext(from, to)) return CastJson(v, to, typmod);
  if (IsStringType(from) && IsStringType(to)) {
    return StringToString(v.str, from, to, typmod, is_explicit);
  }
  if (IsStringType(to)) {
    // bool → text is booltext(), which spells the words out.
    std::string s = from == kBoolOid ? (v.b ? "true" : "false") : OutputValue(v);
    return StringToString(std::move(s), from, to, typmod, is_explicit);
  }
  if (IsStringType(from)) {
    std::string_view s = from == kBpcharOid ? BpcharTrim(v.str) : std::string_view(v.str);
    return InputValue(to, typmod, s);
  }
  if (IsIntType(from)) {
    if (IsIntType(to)) return Value::Int(to, CheckedInt(v.i, to));
    if (IsFloatType(to)) {
      return Value::Float(to, to == kFloat4Oid ? static_cast<float>(v.i) : static_cast<double>(v.i));
    }
    if (to == kNumericOid) {
      return Value::Bytes(to, Numeric::FromInt64(v.i).ApplyTypmod(typmod).ToString());
    }
    if (to == kBoolOid) return Value::Bool(v.i != 0);
  }
  if (IsFloatType(from)) {
    if (IsIntType(to)) {
      double r = std::rint(v.f);
      // The bounds are exact powers of two, so the comparisons are exact.
      if (std::isnan(r) || r < -9223372036854775808.0 || r >= 9223372036854775808.0) {
        ThrowIntegerOutOfRange(to);
      }
      return Value::Int(to, CheckedInt(static_cast<int64_t>(r), to));
    }
    if (to == kFloat4Oid) {
      return Value::Float(to, CheckFloatResult(v.f, std::isinf(v.f), v.f == 0, to));
    }
    if (to == kFloat8Oid) return Value::Float(to, v.f);
    if (to == kNumericOid) {
      return Value::Bytes(
          to, Numeric::FromDouble(v.f, from == kFloat4Oid ? 6 : 15).ApplyTypmod(typmod).ToString());
    }
  }
  if (from == kNumericOid) {
    Numeric n = Numeric::Parse(v.str);
    if (IsIntType(to)) {
      if (n.is_nan()) {
        throw DbError(sqlstate::kFeatureNotSupported,
                      "cannot convert NaN to " + FormatType(to));
      }
      std::optional<int64_t> x = n.ToInt64();
      if (!x) ThrowIntegerOutOfRange(to);
      return Value::Int(to, CheckedInt(*x, to));
    }
    if (IsFloatType(to)) {
      // Through the decimal text, as PostgreSQL's float8in: overflow is
      // 22003 naming the value ("1e400"::numeric::float8).
      return Value::Float(to, ParseFloat(v.str, to));
    }
  }
  if (from == kBoolOid && to == kInt4Oid) return Value::Int(to, v.b ? 1 : 0);
  // timestamptz is an instant; date and timestamp are wall-clock readings
  // in the session time zone.
  if (from == kDateOid && to == kTimestampOid) return Value::Int(to, DateToTimestamp(v.i));
  if (from == kDateOid && to == kTimestampTzOid) return Value::Int(to, TimestampToTimestampTz(DateToTimestamp(v.i)));
  if (from == kTimestampOid && to == kDateOid) return Value::Int(to, TimestampToDate(v.i));
  if (from == kTimestampTzOid && to == kDateOid) return Value::Int(to, TimestampToDate(TimestampTzToTimestamp(v.i)));
  if (from == kTimestampOid && to == kTimestampTzOid) return Value::Int(to, TimestampToTimestampTz(v.i));
  if (from == kTimestampTzOid && to == kTimestampOid) return Value::Int(to, TimestampTzToTimestamp(v.i));
  if (from == kTimeOid || to == kTimeOid || to == kTimeTzOid) return CastTimeValue(v, to);
  throw DbError(sqlstate::kCannotCoerce,
                "cannot cast type " + FormatType(from) + " to " + FormatType(to));
}

}  // namespace hearth::types
