// server/utils/adt/array_text.cpp
//
// Principal entry points: ParseArrayText (array_in), AppendArrayText
// (array_out). The literal syntax, the quoting of the output and every
// `malformed array literal` DETAIL follow PostgreSQL 15: an optional
// dimension decoration `[lo:hi]...=`, then nested braces whose structure is
// checked by the same state machine PostgreSQL's ArrayCount runs, then the
// elements, each passed to the element type's input function.
#include <cctype>

#include "common/error/db_error.h"
#include "utils/adt/array.h"
#include "utils/adt/array_io.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

bool IsArraySpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

[[noreturn]] void Malformed(std::string_view text, const std::string& detail) {
  throw DbError(sqlstate::kInvalidTextRepresentation,
                "malformed array literal: \"" + std::string(text) + "\"")
      .WithDetail(detail);
}

[[noreturn]] void TooManyDims(int n) {
  throw DbError(sqlstate::kProgramLimitExceeded,
                "number of array dimensions (" + std::to_string(n) + ") exceeds the maximum allowed (" +
                    std::to_string(kMaxArrayDims) + ")");
}

// Parses an optionally signed decimal integer at *p; false if none.
bool ParseBound(std::string_view s, size_t* p, int32_t* out) {
  size_t i = *p;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  size_t start = i;
  int64_t v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    v = v * 10 + (s[i++] - '0');
    if (v > INT32_MAX + 1LL) v = INT32_MAX + 1LL;
  }
  if (i == start) return false;
  v = neg ? -v : v;
  if (v > INT32_MAX || v < INT32_MIN) {
    throw DbError(sqlstate::kNumericValueOutOfRange, "array bound is out of integer range");
  }
  *out = static_cast<int32_t>(v);
  *p = i;
  return true;
}

// The `[lo:hi][lo:hi]=` prefix. Returns the explicit dims (empty if none)
// and leaves *p at the opening brace.
void ParseDimDecoration(std::string_view s, size_t* p, std::vector<int32_t>* dims,
                        std::vector<int32_t>* lbs) {
  size_t i = *p;
  for (;;) {
    while (i < s.size() && IsArraySpace(s[i])) ++i;
    if (i >= s.size() || s[i] != '[') break;
    ++i;
    if (static_cast<int>(dims->size()) >= kMaxArrayDims) TooManyDims(static_cast<int>(dims->size()) + 1);
    int32_t lb = 1, ub = 0;
    if (!ParseBound(s, &i, &ub)) Malformed(s, "\"[\" must introduce explicitly-specified array dimensions.");
    if (i < s.size() && s[i] == ':') {
      lb = ub;
      ++i;
      if (!ParseBound(s, &i, &ub)) Malformed(s, "Missing array dimension value.");
    }
    if (i >= s.size() || s[i] != ']') Malformed(s, "Missing \"]\" after array dimensions.");
    ++i;
    if (ub < lb) throw DbError("2202E", "upper bound cannot be less than lower bound");
    dims->push_back(static_cast<int32_t>(static_cast<int64_t>(ub) - lb + 1));
    lbs->push_back(lb);
  }
  if (!dims->empty()) {
    if (i >= s.size() || s[i] != '=') Malformed(s, "Missing \"=\" after array dimensions.");
    ++i;
    while (i < s.size() && IsArraySpace(s[i])) ++i;
    if (i >= s.size() || s[i] != '{') Malformed(s, "Array contents must start with \"{\".");
  } else if (i >= s.size() || s[i] != '{') {
    Malformed(s, "Array value must start with \"{\" or dimension information.");
  }
  *p = i;
}

enum class State {
  kNoLevel, kLevelStarted, kElemStarted, kElemCompleted, kQuotedStarted, kQuotedCompleted,
  kElemDelimited, kLevelCompleted, kLevelDelimited,
};

template <typename... S>
bool In(State s, S... allowed) {
  return ((s == allowed) || ...);
}

