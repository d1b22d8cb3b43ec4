// server/parser/lexer.cpp
//
// Hand-written scanner. Rules follow PostgreSQL's documented lexical
// structure (SQL syntax chapter): identifiers, quoted identifiers, string
// constants with '' escapes and newline continuation, E'' escape strings,
// dollar quoting, numbers, $n parameters, operators and nested comments.
#include "parser/lexer.h"

#include <cstdint>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::parser {
namespace {

constexpr size_t kMaxIdentifierBytes = 63;  // NAMEDATALEN - 1

bool IsIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool IsIdentCont(unsigned char c) { return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '$'; }
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
// Characters that may form (multi-character) operators.
bool IsOpChar(unsigned char c) {
  switch (c) {
    case '~': case '!': case '@': case '#': case '^': case '&': case '|': case '`': case '?':
    case '+': case '-': case '*': case '/': case '%': case '<': case '>': case '=':
      return true;
    default:
      return false;
  }
}

// Appends code point `cp` as UTF-8.
void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int HexValue(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  std::vector<Token> Run() {
    std::vector<Token> out;
    for (;;) {
      SkipWhitespaceAndComments();
      if (pos_ >= sql_.size()) break;
      out.push_back(Next());
    }
    Token end;
    end.type = TokenType::kEnd;
    end.offset = end.end = static_cast<int>(sql_.size());
    out.push_back(std::move(end));
    return out;
  }

 private:
  unsigned char At(size_t i) const { return i < sql_.size() ? static_cast<unsigned char>(sql_[i]) : 0; }

  [[noreturn]] void Fail(size_t start, const std::string& what) {
    // Like PostgreSQL, quote the rest of the input from the token's start.
    ThrowSyntaxError(sql_, static_cast<int>(start), what, sql_.substr(start));
  }

  void SkipWhitespaceAndComments() {
    while (pos_ < sql_.size()) {
      unsigned char c = At(pos_);
      if (IsSpace(c)) {
        ++pos_;
      } else if (c == '-' && At(pos_ + 1) == '-') {
        while (pos_ < sql_.size() && At(pos_) != '\n' && At(pos_) != '\r') ++pos_;
      } else if (c == '/' && At(pos_ + 1) == '*') {
        SkipBlockComment();
      } else {
        break;
      }
    }
  }

  // Block comments nest, as in PostgreSQL.
  void SkipBlockComment() {
    size_t start = pos_;
    int depth = 0;
    while (pos_ < sql_.size()) {
      if (At(pos_) == '/' && At(pos_ + 1) == '*') {
        ++depth;
        pos_ += 2;
      } else if (At(pos_) == '*' && At(pos_ + 1) == '/') {
        --depth;
        pos_ += 2;
        if (depth == 0) return;
      } else {
        ++pos_;
      }
    }
    Fail(start, "unterminated /* comment");
  }

  Token Make(TokenType type, size_t start, std::string text) {
    Token t;
    t.type = type;
    t.text = std::move(text);
    t.offset = static_cast<int>(start);
    t.end = static_cast<int>(pos_);
    return t;
  }

  Token Next() {
    size_t start = pos_;
    unsigned char c = At(pos_);
    unsigned char c1 = At(pos_ + 1);
    if ((c == 'e' || c == 'E') && c1 == '\'') {
      ++pos_;
      return Make(TokenType::kString, start, QuotedString(start, true));
    }
    if ((c == 'n' || c == 'N') && c1 == '\'') {  // national character: a plain string
      ++pos_;
      return Make(TokenType::kString, start, QuotedString(start, false));
    }
    if (c == '\'') return Make(TokenType::kString, start, QuotedString(start, false));
    if (c == '"') return QuotedIdentifier(start);
    if (IsIdentStart(c)) return Identifier(start);
    if (IsDigit(c) || (c == '.' && IsDigit(c1))) return Number(start);
    if (c == '$') return Dollar(start);
    if (c == ':' && c1 == ':') {
      pos_ += 2;
      return Make(TokenType::kOp, start, "::");
    }
    if (c == ':' && c1 == '=') {
      pos_ += 2;
      return Make(TokenType::kOp, start, ":=");
    }
    switch (c) {
      case '(': case ')': case ',': case ';': case '[': case ']': case '.': case ':':
        ++pos_;
        return Make(TokenType::kOp, start, std::string(1, static_cast<char>(c)));
      default:
        break;
    }
    if (IsOpChar(c)) return Operator(start);
    // Anything else (control characters, '\\', '{', ...) is a one-byte token
    // the grammar never accepts, so it surfaces as "syntax error at or near".
    ++pos_;
    return Make(TokenType::kOp, start, std::string(1, static_cast<char>(c)));
  }

  Token Identifier(size_t start) {
    while (pos_ < sql_.size() && IsIdentCont(At(pos_))) ++pos_;
    std::string text(sql_.substr(start, pos_ - start));
    for (char& ch : text) {
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    }
    Truncate(text);
    return Make(TokenType::kIdent, start, std::move(text));
  }

  // Identifiers longer than NAMEDATALEN-1 bytes are truncated (at a
  // character boundary), as PostgreSQL does.
  static void Truncate(std::string& s) {
    if (s.size() <= kMaxIdentifierBytes) return;
    size_t n = kMaxIdentifierBytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    s.resize(n);
  }

  Token QuotedIdentifier(size_t start) {
    ++pos_;
    std::string text;
    for (;;) {
      if (pos_ >= sql_.size()) Fail(start, "unterminated quoted identifier");
      char ch = sql_[pos_++];
      if (ch == '"') {
        if (At(pos_) == '"') {
          text += '"';
          ++pos_;
          continue;
        }
        break;
      }
      text += ch;
    }
    if (text.empty()) {
      ThrowSyntaxError(sql_, static_cast<int>(start), "zero-length delimited identifier",
                       sql_.substr(start, pos_ - start));
    }
    Truncate(text);
    return Make(TokenType::kQuotedIdent, start, std::move(text));
  }

  // After a closing quote: whitespace containing a newline followed by
  // another quote continues the same literal (SQL standard). Returns true and
  // leaves pos_ after the opening quote of the continuation if so.
  bool Continuation() {
    size_t p = pos_;
    bool newline = false;
    while (p < sql_.size()) {
      unsigned char ch = At(p);
      if (ch == '\n' || ch == '\r') {
        newline = true;
        ++p;
      } else if (IsSpace(ch)) {
        ++p;
      } else if (newline && ch == '-' && At(p + 1) == '-') {
        while (p < sql_.size() && At(p) != '\n' && At(p) != '\r') ++p;
      } else {
        break;
      }
    }
    if (newline && At(p) == '\'') {
      pos_ = p + 1;
      return true;
    }
    return false;
  }

  // pos_ is at the opening quote. Returns the decoded contents.
  std::string QuotedString(size_t start, bool escapes) {
    ++pos_;
    std::string out;
    for (;;) {
      if (pos_ >= sql_.size()) Fail(start, "unterminated quoted string");
      unsigned char ch = At(pos_);
      if (ch == '\'') {
        if (At(pos_ + 1) == '\'') {
          out += '\'';
          pos_ += 2;
          continue;
        }
        ++pos_;
        if (Continuation()) continue;
        return out;
      }
      if (ch == '\\' && escapes) {
        EscapeSequence(start, out);
        continue;
      }
      out += static_cast<char>(ch);
      ++pos_;
    }
  }

  // pos_ is at a backslash inside E'...'.
  void EscapeSequence(size_t start, std::string& out) {
    ++pos_;
    if (pos_ >= sql_.size()) Fail(start, "unterminated quoted string");
    unsigned char ch = At(pos_++);
    switch (ch) {
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'n': out += '\n'; return;
      case 'r': out += '\r'; return;
      case 't': out += '\t'; return;
      case 'v': out += '\v'; return;
      case 'x': {
        int v = 0, n = 0;
        while (n < 2 && HexValue(At(pos_)) >= 0) v = v * 16 + HexValue(At(pos_++)), ++n;
        if (n == 0) {
          out += 'x';
          return;
        }
        AppendByte(start, v, out);
        return;
      }
      case 'u':
      case 'U': {
        int want = ch == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (int i = 0; i < want; ++i) {
          int h = HexValue(At(pos_));
          if (h < 0) {
            throw DbError(sqlstate::kSyntaxError, "invalid Unicode escape")
                .WithPosition(CharPosition(sql_, static_cast<int>(pos_)))
                .WithHint("Unicode escapes must be \\uXXXX or \\UXXXXXXXX.");
          }
          cp = cp * 16 + static_cast<uint32_t>(h);
          ++pos_;
        }
        if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          throw DbError(sqlstate::kSyntaxError, "invalid Unicode escape value")
              .WithPosition(CharPosition(sql_, static_cast<int>(pos_)));
        }
        AppendUtf8(out, cp);
        return;
      }
      default:
        break;
    }
    if (ch >= '0' && ch <= '7') {
      int v = ch - '0', n = 1;
      while (n < 3 && At(pos_) >= '0' && At(pos_) <= '7') v = v * 8 + (At(pos_++) - '0'), ++n;
      AppendByte(start, v & 0xFF, out);
      return;
    }
    out += static_cast<char>(ch);  // \\ \' and any other character stand for themselves
  }

