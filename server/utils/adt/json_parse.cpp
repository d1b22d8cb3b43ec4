// server/utils/adt/json_parse.cpp
//
// Principal entry points: ParseJson, ValidateJson. A lexer with one token
// of lookahead and a recursive-descent parser shaped like PostgreSQL 15's
// (common/jsonapi.c), so the same input fails at the same token with the
// same message, DETAIL and CONTEXT.
#include <cstring>

#include "common/error/db_error.h"
#include "utils/adt/json.h"

namespace hearth::types {
namespace {

enum class Tok { kObjectStart, kObjectEnd, kArrayStart, kArrayEnd, kComma, kColon, kString, kNumber,
                 kTrue, kFalse, kNull, kEnd, kInvalid };

// What the parser expected where a token did not fit (jsonapi's contexts).
enum class Expect { kValue, kString, kArrayNext, kObjectStart, kObjectLabel, kObjectNext, kEnd };

constexpr int kMaxDepth = 6400;

bool IsAlnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Length of the UTF-8 character starting with byte c (1 for ASCII/invalid).
size_t CharLen(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class JsonParser {
 public:
  JsonParser(std::string_view text, const JsonParseOptions& opt) : in_(text), opt_(opt) {}

  JsonNode ParseDocument() {
    Lex();
    JsonNode root = ParseValue(0);
    if (tok_ != Tok::kEnd) ParseError(Expect::kEnd);
    return root;
  }

 private:
  // ---- errors ----
  // CONTEXT: the current line up to the end of the failing token, cut to
  // about 50 bytes with "..." marks, as report_json_context prints it.
  std::string Context() const {
    size_t line_start = line_start_, start = line_start, end = tok_end_;
    while (end - start >= 50) start += (static_cast<unsigned char>(in_[start]) >= 0x80) ? CharLen(in_[start]) : 1;
    if (start - line_start <= 3) start = line_start;
    std::string s = "JSON data, line " + std::to_string(line_) + ": ";
    if (start > line_start) s += "...";
    s.append(in_.substr(start, end - start));
    if (tok_ != Tok::kEnd && end < in_.size() && in_[end] != '\n' && in_[end] != '\r') s += "...";
    return s;
  }

  [[noreturn]] void Fail(std::string detail, const char* sqlstate = sqlstate::kInvalidTextRepresentation,
                         std::string message = {}) const {
    if (message.empty()) message = std::string("invalid input syntax for type ") + opt_.type_name;
    throw DbError(sqlstate, std::move(message)).WithDetail(std::move(detail)).WithContext(Context());
  }

  std::string TokenText() const { return std::string(in_.substr(tok_start_, tok_end_ - tok_start_)); }

  [[noreturn]] void InvalidToken() { Fail("Token \"" + TokenText() + "\" is invalid."); }

  [[noreturn]] void ParseError(Expect e) {
    if (tok_ == Tok::kEnd) Fail("The input string ended unexpectedly.");
    const std::string t = TokenText();
    switch (e) {
      case Expect::kValue: Fail("Expected JSON value, but found \"" + t + "\".");
      case Expect::kString: Fail("Expected string, but found \"" + t + "\".");
      case Expect::kArrayNext: Fail("Expected \",\" or \"]\", but found \"" + t + "\".");
      case Expect::kObjectStart: Fail("Expected string or \"}\", but found \"" + t + "\".");
      case Expect::kObjectLabel: Fail("Expected \":\", but found \"" + t + "\".");
      case Expect::kObjectNext: Fail("Expected \",\" or \"}\", but found \"" + t + "\".");
      case Expect::kEnd: Fail("Expected end of input, but found \"" + t + "\".");
    }
    Fail("");
  }

  // ---- lexer ----
  void Lex() {
    size_t p = tok_end_;
    while (p < in_.size() && (in_[p] == ' ' || in_[p] == '\t' || in_[p] == '\n' || in_[p] == '\r')) {
      if (in_[p] == '\n') {
        ++line_;
        line_start_ = p + 1;
      }
      ++p;
    }
    tok_start_ = p;
    if (p >= in_.size()) {
      tok_ = Tok::kEnd;
      tok_end_ = p;
      return;
    }
    tok_end_ = p + 1;
    tok_ = Tok::kInvalid;  // until recognized (the CONTEXT's "..." depends on it)
    switch (in_[p]) {
      case '{': tok_ = Tok::kObjectStart; return;
      case '}': tok_ = Tok::kObjectEnd; return;
      case '[': tok_ = Tok::kArrayStart; return;
      case ']': tok_ = Tok::kArrayEnd; return;
      case ',': tok_ = Tok::kComma; return;
      case ':': tok_ = Tok::kColon; return;
      case '"': LexString(p); return;
      case '-':
      case '0': case '1': case '2': case '3': case '4':
      case '5': case '6': case '7': case '8': case '9':
        LexNumber(p);
        return;
      default: break;
    }
    size_t e = p;
    while (e < in_.size() && IsAlnum(static_cast<unsigned char>(in_[e]))) ++e;
    if (e == p) {
      tok_end_ = p + CharLen(static_cast<unsigned char>(in_[p]));
      if (tok_end_ > in_.size()) tok_end_ = in_.size();
      InvalidToken();
    }
    tok_end_ = e;
    std::string_view w = in_.substr(p, e - p);
    if (w == "true") tok_ = Tok::kTrue;
    else if (w == "false") tok_ = Tok::kFalse;
    else if (w == "null") tok_ = Tok::kNull;
    else InvalidToken();
  }

  void LexNumber(size_t p) {
    size_t s = p;
    bool error = false;
    auto digit = [&](size_t k) { return k < in_.size() && in_[k] >= '0' && in_[k] <= '9'; };
    if (in_[s] == '-') ++s;
    if (s < in_.size() && in_[s] == '0') {
      ++s;
    } else if (digit(s)) {
      while (digit(s)) ++s;
    } else {
      error = true;
    }
    if (s < in_.size() && in_[s] == '.') {
      ++s;
      if (!digit(s)) error = true;
      while (digit(s)) ++s;
    }
    if (s < in_.size() && (in_[s] == 'e' || in_[s] == 'E')) {
      ++s;
      if (s < in_.size() && (in_[s] == '+' || in_[s] == '-')) ++s;
      if (!digit(s)) error = true;
      while (digit(s)) ++s;
    }
    while (s < in_.size() && IsAlnum(static_cast<unsigned char>(in_[s]))) {
      ++s;
      error = true;
    }
    tok_end_ = s;
    if (error) InvalidToken();
    tok_ = Tok::kNumber;
  }

  // Sets tok_end_ at the bad spot (as jsonapi) before failing.
  [[noreturn]] void StringFail(size_t at, std::string detail, bool include_char = true) {
    tok_end_ = at;
    if (include_char && at < in_.size()) tok_end_ = std::min(in_.size(), at + CharLen(in_[at]));
    Fail(std::move(detail));
  }

  void LexString(size_t p) {
    tok_ = Tok::kString;
    str_.clear();
    size_t s = p + 1;
    int32_t hi_surrogate = -1;
    for (;;) {
      if (s >= in_.size()) {
        tok_end_ = s;
        InvalidToken();
      }
      const unsigned char c = static_cast<unsigned char>(in_[s]);
      if (c == '"') break;
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02x", c);
        StringFail(s, std::string("Character with value ") + buf + " must be escaped.", false);
      }
      if (c != '\\') {
        if (hi_surrogate != -1 && opt_.de_escape) StringFail(s, "Unicode low surrogate must follow a high surrogate.");
        if (opt_.de_escape) str_.push_back(static_cast<char>(c));
        ++s;
        continue;
      }
      ++s;
      if (s >= in_.size()) {
        tok_end_ = s;
        InvalidToken();
      }
      const char e = in_[s];
      if (e == 'u') {
        uint32_t ch = 0;
        for (int i = 1; i <= 4; ++i) {
          int h = s + i < in_.size() ? HexValue(in_[s + i]) : -1;
          if (h < 0) StringFail(s + i, "\"\\u\" must be followed by four hexadecimal digits.", s + i < in_.size());
          ch = ch * 16 + static_cast<uint32_t>(h);
        }
        s += 5;
        // Surrogates are checked only where strings are de-escaped (jsonapi's strval).
        if (!opt_.de_escape) continue;
        if (ch >= 0xD800 && ch <= 0xDBFF) {
          if (hi_surrogate != -1) StringFail(s, "Unicode high surrogate must not follow a high surrogate.", false);
          hi_surrogate = static_cast<int32_t>(ch);
          continue;
        }
        if (ch >= 0xDC00 && ch <= 0xDFFF) {
          if (hi_surrogate == -1) StringFail(s, "Unicode low surrogate must follow a high surrogate.", false);
          ch = 0x10000 + ((static_cast<uint32_t>(hi_surrogate) - 0xD800) << 10) + (ch - 0xDC00);
          hi_surrogate = -1;
        } else if (hi_surrogate != -1) {
          StringFail(s, "Unicode low surrogate must follow a high surrogate.", false);
        }
        if (ch == 0) {
          tok_end_ = s;
          Fail("\\u0000 cannot be converted to text.", "22P05",
               "unsupported Unicode escape sequence");
        }
        AppendUtf8(ch, &str_);
        continue;
      }
      if (hi_surrogate != -1 && opt_.de_escape) StringFail(s, "Unicode low surrogate must follow a high surrogate.");
      char out = 0;
      switch (e) {
        case '"': out = '"'; break;
        case '\\': out = '\\'; break;
        case '/': out = '/'; break;
        case 'b': out = '\b'; break;
        case 'f': out = '\f'; break;
        case 'n': out = '\n'; break;
        case 'r': out = '\r'; break;
        case 't': out = '\t'; break;
        default: {
          const size_t len = std::min(in_.size() - s, CharLen(static_cast<unsigned char>(e)));
          tok_start_ = s;
          tok_end_ = s + len;
          Fail("Escape sequence \"\\" + std::string(in_.substr(s, len)) + "\" is invalid.");
        }
      }
      if (opt_.de_escape) str_.push_back(out);
      ++s;
    }
    if (hi_surrogate != -1) StringFail(s, "Unicode low surrogate must follow a high surrogate.", false);
    tok_end_ = s + 1;
  }

  // ---- parser ----
  JsonNode ParseValue(int depth) {
    switch (tok_) {
      case Tok::kObjectStart: return ParseObject(depth + 1);
      case Tok::kArrayStart: return ParseArray(depth + 1);
      default: return ParseScalar(Expect::kValue);
    }
  }

  JsonNode ParseScalar(Expect ctx) {
    JsonNode n;
    switch (tok_) {
      case Tok::kString: n.kind = JsonKind::kString; n.str = std::move(str_); break;
      case Tok::kNumber: n.kind = JsonKind::kNumber; n.str = TokenText(); break;
      case Tok::kTrue: n.kind = JsonKind::kBool; n.b = true; break;
      case Tok::kFalse: n.kind = JsonKind::kBool; break;
      case Tok::kNull: break;
      default: ParseError(ctx);
    }
    if (opt_.keep_raw) n.raw = in_.substr(tok_start_, tok_end_ - tok_start_);
    Lex();
    return n;
  }

  void CheckDepth(int depth) const {
    if (depth > kMaxDepth)
      throw DbError(sqlstate::kStatementTooComplex, "stack depth limit exceeded")
          .WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after "
                    "ensuring the platform's stack depth limit is adequate.");
  }

