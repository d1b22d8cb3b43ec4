// server/utils/adt/builtins_text_funcs.cpp
//
// More string functions, as PostgreSQL 15 defines them: split_part,
// translate, initcap, lpad/rpad, reverse, chr/ascii, to_hex, md5,
// quote_ident/quote_literal/quote_nullable and format(). Positions and
// lengths count characters (UTF-8 code points), as in a UTF8 database.
#include <algorithm>
#include <cctype>

#include "common/error/db_error.h"
#include "parser/keywords.h"
#include "utils/adt/builtins.h"
#include "utils/adt/bytea.h"
#include "utils/adt/string_adt.h"
#include "utils/adt/text_io.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;
constexpr Oid T = kTextOid;
constexpr Oid I4 = kInt4Oid;
constexpr Oid I8 = kInt8Oid;

// Byte length of the UTF-8 character starting with lead byte c.
size_t CharBytes(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}
// The string split into its characters (views into s).
std::vector<std::string_view> Chars(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < s.size();) {
    size_t n = std::min(CharBytes(static_cast<unsigned char>(s[i])), s.size() - i);
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

Value SplitPart(const Value* a, int, FuncCallContext&) {
  const std::string& s = a[0].str;
  const std::string& sep = a[1].str;
  int64_t field = a[2].i;
  if (field == 0) throw DbError(sqlstate::kInvalidParameterValue, "field position must not be zero");
  std::vector<std::string_view> parts;
  if (s.empty()) return Value::Text("");
  if (sep.empty()) {
    parts.push_back(s);
  } else {
    size_t pos = 0;
    for (size_t hit; (hit = s.find(sep, pos)) != std::string::npos; pos = hit + sep.size()) {
      parts.push_back(std::string_view(s).substr(pos, hit - pos));
    }
    parts.push_back(std::string_view(s).substr(pos));
  }
  int64_t n = static_cast<int64_t>(parts.size());
  int64_t idx = field > 0 ? field - 1 : n + field;
  if (idx < 0 || idx >= n) return Value::Text("");
  return Value::Text(std::string(parts[idx]));
}

// translate(s, from, to): each character of `from` becomes the character at
// the same place in `to`, or is deleted when `to` is shorter.
Value Translate(const Value* a, int, FuncCallContext&) {
  std::vector<std::string_view> from = Chars(a[1].str), to = Chars(a[2].str);
  std::string out;
  for (std::string_view c : Chars(a[0].str)) {
    auto it = std::find(from.begin(), from.end(), c);
    if (it == from.end()) {
      out.append(c);
    } else if (size_t k = it - from.begin(); k < to.size()) {
      out.append(to[k]);
    }
  }
  return Value::Text(std::move(out));
}

// initcap: first letter of each alphanumeric run upper, the rest lower.
Value Initcap(const Value* a, int, FuncCallContext&) {
  std::string out = a[0].str;
  bool word_start = true;
  for (char& ch : out) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 0x80) {
      word_start = false;
      continue;
    }
    ch = static_cast<char>(word_start ? std::toupper(c) : std::tolower(c));
    word_start = !std::isalnum(c);
  }
  return Value::Text(std::move(out));
}

// lpad/rpad(s, len [, fill]): pad with `fill` (default a space) or truncate
// to `len` characters.
Value Pad(const Value* a, int n, bool left) {
  const std::string& s = a[0].str;
  int64_t len = std::max<int64_t>(a[1].i, 0);
  std::string fill = n > 2 ? a[2].str : " ";
  int64_t have = CharLength(s);
  if (have >= len || fill.empty()) return Value::Text(s.substr(0, CharOffset(s, std::min(have, len))));
  if (len * 4 > 1073741823) throw DbError(sqlstate::kProgramLimitExceeded, "requested length too large");
  std::vector<std::string_view> fc = Chars(fill);
  std::string pad;
  for (int64_t k = 0; k < len - have; ++k) pad.append(fc[k % fc.size()]);
  return Value::Text(left ? pad + s : s + pad);
}
Value Lpad(const Value* a, int n, FuncCallContext&) { return Pad(a, n, true); }
Value Rpad(const Value* a, int n, FuncCallContext&) { return Pad(a, n, false); }

Value Reverse(const Value* a, int, FuncCallContext&) {
  std::vector<std::string_view> cs = Chars(a[0].str);
  std::string out;
  out.reserve(a[0].str.size());
  for (auto it = cs.rbegin(); it != cs.rend(); ++it) out.append(*it);
  return Value::Text(std::move(out));
}