  void AppendByte(size_t start, int v, std::string& out) {
    if (v == 0) {
      throw DbError(sqlstate::kCharacterNotInRepertoire,
                    "invalid byte sequence for encoding \"UTF8\": 0x00")
          .WithPosition(CharPosition(sql_, static_cast<int>(start)));
    }
    out += static_cast<char>(v);
  }

  Token Number(size_t start) {
    bool numeric = false;
    while (IsDigit(At(pos_))) ++pos_;
    if (At(pos_) == '.' && At(pos_ + 1) != '.') {
      numeric = true;
      ++pos_;
      while (IsDigit(At(pos_))) ++pos_;
    }
    if (At(pos_) == 'e' || At(pos_) == 'E') {
      size_t p = pos_ + 1;
      if (At(p) == '+' || At(p) == '-') ++p;
      if (IsDigit(At(p))) {
        numeric = true;
        pos_ = p;
        while (IsDigit(At(pos_))) ++pos_;
      }
    }
    if (IsIdentStart(At(pos_))) TrailingJunk(start, "trailing junk after numeric literal");
    return Make(numeric ? TokenType::kNumeric : TokenType::kInteger, start,
                std::string(sql_.substr(start, pos_ - start)));
  }

  [[noreturn]] void TrailingJunk(size_t start, const std::string& what) {
    size_t p = pos_;
    while (p < sql_.size() && IsIdentCont(At(p))) ++p;
    ThrowSyntaxError(sql_, static_cast<int>(start), what, sql_.substr(start, p - start));
  }

