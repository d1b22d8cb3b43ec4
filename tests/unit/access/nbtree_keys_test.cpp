// B-tree keys: ordering of every supported type, multi-column keys with
// DESC and NULLS FIRST/LAST, text and bpchar details, unique checks with
// PostgreSQL's exact message and detail, and the wait-for-xid result.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>

#include "common/error/db_error.h"
#include "nbtree_test_util.h"

using namespace hearth;
using namespace hearth::nbtree;
using namespace hearth::nbtree::testing;

namespace {

// Inserts values (entry number = position) in a shuffled order and returns
// the numbers as a forward scan yields them.
std::vector<int64_t> OrderOf(HeapCluster& c, uint32_t relno, KeyColumn col, const std::vector<Value>& vals) {
  IndexDesc idx{c.CreateRel(relno), "t_idx", {col}};
  BtCreateEmpty(idx);
  std::vector<size_t> perm(vals.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::mt19937 rng(relno);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (size_t i : perm)
    REQUIRE(BtInsert(idx, std::span<const Value>(&vals[i], 1), TidFor(static_cast<int64_t>(i))).inserted);
  REQUIRE(BtVerify(idx) == "");
  std::vector<int64_t> out;
  for (ItemPointer t : ScanAll(idx)) out.push_back(NumberOf(t));
  return out;
}

std::vector<int64_t> Iota(int64_t n) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(i);
  return v;
}

Value Num(const char* s) { return Value::Bytes(types::kNumericOid, s); }

}  // namespace

