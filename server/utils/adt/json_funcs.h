// server/utils/adt/json_funcs.h
//
// Internal to hearth_types: helpers the json/jsonb builtin files share
// (json_ops.cpp, json_edit.cpp, json_build.cpp, json_srf.cpp,
// json_aggs.cpp) and their registry hooks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "utils/adt/func_registry.h"
#include "utils/adt/json.h"

namespace hearth::types {

// A selected value as the operator's result: json → its source text
// (n.raw), jsonb → canonical text.
Value JsonResult(Oid type, const JsonNode& n);
// ->>'s text: strings de-escaped, null → SQL NULL, others as printed.
Value JsonTextResult(Oid type, const JsonNode& n);
// Array element by index (negative counts from the end), or null.
const JsonNode* JsonArrayElement(const JsonNode& n, int64_t index);
// A path step as an array index ("2", "-1"), nullopt if not an integer.
std::optional<int64_t> ParsePathIndex(const std::string& s);
// A text[]'s elements (NULL elements as nullopt).
std::vector<std::optional<std::string>> TextArrayItems(const Value& arr);
// #>'s walk: the value at the path, or null (a NULL step finds nothing).
const JsonNode* JsonPathGet(const JsonNode& root, const std::vector<std::optional<std::string>>& path);
// jsonb @>.
bool JsonbContains(const JsonNode& a, const JsonNode& b);
// #-: removes the value at the path (no change if it is missing).
void JsonDeletePath(JsonNode* root, const std::vector<std::optional<std::string>>& path);

// datum_to_json: a SQL value as json text (arrays "[1,2]", strings quoted,
// numbers bare, timestamps ISO 8601) and as a jsonb tree.
void AppendValueAsJson(const Value& v, std::string* out);
JsonNode ValueAsJsonb(const Value& v);

// The json aggregates' running text (json_aggs.cpp): args are [value] or
// [key, value] (object_agg); n_before = rows added so far.
void JsonAggAdd(bool jsonb, const Value* args, int nargs, int64_t n_before, std::string* acc);
Value JsonAggFinish(bool jsonb, bool object, const std::string& acc);

namespace internal {
void AddJsonOperatorBuiltins(std::vector<FuncSignature>* table);
void AddJsonEditBuiltins(std::vector<FuncSignature>* table);
void AddJsonBuildBuiltins(std::vector<FuncSignature>* table);
}  // namespace internal

}  // namespace hearth::types
