// server/utils/adt/array.cpp
//
// Principal entry points: DeconstructArray, MakeArrayValue, CompareArrays.
// The encoding is described in array.h.
#include "utils/adt/array.h"

#include <cstring>

#include "common/error/db_error.h"
#include "utils/adt/compare.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

// PostgreSQL's MaxArraySize: MaxAllocSize / sizeof(Datum).
constexpr int64_t kMaxArrayItems = 0x3fffffff / 8;

void Put32(int32_t x, std::string* out) {
  char b[4];
  std::memcpy(b, &x, 4);
  out->append(b, 4);
}

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  int32_t Get32() {
    int32_t x = 0;
    Need(4);
    std::memcpy(&x, s_.data() + pos_, 4);
    pos_ += 4;
    return x;
  }
  uint8_t GetByte() {
    Need(1);
    return static_cast<uint8_t>(s_[pos_++]);
  }
  std::string_view Take(size_t n) {
    Need(n);
    std::string_view r = s_.substr(pos_, n);
    pos_ += n;
    return r;
  }

 private:
  void Need(size_t n) const {
    if (s_.size() - pos_ < n) throw DbError(sqlstate::kInternalError, "corrupt array value");
  }
  std::string_view s_;
  size_t pos_ = 0;
};

void ReadHeader(Reader& r, std::vector<int32_t>* dims, std::vector<int32_t>* lbounds) {
  int32_t ndim = r.Get32();
  if (ndim < 0 || ndim > kMaxArrayDims) throw DbError(sqlstate::kInternalError, "corrupt array value");
  dims->resize(static_cast<size_t>(ndim));
  lbounds->resize(static_cast<size_t>(ndim));
  for (int d = 0; d < ndim; ++d) {
    (*dims)[static_cast<size_t>(d)] = r.Get32();
    (*lbounds)[static_cast<size_t>(d)] = r.Get32();
  }
}

void ReadElement(Reader& r, Storage st, Oid elem_type, Value* out) {
  out->type = elem_type;
  out->i = 0;
  out->str.clear();
  out->is_null = r.GetByte() == 0;
  if (out->is_null) return;
  switch (st) {
    case Storage::kBool:
      out->b = r.GetByte() != 0;
      return;
    case Storage::kInt:
    case Storage::kFloat: {
      std::string_view b = r.Take(8);
      std::memcpy(&out->i, b.data(), 8);
      return;
    }
    default: {
      auto len = static_cast<uint32_t>(r.Get32());
      out->str.assign(r.Take(len));
      return;
    }
  }
}

void WriteElement(const Value& v, Storage st, std::string* out) {
  if (v.is_null) {
    out->push_back(0);
    return;
  }
  out->push_back(1);
  switch (st) {
    case Storage::kBool:
      out->push_back(v.b ? 1 : 0);
      return;
    case Storage::kInt:
    case Storage::kFloat: {
      char b[8];
      std::memcpy(b, &v.i, 8);
      out->append(b, 8);
      return;
    }
    default:
      Put32(static_cast<int32_t>(v.str.size()), out);
      out->append(v.str);
      return;
  }
}

}  // namespace

bool ArrayData::HasNulls() const {
  for (const Value& v : elems) {
    if (v.is_null) return true;
  }
  return false;
}

int64_t ArrayElementCount(const std::vector<int32_t>& dims) {
  if (dims.empty()) return 0;
  int64_t n = 1;
  for (int32_t d : dims) {
    if (d < 0) throw DbError(sqlstate::kProgramLimitExceeded, "array size exceeds the maximum allowed (" +
                                                                  std::to_string(kMaxArrayItems) + ")");
    n *= d;
    if (n > kMaxArrayItems) {
      throw DbError(sqlstate::kProgramLimitExceeded,
                    "array size exceeds the maximum allowed (" + std::to_string(kMaxArrayItems) + ")");
    }
  }
  return n;
}

void ArrayShape(const Value& v, std::vector<int32_t>* dims, std::vector<int32_t>* lbounds) {
  Reader r(v.str);
  ReadHeader(r, dims, lbounds);
}

int64_t ArrayItemCount(const Value& v) {
  std::vector<int32_t> dims, lbs;
  ArrayShape(v, &dims, &lbs);
  return ArrayElementCount(dims);
}

ArrayData DeconstructArray(const Value& v) {
  ArrayData a;
  a.elem_type = ElementTypeOf(v.type);
  Reader r(v.str);
  ReadHeader(r, &a.dims, &a.lbounds);
  const size_t n = static_cast<size_t>(ArrayElementCount(a.dims));
  const Storage st = StorageOf(a.elem_type);
  a.elems.resize(n);
  for (size_t k = 0; k < n; ++k) ReadElement(r, st, a.elem_type, &a.elems[k]);
  return a;
}

