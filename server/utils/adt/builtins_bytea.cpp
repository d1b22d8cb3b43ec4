// server/utils/adt/builtins_bytea.cpp
//
// bytea operators and functions: ||, length/octet_length, substr/substring,
// get_byte/set_byte, encode/decode, md5 and the sha2 family, as
// PostgreSQL 15 defines them. Positions count bytes.
#include <algorithm>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/bytea.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr Oid BY = kByteaOid;
constexpr Oid T = kTextOid;
constexpr Oid I4 = kInt4Oid;

Value Bytea(std::string s) { return Value::Bytes(kByteaOid, std::move(s)); }

Value Cat(const Value* a, int, FuncCallContext&) { return Bytea(a[0].str + a[1].str); }
Value Length(const Value* a, int, FuncCallContext&) { return Value::Int4(static_cast<int32_t>(a[0].str.size())); }

// substr(b, start [, count]) over bytes, with PostgreSQL's clipping rules.
Value Substr(const Value* a, int n, FuncCallContext&) {
  const std::string& s = a[0].str;
  auto [from, end] = SubstrWindowOf(a, n);
  int64_t size = static_cast<int64_t>(s.size());
  if (end <= from || from > size) return Bytea("");
  int64_t to = std::min(end, size + 1);
  return Bytea(s.substr(from - 1, to - from));
}

void CheckIndex(int64_t k, size_t size) {
  if (k < 0 || static_cast<size_t>(k) >= size) {
    throw DbError("2202E", "index " + std::to_string(k) + " out of valid range, 0.." +
                               std::to_string(static_cast<int64_t>(size) - 1));
  }
}
Value GetByte(const Value* a, int, FuncCallContext&) {
  CheckIndex(a[1].i, a[0].str.size());
  return Value::Int4(static_cast<unsigned char>(a[0].str[a[1].i]));
}
Value SetByte(const Value* a, int, FuncCallContext&) {
  CheckIndex(a[1].i, a[0].str.size());
  std::string s = a[0].str;
  s[a[1].i] = static_cast<char>(a[2].i & 0xFF);
  return Bytea(std::move(s));
}

Value Encode(const Value* a, int, FuncCallContext&) { return Value::Text(EncodeBytes(a[0].str, a[1].str)); }
Value Decode(const Value* a, int, FuncCallContext&) { return Bytea(DecodeText(a[0].str, a[1].str)); }

Value Md5(const Value* a, int, FuncCallContext&) { return Value::Text(HexOf(DigestBytes(a[0].str, "md5"))); }
template <const char* Name>
Value Sha(const Value* a, int, FuncCallContext&) { return Bytea(DigestBytes(a[0].str, Name)); }
constexpr char kSha224[] = "sha224";
constexpr char kSha256[] = "sha256";
constexpr char kSha384[] = "sha384";
constexpr char kSha512[] = "sha512";

}  // namespace

void AddByteaBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("||", FuncKind::kOperator, {BY, BY}, BY, Cat));
  t->push_back(Row("length", kFn, {BY}, I4, Length));
  t->push_back(Row("octet_length", kFn, {BY}, I4, Length));
  for (const char* name : {"substr", "substring"}) {
    t->push_back(Row(name, kFn, {BY, I4}, BY, Substr));
    t->push_back(Row(name, kFn, {BY, I4, I4}, BY, Substr));
  }
  t->push_back(Row("get_byte", kFn, {BY, I4}, I4, GetByte));
  t->push_back(Row("set_byte", kFn, {BY, I4, I4}, BY, SetByte));
  t->push_back(Row("encode", kFn, {BY, T}, T, Encode));
  t->push_back(Row("decode", kFn, {T, T}, BY, Decode));
  t->push_back(Row("md5", kFn, {BY}, T, Md5));
  t->push_back(Row("sha224", kFn, {BY}, BY, Sha<kSha224>));
  t->push_back(Row("sha256", kFn, {BY}, BY, Sha<kSha256>));
  t->push_back(Row("sha384", kFn, {BY}, BY, Sha<kSha384>));
  t->push_back(Row("sha512", kFn, {BY}, BY, Sha<kSha512>));
}

}  // namespace hearth::types::internal
