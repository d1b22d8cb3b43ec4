// access/heap/heap_tuple.cpp
//
// Principal entry points: ColumnDesc::ForType, HeapComputeTupleSize,
// HeapFormTuple, HeapDeformTuple. Attribute offsets are computed from the
// tuple start, which is 8-aligned on the page, so "aligned from the tuple
// start" is "aligned in memory" and fixed-width values can be read with
// memcpy at their natural alignment.
#include "access/heap/heap_tuple.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "access/heap/toast_format.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/user_types.h"

namespace hearth::heap {

namespace {

using types::Value;

constexpr size_t AlignUp(size_t off, size_t a) { return (off + a - 1) & ~(a - 1); }

// On-page width of a non-null attribute (excluding alignment padding);
// `enc`: the attribute's toasted form (header word included) or null.
size_t AttrWidth(const ColumnDesc& c, const Value& v, const std::string* enc = nullptr) {
  if (c.kind == AttrKind::kVarlena) return enc != nullptr ? enc->size() : 4 + v.str.size();
  return static_cast<size_t>(c.typlen);
}

const std::string* Encoded(std::span<const std::string> enc, int i) {
  if (enc.empty()) return nullptr;
  const std::string& e = enc[static_cast<size_t>(i)];
  return e.empty() ? nullptr : &e;
}

template <typename T>
void Put(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}
template <typename T>
T Get(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

[[noreturn]] void ThrowCorrupt(size_t need, size_t len) {
  throw DbError(sqlstate::kDataCorrupted, "heap tuple attribute extends past the tuple end (" + std::to_string(need) +
                                              " > " + std::to_string(len) + " bytes)");
}

}  // namespace

ColumnDesc ColumnDesc::ForType(types::Oid type, int32_t typmod) {
  ColumnDesc c;
  c.type = type;
  c.typmod = typmod;
  auto fixed = [&c](int16_t len, uint8_t align, AttrKind kind) {
    c.typlen = len;
    c.align = align;
    c.kind = kind;
  };
  switch (type) {
    case types::kBoolOid: fixed(1, 1, AttrKind::kBool); break;
    case types::kInt2Oid: fixed(2, 2, AttrKind::kInt2); break;
    case types::kInt4Oid:
    case types::kDateOid:
    case types::kOidOid:
    case types::kRegclassOid:
    case types::kRegtypeOid:
    case types::kRegprocOid:
    case types::kRegnamespaceOid: fixed(4, 4, AttrKind::kInt4); break;
    case types::kInt8Oid:
    case types::kTimeOid:
    case types::kTimestampOid:
    case types::kTimestampTzOid: fixed(8, 8, AttrKind::kInt8); break;
    case types::kFloat4Oid: fixed(4, 4, AttrKind::kFloat4); break;
    case types::kFloat8Oid: fixed(8, 8, AttrKind::kFloat8); break;
    case types::kNameOid: fixed(64, 1, AttrKind::kFixedBytes); break;
    default:
      if (types::MayBeUserType(type)) {
        // An enum is its label's oid; a domain is stored as its base type.
        if (types::FindEnumType(type) != nullptr) {
          fixed(4, 4, AttrKind::kInt4);
          break;
        }
        int32_t base_typmod = typmod;
        const types::Oid base = types::DomainBaseType(type, &base_typmod);
        if (base != type) return ForType(base, base_typmod);
      }
      fixed(-1, 4, AttrKind::kVarlena);
      break;
  }
  return c;
}

TupleDesc TupleDesc::FromTypes(std::initializer_list<types::Oid> oids) {
  std::vector<ColumnDesc> cols;
  cols.reserve(oids.size());
  for (types::Oid o : oids) cols.push_back(ColumnDesc::ForType(o));
  return TupleDesc(std::move(cols));
}

size_t HeapComputeTupleSize(const TupleDesc& desc, const Row& row) { return HeapComputeTupleSize(desc, row, {}); }

size_t HeapComputeTupleSize(const TupleDesc& desc, const Row& row, std::span<const std::string> enc) {
  const int natts = desc.natts();
  bool has_nulls = false;
  for (int i = 0; i < natts; ++i) has_nulls |= row[static_cast<size_t>(i)].is_null;
  size_t off = access::HeapTupleHeaderSize(natts, has_nulls);
  for (int i = 0; i < natts; ++i) {
    const Value& v = row[static_cast<size_t>(i)];
    if (v.is_null) continue;
    const ColumnDesc& c = desc.col(i);
    off = AlignUp(off, c.align) + AttrWidth(c, v, Encoded(enc, i));
  }
  return off;
}

void HeapFormTuple(const TupleDesc& desc, const Row& row, std::vector<char>* out) { HeapFormTuple(desc, row, {}, out); }

void HeapFormTuple(const TupleDesc& desc, const Row& row, std::span<const std::string> enc, std::vector<char>* out) {
  const int natts = desc.natts();
  if (static_cast<int>(row.size()) != natts) {
    throw std::invalid_argument("HeapFormTuple: row has " + std::to_string(row.size()) + " values, descriptor " +
                                std::to_string(natts));
  }
  const size_t len = HeapComputeTupleSize(desc, row, enc);
  if (len > kMaxHeapTupleSize) {
    throw DbError(sqlstate::kProgramLimitExceeded, "row is too big: size " + std::to_string(len) +
                                                       ", maximum size " + std::to_string(kMaxHeapTupleSize));
  }
  out->resize(len);
  char* base = out->data();
  std::memset(base, 0, len);  // padding and header fields start as zero
  auto* tup = reinterpret_cast<HeapTupleHeaderData*>(base);
  bool has_nulls = false;
  bool has_var = false;
  bool has_external = false;
  for (int i = 0; i < natts; ++i) {
    has_nulls |= row[static_cast<size_t>(i)].is_null;
    has_var |= desc.col(i).kind == AttrKind::kVarlena;
    const std::string* e = Encoded(enc, i);
    has_external |= e != nullptr && (Get<uint32_t>(e->data()) & toast::kVarlenaExternal) != 0;
  }
  const size_t hoff = access::HeapTupleHeaderSize(natts, has_nulls);
  tup->set_natts(natts);
  tup->t_hoff = static_cast<uint8_t>(hoff);
  tup->t_infomask = static_cast<uint16_t>((has_nulls ? access::kHeapHasNull : 0) |
                                          (has_var ? access::kHeapHasVarWidth : 0) |
                                          (has_external ? access::kHeapHasExternal : 0));
  uint8_t* bits = tup->null_bitmap();
  size_t off = hoff;
  for (int i = 0; i < natts; ++i) {
    const Value& v = row[static_cast<size_t>(i)];
    if (v.is_null) continue;  // bitmap bit stays 0 = null
    if (has_nulls) bits[i >> 3] = static_cast<uint8_t>(bits[i >> 3] | (1u << (i & 7)));
    const ColumnDesc& c = desc.col(i);
    off = AlignUp(off, c.align);
    char* p = base + off;
    if (const std::string* e = Encoded(enc, i)) {  // toasted: its bytes as they are
      std::memcpy(p, e->data(), e->size());
      off += e->size();
      continue;
    }
    switch (c.kind) {
      case AttrKind::kBool: *p = v.b ? 1 : 0; break;
      case AttrKind::kInt2: Put<int16_t>(p, static_cast<int16_t>(v.i)); break;
      case AttrKind::kInt4: Put<int32_t>(p, static_cast<int32_t>(v.i)); break;
      case AttrKind::kInt8: Put<int64_t>(p, v.i); break;
      case AttrKind::kFloat4: Put<float>(p, static_cast<float>(v.f)); break;
      case AttrKind::kFloat8: Put<double>(p, v.f); break;
      case AttrKind::kFixedBytes:
        std::memcpy(p, v.str.data(), std::min(v.str.size(), static_cast<size_t>(c.typlen)));
        break;
      case AttrKind::kVarlena:
        Put<uint32_t>(p, static_cast<uint32_t>(4 + v.str.size()));
        if (!v.str.empty()) std::memcpy(p + 4, v.str.data(), v.str.size());
        break;
    }
    off += AttrWidth(c, v);
  }
}

bool HeapDeformTuple(const TupleDesc& desc, const HeapTupleHeaderData* tup, size_t len, Row* out) {
  const int natts = desc.natts();
  bool pending = false;
  if (static_cast<int>(out->size()) != natts) out->resize(static_cast<size_t>(natts));
  const int tup_natts = tup->natts();
  const char* base = reinterpret_cast<const char*>(tup);
  size_t off = tup->t_hoff;
  for (int i = 0; i < natts; ++i) {
    Value& v = (*out)[static_cast<size_t>(i)];
    const ColumnDesc& c = desc.col(i);
    v.type = c.type;
    if (i >= tup_natts || tup->attr_is_null(i)) {
      v.is_null = true;
      v.i = 0;
      v.str.clear();
      continue;
    }
    v.is_null = false;
    off = AlignUp(off, c.align);
    const char* p = base + off;
    if (c.kind == AttrKind::kVarlena) {
      if (off + 4 > len) ThrowCorrupt(off + 4, len);
      const uint32_t word = Get<uint32_t>(p);
      const uint32_t total = word & toast::kVarlenaLengthMask;
      if (total < 4 || off + total > len) ThrowCorrupt(off + total, len);
      if ((word & toast::kVarlenaFlagMask) == 0) {
        v.i = 0;
        v.str.assign(p + 4, total - 4);
      } else if ((word & toast::kVarlenaExternal) != 0) {
        v.i = static_cast<int64_t>(toast::kTagPendingExternal);  // the reader fetches it (DetoastRow)
        v.str.assign(p + 4, total - 4);
        pending = true;
      } else {
        toast::DecompressAttr(p, total, &v.str);
        v.i = static_cast<int64_t>(toast::kTagCompressed | total);
      }
      off += total;
      continue;
    }
    const size_t width = static_cast<size_t>(c.typlen);
    if (off + width > len) ThrowCorrupt(off + width, len);
    switch (c.kind) {
      case AttrKind::kBool:
        v.i = 0;
        v.b = *p != 0;
        break;
      case AttrKind::kInt2: v.i = Get<int16_t>(p); break;
      case AttrKind::kInt4: v.i = Get<int32_t>(p); break;
      case AttrKind::kInt8: v.i = Get<int64_t>(p); break;
      case AttrKind::kFloat4: v.f = Get<float>(p); break;
      case AttrKind::kFloat8: v.f = Get<double>(p); break;
      case AttrKind::kFixedBytes: {
        size_t n = width;
        while (n > 0 && p[n - 1] == '\0') --n;
        v.i = 0;
        v.str.assign(p, n);
        break;
      }
      case AttrKind::kVarlena: break;  // handled above
    }
    if (c.kind != AttrKind::kFixedBytes) v.str.clear();
    off += width;
  }
  return pending;
}

namespace {

// The on-page width of the attribute of column `c` at `off` (a varlena's
// word included), checked against the tuple length.
size_t StoredWidth(const ColumnDesc& c, const char* base, size_t off, size_t len) {
  size_t width = static_cast<size_t>(c.typlen);
  if (c.kind == AttrKind::kVarlena) {
    if (off + 4 > len) ThrowCorrupt(off + 4, len);
    width = Get<uint32_t>(base + off) & toast::kVarlenaLengthMask;
  }
  if (off + width > len) ThrowCorrupt(off + width, len);
  return width;
}

// The bytes of attribute `att` in `tup` (empty span + *is_null for NULL).
std::span<const char> AttrBytes(const TupleDesc& desc, const HeapTupleHeaderData* tup, size_t len, int att,
                                bool* is_null) {
  const char* base = reinterpret_cast<const char*>(tup);
  size_t off = tup->t_hoff;
  *is_null = att >= tup->natts() || tup->attr_is_null(att);
  if (*is_null) return {};
  for (int i = 0;; ++i) {
    const ColumnDesc& c = desc.col(i);
    if (tup->attr_is_null(i)) continue;
    off = AlignUp(off, c.align);
    const size_t width = StoredWidth(c, base, off, len);
    if (i == att) return {base + off, width};
    off += width;
  }
}

}  // namespace

void HeapForEachAttr(const TupleDesc& desc, const HeapTupleHeaderData* tup, size_t len,
                     const std::function<void(int, std::span<const char>)>& fn) {
  const char* base = reinterpret_cast<const char*>(tup);
  size_t off = tup->t_hoff;
  const int natts = std::min(desc.natts(), tup->natts());
  for (int i = 0; i < natts; ++i) {
    if (tup->attr_is_null(i)) continue;
    const ColumnDesc& c = desc.col(i);
    off = AlignUp(off, c.align);
    const size_t width = StoredWidth(c, base, off, len);
    fn(i, std::span<const char>(base + off, width));
    off += width;
  }
}

bool HeapAttrsEqual(const TupleDesc& desc, const HeapTupleHeaderData* a, size_t alen,
                    const HeapTupleHeaderData* b, size_t blen, std::span<const int> attrs) {
  for (int att : attrs) {
    bool anull = false, bnull = false;
    std::span<const char> x = AttrBytes(desc, a, alen, att, &anull);
    std::span<const char> y = AttrBytes(desc, b, blen, att, &bnull);
    if (anull != bnull) return false;
    if (x.size() != y.size() || (!x.empty() && std::memcmp(x.data(), y.data(), x.size()) != 0)) return false;
  }
  return true;
}

}  // namespace hearth::heap
