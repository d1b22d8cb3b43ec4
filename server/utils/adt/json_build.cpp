// server/utils/adt/json_build.cpp
//
// Principal entry points: AppendValueAsJson (PostgreSQL's datum_to_json),
// AddJsonBuildBuiltins — to_json/to_jsonb, array_to_json,
// json(b)_build_object/array, json(b)_object, json(b)_typeof and
// json(b)_array_length. Spacing follows PostgreSQL exactly: to_json of an
// array is "[1,2]", json_build_object "{"a" : 1}", json_build_array
// "[1, 2]"; the jsonb forms are normalized jsonb.
#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/builtins.h"
#include "utils/adt/json_funcs.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

bool IsValidJsonNumber(std::string_view s) {
  try {
    JsonParseOptions opt;
    opt.de_escape = false;
    return ParseJson(s, opt).kind == JsonKind::kNumber;
  } catch (const DbError&) {
    return false;
  }
}

bool IsNumberType(Oid t) {
  return t == kInt2Oid || t == kInt4Oid || t == kInt8Oid || t == kFloat4Oid || t == kFloat8Oid ||
         t == kNumericOid || t == kOidOid;
}

// XSD form of a date/timestamp: 'T' between date and time, zone as +hh:mm.
std::string IsoDateTime(const Value& v) {
  std::string s = OutputValue(v);
  if (s == "infinity" || s == "-infinity" || v.type == kDateOid) return s;
  const size_t space = s.find(' ');
  if (space != std::string::npos) s[space] = 'T';
  if (v.type == kTimestampTzOid) {
    const size_t sign = s.find_last_of("+-");
    if (sign != std::string::npos && sign > 10 && s.size() - sign == 3) s += ":00";
  }
  return s;
}

// Elements of dimension `dim` starting at *pos, as "[a,b]" (pretty: ",\n "
// between the outermost elements, as array_to_json(x, true)).
void AppendArrayDim(const ArrayData& a, size_t dim, size_t* pos, bool pretty, std::string* out) {
  out->push_back('[');
  for (int32_t i = 0; i < a.dims[dim]; ++i) {
    if (i > 0) out->append(pretty && dim == 0 ? ",\n " : ",");
    if (dim + 1 < a.dims.size()) {
      AppendArrayDim(a, dim + 1, pos, false, out);
    } else {
      AppendValueAsJson(a.elems[(*pos)++], out);
    }
  }
  out->push_back(']');
}

void AppendArrayAsJson(const Value& v, bool pretty, std::string* out) {
  const ArrayData a = DeconstructArray(v);
  if (a.dims.empty()) {
    out->append("[]");
    return;
  }
  size_t pos = 0;
  AppendArrayDim(a, 0, &pos, pretty, out);
}

Value JsonText(std::string s) { return Value::Bytes(kJsonOid, std::move(s)); }

// ---- to_json, array_to_json ----
Value ToJson(const Value* a, int, FuncCallContext&) {
  std::string s;
  AppendValueAsJson(a[0], &s);
  return JsonText(std::move(s));
}
Value ToJsonb(const Value* a, int, FuncCallContext&) { return JsonbValue(ValueAsJsonb(a[0])); }

Value ArrayToJson(const Value* a, int nargs, FuncCallContext&) {
  std::string s;
  AppendArrayAsJson(a[0], nargs > 1 && a[1].b, &s);
  return JsonText(std::move(s));
}

// ---- build_object / build_array ----
std::string ObjectKey(const Value* a, int i, bool jsonb) {
  const Value& k = a[i];
  if (k.is_null) {
    if (jsonb)
      throw DbError(sqlstate::kNullValueNotAllowed, "argument " + std::to_string(i + 1) + ": key must not be null");
    throw DbError(sqlstate::kNullValueNotAllowed, "argument " + std::to_string(i + 1) + " cannot be null")
        .WithHint("Object keys should be text.");
  }
  if (IsArrayType(k.type) || k.type == kJsonOid || k.type == kJsonbOid || k.type == kRecordOid)
    throw DbError(sqlstate::kInvalidParameterValue, "key value must be scalar, not array, composite, or json");
  if (k.type == kBoolOid) return k.b ? "true" : "false";
  if (k.type == kDateOid || k.type == kTimestampOid || k.type == kTimestampTzOid) return IsoDateTime(k);
  return OutputValue(k);
}

void CheckEvenArgs(int nargs, const char* fn) {
  if (nargs % 2 != 0)
    throw DbError(sqlstate::kInvalidParameterValue, "argument list must have even number of elements")
        .WithHint(std::string("The arguments of ") + fn + "() must consist of alternating keys and values.");
}

Value BuildObject(const Value* a, int nargs, FuncCallContext&) {
  CheckEvenArgs(nargs, "json_build_object");
  std::string s = "{";
  for (int i = 0; i < nargs; i += 2) {
    if (i > 0) s += ", ";
    AppendJsonString(ObjectKey(a, i, false), &s);
    s += " : ";
    AppendValueAsJson(a[i + 1], &s);
  }
  s += "}";
  return JsonText(std::move(s));
}

