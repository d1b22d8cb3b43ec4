// server/utils/adt/array_string.cpp
//
// Principal entry points: the array_to_string and string_to_array rows of
// the registry — arrays to and from delimited text, NULL elements spelled
// by the optional third argument as in PostgreSQL.
#include "utils/adt/array.h"
#include "utils/adt/builtins.h"
#include "utils/adt/text_io.h"

namespace hearth::types::internal {
namespace {

// array_to_string(arr, sep [, null_string]); not strict: NULL arr or sep
// gives NULL, a NULL null_string skips NULL elements.
Value ArrayToString(const Value* a, int n, FuncCallContext&) {
  if (a[0].is_null || a[1].is_null) return Value::Null(kTextOid);
  const bool spell_nulls = n > 2 && !a[2].is_null;
  ArrayData arr = DeconstructArray(a[0]);
  std::string out;
  bool first = true;
  for (const Value& e : arr.elems) {
    if (e.is_null && !spell_nulls) continue;
    if (!first) out += a[1].str;
    first = false;
    if (e.is_null) {
      out += a[2].str;
    } else {
      AppendOutput(e, &out);
    }
  }
  return Value::Text(std::move(out));
}

// string_to_array(str, sep [, null_string]): a NULL separator splits into
// characters, an empty one yields the whole string; '' gives '{}'.
Value StringToArray(const Value* a, int n, FuncCallContext&) {
  if (a[0].is_null) return Value::Null(kTextArrayOid);
  const std::string& s = a[0].str;
  std::vector<Value> parts;
  auto add = [&](std::string piece) {
    if (n > 2 && !a[2].is_null && piece == a[2].str) {
      parts.push_back(Value::Null(kTextOid));
    } else {
      parts.push_back(Value::Text(std::move(piece)));
    }
  };
  if (s.empty()) return MakeArray1D(kTextOid, {});
  if (a[1].is_null) {
    for (size_t i = 0; i < s.size();) {
      // One UTF-8 character: the lead byte and its continuation bytes.
      size_t len = 1;
      while (i + len < s.size() && (static_cast<unsigned char>(s[i + len]) & 0xC0) == 0x80) ++len;
      add(s.substr(i, len));
      i += len;
    }
  } else if (a[1].str.empty()) {
    add(s);
  } else {
    const std::string& sep = a[1].str;
    size_t start = 0;
    for (size_t pos; (pos = s.find(sep, start)) != std::string::npos; start = pos + sep.size()) {
      add(s.substr(start, pos - start));
    }
    add(s.substr(start));
  }
  return MakeArray1D(kTextOid, std::move(parts));
}

}  // namespace

void AddArrayStringBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  const Oid T = kTextOid;
  t->push_back(Row("array_to_string", kFn, {kAnyArrayOid, T}, T, ArrayToString));
  t->push_back(Row("array_to_string", kFn, {kAnyArrayOid, T, T}, T, ArrayToString, /*strict=*/false));
  t->push_back(Row("string_to_array", kFn, {T, T}, kTextArrayOid, StringToArray, /*strict=*/false));
  t->push_back(Row("string_to_array", kFn, {T, T, T}, kTextArrayOid, StringToArray, /*strict=*/false));
}

}  // namespace hearth::types::internal
