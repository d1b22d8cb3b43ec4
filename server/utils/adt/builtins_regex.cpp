// server/utils/adt/builtins_regex.cpp
//
// POSIX-style regular expressions: the ~ ~* !~ !~* operators,
// substring(text from pattern), regexp_replace, regexp_like,
// regexp_count, regexp_instr and regexp_substr (PostgreSQL 15 names and
// arguments). Matching uses PCRE2 configured to behave like PostgreSQL's
// advanced regular expressions where they commonly meet: '.' matches a
// newline and '$' only matches at the very end unless the 'n' flag asks
// for newline-sensitive matching; \m \M \y \Y are rewritten to PCRE2's
// word-boundary forms. Known differences (see docs/sql.md): PCRE2 picks
// the first matching alternative where PostgreSQL picks the longest, and
// error texts for invalid patterns are PCRE2's.
// Compiled patterns are kept in a small per-process cache, so a pattern
// applied to many rows is compiled once.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <array>
#include <memory>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/string_adt.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr FuncKind kOp = FuncKind::kOperator;
constexpr Oid T = kTextOid;
constexpr Oid I4 = kInt4Oid;
constexpr Oid B = kBoolOid;
const char kInvalidRegex[] = "2201B";

struct RegexFlags {
  bool icase = false;
  bool global = false;
  bool newline = false;  // 'n': newline-sensitive
  bool expanded = false;
};

// Parses a flags string; `allow_g` is false where PostgreSQL rejects 'g'.
RegexFlags ParseFlags(std::string_view s, const char* fn, bool allow_g) {
  RegexFlags f;
  for (char c : s) {
    switch (c) {
      case 'g':
        if (!allow_g) {
          throw DbError(sqlstate::kInvalidParameterValue,
                        std::string(fn) + "() does not support the \"global\" option");
        }
        f.global = true;
        break;
      case 'i': f.icase = true; break;
      case 'c': f.icase = false; break;
      case 'n': case 'm': f.newline = true; break;
      case 's': f.newline = false; break;
      case 'x': f.expanded = true; break;
      case 't': f.expanded = false; break;
      default:
        throw DbError(sqlstate::kInvalidParameterValue,
                      std::string("invalid regular expression option: \"") + c + "\"");
    }
  }
  return f;
}

// ARE escapes PCRE2 spells differently.
std::string TranslatePattern(std::string_view p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      char n = p[i + 1];
      const char* rep = n == 'm' ? "\\b(?=\\w)" : n == 'M' ? "\\b(?<=\\w)"
                      : n == 'y' ? "\\b" : n == 'Y' ? "\\B" : nullptr;
      if (rep != nullptr) {
        out += rep;
      } else {
        out += p[i];
        out += n;
      }
      ++i;
    } else if (p.compare(i, 7, "[[:<:]]") == 0) {
      out += "\\b(?=\\w)";
      i += 6;
    } else if (p.compare(i, 7, "[[:>:]]") == 0) {
      out += "\\b(?<=\\w)";
      i += 6;
    } else {
      out += p[i];
    }
  }
  return out;
}

struct CodeDeleter {
  void operator()(pcre2_code* c) const { pcre2_code_free(c); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* m) const { pcre2_match_data_free(m); }
};

struct CacheEntry {
  std::string pattern;
  uint32_t options = 0;
  std::unique_ptr<pcre2_code, CodeDeleter> code;
};

// PostgreSQL's wording for the compile errors users meet most; PCRE2's own
// text for the rest.
std::string CompileErrorText(int err) {
  switch (err) {
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS:
    case PCRE2_ERROR_UNMATCHED_CLOSING_PARENTHESIS: return "parentheses () not balanced";
    case PCRE2_ERROR_MISSING_SQUARE_BRACKET: return "brackets [] not balanced";
    case PCRE2_ERROR_QUANTIFIER_INVALID: return "quantifier operand invalid";
    case PCRE2_ERROR_QUANTIFIER_OUT_OF_ORDER: return "invalid repetition count(s)";
    case PCRE2_ERROR_END_BACKSLASH: return "invalid escape \\ sequence";
    default: break;
  }
  PCRE2_UCHAR msg[256];
  pcre2_get_error_message(err, msg, sizeof msg);
  return reinterpret_cast<char*>(msg);
}

