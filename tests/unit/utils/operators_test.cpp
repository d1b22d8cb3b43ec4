#include <catch2/catch.hpp>

#include <vector>

#include "test_util.h"
#include "utils/adt/cast.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

using namespace hearth::types;

namespace {

// Resolves and applies a function the way the executor does: coerce each
// argument to the resolved type, then call (strict: NULL in → NULL out).
Value Call(const ResolvedFunc& f, std::vector<Value> args) {
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = CastValue(args[i], f.arg_types[i], kNoTypmod, CoercionContext::kImplicit);
    if (f.sig->strict && args[i].is_null) return Value::Null(f.result_type);
  }
  FuncCallContext ctx;
  return f.sig->fn(args.data(), static_cast<int>(args.size()), ctx);
}

Value Op(const char* op, const Value& l, const Value& r) {
  return Call(ResolveOperator(op, l.type, r.type), {l, r});
}

std::string OpS(const char* op, const Value& l, const Value& r) { return OutputValue(Op(op, l, r)); }

Value Fn(const char* name, std::vector<Value> args) {
  std::vector<Oid> types;
  for (const Value& v : args) types.push_back(v.type);
  return Call(ResolveFunction(name, types), std::move(args));
}

std::string FnS(const char* name, std::vector<Value> args) { return OutputValue(Fn(name, std::move(args))); }

Value I4(int32_t v) { return Value::Int4(v); }
Value I2(int16_t v) { return Value::Int(kInt2Oid, v); }
Value I8(int64_t v) { return Value::Int8(v); }
Value U(const char* s) { return Value::Bytes(kUnknownOid, s); }
Value Tx(const char* s) { return Value::Text(s); }
Value Num(const char* s) { return InputValue(kNumericOid, -1, s); }

}  // namespace

TEST_CASE("integer arithmetic with overflow checks", "[operators]") {
  CHECK(OpS("+", I4(1), I4(2)) == "3");
  CHECK(Op("+", I4(1), I4(2)).type == kInt4Oid);
  CHECK(OpS("/", I4(7), I4(2)) == "3");
  CHECK(OpS("/", I4(-7), I4(2)) == "-3");
  CHECK(OpS("%", I4(-7), I4(2)) == "-1");
  auto e = CatchDbError([] { Op("+", I4(2147483647), I4(1)); });
  CHECK(e.sqlstate() == "22003");
  CHECK(e.message() == "integer out of range");
  CHECK(CatchDbError([] { Op("*", I2(200), I2(200)); }).message() == "smallint out of range");
  CHECK(CatchDbError([] { Op("-", I8(INT64_MIN), I8(1)); }).message() == "bigint out of range");
  CHECK(CatchDbError([] { Op("/", I4(INT32_MIN), I4(-1)); }).message() == "integer out of range");
  CHECK(OpS("%", I4(INT32_MIN), I4(-1)) == "0");
  auto z = CatchDbError([] { Op("/", I4(1), I4(0)); });
  CHECK(z.sqlstate() == "22012");
  CHECK(z.message() == "division by zero");
  CHECK(CatchDbError([] { Op("%", I8(1), I8(0)); }).sqlstate() == "22012");
}