Value MakeArrayValue(Oid array_type, const ArrayData& a) {
  if (a.ndim() > kMaxArrayDims) {
    throw DbError(sqlstate::kProgramLimitExceeded, "number of array dimensions (" + std::to_string(a.ndim()) +
                                                       ") exceeds the maximum allowed (" +
                                                       std::to_string(kMaxArrayDims) + ")");
  }
  const int64_t n = ArrayElementCount(a.dims);
  Value out;
  out.type = array_type;
  out.is_null = false;
  // A zero-length dimension makes the whole array empty, as in PostgreSQL.
  const bool empty = n == 0;
  Put32(empty ? 0 : a.ndim(), &out.str);
  if (!empty) {
    for (int d = 0; d < a.ndim(); ++d) {
      int64_t upper = static_cast<int64_t>(a.lbounds[static_cast<size_t>(d)]) + a.dims[static_cast<size_t>(d)] - 1;
      if (upper > INT32_MAX) {
        throw DbError(sqlstate::kProgramLimitExceeded, "array upper bound is too large: " + std::to_string(upper));
      }
      Put32(a.dims[static_cast<size_t>(d)], &out.str);
      Put32(a.lbounds[static_cast<size_t>(d)], &out.str);
    }
  }
  const Storage st = StorageOf(ElementTypeOf(array_type));
  for (int64_t k = 0; k < n; ++k) WriteElement(a.elems[static_cast<size_t>(k)], st, &out.str);
  return out;
}

Value MakeArray1D(Oid elem_type, std::vector<Value> elems) {
  ArrayData a;
  a.elem_type = elem_type;
  if (!elems.empty()) {
    a.dims = {static_cast<int32_t>(elems.size())};
    a.lbounds = {1};
  }
  a.elems = std::move(elems);
  return MakeArrayValue(ArrayTypeOf(elem_type), a);
}

int CompareArrays(const Value& a, const Value& b) {
  ArrayData x = DeconstructArray(a);
  ArrayData y = DeconstructArray(b);
  const size_t n = std::min(x.elems.size(), y.elems.size());
  for (size_t k = 0; k < n; ++k) {
    const Value& e1 = x.elems[k];
    const Value& e2 = y.elems[k];
    if (e1.is_null || e2.is_null) {
      if (e1.is_null && e2.is_null) continue;
      return e1.is_null ? 1 : -1;  // NULLs sort after everything else
    }
    int c = CompareValues(e1, e2);
    if (c != 0) return c;
  }
  if (x.elems.size() != y.elems.size()) return x.elems.size() < y.elems.size() ? -1 : 1;
  if (x.ndim() != y.ndim()) return x.ndim() < y.ndim() ? -1 : 1;
  for (size_t d = 0; d < x.dims.size(); ++d) {
    if (x.dims[d] != y.dims[d]) return x.dims[d] < y.dims[d] ? -1 : 1;
    if (x.lbounds[d] != y.lbounds[d]) return x.lbounds[d] < y.lbounds[d] ? -1 : 1;
  }
  return 0;
}

}  // namespace hearth::types

namespace hearth::types {

void ArrayAggCheckInput(bool of_arrays, const Value& v, const Value* first) {
  if (!of_arrays) return;
  if (v.is_null) throw DbError(sqlstate::kNullValueNotAllowed, "cannot accumulate null arrays");
  std::vector<int32_t> dims, lbs;
  ArrayShape(v, &dims, &lbs);
  if (dims.empty()) throw DbError("2202E", "cannot accumulate empty arrays");
  if (first == nullptr) return;
  std::vector<int32_t> fdims, flbs;
  ArrayShape(*first, &fdims, &flbs);
  if (fdims != dims || flbs != lbs) {
    throw DbError("2202E", "cannot accumulate arrays of different dimensionality");
  }
}

Value ArrayAggResult(Oid result_type, bool of_arrays, const std::vector<Value>& items) {
  ArrayData out;
  out.elem_type = ElementTypeOf(result_type);
  if (!of_arrays) {
    out.dims = {static_cast<int32_t>(items.size())};
    out.lbounds = {1};
    out.elems = items;
    return MakeArrayValue(result_type, out);
  }
  for (size_t k = 0; k < items.size(); ++k) {
    ArrayData a = DeconstructArray(items[k]);
    if (k == 0) {
      if (a.ndim() + 1 > kMaxArrayDims) {
        throw DbError(sqlstate::kProgramLimitExceeded, "number of array dimensions (" +
                                                           std::to_string(a.ndim() + 1) +
                                                           ") exceeds the maximum allowed (" +
                                                           std::to_string(kMaxArrayDims) + ")");
      }
      out.dims = {static_cast<int32_t>(items.size())};
      out.lbounds = {1};
      out.dims.insert(out.dims.end(), a.dims.begin(), a.dims.end());
      out.lbounds.insert(out.lbounds.end(), a.lbounds.begin(), a.lbounds.end());
    }
    out.elems.insert(out.elems.end(), std::make_move_iterator(a.elems.begin()), std::make_move_iterator(a.elems.end()));
  }
  return MakeArrayValue(result_type, out);
}

}  // namespace hearth::types