  // $n parameter or $tag$ dollar-quoted string.
  Token Dollar(size_t start) {
    ++pos_;
    if (IsDigit(At(pos_))) {
      int64_t n = 0;
      while (IsDigit(At(pos_))) {
        n = n * 10 + (At(pos_++) - '0');
        if (n > INT32_MAX) n = INT32_MAX;
      }
      if (IsIdentStart(At(pos_))) TrailingJunk(start, "trailing junk after parameter");
      Token t = Make(TokenType::kParam, start, std::string(sql_.substr(start, pos_ - start)));
      t.param = static_cast<int>(n);
      return t;
    }
    size_t tag_start = pos_;
    if (IsIdentStart(At(pos_))) {
      while (pos_ < sql_.size() && (IsIdentStart(At(pos_)) || IsDigit(At(pos_)))) ++pos_;
    }
    if (At(pos_) != '$') {
      // A lone '$' is not a token; let the parser report it.
      pos_ = tag_start;
      return Make(TokenType::kOp, start, "$");
    }
    ++pos_;
    std::string_view delim = sql_.substr(start, pos_ - start);
    size_t close = sql_.find(delim, pos_);
    if (close == std::string_view::npos) Fail(start, "unterminated dollar-quoted string");
    std::string body(sql_.substr(pos_, close - pos_));
    pos_ = close + delim.size();
    return Make(TokenType::kString, start, std::move(body));
  }

  Token Operator(size_t start) {
    size_t p = pos_;
    while (p < sql_.size() && IsOpChar(At(p))) {
      // A comment start ends the operator.
      if (p > pos_ && ((At(p) == '-' && At(p + 1) == '-') || (At(p) == '/' && At(p + 1) == '*'))) break;
      ++p;
    }
    size_t len = p - pos_;
    if (len > 1) {
      // "+" / "-" may end a multi-character operator only if it also holds
      // one of ~ ! @ # ^ & | ` ? % (so "a=-1" is "=" then "-1").
      bool special = false;
      for (size_t i = pos_; i < p; ++i) {
        switch (At(i)) {
          case '~': case '!': case '@': case '#': case '^': case '&': case '|': case '`': case '?':
          case '%':
            special = true;
            break;
          default:
            break;
        }
      }
      if (!special) {
        while (len > 1 && (At(pos_ + len - 1) == '+' || At(pos_ + len - 1) == '-')) --len;
      }
    }
    pos_ += len;
    std::string text(sql_.substr(start, len));
    if (text == "!=") text = "<>";
    return Make(TokenType::kOp, start, std::move(text));
  }

  std::string_view sql_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<Token> Tokenize(std::string_view sql) { return Lexer(sql).Run(); }

int CharPosition(std::string_view sql, int byte_offset) {
  int chars = 0;
  for (int i = 0; i < byte_offset && i < static_cast<int>(sql.size()); ++i) {
    if ((static_cast<unsigned char>(sql[i]) & 0xC0) != 0x80) ++chars;
  }
  return chars + 1;
}

void ThrowSyntaxError(std::string_view sql, int byte_offset, const std::string& what,
                      std::string_view near) {
  std::string msg = what;
  msg += " at or near \"";
  msg += near;
  msg += '"';
  throw DbError(sqlstate::kSyntaxError, std::move(msg)).WithPosition(CharPosition(sql, byte_offset));
}

}  // namespace hearth::parser
