// server/utils/adt/binary_io.cpp
//
// Principal entry points: AppendBinary, ReceiveBinary.
#include "utils/adt/binary_io.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/array_io.h"
#include "utils/adt/json.h"
#include "utils/adt/text_io.h"
#include "utils/adt/numeric.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/time_adt.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::types {
namespace {

void PutBE(uint64_t v, int bytes, std::string* out) {
  for (int k = bytes - 1; k >= 0; --k) out->push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
}

uint64_t GetBE(std::string_view b, size_t off, int bytes) {
  uint64_t v = 0;
  for (int k = 0; k < bytes; ++k) v = (v << 8) | static_cast<unsigned char>(b[off + static_cast<size_t>(k)]);
  return v;
}

[[noreturn]] void Insufficient() {
  throw DbError(sqlstate::kInvalidBinaryRepresentation, "insufficient data left in message");
}

[[noreturn]] void BadFormat() {
  throw DbError(sqlstate::kInvalidBinaryRepresentation, "incorrect binary data format");
}

void ExpectSize(std::string_view b, size_t n) {
  if (b.size() < n) Insufficient();
  if (b.size() > n) BadFormat();
}

constexpr uint16_t kNumericPos = 0x0000;
constexpr uint16_t kNumericNeg = 0x4000;
constexpr uint16_t kNumericNaN = 0xC000;

void AppendNumeric(const Numeric& n, std::string* out) {
  if (n.is_nan()) {
    PutBE(0, 2, out);
    PutBE(0, 2, out);
    PutBE(kNumericNaN, 2, out);
    PutBE(0, 2, out);
    return;
  }
  // Split the digits at the decimal point and pad both sides to groups of 4.
  std::string d = n.digits();
  int scale = n.scale();
  if (d.size() < static_cast<size_t>(scale)) d.insert(0, static_cast<size_t>(scale) - d.size(), '0');
  std::string ip = d.substr(0, d.size() - static_cast<size_t>(scale));
  std::string fp = d.substr(d.size() - static_cast<size_t>(scale));
  if (ip.size() % 4) ip.insert(0, 4 - ip.size() % 4, '0');
  if (fp.size() % 4) fp.append(4 - fp.size() % 4, '0');
  std::string all = ip + fp;
  int weight = static_cast<int>(ip.size() / 4) - 1;
  std::vector<uint16_t> groups;
  for (size_t i = 0; i < all.size(); i += 4) {
    groups.push_back(static_cast<uint16_t>(std::stoi(all.substr(i, 4))));
  }
  size_t lead = 0;
  while (lead < groups.size() && groups[lead] == 0) ++lead;
  size_t end = groups.size();
  while (end > lead && groups[end - 1] == 0) --end;
  weight -= static_cast<int>(lead);
  if (lead == end) weight = 0;
  PutBE(end - lead, 2, out);
  PutBE(static_cast<uint16_t>(static_cast<int16_t>(weight)), 2, out);
  PutBE(n.is_negative() ? kNumericNeg : kNumericPos, 2, out);
  PutBE(static_cast<uint16_t>(scale), 2, out);
  for (size_t i = lead; i < end; ++i) PutBE(groups[i], 2, out);
}

Numeric ReceiveNumeric(std::string_view b) {
  if (b.size() < 8) Insufficient();
  size_t ndigits = GetBE(b, 0, 2);
  int weight = static_cast<int16_t>(GetBE(b, 2, 2));
  uint16_t sign = static_cast<uint16_t>(GetBE(b, 4, 2));
  int dscale = static_cast<int>(GetBE(b, 6, 2));
  ExpectSize(b, 8 + 2 * ndigits);
  if (sign == kNumericNaN) return Numeric::NaN();
  if (sign != kNumericPos && sign != kNumericNeg) {
    throw DbError(sqlstate::kInvalidBinaryRepresentation, "invalid sign in external \"numeric\" value");
  }
  std::string digits;
  for (size_t i = 0; i < ndigits; ++i) {
    uint64_t g = GetBE(b, 8 + 2 * i, 2);
    if (g >= 10000) {
      throw DbError(sqlstate::kInvalidBinaryRepresentation, "invalid digit in external \"numeric\" value");
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04u", static_cast<unsigned>(g));
    digits += buf;
  }
  int exp10 = 4 * (weight - static_cast<int>(ndigits) + 1);
  int frac = 0;
  if (exp10 >= 0) {
    if (!digits.empty()) digits.append(static_cast<size_t>(exp10), '0');
  } else {
    frac = -exp10;
  }
  return Numeric::FromParts(sign == kNumericNeg, digits, frac).Round(dscale);
}

}  // namespace

void AppendBinary(const Value& v, std::string* out) {
  switch (v.type) {
    case kBoolOid:
      out->push_back(v.b ? 1 : 0);
      return;
    case kInt2Oid:
      PutBE(static_cast<uint16_t>(v.i), 2, out);
      return;
    case kInt4Oid:
    case kOidOid:
    case kRegclassOid:
    case kRegtypeOid:
    case kRegprocOid:
    case kRegnamespaceOid:
    case kDateOid:
      PutBE(static_cast<uint32_t>(v.i), 4, out);
      return;
    case kInt8Oid:
    case kPgLsnOid:
    case kTimeOid:
    case kTimestampOid:
    case kTimestampTzOid:
      PutBE(static_cast<uint64_t>(v.i), 8, out);
      return;
    case kFloat4Oid: {
      float f = static_cast<float>(v.f);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      PutBE(bits, 4, out);
      return;
    }
    case kFloat8Oid: {
      uint64_t bits;
      std::memcpy(&bits, &v.f, 8);
      PutBE(bits, 8, out);
      return;
    }
    case kNumericOid:
      AppendNumeric(Numeric::Parse(v.str), out);
      return;
    case kTextOid:
    case kVarcharOid:
    case kBpcharOid:
    case kNameOid:
    case kUnknownOid:
    case kUuidOid:
    case kIntervalOid:
    case kTimeTzOid:
    case kByteaOid:
    case kJsonOid:
      out->append(v.str);
      return;
    case kJsonbOid:
    case kJsonpathOid:  // version 1 + text, as jsonb
      AppendJsonbBinary(v, out);
      return;
    default:
      if (IsArrayType(v.type)) {
        AppendArrayBinary(v, out);
        return;
      }
      if (FindEnumType(v.type) != nullptr) {  // enum_send: the label's text
        out->append(EnumLabelText(v.type, static_cast<Oid>(v.i)));
        return;
      }
      throw DbError(sqlstate::kFeatureNotSupported,
                    "no binary output function available for type " + FormatType(v.type));
  }
}

Value ReceiveBinary(Oid oid, int32_t typmod, std::string_view b) {
  switch (oid) {
    case kBoolOid:
      ExpectSize(b, 1);
      return Value::Bool(b[0] != 0);
    case kInt2Oid:
      ExpectSize(b, 2);
      return Value::Int(oid, static_cast<int16_t>(GetBE(b, 0, 2)));
    case kInt4Oid:
    case kDateOid:
      ExpectSize(b, 4);
      return Value::Int(oid, static_cast<int32_t>(GetBE(b, 0, 4)));
    case kOidOid:
    case kRegclassOid:
    case kRegtypeOid:
    case kRegprocOid:
    case kRegnamespaceOid:
      ExpectSize(b, 4);
      return Value::Int(oid, static_cast<int64_t>(GetBE(b, 0, 4)));
    case kInt8Oid:
    case kPgLsnOid:
    case kTimestampOid:
    case kTimestampTzOid:
      ExpectSize(b, 8);
      return Value::Int(oid, static_cast<int64_t>(GetBE(b, 0, 8)));
    case kFloat4Oid: {
      ExpectSize(b, 4);
      uint32_t bits = static_cast<uint32_t>(GetBE(b, 0, 4));
      float f;
      std::memcpy(&f, &bits, 4);
      return Value::Float(oid, f);
    }
    case kFloat8Oid: {
      ExpectSize(b, 8);
      uint64_t bits = GetBE(b, 0, 8);
      double d;
      std::memcpy(&d, &bits, 8);
      return Value::Float(oid, d);
    }
    case kNumericOid:
      return Value::Bytes(oid, ReceiveNumeric(b).ApplyTypmod(typmod).ToString());
    case kTextOid:
    case kNameOid:
    case kUnknownOid:
    case kByteaOid:
      return Value::Bytes(oid, std::string(b));
    case kJsonOid:
      return InputValue(oid, typmod, b);
    case kJsonbOid:
      return ReceiveJsonbBinary(b);
    case kJsonpathOid:
      if (b.empty() || b[0] != 1)
        throw DbError(sqlstate::kInternalError, "unsupported jsonpath version number " +
                                                    std::to_string(b.empty() ? 0 : static_cast<int>(b[0])));
      return InputValue(oid, typmod, b.substr(1));
    case kUuidOid:
    case kIntervalOid:
      ExpectSize(b, 16);
      return Value::Bytes(oid, std::string(b));
    case kTimeOid: {  // time_recv: 22008 outside 00:00..24:00
      ExpectSize(b, 8);
      auto t = static_cast<int64_t>(GetBE(b, 0, 8));
      if (t < 0 || t > kUsecsPerDay) throw DbError(sqlstate::kDatetimeFieldOverflow, "time out of range");
      return Value::Int(oid, RoundTimePrecision(t, typmod));
    }
    case kTimeTzOid: {  // timetz_recv
      ExpectSize(b, 12);
      TimeTz t = DecodeTimeTz(b);
      if (t.time < 0 || t.time > kUsecsPerDay) throw DbError(sqlstate::kDatetimeFieldOverflow, "time out of range");
      if (t.zone <= -16 * 3600 || t.zone >= 16 * 3600) {  // PostgreSQL's TZDISP_LIMIT
        throw DbError("22009", "time zone displacement out of range");
      }
      t.time = RoundTimePrecision(t.time, typmod);
      return TimeTzValue(t);
    }
    case kVarcharOid:
    case kBpcharOid:
      return Value::Bytes(oid, ApplyCharTypmod(std::string(b), oid, typmod, false));
    default:
      if (IsArrayType(oid)) return ReceiveArrayBinary(oid, typmod, b);
      if (const UserType* u = FindUserType(oid)) {
        if (u->typtype == 'e') return EnumInput(*u, b);
        int32_t base_typmod = typmod;
        const Oid base = DomainBaseType(oid, &base_typmod);
        if (base != oid) return ReceiveBinary(base, base_typmod, b);
      }
      throw DbError(sqlstate::kFeatureNotSupported,
                    "no binary input function available for type " + FormatType(oid));
  }
}

}  // namespace hearth::types