TEST_CASE("every orderable type sorts like PostgreSQL", "[nbtree][keys]") {
  HeapCluster c(64);
  const double inf = std::numeric_limits<double>::infinity();
  SECTION("integers") {
    std::vector<Value> v{Value::Int(types::kInt8Oid, INT64_MIN), Value::Int(types::kInt8Oid, -5000000000),
                         Value::Int(types::kInt8Oid, -1), Value::Int(types::kInt8Oid, 0),
                         Value::Int(types::kInt8Oid, 1), Value::Int(types::kInt8Oid, INT64_MAX)};
    CHECK(OrderOf(c, 3000, KeyColumn::Asc(types::kInt8Oid), v) == Iota(6));
    std::vector<Value> s{Value::Int(types::kInt2Oid, -32768), Value::Int(types::kInt2Oid, -1),
                         Value::Int(types::kInt2Oid, 7), Value::Int(types::kInt2Oid, 32767),
                         Value::Null(types::kInt2Oid)};
    CHECK(OrderOf(c, 3001, KeyColumn::Asc(types::kInt2Oid), s) == Iota(5));
  }
  SECTION("floats: -inf < negatives < -0 = 0 < positives < inf < NaN") {
    std::vector<Value> v{Value::Float8(-inf), Value::Float8(-1e300), Value::Float8(-1.5), Value::Float8(-1e-300),
                         Value::Float8(0.0),  Value::Float8(1e-300), Value::Float8(2.5),  Value::Float8(inf),
                         Value::Float8(std::nan(""))};
    CHECK(OrderOf(c, 3010, KeyColumn::Asc(types::kFloat8Oid), v) == Iota(9));
    std::vector<Value> f{Value::Float(types::kFloat4Oid, -2.5), Value::Float(types::kFloat4Oid, 0.25),
                         Value::Float(types::kFloat4Oid, 3)};
    CHECK(OrderOf(c, 3011, KeyColumn::Asc(types::kFloat4Oid), f) == Iota(3));
    // -0 and +0 are equal: an equality scan finds both.
    IndexDesc idx{c.CreateRel(3012), "f", {KeyColumn::Asc(types::kFloat8Oid)}};
    BtCreateEmpty(idx);
    Value nz = Value::Float8(-0.0), pz = Value::Float8(0.0);
    REQUIRE(BtInsert(idx, std::span<const Value>(&nz, 1), TidFor(1)).inserted);
    REQUIRE(BtInsert(idx, std::span<const Value>(&pz, 1), TidFor(2)).inserted);
    CHECK(ScanAll(idx, ScanDirection::kForward, {ScanKey{ScanOp::kEq, {Value::Float8(0.0)}}}).size() == 2);
  }
  SECTION("numeric by value, not by text") {
    std::vector<Value> v{Num("-1000"), Num("-999.99"), Num("-2"),   Num("-0.5"), Num("-0.05"), Num("0"),
                         Num("0.001"), Num("0.01"),    Num("0.1"),  Num("1.5"),  Num("9"),     Num("10"),
                         Num("10.01"), Num("123456789012345678901234567890"),    Num("NaN")};
    CHECK(OrderOf(c, 3020, KeyColumn::Asc(types::kNumericOid), v) == Iota(static_cast<int64_t>(v.size())));
    IndexDesc idx{c.CreateRel(3021), "n", {KeyColumn::Asc(types::kNumericOid)}};
    BtCreateEmpty(idx);
    Value a = Num("1.5"), b = Num("1.50"), d = Num("1.500001");
    REQUIRE(BtInsert(idx, std::span<const Value>(&a, 1), TidFor(1)).inserted);
    REQUIRE(BtInsert(idx, std::span<const Value>(&b, 1), TidFor(2)).inserted);
    REQUIRE(BtInsert(idx, std::span<const Value>(&d, 1), TidFor(3)).inserted);
    CHECK(ScanAll(idx, ScanDirection::kForward, {ScanKey{ScanOp::kEq, {Num("1.5000")}}}).size() == 2);
    // Integers are accepted as numeric search values.
    CHECK(ScanAll(idx, ScanDirection::kForward, {ScanKey{ScanOp::kGt, {Value::Int4(1)}}}).size() == 3);
  }
  SECTION("text is byte order (C collation), long strings included") {
    std::vector<Value> v{Value::Text(""),          Value::Text("A"),         Value::Text("Z"),
                         Value::Text("a"),         Value::Text("a\x01"),     Value::Text("ab"),
                         Value::Text(std::string(2000, 'b')), Value::Text(std::string(2000, 'b') + "c"),
                         Value::Text("b\xff"),     Value::Text("\xc3\xa9")};
    CHECK(OrderOf(c, 3030, KeyColumn::Asc(types::kTextOid), v) == Iota(10));
  }
  SECTION("bpchar ignores trailing spaces") {
    IndexDesc idx{c.CreateRel(3040), "b", {KeyColumn::Asc(types::kBpcharOid)}};
    BtCreateEmpty(idx);
    std::vector<Value> v{Value::Bytes(types::kBpcharOid, "ab   "), Value::Bytes(types::kBpcharOid, "ab"),
                         Value::Bytes(types::kBpcharOid, "ab\x01"), Value::Bytes(types::kBpcharOid, "a     ")};
    for (size_t i = 0; i < v.size(); ++i) REQUIRE(BtInsert(idx, std::span<const Value>(&v[i], 1), TidFor(i)).inserted);
    CHECK(BtVerify(idx) == "");
    std::vector<int64_t> order;
    for (ItemPointer t : ScanAll(idx)) order.push_back(NumberOf(t));
    CHECK(order == std::vector<int64_t>{3, 0, 1, 2});  // "a" < "ab" = "ab   " (by TID) < "ab\x01"
    ScanKey eq{ScanOp::kEq, {Value::Bytes(types::kBpcharOid, "ab ")}};
    CHECK(ScanAll(idx, ScanDirection::kForward, {eq}).size() == 2);
  }
  SECTION("date, timestamp, bool") {
    std::vector<Value> d{Value::Int(types::kDateOid, -800000), Value::Int(types::kDateOid, -1),
                         Value::Int(types::kDateOid, 0), Value::Int(types::kDateOid, 9000)};
    CHECK(OrderOf(c, 3050, KeyColumn::Asc(types::kDateOid), d) == Iota(4));
    std::vector<Value> ts{Value::Int(types::kTimestampOid, -1000000000000LL), Value::Int(types::kTimestampOid, 5),
                          Value::Int(types::kTimestampOid, 86400000000LL)};
    CHECK(OrderOf(c, 3051, KeyColumn::Desc(types::kTimestampOid), ts) == std::vector<int64_t>{2, 1, 0});
    std::vector<Value> b{Value::Null(types::kBoolOid), Value::Bool(false), Value::Bool(true)};
    CHECK(OrderOf(c, 3052, KeyColumn::Asc(types::kBoolOid, "", true), b) == Iota(3));
  }
}

