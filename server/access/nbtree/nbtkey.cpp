// access/nbtree/nbtkey.cpp
//
// The order-preserving key encoding (layout in nbtree_internal.h and
// README.md) and the key text of unique-violation details. Pure functions.
// Principal entry points: EncodeKey, AppendTid, DecodeTid, HasNullIn, FormatKeyDetail.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "access/nbtree/nbtree_internal.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/interval.h"
#include "utils/adt/time_adt.h"
#include "utils/adt/json.h"
#include "utils/adt/sort_key.h"
#include "utils/adt/array.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::nbtree {
namespace {

using types::Value;

// kInterval: the 128-bit span (interval.h), so equal spans are equal keys.
// kJsonb: the jsonb sort key (json.h) written as a string.
// kTimeTz: the instant, then the zone (timetz_cmp), 12 bytes.
// kEnum: the label's enumsortorder as a float key (pg_enum order, not oid order).
enum class Family { kBool, kInt, kFloat, kNumeric, kString, kBpchar, kInterval, kArray, kJsonb, kTimeTz, kEnum };

Family FamilyOf(types::Oid t) {
  switch (t) {
    case types::kBoolOid: return Family::kBool;
    case types::kInt2Oid:
    case types::kInt4Oid:
    case types::kInt8Oid:
    case types::kOidOid:
    case types::kRegclassOid:
    case types::kRegtypeOid:
    case types::kRegprocOid:
    case types::kRegnamespaceOid:
    case types::kDateOid:
    case types::kTimeOid:
    case types::kTimestampOid:
    case types::kTimestampTzOid: return Family::kInt;
    case types::kFloat4Oid:
    case types::kFloat8Oid: return Family::kFloat;
    case types::kNumericOid: return Family::kNumeric;
    case types::kTextOid:
    case types::kVarcharOid:
    case types::kNameOid:
    case types::kUnknownOid:
    case types::kUuidOid:
    case types::kByteaOid: return Family::kString;  // uuid: 16 bytes, memcmp order
    case types::kBpcharOid: return Family::kBpchar;
    case types::kIntervalOid: return Family::kInterval;
    case types::kTimeTzOid: return Family::kTimeTz;
    case types::kJsonbOid: return Family::kJsonb;
    default:
      if (types::IsArrayType(t)) return Family::kArray;
      if (types::FindEnumType(t) != nullptr) return Family::kEnum;
      throw std::invalid_argument("nbtree: type " + std::to_string(t) + " has no btree ordering");
  }
}

void PutBigEndian(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void PutDouble(double d, std::string* out) {
  uint64_t bits;
  if (std::isnan(d)) {
    bits = 0xFFF8000000000000ull;  // above +inf after the transform; all NaNs equal
  } else {
    if (d == 0) d = 0;  // -0 == +0
    bits = std::bit_cast<uint64_t>(d);
    bits = (bits & 0x8000000000000000ull) ? ~bits : (bits | 0x8000000000000000ull);
  }
  PutBigEndian(bits, 8, out);
}


double AsDouble(const Value& v) {
  if (FamilyOf(v.type) == Family::kInt) return static_cast<double>(v.i);
  if (FamilyOf(v.type) == Family::kFloat) return v.f;
  throw std::invalid_argument("nbtree: value does not fit a float key column");
}

void EncodeValue(const KeyColumn& col, const Value& v, std::string* out);

// An array in btarraycmp's order: each element as an ascending NULLS LAST
// key (0x01 + value, or 0x02 for NULL), then 0x00 (so a prefix sorts
// first), then the dimension count, lengths and lower bounds.
void PutArray(const Value& v, std::string* out) {
  types::ArrayData a = types::DeconstructArray(v);
  const KeyColumn elem = KeyColumn::Asc(a.elem_type);
  for (const Value& e : a.elems) EncodeValue(elem, e, out);
  out->push_back('\0');
  out->push_back(static_cast<char>(a.ndim()));
  for (size_t d = 0; d < a.dims.size(); ++d) {
    PutBigEndian(static_cast<uint32_t>(a.dims[d]) ^ 0x80000000u, 4, out);
    PutBigEndian(static_cast<uint32_t>(a.lbounds[d]) ^ 0x80000000u, 4, out);
  }
}

void EncodeValue(const KeyColumn& col, const Value& v, std::string* out) {
  if (v.is_null) {
    out->push_back(col.nulls_first ? '\x00' : '\x02');
    return;
  }
  out->push_back('\x01');
  size_t start = out->size();
  Family f = FamilyOf(col.type);
  Family vf = FamilyOf(v.type);
  switch (f) {
    case Family::kBool:
      if (vf != Family::kBool) throw std::invalid_argument("nbtree: value does not fit a bool key column");
      out->push_back(v.b ? '\x01' : '\x00');
      break;
    case Family::kInt:
      if (vf != Family::kInt) throw std::invalid_argument("nbtree: value does not fit an integer key column");
      PutBigEndian(static_cast<uint64_t>(v.i) ^ 0x8000000000000000ull, 8, out);
      break;
    case Family::kFloat: PutDouble(AsDouble(v), out); break;
    case Family::kNumeric:
      if (vf == Family::kInt) {
        types::AppendNumericSortKey(std::to_string(v.i), out);
      } else if (vf == Family::kNumeric) {
        types::AppendNumericSortKey(v.str, out);
      } else {
        throw std::invalid_argument("nbtree: value does not fit a numeric key column");
      }
      break;
    case Family::kInterval: {
      if (vf != Family::kInterval) throw std::invalid_argument("nbtree: value does not fit an interval key column");
      auto span = static_cast<unsigned __int128>(types::IntervalSpan(types::DecodeInterval(v.str)));
      span ^= static_cast<unsigned __int128>(1) << 127;
      PutBigEndian(static_cast<uint64_t>(span >> 64), 8, out);
      PutBigEndian(static_cast<uint64_t>(span), 8, out);
      break;
    }
    case Family::kTimeTz: {
      if (vf != Family::kTimeTz) throw std::invalid_argument("nbtree: value does not fit a timetz key column");
      types::TimeTz t = types::DecodeTimeTz(v.str);
      PutBigEndian(static_cast<uint64_t>(t.time + t.zone * types::kUsecsPerSec) ^ 0x8000000000000000ull, 8, out);
      PutBigEndian(static_cast<uint32_t>(t.zone) ^ 0x80000000u, 4, out);
      break;
    }
    case Family::kString:
    case Family::kBpchar: {
      if (vf != Family::kString && vf != Family::kBpchar)
        throw std::invalid_argument("nbtree: value does not fit a text key column");
      std::string_view s = v.str;
      if (f == Family::kBpchar)
        while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
      types::AppendStringSortKey(s, out);
      break;
    }
    case Family::kJsonb:
      if (vf != Family::kJsonb) throw std::invalid_argument("nbtree: value does not fit a jsonb key column");
      types::AppendStringSortKey(types::JsonbSortKey(v), out);
      break;
    case Family::kArray:
      if (v.type != col.type) throw std::invalid_argument("nbtree: value does not fit an array key column");
      PutArray(v, out);
      break;
    case Family::kEnum:
      if (v.type != col.type) throw std::invalid_argument("nbtree: value does not fit an enum key column");
      PutDouble(types::EnumSortOrder(static_cast<types::Oid>(v.i)), out);
      break;
  }
  if (col.descending)
    for (size_t k = start; k < out->size(); ++k) (*out)[k] = static_cast<char>(~(*out)[k]);
}

// Proleptic Gregorian date from days since 2000-01-01.
void CivilFromDays(int64_t days2000, int64_t* y, unsigned* m, unsigned* d) {
  int64_t z = days2000 + 10957 + 719468;  // days since 0000-03-01
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = static_cast<unsigned>(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = static_cast<int64_t>(yoe) + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yy + (*m <= 2 ? 1 : 0);
}

std::string FormatDate(int64_t days) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[48];
  if (y > 0) {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  } else {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u BC", static_cast<long long>(1 - y), m, d);
  }
  return buf;
}

std::string FormatValue(const Value& v) {
  if (v.is_null) return "null";
  switch (v.type) {
    case types::kBoolOid: return v.b ? "t" : "f";
    case types::kDateOid: return FormatDate(v.i);
    case types::kTimestampOid:
    case types::kTimestampTzOid: {
      int64_t days = v.i / types::kUsecsPerDay, rem = v.i % types::kUsecsPerDay;
      if (rem < 0) {
        rem += types::kUsecsPerDay;
        --days;
      }
      int64_t secs = rem / types::kUsecsPerSec, us = rem % types::kUsecsPerSec;
      char buf[64];
      std::snprintf(buf, sizeof buf, " %02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
                    static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
      std::string out = FormatDate(days);
      std::string date_part = out, suffix;
      if (out.size() > 3 && out.compare(out.size() - 3, 3, " BC") == 0) {
        date_part = out.substr(0, out.size() - 3);
        suffix = " BC";
      }
      std::string r = date_part + buf;
      if (us != 0) {
        char f[16];
        std::snprintf(f, sizeof f, ".%06lld", static_cast<long long>(us));
        std::string fs = f;
        while (fs.back() == '0') fs.pop_back();
        r += fs;
      }
      return r + suffix;
    }
    case types::kFloat4Oid:
    case types::kFloat8Oid: {
      if (std::isnan(v.f)) return "NaN";
      if (std::isinf(v.f)) return v.f > 0 ? "Infinity" : "-Infinity";
      char buf[64];
      auto r = v.type == types::kFloat4Oid ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v.f))
                                           : std::to_chars(buf, buf + sizeof buf, v.f);
      return std::string(buf, r.ptr);
    }
    case types::kUuidOid:
    case types::kByteaOid: {  // uuid 8-4-4-4-12, bytea \x followed by hex
      static const char kHex[] = "0123456789abcdef";
      bool uuid = v.type == types::kUuidOid;
      std::string r = uuid ? "" : "\\x";
      for (size_t b = 0; b < v.str.size(); ++b) {
        if (uuid && (b == 4 || b == 6 || b == 8 || b == 10)) r += '-';
        r += kHex[static_cast<unsigned char>(v.str[b]) >> 4];
        r += kHex[static_cast<unsigned char>(v.str[b]) & 0xF];
      }
      return r;
    }
    case types::kIntervalOid: {
      std::string r;
      types::AppendInterval(types::DecodeInterval(v.str), &r);
      return r;
    }
    case types::kTimeOid:
    case types::kTimeTzOid: return types::OutputValue(v);
    default: break;
  }
  if (FamilyOf(v.type) == Family::kInt) return std::to_string(v.i);
  if (FamilyOf(v.type) == Family::kArray || FamilyOf(v.type) == Family::kJsonb || FamilyOf(v.type) == Family::kEnum) {
    return types::OutputValue(v);
  }
  return v.str;
}

}  // namespace