  JsonNode ParseObject(int depth) {
    CheckDepth(depth);
    JsonNode n = JsonNode::Object();
    const size_t start = tok_start_;
    Lex();
    if (tok_ == Tok::kString) {
      for (;;) {
        if (tok_ != Tok::kString) ParseError(Expect::kString);
        n.keys.push_back(std::move(str_));
        Lex();
        if (tok_ != Tok::kColon) ParseError(Expect::kObjectLabel);
        Lex();
        n.items.push_back(ParseValue(depth));
        if (tok_ == Tok::kComma) {
          Lex();
          if (tok_ != Tok::kString) ParseError(Expect::kString);
          continue;
        }
        if (tok_ != Tok::kObjectEnd) ParseError(Expect::kObjectNext);
        break;
      }
    } else if (tok_ != Tok::kObjectEnd) {
      ParseError(Expect::kObjectStart);
    }
    if (opt_.keep_raw) n.raw = in_.substr(start, tok_end_ - start);
    Lex();
    return n;
  }

  JsonNode ParseArray(int depth) {
    CheckDepth(depth);
    JsonNode n = JsonNode::Array();
    const size_t start = tok_start_;
    Lex();
    if (tok_ != Tok::kArrayEnd) {
      for (;;) {
        n.items.push_back(ParseValue(depth));
        if (tok_ == Tok::kComma) {
          Lex();
          continue;
        }
        if (tok_ != Tok::kArrayEnd) ParseError(Expect::kArrayNext);
        break;
      }
    }
    if (opt_.keep_raw) n.raw = in_.substr(start, tok_end_ - start);
    Lex();
    return n;
  }

  std::string_view in_;
  const JsonParseOptions& opt_;
  Tok tok_ = Tok::kEnd;
  size_t tok_start_ = 0, tok_end_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  std::string str_;  // the current string token's contents
};

}  // namespace

JsonNode ParseJson(std::string_view text, const JsonParseOptions& opt) {
  return JsonParser(text, opt).ParseDocument();
}

void ValidateJson(std::string_view text) {
  JsonParseOptions opt;
  opt.de_escape = false;
  ParseJson(text, opt);
}

const JsonNode* JsonNode::Find(std::string_view key) const {
  if (kind != JsonKind::kObject) return nullptr;
  for (size_t i = keys.size(); i-- > 0;)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

}  // namespace hearth::types
