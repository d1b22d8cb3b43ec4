// server/utils/adt/json_edit.cpp
//
// Principal entry point: AddJsonEditBuiltins — jsonb functions that change
// a document: jsonb_set, jsonb_insert, #- (JsonDeletePath),
// json(b)_strip_nulls and jsonb_pretty, with PostgreSQL 15's path rules
// (array steps must be integers, 22P02; missing intermediate steps change
// nothing; a scalar document is 22023).
#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/json_funcs.h"

namespace hearth::types {
namespace {

using Path = std::vector<std::optional<std::string>>;

// The array position a path step names (22P02 if it is not an integer).
int64_t StepIndex(const Path& path, size_t level) {
  std::optional<int64_t> idx = ParsePathIndex(*path[level]);
  if (!idx)
    throw DbError(sqlstate::kInvalidTextRepresentation,
                  "path element at position " + std::to_string(level + 1) + " is not an integer: \"" +
                      *path[level] + "\"");
  return *idx;
}

void CheckNoNullSteps(const Path& path) {
  for (size_t i = 0; i < path.size(); ++i)
    if (!path[i])
      throw DbError(sqlstate::kNullValueNotAllowed,
                    "path element at position " + std::to_string(i + 1) + " is null");
}

size_t KeyIndex(const JsonNode& n, std::string_view key) {
  for (size_t i = 0; i < n.keys.size(); ++i)
    if (n.keys[i] == key) return i;
  return n.keys.size();
}

enum class SetMode { kReplaceOrCreate, kReplaceOnly, kInsertBefore, kInsertAfter };

// setPath: walks `path` from `level` in `n` and sets/inserts `value` at its end.
void SetPath(JsonNode* n, const Path& path, size_t level, const JsonNode& value, SetMode mode) {
  const bool last = level + 1 == path.size();
  const std::string& step = *path[level];
  if (n->kind == JsonKind::kObject) {
    const size_t i = KeyIndex(*n, step);
    if (i < n->keys.size()) {
      if (!last) return SetPath(&n->items[i], path, level + 1, value, mode);
      if (mode == SetMode::kInsertBefore || mode == SetMode::kInsertAfter)
        throw DbError(sqlstate::kInvalidParameterValue, "cannot replace existing key")
            .WithHint("Try using the function jsonb_set to replace key value.");
      n->items[i] = value;
      return;
    }
    if (last && mode != SetMode::kReplaceOnly) {
      n->keys.push_back(step);
      n->items.push_back(value);
    }
    return;
  }
  if (n->kind != JsonKind::kArray) return;
  int64_t idx = StepIndex(path, level);
  const auto size = static_cast<int64_t>(n->items.size());
  if (idx < 0) idx += size;
  if (idx >= 0 && idx < size) {
    auto pos = n->items.begin() + idx;
    if (!last) return SetPath(&*pos, path, level + 1, value, mode);
    if (mode == SetMode::kInsertBefore) {
      n->items.insert(pos, value);
    } else if (mode == SetMode::kInsertAfter) {
      n->items.insert(pos + 1, value);
    } else {
      *pos = value;
    }
    return;
  }
  if (!last || mode == SetMode::kReplaceOnly) return;
  // Out of range: before the first element or after the last.
  if (idx < 0) {
    n->items.insert(n->items.begin(), value);
  } else {
    n->items.push_back(value);
  }
}

Value JsonbSet(const Value* a, int nargs, FuncCallContext&) {
  JsonNode n = JsonbTree(a[0]);
  const Path path = TextArrayItems(a[1]);
  if (!n.IsContainer()) throw DbError(sqlstate::kInvalidParameterValue, "cannot set path in scalar");
  const bool create = nargs < 4 || a[3].b;
  CheckNoNullSteps(path);
  if (path.empty()) return a[0];
  SetPath(&n, path, 0, JsonbTree(a[2]), create ? SetMode::kReplaceOrCreate : SetMode::kReplaceOnly);
  return JsonbValue(std::move(n));
}

Value JsonbInsert(const Value* a, int nargs, FuncCallContext&) {
  JsonNode n = JsonbTree(a[0]);
  const Path path = TextArrayItems(a[1]);
  if (!n.IsContainer()) throw DbError(sqlstate::kInvalidParameterValue, "cannot set path in scalar");
  CheckNoNullSteps(path);
  if (path.empty()) return a[0];
  const bool after = nargs >= 4 && a[3].b;
  SetPath(&n, path, 0, JsonbTree(a[2]), after ? SetMode::kInsertAfter : SetMode::kInsertBefore);
  return JsonbValue(std::move(n));
}

// jsonb_set_lax: as jsonb_set unless the new value is SQL NULL, then per
// null_value_treatment (default use_json_null).
Value JsonbSetLax(const Value* a, int nargs, FuncCallContext& ctx) {
  if (a[0].is_null || a[1].is_null) return Value::Null(kJsonbOid);
  const std::string treatment = nargs >= 5 ? (a[4].is_null ? std::string() : a[4].str) : "use_json_null";
  if (treatment != "raise_exception" && treatment != "use_json_null" && treatment != "delete_key" &&
      treatment != "return_target")
    throw DbError(sqlstate::kInvalidParameterValue,
                  "null_value_treatment must be \"delete_key\", \"return_target\", \"use_json_null\", or "
                  "\"raise_exception\"");
  Value args[4] = {a[0], a[1], a[2], nargs >= 4 && !a[3].is_null ? a[3] : Value::Bool(true)};
  if (!a[2].is_null) return JsonbSet(args, 4, ctx);
  if (treatment == "raise_exception")
    throw DbError(sqlstate::kNullValueNotAllowed, "JSON value must not be null")
        .WithDetail("Exception was raised because null_value_treatment is \"raise_exception\".")
        .WithHint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not "
                  "passed.");
  if (treatment == "return_target") return a[0];
  if (treatment == "delete_key") {
    JsonNode n = JsonbTree(a[0]);
    if (!n.IsContainer()) throw DbError(sqlstate::kInvalidParameterValue, "cannot delete path in scalar");
    JsonDeletePath(&n, TextArrayItems(a[1]));
    return JsonbValue(std::move(n));
  }
  args[2] = Value::Bytes(kJsonbOid, "null");
  return JsonbSet(args, 4, ctx);
}

void StripNulls(JsonNode* n) {
  if (n->kind == JsonKind::kObject) {
    for (size_t i = 0; i < n->items.size();) {
      if (n->items[i].kind == JsonKind::kNull) {
        n->items.erase(n->items.begin() + static_cast<std::ptrdiff_t>(i));
        n->keys.erase(n->keys.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
  for (JsonNode& c : n->items) StripNulls(&c);
}

// json_strip_nulls keeps json's scalars as written and prints containers
// without blanks, as PostgreSQL's json_strip_nulls does.
void AppendCompactJson(const JsonNode& n, std::string* out) {
  if (!n.IsContainer()) {
    out->append(n.raw);
    return;
  }
  const bool obj = n.kind == JsonKind::kObject;
  out->push_back(obj ? '{' : '[');
  for (size_t i = 0; i < n.items.size(); ++i) {
    if (i > 0) out->push_back(',');
    if (obj) {
      AppendJsonString(n.keys[i], out);
      out->push_back(':');
    }
    AppendCompactJson(n.items[i], out);
  }
  out->push_back(obj ? '}' : ']');
}

Value StripNullsFn(const Value* a, int, FuncCallContext&) {
  JsonNode n = JsonTree(a[0]);
  StripNulls(&n);
  if (a[0].type == kJsonbOid) return JsonbValue(std::move(n));
  std::string s;
  AppendCompactJson(n, &s);
  return Value::Bytes(kJsonOid, std::move(s));
}

Value Pretty(const Value* a, int, FuncCallContext&) {
  std::string s;
  AppendJsonb(JsonbTree(a[0]), &s, /*pretty=*/true);
  return Value::Text(std::move(s));
}

}  // namespace

void JsonDeletePath(JsonNode* n, const Path& path) {
  for (size_t level = 0; level < path.size(); ++level) {
    if (!path[level])
      throw DbError(sqlstate::kNullValueNotAllowed,
                    "path element at position " + std::to_string(level + 1) + " is null");
    const bool last = level + 1 == path.size();
    if (n->kind == JsonKind::kObject) {
      const size_t i = KeyIndex(*n, *path[level]);
      if (i == n->keys.size()) return;
      if (last) {
        n->keys.erase(n->keys.begin() + static_cast<std::ptrdiff_t>(i));
        n->items.erase(n->items.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
      n = &n->items[i];
    } else if (n->kind == JsonKind::kArray) {
      int64_t idx = StepIndex(path, level);
      const auto size = static_cast<int64_t>(n->items.size());
      if (idx < 0) idx += size;
      if (idx < 0 || idx >= size) return;
      if (last) {
        n->items.erase(n->items.begin() + idx);
        return;
      }
      n = &n->items[static_cast<size_t>(idx)];
    } else {
      return;
    }
  }
}

namespace internal {

void AddJsonEditBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  const Oid JB = kJsonbOid, TA = kTextArrayOid, B = kBoolOid;
  t->push_back(Row("jsonb_set", kFn, {JB, TA, JB}, JB, JsonbSet));
  t->push_back(Row("jsonb_set", kFn, {JB, TA, JB, B}, JB, JsonbSet));
  t->push_back(Row("jsonb_set_lax", kFn, {JB, TA, JB}, JB, JsonbSetLax, /*strict=*/false));
  t->push_back(Row("jsonb_set_lax", kFn, {JB, TA, JB, B}, JB, JsonbSetLax, /*strict=*/false));
  t->push_back(Row("jsonb_set_lax", kFn, {JB, TA, JB, B, kTextOid}, JB, JsonbSetLax, /*strict=*/false));
  t->push_back(Row("jsonb_insert", kFn, {JB, TA, JB}, JB, JsonbInsert));
  t->push_back(Row("jsonb_insert", kFn, {JB, TA, JB, B}, JB, JsonbInsert));
  t->push_back(Row("jsonb_strip_nulls", kFn, {JB}, JB, StripNullsFn));
  t->push_back(Row("json_strip_nulls", kFn, {kJsonOid}, kJsonOid, StripNullsFn));
  t->push_back(Row("jsonb_pretty", kFn, {JB}, kTextOid, Pretty));
}

}  // namespace internal
}  // namespace hearth::types
