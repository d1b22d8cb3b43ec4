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

namespace hearth::types {
namespace {

void PutCount(size_t n, std::string* out) {
  for (int s = 24; s >= 0; s -= 8) out->push_back(static_cast<char>((n >> s) & 0xFF));
}

// Bytes with 0x00 escaped as 00 01, ended by 00 00: prefix-free, order kept.
void PutString(std::string_view s, std::string* out) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back('\x01');
  }
  out->push_back('\0');
  out->push_back('\0');
}

// A canonical numeric text as class (0 negative, 1 zero, 2 positive), then
// the decimal exponent and significant digits, inverted for negatives.
void PutNumber(std::string_view s, std::string* out) {
  const bool neg = !s.empty() && s[0] == '-';
  if (neg) s.remove_prefix(1);
  const size_t dot = s.find('.');
  std::string_view ip = s.substr(0, dot);
  std::string_view fp = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  std::string digits;
  int32_t exp = 0;
  size_t i = 0;
  while (i < ip.size() && ip[i] == '0') ++i;
  if (i < ip.size()) {
    exp = static_cast<int32_t>(ip.size() - i);
    digits.append(ip.substr(i));
    digits.append(fp);
  } else {
    size_t j = 0;
    while (j < fp.size() && fp[j] == '0') ++j;
    exp = -static_cast<int32_t>(j);
    digits.append(fp.substr(j));
  }
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  if (digits.empty()) {
    out->push_back('\x01');
    return;
  }
  out->push_back(neg ? '\x00' : '\x02');
  const size_t start = out->size();
  const uint32_t e = static_cast<uint32_t>(exp) ^ 0x80000000u;
  for (int sh = 24; sh >= 0; sh -= 8) out->push_back(static_cast<char>((e >> sh) & 0xFF));
  out->append(digits);
  out->push_back('\0');
  if (neg)
    for (size_t k = start; k < out->size(); ++k) (*out)[k] = static_cast<char>(~(*out)[k]);
}

void PutNode(const JsonNode& n, std::string* out) {
  out->push_back(static_cast<char>(n.kind));
  switch (n.kind) {
    case JsonKind::kNull: return;
    case JsonKind::kString: PutString(n.str, out); return;
    case JsonKind::kNumber: PutNumber(n.str, out); return;
    case JsonKind::kBool: out->push_back(n.b ? '\x01' : '\x00'); return;
    case JsonKind::kArray:
      PutCount(n.items.size(), out);
      out->push_back('\x01');  // a real array, after a raw scalar of the same size
      for (const JsonNode& c : n.items) PutNode(c, out);
      return;
    case JsonKind::kObject:
      PutCount(n.items.size(), out);
      for (size_t i = 0; i < n.items.size(); ++i) {
        PutString(n.keys[i], out);
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