TEST_CASE("operator resolution promotes like PostgreSQL", "[operators][resolve]") {
  CHECK(ResolveOperator("+", kInt4Oid, kInt8Oid).result_type == kInt8Oid);
  CHECK(ResolveOperator("+", kInt2Oid, kInt4Oid).result_type == kInt4Oid);
  CHECK(ResolveOperator("+", kInt4Oid, kNumericOid).result_type == kNumericOid);
  CHECK(ResolveOperator("+", kInt4Oid, kFloat8Oid).result_type == kFloat8Oid);
  // float84pl wins over float4pl: its coerced argument is the preferred float8.
  CHECK(ResolveOperator("+", kNumericOid, kFloat4Oid).result_type == kFloat8Oid);
  CHECK(ResolveOperator("+", kFloat4Oid, kFloat4Oid).result_type == kFloat4Oid);
  CHECK(ResolveOperator("+", kUnknownOid, kInt4Oid).result_type == kInt4Oid);
  CHECK(ResolveOperator("^", kInt4Oid, kInt4Oid).result_type == kFloat8Oid);
  CHECK(ResolveOperator("^", kNumericOid, kInt4Oid).result_type == kNumericOid);
  CHECK(ResolveOperator("=", kUnknownOid, kUnknownOid).arg_types[0] == kTextOid);
  CHECK(ResolveOperator("=", kTextOid, kBpcharOid).arg_types[1] == kTextOid);
  CHECK(ResolveOperator("=", kBpcharOid, kUnknownOid).arg_types[1] == kBpcharOid);
  CHECK(ResolveOperator("=", kVarcharOid, kVarcharOid).arg_types[0] == kTextOid);
  CHECK(ResolveOperator("||", kUnknownOid, kUnknownOid).arg_types[1] == kTextOid);
  CHECK(ResolveOperator("-", kInvalidOid, kInt8Oid).result_type == kInt8Oid);
  CHECK(ResolveOperator("-", kDateOid, kDateOid).result_type == kInt4Oid);
  CHECK(ResolveFunction("round", {kInt4Oid}).result_type == kFloat8Oid);
  CHECK(ResolveFunction("round", {kNumericOid, kInt4Oid}).result_type == kNumericOid);
  CHECK(ResolveFunction("length", {kUnknownOid}).arg_types[0] == kTextOid);
  CHECK(ResolveFunction("sum", {kInt4Oid}, FuncKind::kAggregate).result_type == kInt8Oid);
  CHECK(ResolveFunction("sum", {kInt8Oid}, FuncKind::kAggregate).result_type == kNumericOid);
  CHECK(ResolveFunction("avg", {kInt4Oid}, FuncKind::kAggregate).result_type == kNumericOid);
  CHECK(ResolveFunction("count", {}, FuncKind::kAggregate).result_type == kInt8Oid);
  CHECK(ResolveFunction("count", {kTextOid}, FuncKind::kAggregate).result_type == kInt8Oid);
  CHECK(ResolveFunction("max", {kDateOid}, FuncKind::kAggregate).result_type == kDateOid);
}

TEST_CASE("operator and function resolution errors", "[operators][resolve]") {
  auto e = CatchDbError([] { ResolveOperator("+", kInt4Oid, kBoolOid); });
  CHECK(e.sqlstate() == "42883");
  CHECK(e.message() == "operator does not exist: integer + boolean");
  CHECK(e.hint() ==
        "No operator matches the given name and argument types. You might need to add explicit "
        "type casts.");
  CHECK(CatchDbError([] { ResolveOperator("-", kInvalidOid, kBoolOid); }).message() ==
        "operator does not exist: - boolean");
  auto f = CatchDbError([] { ResolveFunction("foo", {kInt4Oid}); });
  CHECK(f.sqlstate() == "42883");
  CHECK(f.message() == "function foo(integer) does not exist");
  CHECK(f.hint() ==
        "No function matches the given name and argument types. You might need to add explicit "
        "type casts.");
  CHECK(CatchDbError([] { ResolveFunction("lower", {kInt4Oid}); }).message() ==
        "function lower(integer) does not exist");
  CHECK(CatchDbError([] { ResolveFunction("substr", {kTextOid}); }).sqlstate() == "42883");
}

TEST_CASE("cross-type comparisons", "[operators]") {
  CHECK(OpS("=", I4(5), I8(5)) == "t");
  CHECK(OpS("<", I4(5), Num("5.5")) == "t");
  CHECK(OpS("=", I4(1), Value::Float8(1.0)) == "t");
  CHECK(OpS(">", Num("1.10"), Num("1.1")) == "f");
  CHECK(OpS("=", Num("1.10"), Num("1.1")) == "t");
  CHECK(OpS("=", U("42"), I4(42)) == "t");
  CHECK(OpS("<>", Tx("a"), Tx("b")) == "t");
  CHECK(OpS("<", Tx("abc"), Tx("abd")) == "t");
  CHECK(OpS("=", Value::Float8(std::nan("")), Value::Float8(std::nan(""))) == "t");
}

TEST_CASE("bpchar compares without trailing blanks", "[operators][string]") {
  Value a = CastValue(Tx("ab"), kBpcharOid, CharTypmod(5), CoercionContext::kExplicit);
  Value b = CastValue(Tx("ab"), kBpcharOid, CharTypmod(3), CoercionContext::kExplicit);
  CHECK(a.str == "ab   ");
  CHECK(OpS("=", a, b) == "t");
  CHECK(OpS("=", a, U("ab")) == "t");
  CHECK(FnS("length", {a}) == "2");
  CHECK(FnS("octet_length", {Tx("héllo")}) == "6");
  CHECK(FnS("length", {Tx("héllo")}) == "5");
}

