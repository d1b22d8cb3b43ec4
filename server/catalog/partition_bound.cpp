// catalog/partition_bound.cpp
//
// Principal entry points: ParsePartitionKey, ParsePartitionBound,
// FormatPartitionBound, KeyInBound, CheckPartitionOverlap, BoundMayMatch.
#include "catalog/partition_bound.h"

#include <cctype>
#include <sstream>

#include "common/error/db_error.h"
#include "utils/adt/cast.h"
#include "utils/adt/compare.h"
#include "utils/adt/regclass.h"
#include "utils/adt/text_io.h"

namespace hearth::catalog {

namespace {

using types::Value;

const char* StrategyName(char s) { return s == 'r' ? "RANGE" : s == 'l' ? "LIST" : "HASH"; }

// One datum of a stored bound list: a literal's text, quoted or not.
struct Token {
  std::string text;
  bool quoted = false;
};

void SkipSpaces(const std::string& s, size_t* pos) {
  while (*pos < s.size() && s[*pos] == ' ') ++*pos;
}

bool AcceptWord(const std::string& s, size_t* pos, const char* word) {
  SkipSpaces(s, pos);
  const size_t n = std::char_traits<char>::length(word);
  if (s.compare(*pos, n, word) != 0) return false;
  *pos += n;
  return true;
}

// "(tok, tok, ...)" starting at *pos.
std::vector<Token> ReadList(const std::string& s, size_t* pos) {
  std::vector<Token> out;
  SkipSpaces(s, pos);
  if (*pos >= s.size() || s[*pos] != '(') throw DbError("XX000", "malformed partition bound: " + s);
  ++*pos;
  for (;;) {
    SkipSpaces(s, pos);
    Token t;
    if (*pos < s.size() && s[*pos] == '\'') {
      t.quoted = true;
      for (++*pos; *pos < s.size(); ++*pos) {
        if (s[*pos] == '\'') {
          if (*pos + 1 < s.size() && s[*pos + 1] == '\'') {
            t.text += '\'';
            ++*pos;
            continue;
          }
          ++*pos;
          break;
        }
        t.text += s[*pos];
      }
    } else {
      while (*pos < s.size() && s[*pos] != ',' && s[*pos] != ')') t.text += s[(*pos)++];
      while (!t.text.empty() && t.text.back() == ' ') t.text.pop_back();
    }
    out.push_back(std::move(t));
    SkipSpaces(s, pos);
    if (*pos < s.size() && s[*pos] == ',') {
      ++*pos;
      continue;
    }
    if (*pos < s.size() && s[*pos] == ')') ++*pos;
    return out;
  }
}

Value TokenValue(const Token& t, types::Oid type, int32_t typmod) {
  if (!t.quoted && t.text == "NULL") return Value::Null(type);
  return types::InputValue(type, typmod, t.text);
}

std::vector<RangeDatum> RangeDatums(const std::vector<Token>& toks, const PartitionKey& key) {
  std::vector<RangeDatum> out;
  for (size_t i = 0; i < toks.size() && i < key.types.size(); ++i) {
    RangeDatum d;
    if (!toks[i].quoted && toks[i].text == "MINVALUE") {
      d.kind = -1;
    } else if (!toks[i].quoted && toks[i].text == "MAXVALUE") {
      d.kind = 1;
    } else {
      d.value = TokenValue(toks[i], key.types[i], key.typmods[i]);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string RangeText(const std::vector<RangeDatum>& ds) {
  std::string out = "(";
  for (size_t i = 0; i < ds.size(); ++i) {
    if (i > 0) out += ", ";
    out += ds[i].kind < 0 ? "MINVALUE" : ds[i].kind > 0 ? "MAXVALUE" : BoundLiteral(ds[i].value);
  }
  return out + ")";
}

// Key values against one range bound: <0 below, 0 equal, >0 above.
int CompareKeyToRange(const executor::Row& keyvals, const std::vector<RangeDatum>& bound) {
  for (size_t i = 0; i < bound.size() && i < keyvals.size(); ++i) {
    if (bound[i].kind < 0) return 1;
    if (bound[i].kind > 0) return -1;
    const int c = types::CompareValues(keyvals[i], bound[i].value);
    if (c != 0) return c;
  }
  return 0;
}

bool ListContains(const PartitionBound& b, const Value& v) {
  for (const Value& x : b.list) {
    if (x.is_null != v.is_null) continue;
    if (x.is_null || types::CompareValues(x, v) == 0) return true;
  }
  return false;
}

[[noreturn]] void ThrowOverlap(const std::string& name, const std::string& other) {
  throw DbError("42P17", "partition \"" + name + "\" would overlap partition \"" + other + "\"");
}

// Whether value `v` satisfies "v op c".
bool Satisfies(const Value& v, executor::IndexScanOp op, const Value& c) {
  const int r = types::CompareValues(v, c);
  switch (op) {
    case executor::IndexScanOp::kEq: return r == 0;
    case executor::IndexScanOp::kLt: return r < 0;
    case executor::IndexScanOp::kLe: return r <= 0;
    case executor::IndexScanOp::kGt: return r > 0;
    case executor::IndexScanOp::kGe: return r >= 0;
  }
  return true;
}

}  // namespace

std::string PartitionKeyText(const PartitionKey& key) {
  std::string out(1, key.strategy);
  for (int c : key.columns) out += " " + std::to_string(c + 1);
  return out;
}

std::shared_ptr<const PartitionKey> ParsePartitionKey(const std::string& text, const executor::TableInfo& table) {
  auto key = std::make_shared<PartitionKey>();
  std::istringstream in(text);
  std::string strategy;
  in >> strategy;
  key->strategy = strategy.empty() ? 'r' : strategy[0];
  int attnum = 0;
  while (in >> attnum) {
    const size_t pos = static_cast<size_t>(attnum - 1);
    if (attnum < 1 || pos >= table.columns.size()) continue;
    key->columns.push_back(attnum - 1);
    key->types.push_back(table.columns[pos].type);
    key->typmods.push_back(table.columns[pos].typmod);
    key->names.push_back(table.columns[pos].name);
  }
  return key;
}

std::string PartitionKeyDefinition(const PartitionKey& key) {
  std::string out = std::string(StrategyName(key.strategy)) + " (";
  for (size_t i = 0; i < key.names.size(); ++i) out += (i > 0 ? ", " : "") + types::QuoteIdentifier(key.names[i]);
  return out + ")";
}

std::string BoundLiteral(const Value& v) {
  if (v.is_null) return "NULL";
  const std::string text = types::OutputValue(v);
  switch (v.type) {
    case types::kInt2Oid:
    case types::kInt4Oid:
    case types::kInt8Oid:
    case types::kOidOid:
      if (!text.empty() && text[0] != '-') return text;
      break;
    case types::kNumericOid:
    case types::kFloat4Oid:
    case types::kFloat8Oid:
      // Unquoted only when it reads back as this type (not as an integer).
      if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
          text.find_first_not_of("0123456789+-eE.") == std::string::npos &&
          text.find_first_of("eE.") != std::string::npos) {
        return text;
      }
      break;
    case types::kBoolOid: return text == "t" ? "true" : "false";
    default: break;
  }
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string FormatPartitionBound(const PartitionBound& b) {
  switch (b.strategy) {
    case 'd': return "DEFAULT";
    case 'l': {
      std::string out = "FOR VALUES IN (";
      for (size_t i = 0; i < b.list.size(); ++i) out += (i > 0 ? ", " : "") + BoundLiteral(b.list[i]);
      return out + ")";
    }
    case 'h':
      return "FOR VALUES WITH (modulus " + std::to_string(b.modulus) + ", remainder " + std::to_string(b.remainder) +
             ")";
    default: return "FOR VALUES FROM " + RangeText(b.lower) + " TO " + RangeText(b.upper);
  }
}

std::shared_ptr<const PartitionBound> ParsePartitionBound(const std::string& text, const PartitionKey& key) {
  auto b = std::make_shared<PartitionBound>();
  b->text = text;
  size_t pos = 0;
  if (AcceptWord(text, &pos, "DEFAULT")) {
    b->strategy = 'd';
    return b;
  }
  AcceptWord(text, &pos, "FOR VALUES");
  if (AcceptWord(text, &pos, "IN")) {
    b->strategy = 'l';
    for (const Token& t : ReadList(text, &pos)) {
      b->list.push_back(TokenValue(t, key.types.empty() ? types::kTextOid : key.types[0],
                                   key.typmods.empty() ? types::kNoTypmod : key.typmods[0]));
    }
  } else if (AcceptWord(text, &pos, "FROM")) {
    b->strategy = 'r';
    b->lower = RangeDatums(ReadList(text, &pos), key);
    AcceptWord(text, &pos, "TO");
    b->upper = RangeDatums(ReadList(text, &pos), key);
  } else if (AcceptWord(text, &pos, "WITH")) {
    b->strategy = 'h';
    const std::vector<Token> toks = ReadList(text, &pos);
    for (const Token& t : toks) {
      if (t.text.rfind("modulus ", 0) == 0) b->modulus = std::stoll(t.text.substr(8));
      if (t.text.rfind("remainder ", 0) == 0) b->remainder = std::stoll(t.text.substr(10));
    }
  }
  return b;
}

void ExtractKey(const PartitionKey& key, const executor::Row& row, executor::Row* out) {
  out->resize(key.columns.size());
  for (size_t i = 0; i < key.columns.size(); ++i) (*out)[i] = row[static_cast<size_t>(key.columns[i])];
}

bool KeyInBound(const PartitionKey& key, const PartitionBound& bound, const executor::Row& keyvals) {
  (void)key;
  switch (bound.strategy) {
    case 'l': return !keyvals.empty() && ListContains(bound, keyvals[0]);
    case 'r':
      for (const Value& v : keyvals) {
        if (v.is_null) return false;  // only a DEFAULT partition takes NULL range keys
      }
      return CompareKeyToRange(keyvals, bound.lower) >= 0 && CompareKeyToRange(keyvals, bound.upper) < 0;
    default: return false;
  }
}

int CompareRangeBounds(const std::vector<RangeDatum>& a, const std::vector<RangeDatum>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].kind != b[i].kind) return a[i].kind < b[i].kind ? -1 : 1;
    if (a[i].kind != 0) return 0;  // the same infinity: what follows it does not count
    const int c = types::CompareValues(a[i].value, b[i].value);
    if (c != 0) return c;
  }
  return 0;
}

std::string KeyDetail(const PartitionKey& key, const executor::Row& keyvals) {
  std::string names, values;
  for (size_t i = 0; i < keyvals.size(); ++i) {
    names += (i > 0 ? ", " : "") + (i < key.names.size() ? key.names[i] : std::string("?"));
    values += (i > 0 ? ", " : "") + (keyvals[i].is_null ? std::string("null") : types::OutputValue(keyvals[i]));
  }
  return "(" + names + ") = (" + values + ")";
}

void CheckPartitionOverlap(const PartitionKey& key, const PartitionBound& bound, const std::string& name,
                           const std::vector<PartitionMember>& members, int* value_index) {
  (void)key;
  *value_index = -1;
  if (bound.strategy == 'd') {
    for (const PartitionMember& m : members) {
      if (m.bound->strategy == 'd') {
        throw DbError("42P17", "partition \"" + name + "\" conflicts with existing default partition \"" + m.name +
                                   "\"");
      }
    }
    return;
  }
  if (bound.strategy == 'l') {
    for (size_t i = 0; i < bound.list.size(); ++i) {
      for (const PartitionMember& m : members) {
        if (m.bound->strategy == 'l' && ListContains(*m.bound, bound.list[i])) {
          *value_index = static_cast<int>(i);
          ThrowOverlap(name, m.name);
        }
      }
    }
    return;
  }
  if (bound.strategy != 'r') return;
  if (CompareRangeBounds(bound.lower, bound.upper) >= 0) {
    *value_index = 0;
    throw DbError("42P17", "empty range bound specified for partition \"" + name + "\"")
        .WithDetail("Specified lower bound " + RangeText(bound.lower) + " is greater than or equal to upper bound " +
                    RangeText(bound.upper) + ".");
  }
  for (const PartitionMember& m : members) {
    if (m.bound->strategy != 'r') continue;
    if (CompareRangeBounds(bound.lower, m.bound->upper) < 0 && CompareRangeBounds(m.bound->lower, bound.upper) < 0) {
      *value_index = 0;
      ThrowOverlap(name, m.name);
    }
  }
}

namespace {

// A LIST bound's smallest non-NULL value (nullptr: NULL only).
const Value* SmallestListValue(const PartitionBound& b) {
  const Value* min = nullptr;
  for (const Value& v : b.list) {
    if (!v.is_null && (min == nullptr || types::CompareValues(v, *min) < 0)) min = &v;
  }
  return min;
}

}  // namespace

bool PartitionBoundLess(const PartitionBound& a, const PartitionBound& b) {
  if ((a.strategy == 'd') != (b.strategy == 'd')) return b.strategy == 'd';
  if (a.strategy == 'r' && b.strategy == 'r') return CompareRangeBounds(a.lower, b.lower) < 0;
  if (a.strategy == 'l' && b.strategy == 'l') {
    const Value* x = SmallestListValue(a);
    const Value* y = SmallestListValue(b);
    if (x == nullptr || y == nullptr) return x != nullptr && y == nullptr;
    return types::CompareValues(*x, *y) < 0;
  }
  return false;
}

bool BoundMayMatch(const PartitionKey& key, const PartitionBound& bound,
                   const std::vector<executor::ColumnCondition>& conds) {
  if (key.columns.empty() || (bound.strategy != 'l' && bound.strategy != 'r')) return true;
  // Conditions on the first key column, as values of its type.
  std::vector<std::pair<executor::IndexScanOp, Value>> on_key;
  for (const executor::ColumnCondition& c : conds) {
    if (c.column != key.columns[0] || c.value.is_null) continue;
    try {
      on_key.emplace_back(c.op, types::CastValue(c.value, key.types[0], key.typmods[0],
                                                 types::CoercionContext::kAssignment));
    } catch (const DbError&) {
      return true;  // not comparable here: keep the partition
    }
  }
  if (on_key.empty()) return true;
  if (bound.strategy == 'l') {
    for (const Value& v : bound.list) {
      if (v.is_null) continue;
      bool all = true;
      for (const auto& [op, c] : on_key) all = all && Satisfies(v, op, c);
      if (all) return true;
    }
    return false;
  }
  // Range: the first column of rows in the bound lies between lower[0]
  // and upper[0] (upper included when later columns may still be below it).
  const RangeDatum& lo = bound.lower[0];
  const RangeDatum& hi = bound.upper[0];
  const bool hi_inclusive = key.columns.size() > 1;
  for (const auto& [op, c] : on_key) {
    const bool above_lo = lo.kind < 0 || (lo.kind == 0 && types::CompareValues(c, lo.value) >= 0);
    const bool strictly_above_lo = lo.kind < 0 || (lo.kind == 0 && types::CompareValues(c, lo.value) > 0);
    const int vs_hi = hi.kind > 0 ? -1 : hi.kind < 0 ? 1 : types::CompareValues(c, hi.value);
    const bool below_hi = hi_inclusive ? vs_hi <= 0 : vs_hi < 0;
    switch (op) {
      case executor::IndexScanOp::kEq:
        if (!above_lo || !below_hi) return false;
        break;
      case executor::IndexScanOp::kLt:
        if (!strictly_above_lo) return false;
        break;
      case executor::IndexScanOp::kLe:
        if (!above_lo) return false;
        break;
      case executor::IndexScanOp::kGt:
      case executor::IndexScanOp::kGe:
        if (!below_hi) return false;
        break;
    }
  }
  return true;
}

}  // namespace hearth::catalog
