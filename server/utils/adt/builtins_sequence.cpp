// server/utils/adt/builtins_sequence.cpp
//
// nextval, currval, setval, lastval and pg_get_serial_sequence: volatile
// built-ins that call the backend's SequenceCallbacks (the catalog owns
// sequences). The sequence argument is a regclass, as in PostgreSQL: a
// literal ('s') becomes one at bind time (unknown → regclass input looks the
// name up, 42P01 with the literal's position), a text value through the
// implicit text → regclass cast.
#include "common/error/db_error.h"
#include "utils/adt/builtins.h"

namespace hearth::types::internal {
namespace {

const SequenceCallbacks& Seq(FuncCallContext& c, const char* fn) {
  if (c.session == nullptr) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string(fn) + " is not available in this context");
  }
  return c.session->sequences;
}

template <typename F>
const F& Need(const F& f, const char* fn) {
  if (!f) throw DbError(sqlstate::kFeatureNotSupported, std::string(fn) + " is not available in this context");
  return f;
}

Value Nextval(const Value* a, int, FuncCallContext& c) {
  return Value::Int(kInt8Oid, Need(Seq(c, "nextval").nextval, "nextval")(a[0]));
}
Value Currval(const Value* a, int, FuncCallContext& c) {
  return Value::Int(kInt8Oid, Need(Seq(c, "currval").currval, "currval")(a[0]));
}
Value Setval(const Value* a, int n, FuncCallContext& c) {
  const bool is_called = n < 3 || a[2].b;
  return Value::Int(kInt8Oid, Need(Seq(c, "setval").setval, "setval")(a[0], a[1].i, is_called));
}
Value Lastval(const Value*, int, FuncCallContext& c) {
  return Value::Int(kInt8Oid, Need(Seq(c, "lastval").lastval, "lastval")());
}
Value SerialSequence(const Value* a, int, FuncCallContext& c) {
  auto name = Need(Seq(c, "pg_get_serial_sequence").serial_sequence, "pg_get_serial_sequence")(a[0].str, a[1].str);
  return name ? Value::Text(*name) : Value::Null(kTextOid);
}

}  // namespace

void AddSequenceBuiltins(std::vector<FuncSignature>* t) {
  auto vol = [&](const char* name, std::initializer_list<Oid> args, Oid result, BuiltinFn fn) {
    t->push_back(Row(name, FuncKind::kFunction, args, result, fn, /*strict=*/true, false, /*is_volatile=*/true));
  };
  vol("nextval", {kRegclassOid}, kInt8Oid, Nextval);
  vol("currval", {kRegclassOid}, kInt8Oid, Currval);
  vol("setval", {kRegclassOid, kInt8Oid}, kInt8Oid, Setval);
  vol("setval", {kRegclassOid, kInt8Oid, kBoolOid}, kInt8Oid, Setval);
  vol("lastval", {}, kInt8Oid, Lastval);
  vol("pg_get_serial_sequence", {kTextOid, kTextOid}, kTextOid, SerialSequence);
}

}  // namespace hearth::types::internal