TEST_CASE("float and numeric arithmetic", "[operators]") {
  CHECK(OpS("+", Value::Float8(0.1), Value::Float8(0.2)) == "0.30000000000000004");
  CHECK(OpS("+", Num("1.10"), Num("2.205")) == "3.305");
  CHECK(OpS("/", Num("10"), I4(3)) == "3.3333333333333333");
  CHECK(OpS("^", I4(2), I4(10)) == "1024");
  CHECK(Op("^", I4(2), I4(10)).type == kFloat8Oid);
  CHECK(OpS("^", Num("2.0"), I4(10)) == "1024.0000000000000000");
  CHECK(CatchDbError([] { Op("/", Value::Float8(1), Value::Float8(0)); }).sqlstate() == "22012");
  CHECK(CatchDbError([] { Op("/", Num("1"), I4(0)); }).sqlstate() == "22012");
  CHECK(CatchDbError([] { Op("*", Value::Float8(1e300), Value::Float8(1e300)); }).message() ==
        "value out of range: overflow");
  CHECK(OpS("%", Num("10.5"), I4(3)) == "1.5");
}

TEST_CASE("text concatenation and string functions", "[operators][string]") {
  CHECK(OpS("||", Tx("ab"), Tx("cd")) == "abcd");
  CHECK(OpS("||", U("ab"), U("cd")) == "abcd");
  CHECK(OpS("||", U("n="), I4(5)) == "n=5");
  CHECK(OpS("||", I4(5), U("!")) == "5!");
  CHECK(OpS("||", Tx("x"), Value::Bool(true)) == "xtrue");
  CHECK(Op("||", Tx("x"), Value::Null(kTextOid)).is_null);
  CHECK(FnS("lower", {U("HeLLo")}) == "hello");
  CHECK(FnS("upper", {U("HeLLo")}) == "HELLO");
  CHECK(FnS("substr", {U("hello"), I4(2), I4(3)}) == "ell");
  CHECK(FnS("substring", {U("hello"), I4(0), I4(3)}) == "he");
  CHECK(FnS("substr", {U("hello"), I4(3)}) == "llo");
  CHECK(FnS("btrim", {U("  hi  ")}) == "hi");
  CHECK(FnS("ltrim", {U("xxhixx"), U("x")}) == "hixx");
  CHECK(FnS("rtrim", {U("xxhixx"), U("x")}) == "xxhi");
  CHECK(FnS("replace", {U("a-b-c"), U("-"), U("+")}) == "a+b+c");
  CHECK(FnS("position", {U("hello"), U("ll")}) == "3");
  CHECK(FnS("position", {U("hello"), U("z")}) == "0");
  CHECK(FnS("concat", {U("a"), I4(1), Value::Null(kTextOid), Value::Bool(true)}) == "a1t");
  CHECK(FnS("left", {U("hello"), I4(2)}) == "he");
  CHECK(FnS("right", {U("hello"), I4(-1)}) == "ello");
  CHECK(FnS("repeat", {U("ab"), I4(3)}) == "ababab");
}

TEST_CASE("LIKE and ILIKE", "[string][like]") {
  CHECK(LikeMatch("abc", "a%"));
  CHECK(LikeMatch("abc", "_b_"));
  CHECK_FALSE(LikeMatch("abc", "_b"));
  CHECK(LikeMatch("abc", "%"));
  CHECK(LikeMatch("", "%"));
  CHECK_FALSE(LikeMatch("", "_"));
  CHECK(LikeMatch("a%c", "a\\%c"));
  CHECK_FALSE(LikeMatch("abc", "a\\%c"));
  CHECK(LikeMatch("a_c", "a#_c", U'#'));
  CHECK(LikeMatch("héllo", "h_llo"));
  CHECK(LikeMatch("ABC", "a%", U'\\', true));
  CHECK_FALSE(LikeMatch("ABC", "a%"));
  CHECK(LikeMatch("mississippi", "%iss%ppi"));
  CHECK(LikeMatch("mississippi", "m%ss%s_ppi"));
  CHECK_FALSE(LikeMatch("mississippi", "m%ss%s_pi"));
  CHECK(LikeMatch("abcabc", "%abc"));
  CHECK(LikeMatch("a", "%%_%%"));
  CHECK_FALSE(LikeMatch("", "%_%"));
  CHECK(LikeMatch("x\\y", "x\\\\y"));  // text x\y, pattern x\\y: escaped backslash
  // Backtracking stays linear-ish: this would be exponential with naive recursion.
  CHECK_FALSE(LikeMatch(std::string(2000, 'a'), "%a%a%a%a%a%a%a%a%b"));
  auto e = CatchDbError([] { LikeMatch("abc", "abc\\"); });
  CHECK(e.sqlstate() == "22025");
  CHECK(e.message() == "LIKE pattern must not end with escape character");
  CHECK(OpS("~~", U("abc"), U("a%")) == "t");
  CHECK(OpS("!~~", U("abc"), U("a%")) == "f");
  CHECK(OpS("~~*", U("ABC"), U("a%")) == "t");
}

