// server/utils/adt/builtins_text.cpp
//
// String operators and functions: ||, LIKE operators, length, lower, upper,
// substr, trim family, replace, position, concat, left/right/repeat.
// Positions and lengths count characters (UTF-8 code points), as in a
// UTF8 PostgreSQL database.
#include <algorithm>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/text_io.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kOp = FuncKind::kOperator;
constexpr FuncKind kFn = FuncKind::kFunction;
constexpr Oid T = kTextOid;
constexpr Oid I4 = kInt4Oid;

Value TextCat(const Value* a, int, FuncCallContext&) { return Value::Text(a[0].str + a[1].str); }
// text || anynonarray is `$1 || $2::text`, so bool reads "true"/"false".
std::string AsText(const Value& v) {
  return v.type == kBoolOid ? (v.b ? "true" : "false") : OutputValue(v);
}
Value TextAnyCat(const Value* a, int, FuncCallContext&) { return Value::Text(a[0].str + AsText(a[1])); }
Value AnyTextCat(const Value* a, int, FuncCallContext&) { return Value::Text(AsText(a[0]) + a[1].str); }

Value Like(const Value* a, int, FuncCallContext&) { return Value::Bool(LikeMatch(a[0].str, a[1].str)); }
Value NotLike(const Value* a, int, FuncCallContext&) { return Value::Bool(!LikeMatch(a[0].str, a[1].str)); }
Value ILike(const Value* a, int, FuncCallContext&) {
  return Value::Bool(LikeMatch(a[0].str, a[1].str, U'\\', true));
}
Value NotILike(const Value* a, int, FuncCallContext&) {
  return Value::Bool(!LikeMatch(a[0].str, a[1].str, U'\\', true));
}

Value Length(const Value* a, int, FuncCallContext&) { return Value::Int4(static_cast<int32_t>(CharLength(a[0].str))); }
Value BpLength(const Value* a, int, FuncCallContext&) {
  return Value::Int4(static_cast<int32_t>(CharLength(BpcharTrim(a[0].str))));
}
Value OctetLength(const Value* a, int, FuncCallContext&) { return Value::Int4(static_cast<int32_t>(a[0].str.size())); }
Value Lower(const Value* a, int, FuncCallContext&) { return Value::Text(AsciiLower(a[0].str)); }
Value Upper(const Value* a, int, FuncCallContext&) { return Value::Text(AsciiUpper(a[0].str)); }

// substr(s, start [, count]): characters start..start+count-1 (1-based),
// clipped to the string; a start before 1 still counts toward `count`.
Value Substr(const Value* a, int n, FuncCallContext&) {
  const std::string& s = a[0].str;
  auto [from, end] = SubstrWindowOf(a, n);
  if (end <= from) return Value::Text("");
  size_t b = CharOffset(s, from - 1);
  size_t e = end == INT64_MAX ? s.size() : CharOffset(s, end - 1);
  return Value::Text(s.substr(b, e - b));
}

// Trims characters in `set` (bytes; ASCII sets are the common case).
Value TrimImpl(const Value* a, int n, bool left, bool right) {
  std::string_view s = a[0].str;
  std::string_view set = n > 1 ? std::string_view(a[1].str) : std::string_view(" ");
  size_t b = 0, e = s.size();
  if (left) {
    while (b < e && set.find(s[b]) != std::string_view::npos) ++b;
  }
  if (right) {
    while (e > b && set.find(s[e - 1]) != std::string_view::npos) --e;
  }
  return Value::Text(std::string(s.substr(b, e - b)));
}
Value Btrim(const Value* a, int n, FuncCallContext&) { return TrimImpl(a, n, true, true); }
Value Ltrim(const Value* a, int n, FuncCallContext&) { return TrimImpl(a, n, true, false); }
Value Rtrim(const Value* a, int n, FuncCallContext&) { return TrimImpl(a, n, false, true); }

Value Replace(const Value* a, int, FuncCallContext&) {
  const std::string& s = a[0].str;
  const std::string& from = a[1].str;
  if (from.empty()) return Value::Text(s);
  std::string out;
  size_t pos = 0;
  for (size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
    out.append(s, pos, hit - pos);
    out.append(a[2].str);
  }
  out.append(s, pos, std::string::npos);
  return Value::Text(std::move(out));
}

// position(haystack, needle) / strpos: 1-based character index, 0 if absent.
Value Position(const Value* a, int, FuncCallContext&) {
  size_t hit = a[0].str.find(a[1].str);
  if (hit == std::string::npos) return Value::Int4(0);
  return Value::Int4(static_cast<int32_t>(CharLength(std::string_view(a[0].str).substr(0, hit)) + 1));
}

// concat(variadic "any"): NULLs are skipped.
Value Concat(const Value* a, int n, FuncCallContext&) {
  std::string out;
  for (int k = 0; k < n; ++k) {
    if (!a[k].is_null) AppendOutput(a[k], &out);
  }
  return Value::Text(std::move(out));
}

