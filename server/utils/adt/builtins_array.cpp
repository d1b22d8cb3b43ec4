// server/utils/adt/builtins_array.cpp
//
// Principal entry point: AddArrayBuiltins — the registry rows of the array
// operators (||, @>, <@, &&), the array functions and
// the array_agg aggregate, with PostgreSQL 15's polymorphic signatures
// (anyarray, anycompatiblearray, ...; see func_registry.cpp for how they
// bind). Shape functions (array_length & co) live here; the larger ones
// are in array_concat.cpp, array_search.cpp and array_string.cpp.
#include "common/error/db_error.h"
#include "utils/adt/array_funcs.h"
#include "utils/adt/builtins.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types::internal {
namespace {

constexpr char kArraySubscriptError[] = "2202E";

// The 1-based dimension argument of array_length/lower/upper, or -1 when
// the array does not have it (the functions then return NULL).
int DimIndex(const std::vector<int32_t>& dims, const Value& dim) {
  if (dim.i < 1 || dim.i > static_cast<int64_t>(dims.size())) return -1;
  return static_cast<int>(dim.i - 1);
}

template <int Which>  // 0 length, 1 lower, 2 upper
Value ArrayBound(const Value* a, int, FuncCallContext&) {
  std::vector<int32_t> dims, lbs;
  ArrayShape(a[0], &dims, &lbs);
  const int d = DimIndex(dims, a[1]);
  if (d < 0) return Value::Null(kInt4Oid);
  const auto k = static_cast<size_t>(d);
  if (Which == 0) return Value::Int4(dims[k]);
  if (Which == 1) return Value::Int4(lbs[k]);
  return Value::Int4(static_cast<int32_t>(static_cast<int64_t>(lbs[k]) + dims[k] - 1));
}

Value ArrayNdims(const Value* a, int, FuncCallContext&) {
  std::vector<int32_t> dims, lbs;
  ArrayShape(a[0], &dims, &lbs);
  if (dims.empty()) return Value::Null(kInt4Oid);
  return Value::Int4(static_cast<int32_t>(dims.size()));
}

Value ArrayDims(const Value* a, int, FuncCallContext&) {
  std::vector<int32_t> dims, lbs;
  ArrayShape(a[0], &dims, &lbs);
  if (dims.empty()) return Value::Null(kTextOid);
  std::string out;
  for (size_t d = 0; d < dims.size(); ++d) {
    out += "[" + std::to_string(lbs[d]) + ":" + std::to_string(static_cast<int64_t>(lbs[d]) + dims[d] - 1) + "]";
  }
  return Value::Text(std::move(out));
}

Value Cardinality(const Value* a, int, FuncCallContext&) {
  return Value::Int4(static_cast<int32_t>(ArrayItemCount(a[0])));
}

Value CatFn(const Value* a, int, FuncCallContext&) {
  return ArrayCat(a[0], a[1], a[0].is_null ? a[1].type : a[0].type);
}
Value AppendFn(const Value* a, int, FuncCallContext&) { return ArrayAppend(a[0], a[1], a[0].type); }
Value PrependFn(const Value* a, int, FuncCallContext&) { return ArrayPrepend(a[0], a[1], a[1].type); }
Value PositionFn(const Value* a, int n, FuncCallContext&) { return ArrayPosition(a[0], a[1], n > 2 ? &a[2] : nullptr); }
Value PositionsFn(const Value* a, int, FuncCallContext&) { return ArrayPositions(a[0], a[1]); }
Value RemoveFn(const Value* a, int, FuncCallContext&) { return ArrayRemove(a[0], a[1]); }
Value ReplaceFn(const Value* a, int, FuncCallContext&) { return ArrayReplace(a[0], a[1], a[2]); }
Value ContainsFn(const Value* a, int, FuncCallContext&) { return Value::Bool(ArrayContains(a[0], a[1])); }
Value ContainedFn(const Value* a, int, FuncCallContext&) { return Value::Bool(ArrayContains(a[1], a[0])); }
Value OverlapsFn(const Value* a, int, FuncCallContext&) { return Value::Bool(ArrayOverlaps(a[0], a[1])); }

// trim_array(a, n): drops the last n entries of the first dimension.
Value TrimArray(const Value* a, int, FuncCallContext&) {
  ArrayData arr = DeconstructArray(a[0]);
  const int64_t len = arr.ndim() == 0 ? 0 : arr.dims[0];
  if (a[1].i < 0 || a[1].i > len) {
    throw DbError(kArraySubscriptError,
                  "number of elements to trim must be between 0 and " + std::to_string(len));
  }
  if (len == 0) return a[0];
  // A slice, as PostgreSQL computes it: lower bounds become 1.
  arr.lbounds.assign(arr.lbounds.size(), 1);
  const size_t per_slice = arr.elems.size() / static_cast<size_t>(len);
  arr.dims[0] -= static_cast<int32_t>(a[1].i);
  arr.elems.resize(per_slice * static_cast<size_t>(arr.dims[0]));
  return MakeArrayValue(a[0].type, arr);
}

// The int4 entries of a one-dimensional dims/lbounds argument of array_fill.
std::vector<int32_t> FillBounds(const Value& v) {
  if (v.is_null) throw DbError(sqlstate::kNullValueNotAllowed, "dimension array or low bound array cannot be null");
  ArrayData a = DeconstructArray(v);
  if (a.ndim() > 1) {
    throw DbError(kArraySubscriptError, "wrong number of array subscripts")
        .WithDetail("Dimension array must be one dimensional.");
  }
  std::vector<int32_t> out;
  for (const Value& e : a.elems) {
    if (e.is_null) throw DbError(sqlstate::kNullValueNotAllowed, "dimension values cannot be null");
    out.push_back(static_cast<int32_t>(e.i));
  }
  return out;
}

Value ArrayFill(const Value* a, int n, FuncCallContext&) {
  ArrayData arr;
  arr.elem_type = a[0].type;
  arr.dims = FillBounds(a[1]);
  if (n > 2) {
    arr.lbounds = FillBounds(a[2]);
    if (arr.lbounds.size() != arr.dims.size()) {
      throw DbError(kArraySubscriptError, "wrong number of array subscripts")
          .WithDetail("Low bound array has different size than dimensions array.");
    }
  } else {
    arr.lbounds.assign(arr.dims.size(), 1);
  }
  if (static_cast<int>(arr.dims.size()) > kMaxArrayDims) {
    throw DbError(sqlstate::kProgramLimitExceeded, "number of array dimensions (" + std::to_string(arr.dims.size()) +
                                                       ") exceeds the maximum allowed (" +
                                                       std::to_string(kMaxArrayDims) + ")");
  }
  const int64_t count = ArrayElementCount(arr.dims);
  arr.elems.assign(static_cast<size_t>(count), a[0]);
  return MakeArrayValue(ArrayTypeOf(a[0].type), arr);
}

}  // namespace

void AddArrayBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  constexpr FuncKind kOp = FuncKind::kOperator;
  constexpr FuncKind kAgg = FuncKind::kAggregate;
  const Oid AA = kAnyArrayOid, AE = kAnyElementOid, CA = kAnyCompatibleArrayOid, CE = kAnyCompatibleOid;
  const Oid I4 = kInt4Oid, T = kTextOid, B = kBoolOid;
  const bool kNonStrict = false;

  // = <> < > <= >= on anyarray: with the other types' comparisons (builtins_math.cpp).
  t->push_back(Row("@>", kOp, {AA, AA}, B, ContainsFn));
  t->push_back(Row("<@", kOp, {AA, AA}, B, ContainedFn));
  t->push_back(Row("&&", kOp, {AA, AA}, B, OverlapsFn));
  t->push_back(Row("||", kOp, {CA, CA}, CA, CatFn, kNonStrict));
  t->push_back(Row("||", kOp, {CE, CA}, CA, PrependFn, kNonStrict));
  t->push_back(Row("||", kOp, {CA, CE}, CA, AppendFn, kNonStrict));

  t->push_back(Row("array_length", kFn, {AA, I4}, I4, ArrayBound<0>));
  t->push_back(Row("array_lower", kFn, {AA, I4}, I4, ArrayBound<1>));
  t->push_back(Row("array_upper", kFn, {AA, I4}, I4, ArrayBound<2>));
  t->push_back(Row("array_ndims", kFn, {AA}, I4, ArrayNdims));
  t->push_back(Row("array_dims", kFn, {AA}, T, ArrayDims));
  t->push_back(Row("cardinality", kFn, {AA}, I4, Cardinality));
  t->push_back(Row("array_cat", kFn, {CA, CA}, CA, CatFn, kNonStrict));
  t->push_back(Row("array_append", kFn, {CA, CE}, CA, AppendFn, kNonStrict));
  t->push_back(Row("array_prepend", kFn, {CE, CA}, CA, PrependFn, kNonStrict));
  t->push_back(Row("array_position", kFn, {CA, CE}, I4, PositionFn, kNonStrict));
  t->push_back(Row("array_position", kFn, {CA, CE, I4}, I4, PositionFn, kNonStrict));
  t->push_back(Row("array_positions", kFn, {CA, CE}, kInt4ArrayOid, PositionsFn, kNonStrict));
  t->push_back(Row("array_remove", kFn, {CA, CE}, CA, RemoveFn, kNonStrict));
  t->push_back(Row("array_replace", kFn, {CA, CE, CE}, CA, ReplaceFn, kNonStrict));
  t->push_back(Row("trim_array", kFn, {AA, I4}, AA, TrimArray));
  t->push_back(Row("array_fill", kFn, {AE, kInt4ArrayOid}, AA, ArrayFill, kNonStrict));
  t->push_back(Row("array_fill", kFn, {AE, kInt4ArrayOid, kInt4ArrayOid}, AA, ArrayFill, kNonStrict));
  AddArrayStringBuiltins(t);

  // array_agg: executed by the aggregation node (aggregates.h).
  t->push_back(Row("array_agg", kAgg, {kAnyNonArrayOid}, AA, nullptr, kNonStrict));
  t->push_back(Row("array_agg", kAgg, {AA}, AA, nullptr, kNonStrict));
}

}  // namespace hearth::types::internal