// PostgreSQL's ArrayCount: validates the brace structure from s[start] and
// returns the dimensions it implies (a single 0 for '{}').
std::vector<int32_t> CountDims(std::string_view s, size_t start) {
  int nest = 0, ndim = 0;
  int32_t temp[kMaxArrayDims] = {}, nelems[kMaxArrayDims], nelems_last[kMaxArrayDims] = {};
  for (int& n : nelems) n = 1;
  bool in_quotes = false;
  State st = State::kNoLevel;
  size_t i = start;
  for (bool done = false; !done; ++i) {
    if (i >= s.size()) Malformed(s, "Unexpected end of input.");
    const char c = s[i];
    if (c == '\\') {
      if (!In(st, State::kLevelStarted, State::kElemStarted, State::kQuotedStarted, State::kElemDelimited)) {
        Malformed(s, "Unexpected \"\\\" character.");
      }
      if (st != State::kQuotedStarted) st = State::kElemStarted;
      if (++i >= s.size()) Malformed(s, "Unexpected end of input.");
    } else if (c == '"') {
      if (!In(st, State::kLevelStarted, State::kQuotedStarted, State::kElemDelimited)) {
        Malformed(s, "Unexpected array element.");
      }
      in_quotes = !in_quotes;
      st = in_quotes ? State::kQuotedStarted : State::kQuotedCompleted;
    } else if (in_quotes) {
      continue;
    } else if (c == '{') {
      if (!In(st, State::kNoLevel, State::kLevelStarted, State::kLevelDelimited)) {
        Malformed(s, "Unexpected \"{\" character.");
      }
      st = State::kLevelStarted;
      if (nest >= kMaxArrayDims) TooManyDims(nest + 1);
      temp[nest] = 0;
      if (++nest > ndim) ndim = nest;
    } else if (c == '}') {
      if (!In(st, State::kElemStarted, State::kElemCompleted, State::kQuotedCompleted, State::kLevelCompleted) &&
          !(nest == 1 && st == State::kLevelStarted)) {
        Malformed(s, "Unexpected \"}\" character.");
      }
      st = State::kLevelCompleted;
      --nest;
      if (nelems_last[nest] != 0 && nelems[nest] != nelems_last[nest]) {
        Malformed(s, "Multidimensional arrays must have sub-arrays with matching dimensions.");
      }
      nelems_last[nest] = nelems[nest];
      nelems[nest] = 1;
      if (nest == 0) {
        done = true;
      } else {
        temp[nest - 1]++;
      }
    } else if (c == ',') {
      if (!In(st, State::kElemStarted, State::kElemCompleted, State::kQuotedCompleted, State::kLevelCompleted)) {
        Malformed(s, "Unexpected \",\" character.");
      }
      st = st == State::kLevelCompleted ? State::kLevelDelimited : State::kElemDelimited;
      nelems[nest - 1]++;
    } else if (!IsArraySpace(c)) {
      if (!In(st, State::kLevelStarted, State::kElemStarted, State::kElemDelimited)) {
        Malformed(s, "Unexpected array element.");
      }
      st = State::kElemStarted;
    }
  }
  for (; i < s.size(); ++i) {
    if (!IsArraySpace(s[i])) Malformed(s, "Junk after closing right brace.");
  }
  std::vector<int32_t> dims(static_cast<size_t>(ndim));
  for (int d = 0; d < ndim; ++d) dims[static_cast<size_t>(d)] = nelems_last[d];
  // '{}' has one level and no element: nelems_last[0] counted 1 item.
  if (ndim == 1 && st == State::kLevelCompleted) {
    size_t b = start + 1;
    while (b < s.size() && IsArraySpace(s[b])) ++b;
    if (b < s.size() && s[b] == '}') dims[0] = 0;
  }
  return dims;
}

// Reads the elements (structure already validated) into `texts`; an
// unquoted, unescaped NULL becomes a null entry.
void ReadElements(std::string_view s, size_t start, std::vector<std::string>* texts, std::vector<bool>* nulls) {
  std::string cur;
  bool have = false, quoted_or_escaped = false;
  size_t trim_to = 0;  // cur.size() after the last character that must stay
  auto finish = [&] {
    if (!have) return;
    cur.resize(trim_to);
    bool is_null = !quoted_or_escaped && cur.size() == 4 &&
                   std::tolower(static_cast<unsigned char>(cur[0])) == 'n' &&
                   std::tolower(static_cast<unsigned char>(cur[1])) == 'u' &&
                   std::tolower(static_cast<unsigned char>(cur[2])) == 'l' &&
                   std::tolower(static_cast<unsigned char>(cur[3])) == 'l';
    nulls->push_back(is_null);
    texts->push_back(is_null ? std::string() : cur);
    cur.clear();
    have = false;
    quoted_or_escaped = false;
    trim_to = 0;
  };
  bool in_quotes = false;
  for (size_t i = start; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\') {
      cur.push_back(s[++i]);
      have = quoted_or_escaped = true;
      trim_to = cur.size();
    } else if (c == '"') {
      in_quotes = !in_quotes;
      have = quoted_or_escaped = true;
      trim_to = cur.size();
    } else if (in_quotes) {
      cur.push_back(c);
      trim_to = cur.size();
    } else if (c == '{') {
      continue;
    } else if (c == '}' || c == ',') {
      finish();
    } else if (IsArraySpace(c)) {
      if (have) cur.push_back(c);  // kept only if more text follows
    } else {
      cur.push_back(c);
      have = true;
      trim_to = cur.size();
    }
  }
}

}  // namespace