// Round-robin cache of compiled patterns (one backend = one thread).
const pcre2_code* Compile(std::string_view pattern, const RegexFlags& f) {
  static std::array<CacheEntry, 16> cache;
  static size_t next = 0;
  uint32_t options = PCRE2_UTF;
  if (f.icase) options |= PCRE2_CASELESS;
  if (f.expanded) options |= PCRE2_EXTENDED;
  options |= f.newline ? PCRE2_MULTILINE : (PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY);
  for (const CacheEntry& e : cache) {
    if (e.code && e.options == options && e.pattern == pattern) return e.code.get();
  }
  std::string translated = TranslatePattern(pattern);
  int err = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(),
                                   options, &err, &offset, nullptr);
  if (code == nullptr) throw DbError(kInvalidRegex, "invalid regular expression: " + CompileErrorText(err));
  CacheEntry& slot = cache[next];
  next = (next + 1) % cache.size();
  slot.pattern = std::string(pattern);
  slot.options = options;
  slot.code.reset(code);
  return code;
}

// One compiled pattern applied to one subject.
class Matcher {
 public:
  Matcher(std::string_view subject, std::string_view pattern, const RegexFlags& flags)
      : subject_(subject), code_(Compile(pattern, flags)),
        md_(pcre2_match_data_create_from_pattern(code_, nullptr)) {}

  // Finds the next match at or after byte `from`; false when none.
  bool Find(size_t from) {
    if (from > subject_.size()) return false;
    int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(subject_.data()), subject_.size(), from,
                         0, md_.get(), nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    if (rc < 0) {
      PCRE2_UCHAR msg[256];
      pcre2_get_error_message(rc, msg, sizeof msg);
      throw DbError(kInvalidRegex, std::string("regular expression failed: ") +
                                       reinterpret_cast<char*>(msg));
    }
    ov_ = pcre2_get_ovector_pointer(md_.get());
    groups_ = static_cast<int>(pcre2_get_ovector_count(md_.get()));
    return true;
  }
  size_t Begin(int g = 0) const { return ov_[2 * g]; }
  size_t End(int g = 0) const { return ov_[2 * g + 1]; }
  bool GroupSet(int g) const { return g < groups_ && ov_[2 * g] != PCRE2_UNSET; }
  std::string_view Group(int g) const { return subject_.substr(Begin(g), End(g) - Begin(g)); }
  int CaptureCount() const {
    uint32_t n = 0;
    pcre2_pattern_info(code_, PCRE2_INFO_CAPTURECOUNT, &n);
    return static_cast<int>(n);
  }
  // Where the search after the current match starts (past an empty match).
  size_t NextStart() const {
    if (End() > Begin()) return End();
    size_t e = End();
    return e < subject_.size() ? e + CharOffset(subject_.substr(e), 1) : e + 1;
  }

 private:
  std::string_view subject_;
  const pcre2_code* code_;
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> md_;
  PCRE2_SIZE* ov_ = nullptr;
  int groups_ = 0;
};

RegexFlags FlagsArg(const Value* a, int n, int idx, const char* fn, bool allow_g) {
  return n > idx ? ParseFlags(a[idx].str, fn, allow_g) : RegexFlags{};
}

// Does `pattern` match anywhere in `subject`? PCRE2's DFA matcher keeps
// every alternative alive at once instead of backtracking, so the time is
// polynomial whatever the pattern ('^(a+)+$' against "aaa...b" answers at
// once, as PostgreSQL's engine does). Patterns the DFA matcher cannot run
// (back-references) fall back to the backtracking matcher and its limits.
bool MatchesAnywhere(std::string_view subject, std::string_view pattern, const RegexFlags& flags) {
  const pcre2_code* code = Compile(pattern, flags);
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> md(pcre2_match_data_create(1, nullptr));
  std::vector<int> workspace(1000);
  for (;;) {
    int rc = pcre2_dfa_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0,
                             PCRE2_DFA_SHORTEST, md.get(), nullptr, workspace.data(), workspace.size());
    if (rc >= 0) return true;
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    if (rc == PCRE2_ERROR_DFA_WSSIZE && workspace.size() < (size_t{1} << 22)) {
      workspace.resize(workspace.size() * 4);
      continue;
    }
    if (rc == PCRE2_ERROR_DFA_UITEM || rc == PCRE2_ERROR_DFA_UCOND) {
      return Matcher(subject, pattern, flags).Find(0);
    }
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(rc, msg, sizeof msg);
    throw DbError(kInvalidRegex, std::string("regular expression failed: ") + reinterpret_cast<char*>(msg));
  }
}

