#include <catch2/catch.hpp>

#include <vector>

#include "test_util.h"
#include "utils/adt/aggregates.h"
#include "utils/adt/text_io.h"

using namespace hearth::types;

namespace {
// Runs aggregate `name` over `inputs` (all of type t) and returns the output text.
std::string Agg(const char* name, Oid t, const std::vector<Value>& inputs, Oid* result_type = nullptr) {
  ResolvedFunc f = ResolveFunction(name, {t}, FuncKind::kAggregate);
  AggregateState s(f.sig);
  for (const Value& v : inputs) s.Accumulate(&v, 1);
  Value r = s.Finish();
  if (result_type) *result_type = r.type;
  return r.is_null ? "NULL" : OutputValue(r);
}
Value N(const char* s) { return InputValue(kNumericOid, -1, s); }
}  // namespace

TEST_CASE("count, sum, avg follow PostgreSQL's types and NULL rules", "[aggregates]") {
  std::vector<Value> ints = {Value::Int4(1), Value::Int4(2), Value::Null(kInt4Oid)};
  Oid t = 0;
  CHECK(Agg("count", kInt4Oid, ints, &t) == "2");
  CHECK(t == kInt8Oid);
  CHECK(Agg("sum", kInt4Oid, ints, &t) == "3");
  CHECK(t == kInt8Oid);
  CHECK(Agg("avg", kInt4Oid, ints, &t) == "1.5000000000000000");
  CHECK(t == kNumericOid);
  CHECK(Agg("sum", kInt8Oid, {Value::Int8(INT64_MAX), Value::Int8(INT64_MAX)}, &t) ==
        "18446744073709551614");
  CHECK(t == kNumericOid);
  CHECK(Agg("sum", kNumericOid, {N("1.10"), N("2.205")}) == "3.305");
  CHECK(Agg("avg", kNumericOid, {N("1"), N("2"), N("4")}) == "2.3333333333333333");
  CHECK(Agg("sum", kFloat8Oid, {Value::Float8(0.1), Value::Float8(0.2)}) == "0.30000000000000004");
  CHECK(Agg("sum", kInt4Oid, {Value::Null(kInt4Oid)}) == "NULL");
  CHECK(Agg("avg", kInt4Oid, {}) == "NULL");
  CHECK(Agg("count", kInt4Oid, {}) == "0");

  ResolvedFunc star = ResolveFunction("count", {}, FuncKind::kAggregate);
  AggregateState cs(star.sig);
  for (int i = 0; i < 5; ++i) cs.Accumulate(nullptr, 0);
  CHECK(cs.Finish().i == 5);
  cs.Reset();
  CHECK(cs.Finish().i == 0);

  ResolvedFunc sum8 = ResolveFunction("sum", {kInt4Oid}, FuncKind::kAggregate);
  AggregateState big(sum8.sig);
  Value m = Value::Int4(INT32_MAX);
  // 2^32 additions of INT32_MAX would overflow int8; start near the edge instead.
  big.Accumulate(&m, 1);
  CHECK(big.Finish().i == INT32_MAX);
}

TEST_CASE("min, max, bool_and, bool_or", "[aggregates]") {
  CHECK(Agg("min", kInt4Oid, {Value::Int4(3), Value::Null(kInt4Oid), Value::Int4(-1)}) == "-1");
  CHECK(Agg("max", kTextOid, {Value::Text("pear"), Value::Text("apple")}) == "pear");
  // Equal values: the later one wins, as PostgreSQL's numeric_larger.
  CHECK(Agg("max", kNumericOid, {N("1.50"), N("1.5"), N("-2")}) == "1.5");
  CHECK(Agg("min", kDateOid, {InputValue(kDateOid, -1, "2026-11-30"),
                              InputValue(kDateOid, -1, "2025-01-01")}) == "2025-01-01");
  CHECK(Agg("bool_and", kBoolOid, {Value::Bool(true), Value::Bool(false)}) == "f");
  CHECK(Agg("bool_or", kBoolOid, {Value::Bool(false), Value::Null(kBoolOid), Value::Bool(true)}) == "t");
  CHECK(Agg("max", kInt4Oid, {}) == "NULL");
}
