// server/utils/adt/text_io.cpp
//
// Principal entry points: InputValue, AppendOutput. Dispatches on type OID
// to the per-type parsers in *_adt.cpp.
#include "utils/adt/text_io.h"

#include <cctype>

#include "common/error/db_error.h"
#include "utils/adt/array_io.h"
#include "utils/adt/bytea.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/float_adt.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/numeric.h"
#include "utils/adt/pg_lsn.h"
#include "utils/adt/regclass.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/interval.h"
#include "utils/adt/time_adt.h"
#include "utils/adt/json.h"
#include "utils/adt/jsonpath.h"
#include "utils/adt/uuid.h"
#include "utils/adt/user_types.h"

namespace hearth::types {

bool ParseBool(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string w;
  for (size_t i = b; i < e; ++i) w.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  auto prefix_of = [&](std::string_view full, size_t min_len) {
    return w.size() >= min_len && w.size() <= full.size() && full.substr(0, w.size()) == w;
  };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || w == "on" || w == "1") return true;
  if (prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) || w == "0") return false;
  throw DbError(sqlstate::kInvalidTextRepresentation,
                "invalid input syntax for type boolean: \"" + std::string(text) + "\"");
}

Value InputValue(Oid oid, int32_t typmod, std::string_view text) {
  switch (oid) {
    case kBoolOid:
      return Value::Bool(ParseBool(text));
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid:
    case kOidOid:
      return Value::Int(oid, ParseInteger(text, oid));
    case kRegclassOid:
      return Value::Int(oid, RegclassIn(text));
    case kRegtypeOid:
      return Value::Int(oid, RegtypeIn(text));
    case kRegprocOid:
      return Value::Int(oid, RegprocIn(text));
    case kRegnamespaceOid:
      return Value::Int(oid, RegnamespaceIn(text));
    case kPgLsnOid:
      return LsnValue(ParseLsn(text));
    case kUuidOid:
      return Value::Bytes(oid, ParseUuid(text));
    case kIntervalOid:
      return Value::Bytes(oid, EncodeInterval(ParseInterval(text)));
    case kTimeOid:
      return Value::Int(oid, ParseTime(text, typmod));
    case kTimeTzOid:
      return TimeTzValue(ParseTimeTz(text, typmod));
    case kByteaOid:
      return Value::Bytes(oid, ParseBytea(text));
    case kJsonOid:
      ValidateJson(text);
      return Value::Bytes(oid, std::string(text));
    case kJsonbOid:
      return JsonbValue(ParseJson(text, JsonParseOptions{}));
    case kJsonpathOid:
      return JsonpathValue(text);
    case kFloat4Oid:
    case kFloat8Oid:
      return Value::Float(oid, ParseFloat(text, oid));
    case kNumericOid:
      return Value::Bytes(oid, Numeric::Parse(text).ApplyTypmod(typmod).ToString());
    case kTextOid:
    case kUnknownOid:
      return Value::Bytes(oid, std::string(text));
    case kNameOid: {
      // name is limited to NAMEDATALEN-1 = 63 bytes; longer input is cut.
      std::string s(text.substr(0, 63));
      return Value::Bytes(oid, std::move(s));
    }
    case kVarcharOid:
    case kBpcharOid:
      return Value::Bytes(oid, ApplyCharTypmod(std::string(text), oid, typmod, false));
    case kDateOid:
      return Value::Int(oid, ParseDate(text));
    case kTimestampOid:
    case kTimestampTzOid:
      return Value::Int(oid, RoundTimestampPrecision(ParseTimestamp(text, oid), typmod));
    default:
      if (IsArrayType(oid)) return ParseArrayText(oid, typmod, text);
      if (const UserType* u = FindUserType(oid)) {
        if (u->typtype == 'e') return EnumInput(*u, text);
        int32_t base_typmod = typmod;
        const Oid base = DomainBaseType(oid, &base_typmod);
        if (base != oid) return InputValue(base, base_typmod, text);
      }
      throw DbError(sqlstate::kUndefinedObject,
                    "no input function for type " + FormatType(oid));
  }
}

void InputValueInto(Oid oid, int32_t typmod, std::string_view text, Value* out) {
  switch (oid) {
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid:
    case kDateOid:
    case kTextOid:
    case kVarcharOid:
    case kBpcharOid:
      break;
    default:
      *out = InputValue(oid, typmod, text);
      return;
  }
  // Integers and dates are parsed before *out changes.
  int64_t i = 0;
  if (oid == kDateOid) {
    i = ParseDate(text);
  } else if (oid != kTextOid && oid != kVarcharOid && oid != kBpcharOid) {
    i = ParseInteger(text, oid);
  }
  out->type = oid;
  out->is_null = false;
  if (oid == kTextOid || oid == kVarcharOid || oid == kBpcharOid) {
    out->i = 0;
    out->str.assign(text);
    if (oid != kTextOid) ApplyCharTypmodInPlace(&out->str, oid, typmod, false);
    return;
  }
  out->i = i;
  out->str.clear();
}

void AppendOutput(const Value& v, std::string* out) {
  switch (v.type) {
    case kBoolOid:
      out->push_back(v.b ? 't' : 'f');
      return;
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid:
    case kOidOid: {
      char buf[24];
      char* p = buf + sizeof buf;
      uint64_t mag = v.i < 0 ? 0 - static_cast<uint64_t>(v.i) : static_cast<uint64_t>(v.i);
      do {
        *--p = static_cast<char>('0' + mag % 10);
        mag /= 10;
      } while (mag);
      if (v.i < 0) *--p = '-';
      out->append(p, static_cast<size_t>(buf + sizeof buf - p));
      return;
    }
    case kFloat4Oid:
    case kFloat8Oid:
      AppendFloat(v.f, v.type, out);
      return;
    case kDateOid:
      AppendDate(v.i, out);
      return;
    case kTimestampOid:
    case kTimestampTzOid:
      AppendTimestamp(v.i, v.type, out);
      return;
    case kRegclassOid:
      AppendRegclass(static_cast<Oid>(v.i), out);
      return;
    case kRegtypeOid:
      AppendRegtype(static_cast<Oid>(v.i), out);
      return;
    case kRegprocOid:
      AppendRegproc(static_cast<Oid>(v.i), out);
      return;
    case kRegnamespaceOid:
      AppendRegnamespace(static_cast<Oid>(v.i), out);
      return;
    case kPgLsnOid:
      AppendLsn(LsnOf(v), out);
      return;
    case kUuidOid:
      AppendUuid(v.str, out);
      return;
    case kIntervalOid:
      AppendInterval(DecodeInterval(v.str), out);
      return;
    case kTimeOid:
      AppendTimeOfDay(v.i, out);
      return;
    case kTimeTzOid:
      AppendTimeTz(DecodeTimeTz(v.str), out);
      return;
    case kByteaOid:
      AppendByteaHex(v.str, out);
      return;
    case kVoidOid:
      return;
    default:
      if (IsArrayType(v.type)) {
        AppendArrayText(v, out);
        return;
      }
      if (MayBeUserType(v.type) && FindEnumType(v.type) != nullptr) {
        out->append(EnumLabelText(v.type, static_cast<Oid>(v.i)));
        return;
      }
      out->append(v.str);
      return;
  }
}

std::string OutputValue(const Value& v) {
  std::string s;
  AppendOutput(v, &s);
  return s;
}

}  // namespace hearth::types