TEST_CASE("math and date functions", "[operators]") {
  CHECK(FnS("abs", {I4(-5)}) == "5");
  CHECK(FnS("abs", {Num("-1.50")}) == "1.50");
  CHECK(FnS("round", {Num("2.5")}) == "3");
  CHECK(FnS("round", {Num("2.567"), I4(2)}) == "2.57");
  CHECK(FnS("round", {Value::Float8(2.5)}) == "2");
  CHECK(FnS("trunc", {Num("-2.567"), I4(1)}) == "-2.5");
  CHECK(FnS("ceil", {Num("1.1")}) == "2");
  CHECK(FnS("floor", {Value::Float8(-1.1)}) == "-2");
  CHECK(FnS("mod", {I4(10), I4(3)}) == "1");
  CHECK(FnS("sqrt", {Value::Float8(16)}) == "4");
  CHECK(FnS("power", {I4(2), I4(3)}) == "8");
  Value d = InputValue(kDateOid, -1, "2026-11-30");
  CHECK(OpS("+", d, I4(1)) == "2026-12-01");
  CHECK(OpS("-", d, I4(30)) == "2026-10-31");
  CHECK(OpS("-", d, InputValue(kDateOid, -1, "2026-01-01")) == "333");
  CHECK(OpS("<", d, InputValue(kTimestampOid, -1, "2026-11-30 00:00:01")) == "t");
  double r = Fn("random", {}).f;
  CHECK(r >= 0.0);
  CHECK(r < 1.0);
}

TEST_CASE("session functions read the callbacks", "[operators][session]") {
  SessionCallbacks cb;
  cb.database_name = [] { return std::string("bench"); };
  cb.current_user = [] { return std::string("alice"); };
  cb.get_setting = [](std::string_view n) -> std::optional<std::string> {
    if (n == "work_mem") return "4MB";
    return std::nullopt;
  };
  cb.backend_pid = [] { return 4242; };
  cb.transaction_timestamp = [] { return int64_t{86400} * 1000000; };
  FuncCallContext ctx;
  ctx.session = &cb;
  auto call = [&](const char* name, std::vector<Value> args) {
    std::vector<Oid> types;
    for (const Value& v : args) types.push_back(v.type);
    ResolvedFunc f = ResolveFunction(name, types);
    for (size_t i = 0; i < args.size(); ++i) {
      args[i] = CastValue(args[i], f.arg_types[i], -1, CoercionContext::kImplicit);
    }
    return OutputValue(f.sig->fn(args.data(), static_cast<int>(args.size()), ctx));
  };
  CHECK(call("current_database", {}) == "bench");
  CHECK(call("current_user", {}) == "alice");
  CHECK(call("session_user", {}) == "alice");
  CHECK(call("current_schema", {}) == "public");
  CHECK(call("current_setting", {U("work_mem")}) == "4MB");
  auto e = CatchDbError([&] { call("current_setting", {U("nope")}); });
  CHECK(e.sqlstate() == "42704");
  CHECK(e.message() == "unrecognized configuration parameter \"nope\"");
  CHECK(call("pg_backend_pid", {}) == "4242");
  CHECK(call("now", {}) == "2000-01-02 00:00:00+00");
  CHECK(call("current_date", {}) == "2000-01-02");
  CHECK(call("version", {}).rfind("PostgreSQL 15", 0) == 0);
}

TEST_CASE("select_common_type", "[resolve]") {
  CHECK(SelectCommonType({kInt4Oid, kInt8Oid}, "CASE") == kInt8Oid);
  CHECK(SelectCommonType({kInt4Oid, kNumericOid, kUnknownOid}, "CASE") == kNumericOid);
  CHECK(SelectCommonType({kUnknownOid, kUnknownOid}, "CASE") == kTextOid);
  CHECK(SelectCommonType({kFloat8Oid, kInt4Oid}, "COALESCE") == kFloat8Oid);
  // text and varchar coerce both ways implicitly: the first one wins.
  CHECK(SelectCommonType({kVarcharOid, kTextOid}, "CASE") == kVarcharOid);
  CHECK(SelectCommonType({kTextOid, kVarcharOid}, "CASE") == kTextOid);
  auto e = CatchDbError([] { SelectCommonType({kInt4Oid, kBoolOid}, "CASE"); });
  CHECK(e.sqlstate() == "42804");
  CHECK(e.message() == "CASE types integer and boolean cannot be matched");
}
