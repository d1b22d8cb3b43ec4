// server/utils/adt/json_ops.cpp
//
// Principal entry point: AddJsonOperatorBuiltins — the json/jsonb access
// operators (-> ->> #> #>>), jsonb's containment and existence operators
// (@> <@ ? ?| ?&) and its editing operators (|| - #-), with PostgreSQL 15's
// semantics and errors. json results are the source text of the selected
// value (json keeps its input verbatim); jsonb results are canonical text.
#include <optional>

#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/builtins.h"
#include "utils/adt/json.h"
#include "utils/adt/json_funcs.h"
#include "utils/adt/numeric.h"

namespace hearth::types {

Value JsonResult(Oid type, const JsonNode& n) {
  if (type == kJsonOid) return Value::Bytes(kJsonOid, std::string(n.raw));
  return Value::Bytes(kJsonbOid, JsonbText(n));
}

Value JsonTextResult(Oid type, const JsonNode& n) {
  switch (n.kind) {
    case JsonKind::kNull: return Value::Null(kTextOid);
    case JsonKind::kString: return Value::Text(n.str);
    case JsonKind::kBool: return Value::Text(n.b ? "true" : "false");
    case JsonKind::kNumber:
      return Value::Text(type == kJsonOid ? std::string(n.raw) : n.str);
    default: return Value::Text(type == kJsonOid ? std::string(n.raw) : JsonbText(n));
  }
}

const JsonNode* JsonArrayElement(const JsonNode& n, int64_t index) {
  if (n.kind != JsonKind::kArray) return nullptr;
  const auto size = static_cast<int64_t>(n.items.size());
  if (index < 0) index += size;
  if (index < 0 || index >= size) return nullptr;
  return &n.items[static_cast<size_t>(index)];
}

std::optional<int64_t> ParsePathIndex(const std::string& s) {
  if (s.empty()) return std::nullopt;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  int64_t v = 0;
  for (size_t k = i; k < s.size(); ++k) {
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
    v = v * 10 + (s[k] - '0');
    if (v > 2147483647) return std::nullopt;
  }
  return s[0] == '-' ? -v : v;
}

std::vector<std::optional<std::string>> TextArrayItems(const Value& arr) {
  ArrayData a = DeconstructArray(arr);
  std::vector<std::optional<std::string>> out;
  out.reserve(a.elems.size());
  for (Value& e : a.elems) {
    if (e.is_null) {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(std::move(e.str));
    }
  }
  return out;
}

const JsonNode* JsonPathGet(const JsonNode& root, const std::vector<std::optional<std::string>>& path) {
  const JsonNode* cur = &root;
  for (const auto& step : path) {
    if (!step) return nullptr;
    if (cur->kind == JsonKind::kObject) {
      cur = cur->Find(*step);
    } else if (cur->kind == JsonKind::kArray) {
      std::optional<int64_t> idx = ParsePathIndex(*step);
      cur = idx ? JsonArrayElement(*cur, *idx) : nullptr;
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

namespace {

// -> / ->> with a text key or an int index.
template <bool AsText>
Value FieldOp(const Value* a, int, FuncCallContext&) {
  const Oid type = a[0].type;
  const Oid result = AsText ? kTextOid : type;
  JsonNode root = JsonTree(a[0]);
  const JsonNode* n = a[1].type == kInt4Oid ? JsonArrayElement(root, a[1].i) : root.Find(a[1].str);
  if (n == nullptr) return Value::Null(result);
  return AsText ? JsonTextResult(type, *n) : JsonResult(type, *n);
}

template <bool AsText>
Value PathOp(const Value* a, int, FuncCallContext&) {
  const Oid type = a[0].type;
  const Oid result = AsText ? kTextOid : type;
  JsonNode root = JsonTree(a[0]);
  const JsonNode* n = JsonPathGet(root, TextArrayItems(a[1]));
  if (n == nullptr) return Value::Null(result);
  return AsText ? JsonTextResult(type, *n) : JsonResult(type, *n);
}

bool ScalarEquals(const JsonNode& a, const JsonNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case JsonKind::kNull: return true;
    case JsonKind::kBool: return a.b == b.b;
    case JsonKind::kString: return a.str == b.str;
    case JsonKind::kNumber: return Numeric::Compare(Numeric::Parse(a.str), Numeric::Parse(b.str)) == 0;
    default: return false;
  }
}

// PostgreSQL's JsonbDeepContains on two values of the same kind.
bool DeepContains(const JsonNode& a, const JsonNode& b) {
  if (a.kind != b.kind) return false;
  if (!a.IsContainer()) return ScalarEquals(a, b);
  if (a.kind == JsonKind::kObject) {
    if (b.items.size() > a.items.size()) return false;
    for (size_t i = 0; i < b.items.size(); ++i) {
      const JsonNode* av = a.Find(b.keys[i]);
      if (av == nullptr || !DeepContains(*av, b.items[i])) return false;
    }
    return true;
  }
  for (const JsonNode& want : b.items) {
    bool found = false;
    for (const JsonNode& have : a.items) {
      if (want.IsContainer() ? DeepContains(have, want) : ScalarEquals(have, want)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

bool JsonbContains(const JsonNode& a, const JsonNode& b) {
  // A top-level array contains a top-level scalar it has as an element.
  if (a.kind == JsonKind::kArray && !b.IsContainer()) {
    for (const JsonNode& have : a.items)
      if (ScalarEquals(have, b)) return true;
    return false;
  }
  return DeepContains(a, b);
}

namespace {

Value ContainsOp(const Value* a, int, FuncCallContext&) {
  return Value::Bool(JsonbContains(JsonbTree(a[0]), JsonbTree(a[1])));
}
Value ContainedOp(const Value* a, int, FuncCallContext&) {
  return Value::Bool(JsonbContains(JsonbTree(a[1]), JsonbTree(a[0])));
}

bool HasKey(const JsonNode& n, std::string_view key) {
  if (n.kind == JsonKind::kObject) return n.Find(key) != nullptr;
  if (n.kind == JsonKind::kArray) {
    for (const JsonNode& e : n.items)
      if (e.kind == JsonKind::kString && e.str == key) return true;
    return false;
  }
  return n.kind == JsonKind::kString && n.str == key;
}

Value ExistsOp(const Value* a, int, FuncCallContext&) { return Value::Bool(HasKey(JsonbTree(a[0]), a[1].str)); }

template <bool All>
Value ExistsAnyAllOp(const Value* a, int, FuncCallContext&) {
  const JsonNode n = JsonbTree(a[0]);
  for (const auto& key : TextArrayItems(a[1])) {
    if (!key) continue;  // NULL keys are ignored
    const bool has = HasKey(n, *key);
    if (All && !has) return Value::Bool(false);
    if (!All && has) return Value::Bool(true);
  }
  return Value::Bool(All);
}

// jsonb || jsonb: objects merge (right wins); otherwise both sides as
// arrays (a scalar or object is a one-element array) concatenated.
Value ConcatOp(const Value* a, int, FuncCallContext&) {
  JsonNode x = JsonbTree(a[0]), y = JsonbTree(a[1]);
  if (x.kind == JsonKind::kObject && y.kind == JsonKind::kObject) {
    for (size_t i = 0; i < y.items.size(); ++i) {
      x.keys.push_back(std::move(y.keys[i]));
      x.items.push_back(std::move(y.items[i]));
    }
    return JsonbValue(std::move(x));
  }
  auto as_array = [](JsonNode n) {
    if (n.kind == JsonKind::kArray) return n;
    JsonNode arr = JsonNode::Array();
    arr.items.push_back(std::move(n));
    return arr;
  };
  JsonNode r = as_array(std::move(x));
  for (JsonNode& e : as_array(std::move(y)).items) r.items.push_back(std::move(e));
  return JsonbValue(std::move(r));
}

[[noreturn]] void Invalid(const std::string& msg) { throw DbError(sqlstate::kInvalidParameterValue, msg); }

void RemoveKey(JsonNode* n, std::string_view key) {
  for (size_t i = 0; i < n->items.size();) {
    const bool hit = n->kind == JsonKind::kObject
                         ? n->keys[i] == key
                         : (n->items[i].kind == JsonKind::kString && n->items[i].str == key);
    if (hit) {
      n->items.erase(n->items.begin() + static_cast<std::ptrdiff_t>(i));
      if (n->kind == JsonKind::kObject) n->keys.erase(n->keys.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

Value DeleteKeyOp(const Value* a, int, FuncCallContext&) {
  JsonNode n = JsonbTree(a[0]);
  if (!n.IsContainer()) Invalid("cannot delete from scalar");
  RemoveKey(&n, a[1].str);
  return JsonbValue(std::move(n));
}

Value DeleteKeysOp(const Value* a, int, FuncCallContext&) {
  JsonNode n = JsonbTree(a[0]);
  if (!n.IsContainer()) Invalid("cannot delete from scalar");
  for (const auto& key : TextArrayItems(a[1]))
    if (key) RemoveKey(&n, *key);
  return JsonbValue(std::move(n));
}

Value DeleteIndexOp(const Value* a, int, FuncCallContext&) {
  JsonNode n = JsonbTree(a[0]);
  if (!n.IsContainer()) Invalid("cannot delete from scalar");
  if (n.kind == JsonKind::kObject) Invalid("cannot delete from object using integer index");
  int64_t idx = a[1].i;
  const auto size = static_cast<int64_t>(n.items.size());
  if (idx < 0) idx += size;
  if (idx >= 0 && idx < size) n.items.erase(n.items.begin() + idx);
  return JsonbValue(std::move(n));
}

Value DeletePathOp(const Value* a, int, FuncCallContext&) {
  JsonNode n = JsonbTree(a[0]);
  if (!n.IsContainer()) Invalid("cannot delete path in scalar");
  JsonDeletePath(&n, TextArrayItems(a[1]));
  return JsonbValue(std::move(n));
}

// The function forms taking VARIADIC text: the path as a text[].
Value VariadicPath(const Value* a, int nargs) {
  std::vector<Value> steps(a + 1, a + nargs);
  return MakeArray1D(kTextOid, std::move(steps));
}

template <bool AsText>
Value ExtractPathFn(const Value* a, int nargs, FuncCallContext& ctx) {
  if (a[0].is_null) return Value::Null(AsText ? kTextOid : a[0].type);
  const Value args[2] = {a[0], VariadicPath(a, nargs)};
  return PathOp<AsText>(args, 2, ctx);
}

Value DeleteVariadicFn(const Value* a, int nargs, FuncCallContext& ctx) {
  if (a[0].is_null) return Value::Null(kJsonbOid);
  const Value args[2] = {a[0], VariadicPath(a, nargs)};
  return DeleteKeysOp(args, 2, ctx);
}

}  // namespace

namespace internal {

void AddJsonOperatorBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kOp = FuncKind::kOperator;
  const Oid J = kJsonOid, JB = kJsonbOid, T = kTextOid, I4 = kInt4Oid, TA = kTextArrayOid, B = kBoolOid;
  for (Oid X : {J, JB}) {
    t->push_back(Row("->", kOp, {X, T}, X, FieldOp<false>));
    t->push_back(Row("->", kOp, {X, I4}, X, FieldOp<false>));
    t->push_back(Row("->>", kOp, {X, T}, T, FieldOp<true>));
    t->push_back(Row("->>", kOp, {X, I4}, T, FieldOp<true>));
    t->push_back(Row("#>", kOp, {X, TA}, X, PathOp<false>));
    t->push_back(Row("#>>", kOp, {X, TA}, T, PathOp<true>));
  }
  t->push_back(Row("@>", kOp, {JB, JB}, B, ContainsOp));
  t->push_back(Row("<@", kOp, {JB, JB}, B, ContainedOp));
  t->push_back(Row("?", kOp, {JB, T}, B, ExistsOp));
  t->push_back(Row("?|", kOp, {JB, TA}, B, ExistsAnyAllOp<false>));
  t->push_back(Row("?&", kOp, {JB, TA}, B, ExistsAnyAllOp<true>));
  t->push_back(Row("||", kOp, {JB, JB}, JB, ConcatOp));
  t->push_back(Row("-", kOp, {JB, T}, JB, DeleteKeyOp));
  t->push_back(Row("-", kOp, {JB, TA}, JB, DeleteKeysOp));
  t->push_back(Row("-", kOp, {JB, I4}, JB, DeleteIndexOp));
  t->push_back(Row("#-", kOp, {JB, TA}, JB, DeletePathOp));

  // The functions behind the operators, callable by name as in PostgreSQL.
  constexpr FuncKind kFn = FuncKind::kFunction;
  constexpr bool kNonStrict = false, kVariadic = true;
  for (Oid X : {J, JB}) {
    const bool b = X == JB;
    t->push_back(Row(b ? "jsonb_object_field" : "json_object_field", kFn, {X, T}, X, FieldOp<false>));
    t->push_back(Row(b ? "jsonb_object_field_text" : "json_object_field_text", kFn, {X, T}, T, FieldOp<true>));
    t->push_back(Row(b ? "jsonb_array_element" : "json_array_element", kFn, {X, I4}, X, FieldOp<false>));
    t->push_back(Row(b ? "jsonb_array_element_text" : "json_array_element_text", kFn, {X, I4}, T, FieldOp<true>));
    t->push_back(Row(b ? "jsonb_extract_path" : "json_extract_path", kFn, {X, T}, X, ExtractPathFn<false>,
                     kNonStrict, kVariadic));
    t->push_back(Row(b ? "jsonb_extract_path_text" : "json_extract_path_text", kFn, {X, T}, T,
                     ExtractPathFn<true>, kNonStrict, kVariadic));
  }
  for (Oid X : {J, JB}) {
    const bool b = X == JB;
    t->push_back(Row(VariadicArrayForm(b ? "jsonb_extract_path" : "json_extract_path"), kFn, {X, TA}, X,
                     PathOp<false>));
    t->push_back(Row(VariadicArrayForm(b ? "jsonb_extract_path_text" : "json_extract_path_text"), kFn, {X, TA}, T,
                     PathOp<true>));
  }
  t->push_back(Row(VariadicArrayForm("jsonb_delete"), kFn, {JB, TA}, JB, DeleteKeysOp));
  t->push_back(Row("jsonb_contains", kFn, {JB, JB}, B, ContainsOp));
  t->push_back(Row("jsonb_contained", kFn, {JB, JB}, B, ContainedOp));
  t->push_back(Row("jsonb_exists", kFn, {JB, T}, B, ExistsOp));
  t->push_back(Row("jsonb_exists_any", kFn, {JB, TA}, B, ExistsAnyAllOp<false>));
  t->push_back(Row("jsonb_exists_all", kFn, {JB, TA}, B, ExistsAnyAllOp<true>));
  t->push_back(Row("jsonb_concat", kFn, {JB, JB}, JB, ConcatOp));
  t->push_back(Row("jsonb_delete", kFn, {JB, T}, JB, DeleteVariadicFn, kNonStrict, kVariadic));
  t->push_back(Row("jsonb_delete", kFn, {JB, I4}, JB, DeleteIndexOp));
  t->push_back(Row("jsonb_delete_path", kFn, {JB, TA}, JB, DeletePathOp));
}

}  // namespace internal
}  // namespace hearth::types