Value BuildObjectB(const Value* a, int nargs, FuncCallContext&) {
  CheckEvenArgs(nargs, "jsonb_build_object");
  JsonNode n = JsonNode::Object();
  for (int i = 0; i < nargs; i += 2) {
    n.keys.push_back(ObjectKey(a, i, true));
    n.items.push_back(ValueAsJsonb(a[i + 1]));
  }
  return JsonbValue(std::move(n));
}

Value BuildArray(const Value* a, int nargs, FuncCallContext&) {
  std::string s = "[";
  for (int i = 0; i < nargs; ++i) {
    if (i > 0) s += ", ";
    AppendValueAsJson(a[i], &s);
  }
  s += "]";
  return JsonText(std::move(s));
}

Value BuildArrayB(const Value* a, int nargs, FuncCallContext&) {
  JsonNode n = JsonNode::Array();
  for (int i = 0; i < nargs; ++i) n.items.push_back(ValueAsJsonb(a[i]));
  return JsonbValue(std::move(n));
}

// f(VARIADIC arr): the array's elements as the arguments; NULL array → NULL.
template <Value (*Fn)(const Value*, int, FuncCallContext&), Oid kResult>
Value FromVariadicArray(const Value* a, int, FuncCallContext& ctx) {
  if (a[0].is_null) return Value::Null(kResult);
  const ArrayData d = DeconstructArray(a[0]);
  return Fn(d.elems.data(), static_cast<int>(d.elems.size()), ctx);
}

Value EmptyObject(const Value*, int, FuncCallContext&) { return JsonText("{}"); }
Value EmptyArray(const Value*, int, FuncCallContext&) { return JsonText("[]"); }
Value EmptyObjectB(const Value*, int, FuncCallContext&) { return Value::Bytes(kJsonbOid, "{}"); }
Value EmptyArrayB(const Value*, int, FuncCallContext&) { return Value::Bytes(kJsonbOid, "[]"); }

// ---- json_object(text[]) / json_object(keys, values) ----
[[noreturn]] void ArrayError(const char* msg) { throw DbError("2202E", msg); }

std::vector<std::pair<std::string, std::optional<std::string>>> ObjectPairs(const Value* a, int nargs) {
  std::vector<std::pair<std::string, std::optional<std::string>>> pairs;
  auto add = [&](const Value& k, const Value& v) {
    if (k.is_null) throw DbError(sqlstate::kNullValueNotAllowed, "null value not allowed for object key");
    pairs.emplace_back(k.str, v.is_null ? std::nullopt : std::optional<std::string>(v.str));
  };
  if (nargs == 2) {
    ArrayData k = DeconstructArray(a[0]), v = DeconstructArray(a[1]);
    if (k.dims.size() > 1 || v.dims.size() > 1) ArrayError("wrong number of array subscripts");
    if (k.elems.size() != v.elems.size()) ArrayError("mismatched array dimensions");
    for (size_t i = 0; i < k.elems.size(); ++i) add(k.elems[i], v.elems[i]);
    return pairs;
  }
  ArrayData d = DeconstructArray(a[0]);
  if (d.dims.size() == 1) {
    if (d.elems.size() % 2 != 0) ArrayError("array must have even number of elements");
  } else if (d.dims.size() == 2) {
    if (d.dims[1] != 2) ArrayError("array must have two columns");
  } else if (!d.dims.empty()) {
    ArrayError("wrong number of array subscripts");
  }
  for (size_t i = 0; i + 1 < d.elems.size(); i += 2) add(d.elems[i], d.elems[i + 1]);
  return pairs;
}

Value JsonObjectFn(const Value* a, int nargs, FuncCallContext&) {
  std::string s = "{";
  bool first = true;
  for (auto& [k, v] : ObjectPairs(a, nargs)) {
    if (!first) s += ", ";
    first = false;
    AppendJsonString(k, &s);
    s += " : ";
    if (v) {
      AppendJsonString(*v, &s);
    } else {
      s += "null";
    }
  }
  s += "}";
  return JsonText(std::move(s));
}

Value JsonbObjectFn(const Value* a, int nargs, FuncCallContext&) {
  JsonNode n = JsonNode::Object();
  for (auto& [k, v] : ObjectPairs(a, nargs)) {
    n.keys.push_back(std::move(k));
    n.items.push_back(v ? JsonNode::String(std::move(*v)) : JsonNode::Null());
  }
  return JsonbValue(std::move(n));
}

// ---- typeof / array_length ----
Value TypeOf(const Value* a, int, FuncCallContext&) { return Value::Text(JsonTypeName(JsonTree(a[0]).kind)); }

Value ArrayLength(const Value* a, int, FuncCallContext&) {
  const JsonNode n = JsonTree(a[0]);
  if (n.kind == JsonKind::kArray) return Value::Int4(static_cast<int32_t>(n.items.size()));
  throw DbError(sqlstate::kInvalidParameterValue, n.kind == JsonKind::kObject
                                                      ? "cannot get array length of a non-array"
                                                      : "cannot get array length of a scalar");
}

}  // namespace