Value ParseArrayText(Oid array_type, int32_t typmod, std::string_view text) {
  size_t p = 0;
  std::vector<int32_t> dims, lbs;
  ParseDimDecoration(text, &p, &dims, &lbs);
  std::vector<int32_t> counted = CountDims(text, p);
  ArrayData a;
  a.elem_type = ElementTypeOf(array_type);
  const bool empty = counted.size() == 1 && counted[0] == 0;
  if (!dims.empty()) {
    if (empty || dims != counted) Malformed(text, "Specified array dimensions do not match array contents.");
  } else if (!empty) {
    dims = counted;
    lbs.assign(dims.size(), 1);
  }
  if (empty) return MakeArrayValue(array_type, a);
  std::vector<std::string> texts;
  std::vector<bool> nulls;
  ReadElements(text, p, &texts, &nulls);
  a.dims = std::move(dims);
  a.lbounds = std::move(lbs);
  a.elems.reserve(texts.size());
  for (size_t k = 0; k < texts.size(); ++k) {
    a.elems.push_back(nulls[k] ? Value::Null(a.elem_type) : InputValue(a.elem_type, typmod, texts[k]));
  }
  return MakeArrayValue(array_type, a);
}

namespace {

bool NeedsQuotes(std::string_view s) {
  if (s.empty()) return true;
  if (s.size() == 4 && (s[0] == 'N' || s[0] == 'n') && (s[1] == 'U' || s[1] == 'u') &&
      (s[2] == 'L' || s[2] == 'l') && (s[3] == 'L' || s[3] == 'l')) {
    return true;
  }
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' || IsArraySpace(c)) return true;
  }
  return false;
}

void AppendElement(const Value& v, std::string* scratch, std::string* out) {
  if (v.is_null) {
    out->append("NULL");
    return;
  }
  scratch->clear();
  AppendOutput(v, scratch);
  if (!NeedsQuotes(*scratch)) {
    out->append(*scratch);
    return;
  }
  out->push_back('"');
  for (char c : *scratch) {
    if (c == '"' || c == '\\') out->push_back('\\');
    out->push_back(c);
  }
  out->push_back('"');
}

}  // namespace

void AppendArrayText(const Value& v, std::string* out) {
  ArrayData a = DeconstructArray(v);
  if (a.ndim() == 0) {
    out->append("{}");
    return;
  }
  bool default_bounds = true;
  for (int32_t lb : a.lbounds) default_bounds &= lb == 1;
  if (!default_bounds) {
    for (int d = 0; d < a.ndim(); ++d) {
      int32_t lb = a.lbounds[static_cast<size_t>(d)];
      out->append("[" + std::to_string(lb) + ":" +
                  std::to_string(static_cast<int64_t>(lb) + a.dims[static_cast<size_t>(d)] - 1) + "]");
    }
    out->push_back('=');
  }
  // Walk the elements in row-major order, opening and closing braces as
  // the per-dimension counters wrap.
  std::vector<int32_t> idx(a.dims.size(), 0);
  std::string scratch;
  const int nd = a.ndim();
  for (int d = 0; d < nd; ++d) out->push_back('{');
  for (size_t k = 0; k < a.elems.size(); ++k) {
    AppendElement(a.elems[k], &scratch, out);
    int d = nd - 1;
    while (d >= 0 && ++idx[static_cast<size_t>(d)] == a.dims[static_cast<size_t>(d)]) {
      idx[static_cast<size_t>(d)] = 0;
      out->push_back('}');
      --d;
    }
    if (d < 0) break;
    out->push_back(',');
    for (int e = d + 1; e < nd; ++e) out->push_back('{');
  }
}

}  // namespace hearth::types
