// server/utils/adt/json.h
//
// The json and jsonb types. Both parse with PostgreSQL 15's JSON lexer and
// recursive-descent grammar (same error messages, DETAIL and the
// `JSON data, line N: ...` CONTEXT) into a JsonNode tree.
//
// Representation in Value::str:
// - json: the input text verbatim (validated on input).
// - jsonb: the canonical text jsonb_out prints (`{"a": 1, "bb": [1, 2]}`):
//   object keys ordered by length then bytes, duplicate keys resolved to
//   the last value, numbers in numeric's canonical form, strings de-escaped
//   and re-escaped. Operators parse it back (always valid).
// Ordering and equality of jsonb follow PostgreSQL's compareJsonbContainers
// (jsonb_order.cpp); `JsonbSortKey` encodes a value so that memcmp order is
// that order, which btree keys and hash keys use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "utils/adt/cast.h"
#include "utils/adt/value.h"

namespace hearth::types {

inline constexpr Oid kJsonOid = 114;
inline constexpr Oid kJsonbOid = 3802;
inline constexpr Oid kJsonpathOid = 4072;
inline constexpr Oid kJsonArrayOid = 199;
inline constexpr Oid kJsonbArrayOid = 3807;

// Kinds in jsonb's type order (null < string < number < bool < array < object).
enum class JsonKind : uint8_t { kNull, kString, kNumber, kBool, kArray, kObject };

struct JsonNode {
  JsonKind kind = JsonKind::kNull;
  bool b = false;
  std::string str;                // string contents (de-escaped) / number text
  std::vector<JsonNode> items;    // array elements, object values
  std::vector<std::string> keys;  // object keys, parallel to items
  std::string_view raw;           // json: this value's source text (ParseJson with keep_raw)

  static JsonNode Null() { return {}; }
  static JsonNode String(std::string s) {
    JsonNode n;
    n.kind = JsonKind::kString;
    n.str = std::move(s);
    return n;
  }
  static JsonNode Number(std::string s) {
    JsonNode n;
    n.kind = JsonKind::kNumber;
    n.str = std::move(s);
    return n;
  }
  static JsonNode Bool(bool v) {
    JsonNode n;
    n.kind = JsonKind::kBool;
    n.b = v;
    return n;
  }
  static JsonNode Array() {
    JsonNode n;
    n.kind = JsonKind::kArray;
    return n;
  }
  static JsonNode Object() {
    JsonNode n;
    n.kind = JsonKind::kObject;
    return n;
  }
  bool IsContainer() const { return kind == JsonKind::kArray || kind == JsonKind::kObject; }
  // Object member by key (last one for json's duplicate keys), or null.
  const JsonNode* Find(std::string_view key) const;
};

// How parsed text is checked and converted.
struct JsonParseOptions {
  const char* type_name = "json";  // in "invalid input syntax for type %s"
  bool de_escape = true;           // build string contents (\u0000 → 22P05)
  bool keep_raw = false;           // fill JsonNode::raw (views into text)
};

// Parses JSON text. Throws DbError 22P02 with PostgreSQL's DETAIL/CONTEXT,
// 22P05 for \u0000 when de-escaping, 54001 past a nesting depth of 6400.
JsonNode ParseJson(std::string_view text, const JsonParseOptions& opt);
// Checks json input; the value keeps the text verbatim.
void ValidateJson(std::string_view text);

// jsonb normal form: keys sorted by (length, bytes), last duplicate wins,
// numbers canonical (numeric text).
void NormalizeJsonb(JsonNode* node);
// The jsonb tree of a stored jsonb value (canonical text; never throws for it).
JsonNode JsonbTree(const Value& v);
// A json or jsonb value as a tree (json: raw spans point into v.str).
JsonNode JsonTree(const Value& v);
// jsonb_out's text (", " and ": " separators); pretty: jsonb_pretty's.
void AppendJsonb(const JsonNode& n, std::string* out, bool pretty = false, int indent = 0);
std::string JsonbText(const JsonNode& n);
// A normalized tree as a jsonb Value.
Value JsonbValue(JsonNode n);
// A jsonb/json text-form scalar string: "..." with escape_json's rules.
void AppendJsonString(std::string_view s, std::string* out);

// PostgreSQL's jsonb comparison (-1/0/1) and memcmp-ordered key.
int CompareJsonb(const JsonNode& a, const JsonNode& b);
int CompareJsonbValues(const Value& a, const Value& b);
void AppendJsonbSortKey(const JsonNode& n, std::string* out);
std::string JsonbSortKey(const Value& v);

// jsonb binary format (version byte 1 + text) and its receive check.
void AppendJsonbBinary(const Value& v, std::string* out);
Value ReceiveJsonbBinary(std::string_view b);

// pg_cast's json rows (json_cast.cpp): the context a json ↔ jsonb or
// jsonb → bool/number cast needs (nullopt: not such a cast), and doing it.
std::optional<CoercionContext> JsonCastContext(Oid from, Oid to);
Value CastJson(const Value& v, Oid to, int32_t typmod);

// Scalar/container name as json_typeof prints it ("object", "number", ...).
const char* JsonTypeName(JsonKind k);

}  // namespace hearth::types