template <bool Icase, bool Negate>
Value RegexOp(const Value* a, int, FuncCallContext&) {
  RegexFlags f;
  f.icase = Icase;
  return Value::Bool(MatchesAnywhere(a[0].str, a[1].str, f) != Negate);
}

// substring(s from pattern): the first parenthesised subexpression if the
// pattern has one, else the whole match; NULL without a match.
Value SubstringRegex(const Value* a, int, FuncCallContext&) {
  Matcher m(a[0].str, a[1].str, RegexFlags{});
  if (!m.Find(0)) return Value::Null(T);
  int g = m.CaptureCount() > 0 ? 1 : 0;
  if (!m.GroupSet(g)) return Value::Null(T);
  return Value::Text(std::string(m.Group(g)));
}

// Appends `rep` with \1..\9 and \& replaced by the match's groups.
void AppendReplacement(const Matcher& m, std::string_view rep, std::string* out) {
  for (size_t i = 0; i < rep.size(); ++i) {
    if (rep[i] == '\\' && i + 1 < rep.size()) {
      char n = rep[i + 1];
      if (n >= '1' && n <= '9') {
        if (m.GroupSet(n - '0')) out->append(m.Group(n - '0'));
        ++i;
        continue;
      }
      if (n == '&') {
        out->append(m.Group(0));
        ++i;
        continue;
      }
      if (n == '\\') {
        *out += '\\';
        ++i;
        continue;
      }
    }
    *out += rep[i];
  }
}

// 22023 unless v >= min (PostgreSQL's "invalid value for parameter").
void CheckAtLeast(int64_t v, int64_t min, const char* name) {
  if (v < min) {
    throw DbError(sqlstate::kInvalidParameterValue,
                  std::string("invalid value for parameter \"") + name + "\": " + std::to_string(v));
  }
}

// Byte offset of the 1-based character position `start` (22023 if < 1).
size_t StartOffset(std::string_view s, int64_t start) {
  CheckAtLeast(start, 1, "start");
  return start - 1 > CharLength(s) ? s.size() + 1 : CharOffset(s, start - 1);
}

// regexp_replace(s, p, r [, flags]) and (s, p, r, start [, N [, flags]]):
// N = 0 replaces every match, N > 0 only the Nth.
std::string ReplaceImpl(const std::string& s, const std::string& p, const std::string& r,
                        size_t from, int64_t nth, const RegexFlags& f) {
  Matcher m(s, p, f);
  std::string out = s.substr(0, std::min(from, s.size()));
  size_t copied = out.size();
  int64_t count = 0;
  for (size_t pos = from; m.Find(pos); pos = m.NextStart()) {
    ++count;
    if (nth == 0 || count == nth) {
      out.append(s, copied, m.Begin() - copied);
      AppendReplacement(m, r, &out);
      copied = m.End();
      if (nth != 0) break;
    }
    if (pos >= s.size()) break;
  }
  if (copied < s.size()) out.append(s, copied, std::string::npos);
  return out;
}
Value RegexpReplace(const Value* a, int n, FuncCallContext&) {
  RegexFlags f = FlagsArg(a, n, 3, "regexp_replace", true);
  return Value::Text(ReplaceImpl(a[0].str, a[1].str, a[2].str, 0, f.global ? 0 : 1, f));
}
Value RegexpReplaceAt(const Value* a, int n, FuncCallContext&) {
  int64_t nth = n > 4 ? a[4].i : 1;
  CheckAtLeast(nth, 0, "n");
  RegexFlags f = FlagsArg(a, n, 5, "regexp_replace", true);
  if (n <= 4 && f.global) nth = 0;
  return Value::Text(ReplaceImpl(a[0].str, a[1].str, a[2].str, StartOffset(a[0].str, a[3].i), nth, f));
}

