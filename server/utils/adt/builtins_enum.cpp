// server/utils/adt/builtins_enum.cpp
//
// Enum support functions and operators: comparison in declaration order
// (anyenum), min/max, enum_first, enum_last, enum_range. The functions look only at
// their arguments' type, as PostgreSQL's do (NULL::mood is the usual
// argument), so they are not strict.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/array.h"
#include "utils/adt/builtins.h"
#include "utils/adt/compare.h"
#include "utils/adt/user_types.h"

namespace hearth::types::internal {
namespace {

const UserType& EnumOf(const Value& v) {
  const UserType* t = FindEnumType(v.type);
  if (t == nullptr) throw DbError(sqlstate::kWrongObjectType, "could not determine actual enum type");
  return *t;
}

Value Label(const UserType& t, size_t i) { return Value::Int(t.oid, t.labels[i].oid); }

const UserType& NonEmptyEnumOf(const Value& v) {
  const UserType& t = EnumOf(v);
  if (t.labels.empty()) throw DbError("55000", "enum " + t.name + " contains no values");
  return t;
}

Value EnumFirst(const Value* a, int, FuncCallContext&) { return Label(NonEmptyEnumOf(a[0]), 0); }

Value EnumLast(const Value* a, int, FuncCallContext&) {
  const UserType& t = NonEmptyEnumOf(a[0]);
  return Label(t, t.labels.size() - 1);
}

// enum_range(x) = every label; enum_range(lo, hi) the labels between them
// (a NULL bound is open; lo after hi gives an empty array).
Value EnumRange(const Value* a, int nargs, FuncCallContext&) {
  const UserType& t = EnumOf(a[0]);
  size_t from = 0, to = t.labels.size();
  if (nargs == 2) {
    for (size_t i = 0; i < t.labels.size(); ++i) {
      if (!a[0].is_null && t.labels[i].oid == static_cast<Oid>(a[0].i)) from = i;
      if (!a[1].is_null && t.labels[i].oid == static_cast<Oid>(a[1].i)) to = i + 1;
    }
  }
  std::vector<Value> out;
  for (size_t i = from; i < to; ++i) out.push_back(Label(t, i));
  return MakeArray1D(t.oid, std::move(out));
}

template <int kOp>
Value EnumCmp(const Value* a, int, FuncCallContext&) {
  const int c = CompareValues(a[0], a[1]);
  switch (kOp) {
    case 0: return Value::Bool(c == 0);
    case 1: return Value::Bool(c != 0);
    case 2: return Value::Bool(c < 0);
    case 3: return Value::Bool(c > 0);
    case 4: return Value::Bool(c <= 0);
    default: return Value::Bool(c >= 0);
  }
}

}  // namespace

void AddEnumBuiltins(std::vector<FuncSignature>* t) {
  const FuncKind kFn = FuncKind::kFunction, kOp = FuncKind::kOperator;
  const Oid E = kAnyEnumOid;
  t->push_back(Row("=", kOp, {E, E}, kBoolOid, EnumCmp<0>));
  t->push_back(Row("<>", kOp, {E, E}, kBoolOid, EnumCmp<1>));
  t->push_back(Row("<", kOp, {E, E}, kBoolOid, EnumCmp<2>));
  t->push_back(Row(">", kOp, {E, E}, kBoolOid, EnumCmp<3>));
  t->push_back(Row("<=", kOp, {E, E}, kBoolOid, EnumCmp<4>));
  t->push_back(Row(">=", kOp, {E, E}, kBoolOid, EnumCmp<5>));
  // min/max run in AggregateState, which orders by CompareValues.
  t->push_back(Row("min", FuncKind::kAggregate, {E}, E, nullptr));
  t->push_back(Row("max", FuncKind::kAggregate, {E}, E, nullptr));
  t->push_back(Row("enum_first", kFn, {E}, E, EnumFirst, /*strict=*/false));
  t->push_back(Row("enum_last", kFn, {E}, E, EnumLast, /*strict=*/false));
  t->push_back(Row("enum_range", kFn, {E}, kAnyArrayOid, EnumRange, /*strict=*/false));
  t->push_back(Row("enum_range", kFn, {E, E}, kAnyArrayOid, EnumRange, /*strict=*/false));
}

}  // namespace hearth::types::internal