void AppendValueAsJson(const Value& v, std::string* out) {
  if (v.is_null) {
    out->append("null");
    return;
  }
  if (IsArrayType(v.type)) return AppendArrayAsJson(v, false, out);
  switch (v.type) {
    case kBoolOid: out->append(v.b ? "true" : "false"); return;
    case kJsonOid:
    case kJsonbOid: out->append(v.str); return;
    case kDateOid:
    case kTimestampOid:
    case kTimestampTzOid: AppendJsonString(IsoDateTime(v), out); return;
    default: break;
  }
  std::string s = OutputValue(v);
  if (IsNumberType(v.type) && IsValidJsonNumber(s)) {
    out->append(s);
  } else {
    AppendJsonString(s, out);
  }
}

JsonNode ValueAsJsonb(const Value& v) {
  if (v.type == kJsonbOid && !v.is_null) return JsonbTree(v);
  std::string s;
  AppendValueAsJson(v, &s);
  JsonNode n = ParseJson(s, JsonParseOptions{});
  NormalizeJsonb(&n);
  return n;
}

namespace internal {

void AddJsonBuildBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  constexpr bool kNonStrict = false, kVariadic = true;
  const Oid J = kJsonOid, JB = kJsonbOid, TA = kTextArrayOid;
  t->push_back(Row("to_json", kFn, {kAnyElementOid}, J, ToJson));
  t->push_back(Row("to_jsonb", kFn, {kAnyElementOid}, JB, ToJsonb));
  t->push_back(Row("array_to_json", kFn, {kAnyArrayOid}, J, ArrayToJson));
  t->push_back(Row("array_to_json", kFn, {kAnyArrayOid, kBoolOid}, J, ArrayToJson));
  t->push_back(Row("json_build_object", kFn, {kAnyOid}, J, BuildObject, kNonStrict, kVariadic));
  t->push_back(Row("json_build_object", kFn, {}, J, EmptyObject));
  t->push_back(Row("jsonb_build_object", kFn, {kAnyOid}, JB, BuildObjectB, kNonStrict, kVariadic));
  t->push_back(Row("jsonb_build_object", kFn, {}, JB, EmptyObjectB));
  t->push_back(Row("json_build_array", kFn, {kAnyOid}, J, BuildArray, kNonStrict, kVariadic));
  t->push_back(Row("json_build_array", kFn, {}, J, EmptyArray));
  t->push_back(Row("jsonb_build_array", kFn, {kAnyOid}, JB, BuildArrayB, kNonStrict, kVariadic));
  t->push_back(Row("jsonb_build_array", kFn, {}, JB, EmptyArrayB));
  // Their VARIADIC-array call forms (func_registry.h: VariadicArrayForm).
  t->push_back(Row(VariadicArrayForm("json_build_object"), kFn, {kAnyArrayOid}, J,
                   FromVariadicArray<BuildObject, kJsonOid>, kNonStrict));
  t->push_back(Row(VariadicArrayForm("jsonb_build_object"), kFn, {kAnyArrayOid}, JB,
                   FromVariadicArray<BuildObjectB, kJsonbOid>, kNonStrict));
  t->push_back(Row(VariadicArrayForm("json_build_array"), kFn, {kAnyArrayOid}, J,
                   FromVariadicArray<BuildArray, kJsonOid>, kNonStrict));
  t->push_back(Row(VariadicArrayForm("jsonb_build_array"), kFn, {kAnyArrayOid}, JB,
                   FromVariadicArray<BuildArrayB, kJsonbOid>, kNonStrict));
  t->push_back(Row("json_object", kFn, {TA}, J, JsonObjectFn));
  t->push_back(Row("json_object", kFn, {TA, TA}, J, JsonObjectFn));
  t->push_back(Row("jsonb_object", kFn, {TA}, JB, JsonbObjectFn));
  t->push_back(Row("jsonb_object", kFn, {TA, TA}, JB, JsonbObjectFn));
  // Aggregates: run by AggregateState (json_aggs.cpp).
  constexpr FuncKind kAgg = FuncKind::kAggregate;
  t->push_back(Row("json_agg", kAgg, {kAnyElementOid}, J, nullptr, kNonStrict));
  t->push_back(Row("jsonb_agg", kAgg, {kAnyElementOid}, JB, nullptr, kNonStrict));
  t->push_back(Row("json_object_agg", kAgg, {kAnyOid, kAnyOid}, J, nullptr, kNonStrict));
  t->push_back(Row("jsonb_object_agg", kAgg, {kAnyOid, kAnyOid}, JB, nullptr, kNonStrict));
  t->push_back(Row("json_typeof", kFn, {J}, kTextOid, TypeOf));
  t->push_back(Row("jsonb_typeof", kFn, {JB}, kTextOid, TypeOf));
  t->push_back(Row("json_array_length", kFn, {J}, kInt4Oid, ArrayLength));
  t->push_back(Row("jsonb_array_length", kFn, {JB}, kInt4Oid, ArrayLength));
}

}  // namespace internal
}  // namespace hearth::types