TEST_CASE("multi-column keys with DESC and NULLS FIRST/LAST", "[nbtree][keys]") {
  HeapCluster c(64);
  // (a int4 ASC NULLS LAST, b text DESC NULLS FIRST, c float8 DESC NULLS LAST)
  IndexDesc idx{c.CreateRel(3100), "m_idx",
                {KeyColumn::Asc(types::kInt4Oid, "a"), KeyColumn::Desc(types::kTextOid, "b"),
                 KeyColumn::Desc(types::kFloat8Oid, "c", false)}};
  BtCreateEmpty(idx);
  struct Row {
    std::optional<int> a;
    std::optional<std::string> b;
    std::optional<double> c;
    int64_t n;
  };
  std::mt19937 rng(3);
  std::vector<Row> rows;
  for (int n = 0; n < 6000; ++n) {
    Row r;
    if (rng() % 10) r.a = static_cast<int>(rng() % 50) - 25;
    if (rng() % 10) r.b = std::string(1 + rng() % 3, static_cast<char>('a' + rng() % 4));
    if (rng() % 10) r.c = static_cast<double>(rng() % 7) / 2;
    r.n = n;
    rows.push_back(r);
    std::vector<Value> key{r.a ? Value::Int4(*r.a) : Value::Null(types::kInt4Oid),
                           r.b ? Value::Text(*r.b) : Value::Null(types::kTextOid),
                           r.c ? Value::Float8(*r.c) : Value::Null(types::kFloat8Oid)};
    REQUIRE(BtInsert(idx, key, TidFor(n)).inserted);
  }
  REQUIRE(BtVerify(idx) == "");
  // Independent model of the ordering.
  auto less = [](const Row& x, const Row& y) {
    if (x.a != y.a) {
      if (!x.a) return false;  // NULLS LAST
      if (!y.a) return true;
      return *x.a < *y.a;
    }
    if (x.b != y.b) {
      if (!x.b) return true;  // NULLS FIRST
      if (!y.b) return false;
      return *x.b > *y.b;  // DESC
    }
    if (x.c != y.c) {
      if (!x.c) return false;  // NULLS LAST
      if (!y.c) return true;
      return *x.c > *y.c;  // DESC
    }
    return x.n < y.n;  // TID tie-break
  };
  std::vector<Row> sorted = rows;
  std::sort(sorted.begin(), sorted.end(), less);
  std::vector<int64_t> want;
  for (const Row& r : sorted) want.push_back(r.n);
  std::vector<int64_t> got;
  for (ItemPointer t : ScanAll(idx)) got.push_back(NumberOf(t));
  CHECK(got == want);

  // Prefix equality a = 3, and a = 3 AND b = 'bb'; IS NULL on a.
  auto scan_numbers = [&](std::vector<ScanKey> conds, ScanDirection dir = ScanDirection::kForward) {
    std::vector<int64_t> out;
    for (ItemPointer t : ScanAll(idx, dir, std::move(conds))) out.push_back(NumberOf(t));
    return out;
  };
  auto filtered = [&](auto pred) {
    std::vector<int64_t> out;
    for (const Row& r : sorted)
      if (pred(r)) out.push_back(r.n);
    return out;
  };
  CHECK(scan_numbers({ScanKey{ScanOp::kEq, {Value::Int4(3)}}}) == filtered([](const Row& r) { return r.a == 3; }));
  CHECK(scan_numbers({ScanKey{ScanOp::kEq, {Value::Int4(3), Value::Text("bb")}}}) ==
        filtered([](const Row& r) { return r.a == 3 && r.b == std::string("bb"); }));
  CHECK(scan_numbers({ScanKey{ScanOp::kEq, {Value::Null(types::kInt4Oid)}}}) ==
        filtered([](const Row& r) { return !r.a; }));
  // a > 20 never returns NULL a (they sort last), forward or backward.
  std::vector<int64_t> gt = filtered([](const Row& r) { return r.a && *r.a > 20; });
  CHECK(scan_numbers({ScanKey{ScanOp::kGt, {Value::Int4(20)}}}) == gt);
  std::reverse(gt.begin(), gt.end());
  CHECK(scan_numbers({ScanKey{ScanOp::kGt, {Value::Int4(20)}}}, ScanDirection::kBackward) == gt);
  // a = 3 AND b "before" 'b' in index order (DESC: b > 'b'), b non-null.
  CHECK(scan_numbers({ScanKey{ScanOp::kGe, {Value::Int4(3)}},
                      ScanKey{ScanOp::kLt, {Value::Int4(3), Value::Text("b")}}}) ==
        filtered([](const Row& r) { return r.a == 3 && r.b && *r.b > "b"; }));
}

