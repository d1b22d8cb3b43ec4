// server/utils/adt/array.h
//
// PostgreSQL arrays: the in-memory form of an array Value and the
// operations every other array file builds on. An array Value has an array
// type OID (_int4 = 1007, ...; see type_catalog.h) and keeps its encoded
// contents in `str`, so heap storage, row codecs and copies treat it as
// any other variable-width value:
//
//   int32 ndim, then per dimension int32 length and int32 lower bound,
//   then each element in row-major order: a byte 0 (NULL) or 1, and for a
//   present element its payload by the element type's storage class
//   (bool: 1 byte; int/float: 8 bytes of the union; bytes: uint32 length
//   and the bytes). All integers in host byte order.
//
// An empty array has ndim 0 and no elements ('{}'). Stateless; safe from
// any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "utils/adt/value.h"

namespace hearth::types {

// PostgreSQL's MAXDIM.
inline constexpr int kMaxArrayDims = 6;

// An array taken apart: what SQL functions, unnest and the binary I/O
// work on. elems.size() is the product of dims (0 when ndim() == 0).
struct ArrayData {
  Oid elem_type = kInvalidOid;
  std::vector<int32_t> dims;
  std::vector<int32_t> lbounds;
  std::vector<Value> elems;

  int ndim() const { return static_cast<int>(dims.size()); }
  bool HasNulls() const;
};

// Decodes an array Value. REQUIRES: !v.is_null and IsArrayType(v.type).
ArrayData DeconstructArray(const Value& v);
// Number of elements without decoding them (cardinality()).
int64_t ArrayItemCount(const Value& v);
// Dimensions and lower bounds only.
void ArrayShape(const Value& v, std::vector<int32_t>* dims, std::vector<int32_t>* lbounds);

// Encodes `a` as a Value of `array_type`. Checks the 6-dimension limit and
// that the element count fits (54000 `array size exceeds the maximum
// allowed`). Elements are retagged with a.elem_type.
Value MakeArrayValue(Oid array_type, const ArrayData& a);
// A one-dimensional array with lower bound 1 (or '{}' if elems is empty).
Value MakeArray1D(Oid elem_type, std::vector<Value> elems);

// B-tree order of two arrays of the same type (PostgreSQL's btarraycmp):
// elements pairwise (NULL after non-NULL, NULL = NULL), then fewer
// elements first, then fewer dimensions, then dimension lengths and lower
// bounds. 0 means equal (array_eq).
int CompareArrays(const Value& a, const Value& b);

// array_agg: checks one input before it is kept (of_arrays: the
// array_agg(anyarray) form, whose inputs must be non-NULL, non-empty
// arrays of the first one's dimensions), and builds the result from the
// kept inputs: a one-dimensional array of them, or for arrays one more
// dimension in front.
void ArrayAggCheckInput(bool of_arrays, const Value& v, const Value* first);
Value ArrayAggResult(Oid result_type, bool of_arrays, const std::vector<Value>& items);

// Total elements for dims, or throws 54000 when over PostgreSQL's limit.
int64_t ArrayElementCount(const std::vector<int32_t>& dims);

}  // namespace hearth::types