Value RegexpLike(const Value* a, int n, FuncCallContext&) {
  return Value::Bool(Matcher(a[0].str, a[1].str, FlagsArg(a, n, 2, "regexp_like", false)).Find(0));
}

Value RegexpCount(const Value* a, int n, FuncCallContext&) {
  size_t from = n > 2 ? StartOffset(a[0].str, a[2].i) : 0;
  Matcher m(a[0].str, a[1].str, FlagsArg(a, n, 3, "regexp_count", false));
  int32_t count = 0;
  for (size_t pos = from; m.Find(pos); pos = m.NextStart()) {
    ++count;
    if (m.End() >= a[0].str.size() && m.End() == m.Begin()) break;
  }
  return Value::Int4(count);
}

// Finds the Nth match (1-based) from `start`; false if there are fewer.
bool FindNth(Matcher* m, size_t from, int64_t nth, size_t subject_size) {
  int64_t count = 0;
  for (size_t pos = from; m->Find(pos); pos = m->NextStart()) {
    if (++count == nth) return true;
    if (pos > subject_size) break;
  }
  return false;
}

// regexp_instr(s, p [, start [, N [, endoption [, flags [, subexpr]]]]]).
Value RegexpInstr(const Value* a, int n, FuncCallContext&) {
  const std::string& s = a[0].str;
  size_t from = n > 2 ? StartOffset(s, a[2].i) : 0;
  int64_t nth = n > 3 ? a[3].i : 1;
  CheckAtLeast(nth, 1, "n");
  int64_t endopt = n > 4 ? a[4].i : 0;
  if (endopt != 0 && endopt != 1) {
    throw DbError(sqlstate::kInvalidParameterValue,
                  "invalid value for parameter \"endoption\": " + std::to_string(endopt));
  }
  int64_t sub = n > 6 ? a[6].i : 0;
  CheckAtLeast(sub, 0, "subexpr");
  Matcher m(s, a[1].str, FlagsArg(a, n, 5, "regexp_instr", false));
  if (!FindNth(&m, from, nth, s.size())) return Value::Int4(0);
  if (sub > m.CaptureCount() || !m.GroupSet(static_cast<int>(sub))) return Value::Int4(0);
  int g = static_cast<int>(sub);
  size_t at = endopt == 0 ? m.Begin(g) : m.End(g);
  return Value::Int4(static_cast<int32_t>(CharLength(std::string_view(s).substr(0, at)) + 1));
}

// regexp_substr(s, p [, start [, N [, flags [, subexpr]]]]).
Value RegexpSubstr(const Value* a, int n, FuncCallContext&) {
  const std::string& s = a[0].str;
  size_t from = n > 2 ? StartOffset(s, a[2].i) : 0;
  int64_t nth = n > 3 ? a[3].i : 1;
  CheckAtLeast(nth, 1, "n");
  int64_t sub = n > 5 ? a[5].i : 0;
  CheckAtLeast(sub, 0, "subexpr");
  Matcher m(s, a[1].str, FlagsArg(a, n, 4, "regexp_substr", false));
  if (!FindNth(&m, from, nth, s.size())) return Value::Null(T);
  if (sub > m.CaptureCount() || !m.GroupSet(static_cast<int>(sub))) return Value::Null(T);
  return Value::Text(std::string(m.Group(static_cast<int>(sub))));
}