TEST_CASE("unique index: violation message, dead and in-progress duplicates, NULLs", "[nbtree][unique]") {
  HeapCluster c(64);
  IndexDesc idx{c.CreateRel(3200), "t_pkey", {KeyColumn::Asc(types::kInt4Oid, "id")}};
  BtCreateEmpty(idx);
  std::map<int64_t, UniqueProbe> state;  // entry number → heap answer
  UniqueCheckFn check = [&](ItemPointer t) {
    auto it = state.find(NumberOf(t));
    return it == state.end() ? UniqueProbe{HeapTupleState::kLive, 0} : it->second;
  };
  for (int n = 0; n < 2000; ++n) {
    Value v = Value::Int4(n);
    REQUIRE(BtInsert(idx, std::span<const Value>(&v, 1), TidFor(n), &check).inserted);
  }
  Value five = Value::Int4(5);
  try {
    BtInsert(idx, std::span<const Value>(&five, 1), TidFor(5000), &check);
    FAIL("no error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "23505");
    CHECK(e.message() == "duplicate key value violates unique constraint \"t_pkey\"");
    CHECK(e.detail() == "Key (id)=(5) already exists.");
  }
  // The old row is dead: the insert goes through.
  state[5] = UniqueProbe{HeapTupleState::kDead, 0};
  CHECK(BtInsert(idx, std::span<const Value>(&five, 1), TidFor(5001), &check).inserted);
  // Two entries with key 5 now; one in progress → wait for its xid, nothing inserted.
  state[5001] = UniqueProbe{HeapTupleState::kInProgress, 777};
  InsertResult r = BtInsert(idx, std::span<const Value>(&five, 1), TidFor(5002), &check);
  CHECK_FALSE(r.inserted);
  CHECK(r.wait_xid == 777);
  CHECK(ScanAll(idx, ScanDirection::kForward, {ScanKey{ScanOp::kEq, {five}}}).size() == 2);
  // After the wait the inserter committed: now a live duplicate.
  state.erase(5001);
  CHECK_THROWS_AS(BtInsert(idx, std::span<const Value>(&five, 1), TidFor(5002), &check), DbError);
  // A non-unique insert of the same key is fine.
  CHECK(BtInsert(idx, std::span<const Value>(&five, 1), TidFor(5003)).inserted);
  CHECK(BtVerify(idx) == "");

  // Multi-column detail, NULLs never conflict, duplicates spanning pages are all probed.
  IndexDesc two{c.CreateRel(3201), "t_a_b_key",
                {KeyColumn::Asc(types::kInt4Oid, "a"), KeyColumn::Asc(types::kTextOid, "b")}};
  BtCreateEmpty(two);
  std::vector<Value> k1{Value::Int4(1), Value::Text("x")};
  std::vector<Value> kn{Value::Int4(1), Value::Null(types::kTextOid)};
  // 1500 dead versions of (1, 'x') span several leaves; the live one is last.
  for (int n = 0; n < 1500; ++n) {
    state[10000 + n] = UniqueProbe{HeapTupleState::kDead, 0};
    REQUIRE(BtInsert(two, k1, TidFor(10000 + n), &check).inserted);
  }
  REQUIRE(BtInsert(two, k1, TidFor(12000), &check).inserted);  // live
  REQUIRE(BtVerify(two) == "");
  try {
    BtInsert(two, k1, TidFor(100), &check);  // lower TID: lands on the first leaf, the live one is pages away
    FAIL("no error");
  } catch (const DbError& e) {
    CHECK(e.message() == "duplicate key value violates unique constraint \"t_a_b_key\"");
    CHECK(e.detail() == "Key (a, b)=(1, x) already exists.");
  }
  CHECK(BtInsert(two, kn, TidFor(20001), &check).inserted);
  CHECK(BtInsert(two, kn, TidFor(20002), &check).inserted);

  // Text and date values in the detail.
  IndexDesc dt{c.CreateRel(3202), "d_key",
               {KeyColumn::Asc(types::kDateOid, "d"), KeyColumn::Asc(types::kBpcharOid, "c")}};
  BtCreateEmpty(dt);
  std::vector<Value> kd{Value::Int(types::kDateOid, 366), Value::Bytes(types::kBpcharOid, "ab  ")};
  REQUIRE(BtInsert(dt, kd, TidFor(1), &check).inserted);
  std::vector<Value> kd2{Value::Int(types::kDateOid, 366), Value::Bytes(types::kBpcharOid, "ab")};
  try {
    BtInsert(dt, kd2, TidFor(2), &check);
    FAIL("no error");
  } catch (const DbError& e) {
    CHECK(e.detail() == "Key (d, c)=(2001-01-01, ab) already exists.");
  }
}

TEST_CASE("oversized entries are rejected with 54000", "[nbtree][keys]") {
  HeapCluster c(64);
  IndexDesc idx{c.CreateRel(3300), "big_idx", {KeyColumn::Asc(types::kTextOid, "t")}};
  BtCreateEmpty(idx);
  Value ok = Value::Text(std::string(2600, 'a'));
  CHECK(BtInsert(idx, std::span<const Value>(&ok, 1), TidFor(1)).inserted);
  Value big = Value::Text(std::string(3000, 'a'));
  try {
    BtInsert(idx, std::span<const Value>(&big, 1), TidFor(2));
    FAIL("no error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "54000");
  }
  // Many maximal entries: every split still finds room.
  for (int n = 0; n < 200; ++n) {
    Value v = Value::Text(std::string(2600, static_cast<char>('a' + n % 26)) + std::to_string(n));
    REQUIRE(BtInsert(idx, std::span<const Value>(&v, 1), TidFor(10 + n)).inserted);
  }
  CHECK(BtVerify(idx) == "");
  CHECK(ScanAll(idx).size() == 201);
}
