// server/utils/adt/jsonb_order.cpp
//
// Principal entry points: AppendJsonbSortKey, CompareJsonb. jsonb's btree
// order is PostgreSQL's compareJsonbContainers: object > array > boolean >
// number > string > null; containers with more members are greater, equal
// sizes compare member by member (objects: key, then value, in stored key
// order); a top-level scalar is a one-element "raw scalar" array that sorts
// before a real one-element array. The sort key spells exactly that order
// as bytes, so memcmp of keys is the order, equal values (1.0 and 1) have
// equal keys (hash joins, DISTINCT) and btree indexes store them as strings.
#include <cstring>

#include "utils/adt/json.h"
#include "utils/adt/sort_key.h"

namespace hearth::types {
namespace {

void PutCount(size_t n, std::string* out) {
  for (int s = 24; s >= 0; s -= 8) out->push_back(static_cast<char>((n >> s) & 0xFF));
}

void PutNode(const JsonNode& n, std::string* out) {
  out->push_back(static_cast<char>(n.kind));
  switch (n.kind) {
    case JsonKind::kNull: return;
    case JsonKind::kString: AppendStringSortKey(n.str, out); return;
    case JsonKind::kNumber: AppendNumericSortKey(n.str, out); return;
    case JsonKind::kBool: out->push_back(n.b ? '\x01' : '\x00'); return;
    case JsonKind::kArray:
      PutCount(n.items.size(), out);
      out->push_back('\x01');  // a real array, after a raw scalar of the same size
      for (const JsonNode& c : n.items) PutNode(c, out);
      return;
    case JsonKind::kObject:
      PutCount(n.items.size(), out);
      for (size_t i = 0; i < n.items.size(); ++i) {
        AppendStringSortKey(n.keys[i], out);
        PutNode(n.items[i], out);
      }
      return;
  }
}

}  // namespace

void AppendJsonbSortKey(const JsonNode& n, std::string* out) {
  if (n.IsContainer()) {
    PutNode(n, out);
    return;
  }
  // A raw scalar: a one-element array flagged 0.
  out->push_back(static_cast<char>(JsonKind::kArray));
  PutCount(1, out);
  out->push_back('\x00');
  PutNode(n, out);
}

std::string JsonbSortKey(const Value& v) {
  std::string key;
  AppendJsonbSortKey(JsonbTree(v), &key);
  return key;
}

int CompareJsonb(const JsonNode& a, const JsonNode& b) {
  std::string x, y;
  AppendJsonbSortKey(a, &x);
  AppendJsonbSortKey(b, &y);
  const int c = x.compare(y);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int CompareJsonbValues(const Value& a, const Value& b) {
  if (a.str == b.str) return 0;
  const int c = JsonbSortKey(a).compare(JsonbSortKey(b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace hearth::types
