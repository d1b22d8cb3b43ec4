// server/utils/adt/array_binary.cpp
//
// Principal entry points: AppendArrayBinary (array_send),
// ReceiveArrayBinary (array_recv), in PostgreSQL's wire layout so drivers
// that ask for binary results or send binary parameters interoperate.
#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/array_io.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

void PutBE32(uint32_t v, std::string* out) {
  for (int k = 3; k >= 0; --k) out->push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
}

[[noreturn]] void Insufficient() {
  throw DbError(sqlstate::kInvalidBinaryRepresentation, "insufficient data left in message");
}

int32_t GetBE32(std::string_view b, size_t* pos) {
  if (b.size() - *pos < 4) Insufficient();
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(b[(*pos)++]);
  return static_cast<int32_t>(v);
}

}  // namespace

void AppendArrayBinary(const Value& v, std::string* out) {
  ArrayData a = DeconstructArray(v);
  PutBE32(static_cast<uint32_t>(a.ndim()), out);
  PutBE32(a.HasNulls() ? 1 : 0, out);
  PutBE32(a.elem_type, out);
  for (int d = 0; d < a.ndim(); ++d) {
    PutBE32(static_cast<uint32_t>(a.dims[static_cast<size_t>(d)]), out);
    PutBE32(static_cast<uint32_t>(a.lbounds[static_cast<size_t>(d)]), out);
  }
  std::string elem;
  for (const Value& e : a.elems) {
    if (e.is_null) {
      PutBE32(0xFFFFFFFFu, out);
      continue;
    }
    elem.clear();
    AppendBinary(e, &elem);
    PutBE32(static_cast<uint32_t>(elem.size()), out);
    out->append(elem);
  }
}

Value ReceiveArrayBinary(Oid array_type, int32_t typmod, std::string_view b) {
  size_t pos = 0;
  const int32_t ndim = GetBE32(b, &pos);
  if (ndim < 0) {
    throw DbError(sqlstate::kInvalidBinaryRepresentation, "invalid number of dimensions: " + std::to_string(ndim));
  }
  if (ndim > kMaxArrayDims) {
    throw DbError(sqlstate::kProgramLimitExceeded, "number of array dimensions (" + std::to_string(ndim) +
                                                       ") exceeds the maximum allowed (" +
                                                       std::to_string(kMaxArrayDims) + ")");
  }
  const int32_t flags = GetBE32(b, &pos);
  if (flags != 0 && flags != 1) throw DbError(sqlstate::kInvalidBinaryRepresentation, "invalid array flags");
  const Oid elem_type = static_cast<Oid>(GetBE32(b, &pos));
  ArrayData a;
  a.elem_type = ElementTypeOf(array_type);
  if (elem_type != a.elem_type) {
    throw DbError(sqlstate::kDatatypeMismatch,
                  "binary data has array element type " + std::to_string(elem_type) + " (" +
                      FormatType(elem_type) + ") instead of expected " + std::to_string(a.elem_type) + " (" +
                      FormatType(a.elem_type) + ")");
  }
  for (int d = 0; d < ndim; ++d) {
    a.dims.push_back(GetBE32(b, &pos));
    a.lbounds.push_back(GetBE32(b, &pos));
  }
  const int64_t n = ArrayElementCount(a.dims);
  a.elems.reserve(static_cast<size_t>(std::min<int64_t>(n, 1 << 16)));
  for (int64_t k = 0; k < n; ++k) {
    const int32_t len = GetBE32(b, &pos);
    if (len == -1) {
      a.elems.push_back(Value::Null(a.elem_type));
      continue;
    }
    if (len < 0) {
      throw DbError(sqlstate::kInvalidBinaryRepresentation,
                    "insufficient data left in message");
    }
    if (b.size() - pos < static_cast<size_t>(len)) Insufficient();
    try {
      a.elems.push_back(ReceiveBinary(a.elem_type, typmod, b.substr(pos, static_cast<size_t>(len))));
    } catch (const DbError& e) {
      if (std::string_view(e.sqlstate()) != sqlstate::kInvalidBinaryRepresentation) throw;
      throw DbError(sqlstate::kInvalidBinaryRepresentation,
                    "improper binary format in array element " + std::to_string(k + 1));
    }
    pos += static_cast<size_t>(len);
  }
  if (pos != b.size()) throw DbError(sqlstate::kInvalidBinaryRepresentation, "incorrect binary data format");
  return MakeArrayValue(array_type, a);
}

}  // namespace hearth::types
