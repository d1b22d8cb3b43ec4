#include "expr_harness.h"

#include <atomic>
#include <cstdlib>
#include <new>

// Counts heap allocations so the hot-path test can prove evaluation of
// fixed-width expressions does not allocate.
static std::atomic<long> g_allocations{0};
// Every unaligned new/delete form is replaced so they stay paired (ASan
// checks new/delete vs malloc/free matching).
static void* CountedAlloc(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void* operator new(std::size_t n) {
  if (void* p = CountedAlloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = CountedAlloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return CountedAlloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return CountedAlloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace harness;
using namespace hearth::types;

namespace {
hearth::executor::ColumnBinding Int4Col(int idx) { return {idx, kInt4Oid, -1}; }
}  // namespace

TEST_CASE("unknown parameters are inferred from context", "[expr][params]") {
  BindContext b;
  b.param_types = {0, 0};  // pgbench -M extended sends zero OIDs
  b.resolve_column = [](const hearth::parser::ColumnRefExpr& c) -> std::optional<hearth::executor::ColumnBinding> {
    if (c.fields.back() == "abalance") return Int4Col(0);
    if (c.fields.back() == "aid") return Int4Col(1);
    return std::nullopt;
  };
  Parsed p1 = Parse("abalance + $1");
  auto e1 = hearth::executor::BindExpr(p1.expr(), b);
  CHECK(e1->type == kInt4Oid);
  Parsed p2 = Parse("aid = $2");
  auto e2 = hearth::executor::BindExpr(p2.expr(), b);
  CHECK(e2->type == kBoolOid);
  std::vector<Oid> final_types = hearth::executor::FinalParamTypes(b);
  REQUIRE(final_types.size() == 2);
  CHECK(final_types[0] == kInt4Oid);
  CHECK(final_types[1] == kInt4Oid);

  // Execute with parameter values converted to the inferred types.
  Value params[2] = {InputValue(final_types[0], -1, "-3861"), InputValue(final_types[1], -1, "7")};
  Value row[2] = {Value::Int4(100), Value::Int4(7)};
  EvalContext e;
  e.params = params;
  e.nparams = 2;
  e.row = row;
  e.nrow = 2;
  CHECK(hearth::executor::Eval(*e1, e).i == -3761);
  CHECK(hearth::executor::EvalPredicate(*e2, e));
}

TEST_CASE("parameter typing: $1 + 1, lone $1, declared types", "[expr][params]") {
  BindContext b;
  Parsed p = Parse("$1 + 1");
  auto e = hearth::executor::BindExpr(p.expr(), b);
  CHECK(e->type == kInt4Oid);
  REQUIRE(b.param_types.size() == 1);
  CHECK(b.param_types[0] == kInt4Oid);

  BindContext lone;
  Parsed p2 = Parse("$1");
  auto e2 = hearth::executor::ResolveUnknownOutput(hearth::executor::BindExpr(p2.expr(), lone), lone);
  CHECK(e2->type == kTextOid);
  CHECK(hearth::executor::FinalParamTypes(lone)[0] == kTextOid);

  BindContext declared;
  declared.param_types = {kInt8Oid};
  Parsed p3 = Parse("$1 + 1");
  auto e3 = hearth::executor::BindExpr(p3.expr(), declared);
  CHECK(e3->type == kInt8Oid);
  Value v = Value::Int8(41);
  EvalContext ec;
  ec.params = &v;
  ec.nparams = 1;
  CHECK(hearth::executor::Eval(*e3, ec).i == 42);

  BindContext cond;
  Parsed p4 = Parse("$1 AND true");
  hearth::executor::BindExpr(p4.expr(), cond);
  CHECK(cond.param_types[0] == kBoolOid);

  BindContext in;
  Parsed p5 = Parse("$1 IN (1, 2)");
  hearth::executor::BindExpr(p5.expr(), in);
  CHECK(in.param_types[0] == kInt4Oid);

  BindContext cast;
  Parsed p7 = Parse("$1::varchar(5)");
  auto e7 = hearth::executor::BindExpr(p7.expr(), cast);
  CHECK(cast.param_types[0] == kVarcharOid);
  CHECK(hearth::executor::DescribeResult(*e7).typmod == 9);
  Value long_text = Value::Bytes(kVarcharOid, "abcdefgh");
  EvalContext ec7;
  ec7.params = &long_text;
  ec7.nparams = 1;
  CHECK(hearth::executor::Eval(*e7, ec7).str == "abcde");  // explicit cast truncates

  BindContext like;
  Parsed p6 = Parse("'abc' LIKE $1");
  hearth::executor::BindExpr(p6.expr(), like);
  CHECK(like.param_types[0] == kTextOid);
}

TEST_CASE("parameter errors", "[expr][params]") {
  BindContext closed;
  closed.allow_new_params = false;
  Parsed p = Parse("$2");
  try {
    hearth::executor::BindExpr(p.expr(), closed);
    FAIL("expected 42P02");
  } catch (const hearth::DbError& e) {
    CHECK(e.sqlstate() == "42P02");
    CHECK(e.message() == "there is no parameter $2");
  }
  BindContext gap;
  Parsed p2 = Parse("$2 + 1");
  hearth::executor::BindExpr(p2.expr(), gap);
  try {
    hearth::executor::FinalParamTypes(gap);
    FAIL("expected 42P18");
  } catch (const hearth::DbError& e) {
    CHECK(e.sqlstate() == "42P18");
    CHECK(e.message() == "could not determine data type of parameter $1");
  }
}

TEST_CASE("evaluation of fixed-width arithmetic reuses values", "[expr][perf]") {
  // A hot loop over a bound tree: the result must be right for every row.
  BindContext b;
  b.resolve_column = [](const hearth::parser::ColumnRefExpr&) -> std::optional<hearth::executor::ColumnBinding> {
    return Int4Col(0);
  };
  Parsed p = Parse("a * 2 + 1 > 10 AND a % 2 = 0");
  auto bound = hearth::executor::BindExpr(p.expr(), b);
  Value row[1];
  EvalContext e;
  e.row = row;
  e.nrow = 1;
  int hits = 0;
  long before = g_allocations.load();
  for (int i = 0; i < 10000; ++i) {
    row[0] = Value::Int4(i);
    hits += hearth::executor::EvalPredicate(*bound, e) ? 1 : 0;
  }
  long allocations = g_allocations.load() - before;
  CHECK(hits == 4997);  // even i >= 6: 6, 8, ..., 9998
  CHECK(allocations == 0);
}
