// server/utils/adt/json_text.cpp
//
// Principal entry points: NormalizeJsonb, AppendJsonb, JsonbTree, JsonTree,
// AppendJsonString, the jsonb binary format. jsonb's text is PostgreSQL's
// jsonb_out ("{"a": 1, "b": [1, 2]}") and jsonb_pretty (4-space indents).
#include <algorithm>
#include <numeric>

#include "common/error/db_error.h"
#include "utils/adt/json.h"
#include "utils/adt/numeric.h"

namespace hearth::types {

void NormalizeJsonb(JsonNode* n) {
  if (n->kind == JsonKind::kNumber) {
    n->str = Numeric::Parse(n->str).ToString();
    return;
  }
  for (JsonNode& c : n->items) NormalizeJsonb(&c);
  if (n->kind != JsonKind::kObject || n->keys.size() < 2) return;
  // Stable order by (length, bytes), then keep the last of equal keys.
  std::vector<size_t> idx(n->keys.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    const std::string &x = n->keys[a], &y = n->keys[b];
    if (x.size() != y.size()) return x.size() < y.size();
    return x < y;
  });
  std::vector<std::string> keys;
  std::vector<JsonNode> items;
  keys.reserve(idx.size());
  items.reserve(idx.size());
  for (size_t k = 0; k < idx.size(); ++k) {
    if (k + 1 < idx.size() && n->keys[idx[k]] == n->keys[idx[k + 1]]) continue;
    keys.push_back(std::move(n->keys[idx[k]]));
    items.push_back(std::move(n->items[idx[k]]));
  }
  n->keys = std::move(keys);
  n->items = std::move(items);
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char ch : s) {
    switch (ch) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(ch));
          out->append(buf);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

namespace {

void NewLine(std::string* out, int indent) {
  out->push_back('\n');
  out->append(static_cast<size_t>(4 * indent), ' ');
}

}  // namespace

void AppendJsonb(const JsonNode& n, std::string* out, bool pretty, int indent) {
  switch (n.kind) {
    case JsonKind::kNull: out->append("null"); return;
    case JsonKind::kBool: out->append(n.b ? "true" : "false"); return;
    case JsonKind::kNumber: out->append(n.str); return;
    case JsonKind::kString: AppendJsonString(n.str, out); return;
    case JsonKind::kArray:
    case JsonKind::kObject: break;
  }
  const bool obj = n.kind == JsonKind::kObject;
  out->push_back(obj ? '{' : '[');
  for (size_t i = 0; i < n.items.size(); ++i) {
    if (i > 0) out->append(pretty ? "," : ", ");
    if (pretty) NewLine(out, indent + 1);
    if (obj) {
      AppendJsonString(n.keys[i], out);
      out->append(": ");
    }
    AppendJsonb(n.items[i], out, pretty, indent + 1);
  }
  if (pretty) NewLine(out, indent);
  out->push_back(obj ? '}' : ']');
}

std::string JsonbText(const JsonNode& n) {
  std::string s;
  AppendJsonb(n, &s);
  return s;
}

Value JsonbValue(JsonNode n) {
  NormalizeJsonb(&n);
  return Value::Bytes(kJsonbOid, JsonbText(n));
}

JsonNode JsonbTree(const Value& v) {
  JsonParseOptions opt;
  opt.type_name = "jsonb";
  return ParseJson(v.str, opt);
}

JsonNode JsonTree(const Value& v) {
  JsonParseOptions opt;
  opt.keep_raw = v.type == kJsonOid;
  JsonNode n = ParseJson(v.str, opt);
  return n;
}

void AppendJsonbBinary(const Value& v, std::string* out) {
  out->push_back('\x01');
  out->append(v.str);
}

Value ReceiveJsonbBinary(std::string_view b) {
  if (b.empty() || b[0] != 1)
    throw DbError(sqlstate::kInternalError,
                  "unsupported jsonb version number " + std::to_string(b.empty() ? 0 : static_cast<int>(b[0])));
  JsonParseOptions opt;
  opt.type_name = "jsonb";
  return JsonbValue(ParseJson(b.substr(1), opt));
}

const char* JsonTypeName(JsonKind k) {
  switch (k) {
    case JsonKind::kNull: return "null";
    case JsonKind::kString: return "string";
    case JsonKind::kNumber: return "number";
    case JsonKind::kBool: return "boolean";
    case JsonKind::kArray: return "array";
    case JsonKind::kObject: return "object";
  }
  return "null";
}

}  // namespace hearth::types