Value ConcatWs(const Value* a, int n, FuncCallContext&) {
  if (a[0].is_null) return Value::Null(T);
  std::string out;
  bool first = true;
  for (int k = 1; k < n; ++k) {
    if (a[k].is_null) continue;
    if (!first) out += a[0].str;
    AppendOutput(a[k], &out);
    first = false;
  }
  return Value::Text(std::move(out));
}

Value Left(const Value* a, int, FuncCallContext&) {
  const std::string& s = a[0].str;
  int64_t len = CharLength(s);
  int64_t k = a[1].i >= 0 ? std::min(a[1].i, len) : std::max<int64_t>(len + a[1].i, 0);
  return Value::Text(s.substr(0, CharOffset(s, k)));
}

Value Right(const Value* a, int, FuncCallContext&) {
  const std::string& s = a[0].str;
  int64_t len = CharLength(s);
  int64_t k = a[1].i >= 0 ? std::min(a[1].i, len) : std::max<int64_t>(len + a[1].i, 0);
  return Value::Text(s.substr(CharOffset(s, len - k)));
}

Value Repeat(const Value* a, int, FuncCallContext&) {
  std::string out;
  if (a[1].i > 0) {
    if (static_cast<double>(a[1].i) * static_cast<double>(a[0].str.size()) > 1e9) {
      throw DbError(sqlstate::kProgramLimitExceeded, "requested length too large");
    }
    for (int64_t k = 0; k < a[1].i; ++k) out += a[0].str;
  }
  return Value::Text(std::move(out));
}

Value StartsWith(const Value* a, int, FuncCallContext&) {
  return Value::Bool(a[0].str.compare(0, a[1].str.size(), a[1].str) == 0 &&
                     a[0].str.size() >= a[1].str.size());
}

}  // namespace

SubstrWindow SubstrWindowOf(const Value* a, int n) {
  int64_t start = a[1].i;
  int64_t end = INT64_MAX;
  if (n > 2) {
    if (a[2].i < 0) throw DbError("22011", "negative substring length not allowed");
    end = start + a[2].i;
  }
  return {std::max<int64_t>(start, 1), end};
}

void AddTextBuiltins(std::vector<FuncSignature>* t) {
  const Oid ANY = kAnyNonArrayOid;
  t->push_back(Row("||", kOp, {T, T}, T, TextCat));
  t->push_back(Row("||", kOp, {T, ANY}, T, TextAnyCat));
  t->push_back(Row("||", kOp, {ANY, T}, T, AnyTextCat));
  t->push_back(Row("~~", kOp, {T, T}, kBoolOid, Like));
  t->push_back(Row("!~~", kOp, {T, T}, kBoolOid, NotLike));
  t->push_back(Row("~~*", kOp, {T, T}, kBoolOid, ILike));
  t->push_back(Row("!~~*", kOp, {T, T}, kBoolOid, NotILike));
  for (const char* name : {"length", "char_length", "character_length"}) {
    t->push_back(Row(name, kFn, {T}, I4, Length));
    t->push_back(Row(name, kFn, {kBpcharOid}, I4, BpLength));
  }
  t->push_back(Row("octet_length", kFn, {T}, I4, OctetLength));
  t->push_back(Row("lower", kFn, {T}, T, Lower));
  t->push_back(Row("upper", kFn, {T}, T, Upper));
  for (const char* name : {"substr", "substring"}) {
    t->push_back(Row(name, kFn, {T, I4}, T, Substr));
    t->push_back(Row(name, kFn, {T, I4, I4}, T, Substr));
  }
  t->push_back(Row("btrim", kFn, {T}, T, Btrim));
  t->push_back(Row("btrim", kFn, {T, T}, T, Btrim));
  t->push_back(Row("ltrim", kFn, {T}, T, Ltrim));
  t->push_back(Row("ltrim", kFn, {T, T}, T, Ltrim));
  t->push_back(Row("rtrim", kFn, {T}, T, Rtrim));
  t->push_back(Row("rtrim", kFn, {T, T}, T, Rtrim));
  t->push_back(Row("replace", kFn, {T, T, T}, T, Replace));
  t->push_back(Row("position", kFn, {T, T}, I4, Position));
  t->push_back(Row("strpos", kFn, {T, T}, I4, Position));
  t->push_back(Row("concat", kFn, {kAnyOid}, T, Concat, /*strict=*/false, /*variadic=*/true));
  t->push_back(Row("concat_ws", kFn, {T, kAnyOid}, T, ConcatWs, false, true));
  t->push_back(Row("left", kFn, {T, I4}, T, Left));
  t->push_back(Row("right", kFn, {T, I4}, T, Right));
  t->push_back(Row("repeat", kFn, {T, I4}, T, Repeat));
  t->push_back(Row("starts_with", kFn, {T, T}, kBoolOid, StartsWith));
}

}  // namespace hearth::types::internal