// similar_to_escape(pattern [, escape]): the SQL SIMILAR TO pattern as an
// anchored regular expression (what `x SIMILAR TO p` matches with ~):
// % and _ become .* and ., ( opens a non-capturing group, characters that
// are special only to regular expressions are escaped, bracket
// expressions pass through. The default escape is a backslash; an empty
// one disables escaping.
Value SimilarToEscape(const Value* a, int n, FuncCallContext&) {
  std::string_view p = a[0].str;
  std::string_view esc = n > 1 ? std::string_view(a[1].str) : std::string_view("\\");
  if (CharLength(esc) > 1) {
    throw DbError("22025", "invalid escape string").WithHint(
        "Escape string must be empty or one character.");
  }
  std::string out = "^(?:";
  bool after_escape = false, in_bracket = false;
  size_t bracket_start = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (after_escape) {
      out += '\\';  // escaped: literal (the "-separators of substring's
      out += c;       // SIMILAR form are not supported)
      after_escape = false;
    } else if (!esc.empty() && c == esc[0]) {
      after_escape = true;
    } else if (in_bracket) {
      if (c == ']' && i > bracket_start) in_bracket = false;
      out += c;
    } else if (c == '[') {
      in_bracket = true;
      out += c;
      bracket_start = i + 1 < p.size() && p[i + 1] == '^' ? i + 2 : i + 1;
    } else if (c == '%') {
      out += ".*";
    } else if (c == '_') {
      out += '.';
    } else if (c == '(') {
      out += "(?:";
    } else if (c == '\\' || c == '.' || c == '^' || c == '$') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  out += ")$";
  return Value::Text(std::move(out));
}

}  // namespace

void AddRegexBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("~", kOp, {T, T}, B, RegexOp<false, false>));
  t->push_back(Row("!~", kOp, {T, T}, B, RegexOp<false, true>));
  t->push_back(Row("~*", kOp, {T, T}, B, RegexOp<true, false>));
  t->push_back(Row("!~*", kOp, {T, T}, B, RegexOp<true, true>));
  t->push_back(Row("textregexeq", kFn, {T, T}, B, RegexOp<false, false>));
  t->push_back(Row("substring", kFn, {T, T}, T, SubstringRegex));
  t->push_back(Row("similar_to_escape", kFn, {T}, T, SimilarToEscape));
  t->push_back(Row("similar_to_escape", kFn, {T, T}, T, SimilarToEscape));
  t->push_back(Row("regexp_replace", kFn, {T, T, T}, T, RegexpReplace));
  t->push_back(Row("regexp_replace", kFn, {T, T, T, T}, T, RegexpReplace));
  t->push_back(Row("regexp_replace", kFn, {T, T, T, I4}, T, RegexpReplaceAt));
  t->push_back(Row("regexp_replace", kFn, {T, T, T, I4, I4}, T, RegexpReplaceAt));
  t->push_back(Row("regexp_replace", kFn, {T, T, T, I4, I4, T}, T, RegexpReplaceAt));
  t->push_back(Row("regexp_like", kFn, {T, T}, B, RegexpLike));
  t->push_back(Row("regexp_like", kFn, {T, T, T}, B, RegexpLike));
  t->push_back(Row("regexp_count", kFn, {T, T}, I4, RegexpCount));
  t->push_back(Row("regexp_count", kFn, {T, T, I4}, I4, RegexpCount));
  t->push_back(Row("regexp_count", kFn, {T, T, I4, T}, I4, RegexpCount));
  t->push_back(Row("regexp_instr", kFn, {T, T}, I4, RegexpInstr));
  t->push_back(Row("regexp_instr", kFn, {T, T, I4}, I4, RegexpInstr));
  t->push_back(Row("regexp_instr", kFn, {T, T, I4, I4}, I4, RegexpInstr));
  t->push_back(Row("regexp_instr", kFn, {T, T, I4, I4, I4}, I4, RegexpInstr));
  t->push_back(Row("regexp_instr", kFn, {T, T, I4, I4, I4, T}, I4, RegexpInstr));
  t->push_back(Row("regexp_instr", kFn, {T, T, I4, I4, I4, T, I4}, I4, RegexpInstr));
  t->push_back(Row("regexp_substr", kFn, {T, T}, T, RegexpSubstr));
  t->push_back(Row("regexp_substr", kFn, {T, T, I4}, T, RegexpSubstr));
  t->push_back(Row("regexp_substr", kFn, {T, T, I4, I4}, T, RegexpSubstr));
  t->push_back(Row("regexp_substr", kFn, {T, T, I4, I4, T}, T, RegexpSubstr));
  t->push_back(Row("regexp_substr", kFn, {T, T, I4, I4, T, I4}, T, RegexpSubstr));
}

}  // namespace hearth::types::internal