void EncodeKey(const IndexDesc& index, std::span<const types::Value> key, std::string* out) {
  if (key.size() > index.cols.size()) throw std::invalid_argument("nbtree: more key values than index columns");
  for (size_t i = 0; i < key.size(); ++i) EncodeValue(index.cols[i], key[i], out);
}

void AppendTid(ItemPointer tid, std::string* out) {
  PutBigEndian(tid.block, 4, out);
  PutBigEndian(tid.offset, 2, out);
}

ItemPointer DecodeTid(std::span<const char> entry) {
  const auto* p = reinterpret_cast<const unsigned char*>(entry.data() + entry.size() - kTidBytes);
  ItemPointer t;
  t.block = (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
  t.offset = static_cast<uint16_t>((p[4] << 8) | p[5]);
  return t;
}

// Position after the payload (the bytes after the 0x01 marker) of a key
// value of `type` starting at pos; `at` reads a byte with the column's
// descending flip undone (0 past the end).
template <typename At>
size_t SkipPayload(types::Oid type, const At& at, size_t n, size_t pos) {
  switch (FamilyOf(type)) {
    case Family::kBool: pos += 1; break;
    case Family::kInt:
    case Family::kFloat:
    case Family::kEnum: pos += 8; break;
    case Family::kInterval: pos += 16; break;
    case Family::kTimeTz: pos += 12; break;
    case Family::kNumeric: {
      unsigned char cls = at(pos++);
      if (cls == 0 || cls == 2) {
        pos += 4;
        unsigned char term = cls == 0 ? 0xFF : 0x00;
        while (pos < n && at(pos) != term) ++pos;
        ++pos;
      }
      break;
    }
    case Family::kString:
    case Family::kBpchar:
    case Family::kJsonb:
      while (pos < n) {
        if (at(pos) == 0) {
          bool end = at(pos + 1) == 0;
          pos += 2;
          if (end) break;
        } else {
          ++pos;
        }
      }
      break;
    case Family::kArray: {
      const types::Oid elem = types::ElementTypeOf(type);
      while (pos < n && at(pos) != 0) {
        if (at(pos++) == 0x01) pos = SkipPayload(elem, at, n, pos);
      }
      const size_t ndim = at(pos + 1);
      pos += 2 + 8 * ndim;
      break;
    }
  }
  return pos;
}

bool HasNullIn(const IndexDesc& index, std::span<const char> entry, const std::vector<bool>& must_be_non_null) {
  const auto* d = reinterpret_cast<const unsigned char*>(entry.data());
  size_t n = entry.size(), pos = 0;
  for (size_t c = 0; c < must_be_non_null.size() && c < index.cols.size() && pos < n; ++c) {
    const KeyColumn& col = index.cols[c];
    unsigned char marker = d[pos++];
    if (marker != 0x01) {
      if (must_be_non_null[c]) return true;
      continue;
    }
    const unsigned char flip = col.descending ? 0xFF : 0x00;
    auto at = [&](size_t k) -> unsigned char { return k < n ? static_cast<unsigned char>(d[k] ^ flip) : 0; };
    pos = SkipPayload(col.type, at, n, pos);
  }
  return false;
}

std::string FormatKeyDetail(const IndexDesc& index, std::span<const types::Value> key) {
  std::string cols, vals;
  for (size_t i = 0; i < key.size(); ++i) {
    if (i > 0) {
      cols += ", ";
      vals += ", ";
    }
    cols += i < index.cols.size() ? index.cols[i].name : "";
    vals += FormatValue(key[i]);
  }
  return "Key (" + cols + ")=(" + vals + ") already exists.";
}

void ThrowEntryTooLarge(size_t size, const IndexDesc& index) {
  throw DbError(sqlstate::kProgramLimitExceeded, "index row size " + std::to_string(size) +
                                                     " exceeds btree version 4 maximum " +
                                                     std::to_string(kMaxEntrySize) + " for index \"" + index.name + "\"")
      .WithHint("Values larger than 1/3 of a buffer page cannot be indexed.\n"
                "Consider a function index of an MD5 hash of the value, or use full text indexing.");
}

}  // namespace hearth::nbtree