Value Chr(const Value* a, int, FuncCallContext&) {
  int64_t cp = a[0].i;
  if (cp == 0) throw DbError(sqlstate::kProgramLimitExceeded, "null character not permitted");
  if (cp < 0) throw DbError(sqlstate::kProgramLimitExceeded, "character number must be positive");
  if (cp > 0x10FFFF) {
    throw DbError(sqlstate::kProgramLimitExceeded,
                  "requested character too large for encoding: " + std::to_string(cp));
  }
  if (cp >= 0xD800 && cp <= 0xDFFF) {
    throw DbError(sqlstate::kProgramLimitExceeded,
                  "requested character not valid for encoding: " + std::to_string(cp));
  }
  std::string out;
  auto c = static_cast<uint32_t>(cp);
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return Value::Text(std::move(out));
}

Value Ascii(const Value* a, int, FuncCallContext&) {
  const std::string& s = a[0].str;
  if (s.empty()) return Value::Int4(0);
  auto b = static_cast<unsigned char>(s[0]);
  size_t n = std::min(CharBytes(b), s.size());
  uint32_t cp = n == 1 ? b : (b & (0x7F >> n));
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3F);
  return Value::Int4(static_cast<int32_t>(cp));
}

// to_hex: two's complement of negatives at the argument's width.
template <Oid W>
Value ToHex(const Value* a, int, FuncCallContext&) {
  uint64_t v = W == I4 ? static_cast<uint32_t>(a[0].i) : static_cast<uint64_t>(a[0].i);
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[v & 0xF]);
    v >>= 4;
  } while (v != 0);
  return Value::Text(std::move(out));
}

Value Md5(const Value* a, int, FuncCallContext&) { return Value::Text(HexOf(DigestBytes(a[0].str, "md5"))); }

// ---- quoting -------------------------------------------------------------------
// An identifier needs quotes unless it is lower-case letters, digits and
// underscores not starting with a digit, and not a keyword that needs them.
std::string QuoteIdent(std::string_view s) {
  bool safe = !s.empty() && (std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_');
  for (char c : s) {
    safe = safe && (std::islower(static_cast<unsigned char>(c)) ||
                    std::isdigit(static_cast<unsigned char>(c)) || c == '_');
  }
  if (safe && parser::LookupKeyword(s) == parser::KeywordCategory::kNone) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
// 'x' with quotes doubled; E'...' with doubled backslashes when any.
std::string QuoteLiteral(std::string_view s) {
  std::string out;
  if (s.find('\\') != std::string_view::npos) out += 'E';
  out += '\'';
  for (char c : s) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  return out + "'";
}

Value QuoteIdentFn(const Value* a, int, FuncCallContext&) { return Value::Text(QuoteIdent(a[0].str)); }
Value QuoteLiteralFn(const Value* a, int, FuncCallContext&) {
  return Value::Text(QuoteLiteral(OutputValue(a[0])));
}
Value QuoteNullable(const Value* a, int, FuncCallContext&) {
  if (a[0].is_null) return Value::Text("NULL");
  return Value::Text(QuoteLiteral(OutputValue(a[0])));
}

// ---- format() ----------------------------------------------------------------------
[[noreturn]] void FormatError(const std::string& msg, bool with_hint) {
  DbError e(sqlstate::kInvalidParameterValue, msg);
  if (with_hint) e.WithHint("For a single \"%\" use \"%%\".");
  throw e;
}

// Reads "n$" at *i if present; returns n (0 if absent). Leaves *i after it.
int ParsePosition(std::string_view f, size_t* i) {
  size_t k = *i;
  int64_t n = 0;
  while (k < f.size() && std::isdigit(static_cast<unsigned char>(f[k]))) {
    n = n * 10 + (f[k] - '0');
    if (n > INT32_MAX) FormatError("number is out of range", false);
    ++k;
  }
  if (k == *i || k >= f.size() || f[k] != '$') return 0;
  if (n == 0) FormatError("format specifies argument 0, but arguments are numbered from 1", false);
  *i = k + 1;
  return static_cast<int>(n);
}

class Formatter {
 public:
  Formatter(const Value* args, int nargs) : args_(args), nargs_(nargs) {}

  std::string Run(std::string_view f) {
    std::string out;
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i] != '%') {
        out += f[i];
        continue;
      }
      if (++i >= f.size()) FormatError("unterminated format() type specifier", true);
      if (f[i] == '%') {
        out += '%';
        continue;
      }
      Spec(f, &i, &out);
    }
    return out;
  }

 private:
  const Value* args_;
  int nargs_;
  int next_ = 1;  // next argument (args_[0] is the format string)

  const Value& Arg(int pos) {
    if (pos == 0) pos = next_;
    if (pos >= nargs_) FormatError("too few arguments for format()", false);
    next_ = pos + 1;
    return args_[pos];
  }
  void Need(std::string_view f, size_t i) {
    if (i >= f.size()) FormatError("unterminated format() type specifier", true);
  }

  // One %[n$][-][width|*|*n$]{s|I|L} at f[*i]; leaves *i on the type letter.
  void Spec(std::string_view f, size_t* i, std::string* out) {
    int pos = ParsePosition(f, i);
    Need(f, *i);
    bool left = false;
    if (f[*i] == '-') {
      left = true;
      ++*i;
      Need(f, *i);
    }
    int64_t width = 0;
    if (f[*i] == '*') {
      ++*i;
      Need(f, *i);
      int wpos = ParsePosition(f, i);
      Need(f, *i);
      const Value& w = Arg(wpos);
      if (!w.is_null) width = std::stoll(OutputValue(w));
    } else {
      while (std::isdigit(static_cast<unsigned char>(f[*i]))) {
        width = width * 10 + (f[*i] - '0');
        if (width > INT32_MAX) FormatError("number is out of range", false);
        ++*i;
        Need(f, *i);
      }
    }
    if (width < 0) {
      left = true;
      width = -width;
    }
    char type = f[*i];
    if (type != 's' && type != 'I' && type != 'L') {
      FormatError(std::string("unrecognized format() type specifier \"") + type + "\"", true);
    }
    const Value& v = Arg(pos);
    std::string text;
    if (type == 's') {
      if (!v.is_null) text = OutputValue(v);
    } else if (type == 'I') {
      if (v.is_null) {
        throw DbError("22004", "null values cannot be formatted as an SQL identifier");
      }
      text = QuoteIdent(OutputValue(v));
    } else {
      text = v.is_null ? "NULL" : QuoteLiteral(OutputValue(v));
    }
    int64_t pad = width - CharLength(text);
    if (pad > 0 && left) text.append(pad, ' ');
    if (pad > 0 && !left) text.insert(0, pad, ' ');
    out->append(text);
  }
};

