// server/executor/row_codec.cpp
//
// Principal entry points: EncodeValues, DecodeValues, AppendHashKey.
#include "executor/row_codec.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "utils/adt/interval.h"
#include "utils/adt/json.h"
#include "utils/adt/array.h"
#include "utils/adt/type_catalog.h"

namespace hearth::executor {

using types::Storage;
using types::Value;

namespace {

void PutVarint(uint64_t x, std::string* out) {
  while (x >= 0x80) {
    out->push_back(static_cast<char>((x & 0x7f) | 0x80));
    x >>= 7;
  }
  out->push_back(static_cast<char>(x));
}

uint64_t GetVarint(const char** p) {
  uint64_t x = 0;
  int shift = 0;
  for (;;) {
    auto b = static_cast<unsigned char>(*(*p)++);
    x |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return x;
    shift += 7;
  }
}

void Put8(int64_t x, std::string* out) {
  char buf[8];
  std::memcpy(buf, &x, 8);
  out->append(buf, 8);
}

int64_t Get8(const char** p) {
  int64_t x;
  std::memcpy(&x, *p, 8);
  *p += 8;
  return x;
}

}  // namespace

void EncodeValues(const Value* v, size_t n, std::string* out) {
  for (size_t k = 0; k < n; ++k) {
    const Value& x = v[k];
    PutVarint((static_cast<uint64_t>(x.type) << 1) | (x.is_null ? 1 : 0), out);
    if (x.is_null) continue;
    switch (types::StorageOf(x.type)) {
      case Storage::kBool:
        out->push_back(x.b ? 1 : 0);
        break;
      case Storage::kInt:
      case Storage::kFloat:
        Put8(x.i, out);
        break;
      case Storage::kBytes:
      case Storage::kNone:
        PutVarint(x.str.size(), out);
        out->append(x.str);
        break;
    }
  }
}

void DecodeValues(const char** p, Value* v, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    Value& x = v[k];
    uint64_t h = GetVarint(p);
    x.type = static_cast<types::Oid>(h >> 1);
    x.is_null = (h & 1) != 0;
    x.i = 0;
    x.str.clear();
    if (x.is_null) continue;
    switch (types::StorageOf(x.type)) {
      case Storage::kBool:
        x.b = *(*p)++ != 0;
        break;
      case Storage::kInt:
      case Storage::kFloat:
        x.i = Get8(p);
        break;
      case Storage::kBytes:
      case Storage::kNone: {
        size_t len = GetVarint(p);
        x.str.assign(*p, len);
        *p += len;
        break;
      }
    }
  }
}

int HashClassOf(types::Oid t) {
  switch (t) {
    case types::kInt2Oid:
    case types::kInt4Oid:
    case types::kInt8Oid:
    case types::kOidOid:
      return 1;
    case types::kFloat4Oid:
    case types::kFloat8Oid:
      return 2;
    case types::kNumericOid:
      return 3;
    case types::kTextOid:
    case types::kVarcharOid:
    case types::kNameOid:
      return 4;
    case types::kBpcharOid:
      return 5;
    case types::kBoolOid:
      return 6;
    case types::kDateOid:
      return 7;
    case types::kTimestampOid:
      return 8;
    case types::kUuidOid:
      return 10;
    case types::kByteaOid:
      return 11;
    case types::kIntervalOid:
      return 20;
    case types::kJsonbOid:
      return 21;
    case types::kTimeOid:
      return 22;
    case types::kTimeTzOid:  // equal values have equal bytes (time_adt.h)
      return 23;
    default:
      if (t == types::kTimestampTzOid) return 9;
      // Each array type is its own class (its elements' keys inside).
      if (types::IsArrayType(t)) return 1000 + static_cast<int>(t);
      return 0;
  }
}

void AppendHashKey(const Value& v, std::string* out) {
  if (v.is_null) {
    out->push_back('N');
    return;
  }
  switch (types::StorageOf(v.type)) {
    case Storage::kBool:
      out->push_back(v.b ? 'T' : 'F');
      return;
    case Storage::kInt:
      out->push_back('I');
      Put8(v.i, out);
      return;
    case Storage::kFloat: {
      double d = v.f;
      if (d == 0) d = 0;  // -0 = 0
      if (std::isnan(d)) d = std::nan("");
      int64_t bits;
      std::memcpy(&bits, &d, 8);
      out->push_back('D');
      Put8(bits, out);
      return;
    }
    case Storage::kBytes:
    case Storage::kNone:
      break;
  }
  if (types::IsArrayType(v.type)) {
    // Equal arrays must hash alike: shape, then each element's own key
    // (so '{1.0}' and '{1.00}' numeric arrays meet, as array_eq says).
    types::ArrayData a = types::DeconstructArray(v);
    out->push_back('A');
    for (size_t d = 0; d < a.dims.size(); ++d) {
      PutVarint(static_cast<uint32_t>(a.dims[d]), out);
      PutVarint(static_cast<uint32_t>(a.lbounds[d]), out);
    }
    out->push_back('|');
    for (const Value& e : a.elems) AppendHashKey(e, out);
    return;
  }
  std::string_view s = v.str;
  std::string span;
  if (v.type == types::kJsonbOid) {
    // Equal jsonb values ('1.0' = '1') have equal sort keys.
    span = types::JsonbSortKey(v);
    s = span;
  } else if (v.type == types::kIntervalOid) {
    // Equal spans hash alike ('1 day' = '24 hours').
    __int128 x = types::IntervalSpan(types::DecodeInterval(v.str));
    span.assign(reinterpret_cast<const char*>(&x), sizeof x);
    s = span;
  } else if (v.type == types::kBpcharOid) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  } else if (v.type == types::kNumericOid && s.find('.') != std::string_view::npos) {
    while (s.back() == '0') s.remove_suffix(1);
    if (s.back() == '.') s.remove_suffix(1);
  }
  out->push_back('S');
  PutVarint(s.size(), out);
  out->append(s);
}

size_t RowFootprint(const Value* v, size_t n) {
  size_t bytes = sizeof(std::vector<Value>) + n * sizeof(Value);
  for (size_t k = 0; k < n; ++k) {
    if (v[k].str.size() > 15) bytes += v[k].str.capacity() + 1;
  }
  return bytes;
}

}  // namespace hearth::executor