Value Format(const Value* a, int n, FuncCallContext&) {
  if (a[0].is_null) return Value::Null(T);
  return Value::Text(Formatter(a, n).Run(a[0].str));
}

}  // namespace

void AddTextFunctionBuiltins(std::vector<FuncSignature>* t) {
  t->push_back(Row("split_part", kFn, {T, T, I4}, T, SplitPart));
  t->push_back(Row("translate", kFn, {T, T, T}, T, Translate));
  t->push_back(Row("initcap", kFn, {T}, T, Initcap));
  t->push_back(Row("lpad", kFn, {T, I4}, T, Lpad));
  t->push_back(Row("lpad", kFn, {T, I4, T}, T, Lpad));
  t->push_back(Row("rpad", kFn, {T, I4}, T, Rpad));
  t->push_back(Row("rpad", kFn, {T, I4, T}, T, Rpad));
  t->push_back(Row("reverse", kFn, {T}, T, Reverse));
  t->push_back(Row("chr", kFn, {I4}, T, Chr));
  t->push_back(Row("ascii", kFn, {T}, I4, Ascii));
  t->push_back(Row("to_hex", kFn, {I4}, T, ToHex<kInt4Oid>));
  t->push_back(Row("to_hex", kFn, {I8}, T, ToHex<kInt8Oid>));
  t->push_back(Row("md5", kFn, {T}, T, Md5));
  t->push_back(Row("quote_ident", kFn, {T}, T, QuoteIdentFn));
  t->push_back(Row("quote_literal", kFn, {T}, T, QuoteLiteralFn));
  t->push_back(Row("quote_literal", kFn, {kAnyNonArrayOid}, T, QuoteLiteralFn));
  t->push_back(Row("quote_nullable", kFn, {T}, T, QuoteNullable, /*strict=*/false));
  t->push_back(Row("quote_nullable", kFn, {kAnyNonArrayOid}, T, QuoteNullable, false));
  t->push_back(Row("format", kFn, {T}, T, Format, false));
  t->push_back(Row("format", kFn, {T, kAnyOid}, T, Format, false, /*variadic=*/true));
}

}  // namespace hearth::types::internal
