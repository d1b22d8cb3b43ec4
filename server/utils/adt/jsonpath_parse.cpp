// server/utils/adt/jsonpath_parse.cpp
//
// Principal entry points: ParseJsonPath, PrintJsonPath, JsonpathValue — a
// recursive-descent parser for the jsonpath subset in jsonpath.h and the
// canonical printer (PostgreSQL's printJsonPathItem: keys quoted, binary
// operators parenthesized by priority, the whole path when it is an
// expression).
#include <cctype>

#include "common/error/db_error.h"
#include "utils/adt/jsonpath.h"
#include "utils/adt/numeric.h"

namespace hearth::types {
namespace {

bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

bool IsMethod(std::string_view s) {
  return s == "type" || s == "size" || s == "double" || s == "abs" || s == "floor" || s == "ceiling";
}

class JsonPathParser {
 public:
  explicit JsonPathParser(std::string_view in) : in_(in) {}

  JsonPath Parse() {
    JsonPath p;
    SkipSpace();
    if (PeekWord() == "strict" || PeekWord() == "lax") {
      p.strict = PeekWord() == "strict";
      pos_ += p.strict ? 6 : 3;
    }
    p.root = ParseOr();
    SkipSpace();
    if (pos_ < in_.size()) SyntaxError();
    return p;
  }

 private:
  [[noreturn]] void SyntaxError() {
    SkipSpace();
    if (pos_ >= in_.size()) throw DbError(sqlstate::kSyntaxError, "syntax error at end of jsonpath input");
    size_t e = pos_ + 1;
    if (in_[pos_] == '$' || IsIdentChar(static_cast<unsigned char>(in_[pos_])))
      while (e < in_.size() && IsIdentChar(static_cast<unsigned char>(in_[e]))) ++e;
    throw DbError(sqlstate::kSyntaxError,
                  "syntax error at or near \"" + std::string(in_.substr(pos_, e - pos_)) + "\" of jsonpath input");
  }

  void SkipSpace() {
    while (pos_ < in_.size() && std::isspace(static_cast<unsigned char>(in_[pos_]))) ++pos_;
  }

  std::string_view PeekWord() {
    SkipSpace();
    size_t e = pos_;
    while (e < in_.size() && IsIdentChar(static_cast<unsigned char>(in_[e]))) ++e;
    return in_.substr(pos_, e - pos_);
  }

  bool Accept(std::string_view tok) {
    SkipSpace();
    if (in_.substr(pos_, tok.size()) != tok) return false;
    pos_ += tok.size();
    return true;
  }
  void Expect(std::string_view tok) {
    if (!Accept(tok)) SyntaxError();
  }
  bool AcceptWord(std::string_view w) {
    if (PeekWord() != w) return false;
    pos_ += w.size();
    return true;
  }

  static JpItem Binary(JpKind k, JpItem l, JpItem r) {
    JpItem n;
    n.kind = k;
    n.args.push_back(std::move(l));
    n.args.push_back(std::move(r));
    return n;
  }
  static JpItem Unary(JpKind k, JpItem a) {
    JpItem n;
    n.kind = k;
    n.args.push_back(std::move(a));
    return n;
  }

  JpItem ParseOr() {
    JpItem l = ParseAnd();
    while (Accept("||")) l = Binary(JpKind::kOr, std::move(l), ParseAnd());
    return l;
  }
  JpItem ParseAnd() {
    JpItem l = ParseNot();
    while (Accept("&&")) l = Binary(JpKind::kAnd, std::move(l), ParseNot());
    return l;
  }
  JpItem ParseNot() {
    SkipSpace();
    if (in_.substr(pos_, 2) != "!=" && Accept("!")) {
      Expect("(");
      JpItem e = ParseOr();
      Expect(")");
      return Unary(JpKind::kNot, std::move(e));
    }
    return ParsePredicate();
  }

  JpItem ParsePredicate() {
    if (PeekWord() == "exists") {
      pos_ += 6;
      Expect("(");
      JpItem e = ParseOr();
      Expect(")");
      return Unary(JpKind::kExists, std::move(e));
    }
    const bool paren = (SkipSpace(), pos_ < in_.size() && in_[pos_] == '(');
    JpItem l = ParseAdditive();
    static const std::pair<const char*, JpKind> kCmp[] = {{"==", JpKind::kEq}, {"!=", JpKind::kNe},
                                                          {"<>", JpKind::kNe}, {"<=", JpKind::kLe},
                                                          {">=", JpKind::kGe}, {"<", JpKind::kLt},
                                                          {">", JpKind::kGt}};
    for (const auto& [tok, kind] : kCmp)
      if (Accept(tok)) return Binary(kind, std::move(l), ParseAdditive());
    if (AcceptWord("starts")) {
      if (!AcceptWord("with")) SyntaxError();
      return Binary(JpKind::kStartsWith, std::move(l), ParseAdditive());
    }
    if (AcceptWord("like_regex")) {
      JpItem n = Unary(JpKind::kLikeRegex, std::move(l));
      SkipSpace();
      if (pos_ >= in_.size() || in_[pos_] != '"') SyntaxError();
      n.str = ParseString();
      if (AcceptWord("flag")) {
        SkipSpace();
        if (pos_ >= in_.size() || in_[pos_] != '"') SyntaxError();
        n.flags = ParseString();
      }
      return n;
    }
    if (paren && PeekWord() == "is") {
      pos_ += 2;
      if (!AcceptWord("unknown")) SyntaxError();
      return Unary(JpKind::kIsUnknown, std::move(l));
    }
    return l;
  }

  JpItem ParseAdditive() {
    JpItem l = ParseMultiplicative();
    for (;;) {
      if (Accept("+")) {
        l = Binary(JpKind::kAdd, std::move(l), ParseMultiplicative());
      } else if (Accept("-")) {
        l = Binary(JpKind::kSub, std::move(l), ParseMultiplicative());
      } else {
        return l;
      }
    }
  }
  JpItem ParseMultiplicative() {
    JpItem l = ParseUnary();
    for (;;) {
      if (Accept("*")) {
        l = Binary(JpKind::kMul, std::move(l), ParseUnary());
      } else if (Accept("/")) {
        l = Binary(JpKind::kDiv, std::move(l), ParseUnary());
      } else if (Accept("%")) {
        l = Binary(JpKind::kMod, std::move(l), ParseUnary());
      } else {
        return l;
      }
    }
  }
  JpItem ParseUnary() {
    if (Accept("+")) return Unary(JpKind::kPlus, ParseUnary());
    if (Accept("-")) return Unary(JpKind::kMinus, ParseUnary());
    return ParseAccessorExpr();
  }

  std::string ParseString() {
    std::string s;
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= in_.size()) SyntaxError();
      char c = in_[pos_++];
      if (c == '"') return s;
      if (c != '\\') {
        s.push_back(c);
        continue;
      }
      if (pos_ >= in_.size()) SyntaxError();
      c = in_[pos_++];
      switch (c) {
        case 'b': s.push_back('\b'); break;
        case 'f': s.push_back('\f'); break;
        case 'n': s.push_back('\n'); break;
        case 'r': s.push_back('\r'); break;
        case 't': s.push_back('\t'); break;
        case 'v': s.push_back('\v'); break;
        case 'u': {
          // \uXXXX through the JSON parser, which knows surrogate pairs.
          size_t e = pos_ - 2;
          std::string lit = "\"";
          while (e + 6 <= in_.size() && in_.substr(e, 2) == "\\u") {
            lit.append(in_.substr(e, 6));
            e += 6;
          }
          lit += "\"";
          s += ParseJson(lit, JsonParseOptions{}).str;
          pos_ = e;
          break;
        }
        default: s.push_back(c); break;
      }
    }
  }

  std::string ParseNumberText() {
    const size_t start = pos_;
    while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
    if (pos_ < in_.size() && in_[pos_] == '.' && pos_ + 1 < in_.size() &&
        std::isdigit(static_cast<unsigned char>(in_[pos_ + 1]))) {
      ++pos_;
      while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
    }
    if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
      size_t e = pos_ + 1;
      if (e < in_.size() && (in_[e] == '+' || in_[e] == '-')) ++e;
      if (e < in_.size() && std::isdigit(static_cast<unsigned char>(in_[e]))) {
        pos_ = e;
        while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
      }
    }
    if (pos_ < in_.size() && IsIdentChar(static_cast<unsigned char>(in_[pos_]))) {
      pos_ = start;
      SyntaxError();
    }
    return Numeric::Parse(in_.substr(start, pos_ - start)).ToString();
  }

  JpItem ParsePrimary() {
    SkipSpace();
    if (pos_ >= in_.size()) SyntaxError();
    JpItem n;
    const char c = in_[pos_];
    if (c == '$') {
      ++pos_;
      if (pos_ < in_.size() && in_[pos_] == '"') {
        n.kind = JpKind::kVariable;
        n.str = ParseString();
      } else if (pos_ < in_.size() && IsIdentChar(static_cast<unsigned char>(in_[pos_]))) {
        n.kind = JpKind::kVariable;
        while (pos_ < in_.size() && IsIdentChar(static_cast<unsigned char>(in_[pos_]))) n.str.push_back(in_[pos_++]);
      } else {
        n.kind = JpKind::kRoot;
      }
      return n;
    }
    if (c == '@') {
      ++pos_;
      n.kind = JpKind::kCurrent;
      return n;
    }
    if (c == '"') {
      n.kind = JpKind::kString;
      n.str = ParseString();
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_ + 1])))) {
      n.kind = JpKind::kNumber;
      n.str = ParseNumberText();
      return n;
    }
    const std::string_view w = PeekWord();
    if (w == "true" || w == "false") {
      pos_ += w.size();
      n.kind = JpKind::kBool;
      n.b = w == "true";
      return n;
    }
    if (w == "null" || w == "last") {
      pos_ += w.size();
      n.kind = w == "null" ? JpKind::kNull : JpKind::kLast;
      return n;
    }
    SyntaxError();
  }

  JpItem ParseAccessorExpr() {
    SkipSpace();
    if (Accept("(")) {
      JpItem e = ParseOr();
      Expect(")");
      return e;
    }
    JpItem n = ParsePrimary();
    for (;;) {
      SkipSpace();
      if (Accept("?")) {
        Expect("(");
        JpItem f = Unary(JpKind::kFilter, ParseOr());
        Expect(")");
        n.chain.push_back(std::move(f));
      } else if (in_.substr(pos_, 1) == "[") {
        n.chain.push_back(ParseSubscripts());
      } else if (in_.substr(pos_, 1) == "." &&
                 !(pos_ + 1 < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_ + 1])))) {
        ++pos_;
        n.chain.push_back(ParseMember());
      } else {
        return n;
      }
    }
  }

  JpItem ParseSubscripts() {
    ++pos_;  // [
    JpItem n;
    if (Accept("*")) {
      Expect("]");
      n.kind = JpKind::kAnyArray;
      return n;
    }
    n.kind = JpKind::kIndexArray;
    do {
      n.args.push_back(ParseOr());
      JpItem to;
      to.kind = JpKind::kNull;
      to.b = true;  // marks "no upper bound"
      if (AcceptWord("to")) to = ParseOr();
      n.args.push_back(std::move(to));
    } while (Accept(","));
    Expect("]");
    return n;
  }

  int32_t ParseLevel() {
    if (AcceptWord("last")) return -1;
    SkipSpace();
    size_t start = pos_;
    while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
    if (start == pos_) SyntaxError();
    return static_cast<int32_t>(std::stol(std::string(in_.substr(start, pos_ - start))));
  }

  JpItem ParseMember() {
    JpItem n;
    if (Accept("**")) {
      n.kind = JpKind::kAny;
      n.first = 0;
      n.last = -1;
      if (Accept("{")) {
        n.first = ParseLevel();
        n.last = AcceptWord("to") ? ParseLevel() : n.first;
        Expect("}");
      }
      return n;
    }
    if (Accept("*")) {
      n.kind = JpKind::kAnyKey;
      return n;
    }
    SkipSpace();
    if (pos_ < in_.size() && in_[pos_] == '"') {
      n.kind = JpKind::kKey;
      n.str = ParseString();
      return n;
    }
    const std::string_view w = PeekWord();
    if (w.empty()) SyntaxError();
    pos_ += w.size();
    const size_t after = pos_;
    if (IsMethod(w) && Accept("(")) {
      Expect(")");
      n.kind = JpKind::kMethod;
      n.str = std::string(w);
      return n;
    }
    pos_ = after;
    n.kind = JpKind::kKey;
    n.str = std::string(w);
    return n;
  }

  std::string_view in_;
  size_t pos_ = 0;
};

int Priority(JpKind k) {
  switch (k) {
    case JpKind::kOr: return 0;
    case JpKind::kAnd: return 1;
    case JpKind::kEq: case JpKind::kNe: case JpKind::kLt: case JpKind::kGt:
    case JpKind::kLe: case JpKind::kGe: case JpKind::kStartsWith: return 2;
    case JpKind::kAdd: case JpKind::kSub: return 3;
    case JpKind::kMul: case JpKind::kDiv: case JpKind::kMod: return 4;
    case JpKind::kPlus: case JpKind::kMinus: return 5;
    default: return 6;
  }
}

const char* OperatorName(JpKind k) {
  switch (k) {
    case JpKind::kOr: return "||";
    case JpKind::kAnd: return "&&";
    case JpKind::kEq: return "==";
    case JpKind::kNe: return "!=";
    case JpKind::kLt: return "<";
    case JpKind::kGt: return ">";
    case JpKind::kLe: return "<=";
    case JpKind::kGe: return ">=";
    case JpKind::kStartsWith: return "starts with";
    case JpKind::kAdd: case JpKind::kPlus: return "+";
    case JpKind::kSub: case JpKind::kMinus: return "-";
    case JpKind::kMul: return "*";
    case JpKind::kDiv: return "/";
    case JpKind::kMod: return "%";
    default: return "";
  }
}

void AppendLevel(int32_t l, std::string* out) { out->append(l < 0 ? "last" : std::to_string(l)); }

void Print(const JpItem& v, bool in_key, bool brackets, std::string* out) {
  switch (v.kind) {
    case JpKind::kRoot: out->push_back('$'); break;
    case JpKind::kCurrent: out->push_back('@'); break;
    case JpKind::kLast: out->append("last"); break;
    case JpKind::kVariable: out->push_back('$'); AppendJsonString(v.str, out); break;
    case JpKind::kNull: out->append("null"); break;
    case JpKind::kBool: out->append(v.b ? "true" : "false"); break;
    case JpKind::kString: AppendJsonString(v.str, out); break;
    case JpKind::kNumber:
      if (!v.chain.empty()) out->push_back('(');
      out->append(v.str);
      if (!v.chain.empty()) out->push_back(')');
      break;
    case JpKind::kKey:
      if (in_key) out->push_back('.');
      AppendJsonString(v.str, out);
      break;
    case JpKind::kAnyKey:
      if (in_key) out->push_back('.');
      out->push_back('*');
      break;
    case JpKind::kAnyArray: out->append("[*]"); break;
    case JpKind::kIndexArray:
      out->push_back('[');
      for (size_t i = 0; i < v.args.size(); i += 2) {
        if (i > 0) out->push_back(',');
        Print(v.args[i], false, false, out);
        if (!(v.args[i + 1].kind == JpKind::kNull && v.args[i + 1].b)) {
          out->append(" to ");
          Print(v.args[i + 1], false, false, out);
        }
      }
      out->push_back(']');
      break;
    case JpKind::kAny:
      if (in_key) out->push_back('.');
      out->append("**");
      if (v.first == 0 && v.last == -1) break;
      out->push_back('{');
      AppendLevel(v.first, out);
      if (v.first != v.last) {
        out->append(" to ");
        AppendLevel(v.last, out);
      }
      out->push_back('}');
      break;
    case JpKind::kFilter:
      out->append("?(");
      Print(v.args[0], false, false, out);
      out->push_back(')');
      break;
    case JpKind::kMethod: out->append("." + v.str + "()"); break;
    case JpKind::kNot:
      out->append("!(");
      Print(v.args[0], false, false, out);
      out->push_back(')');
      break;
    case JpKind::kIsUnknown:
      out->push_back('(');
      Print(v.args[0], false, false, out);
      out->append(") is unknown");
      break;
    case JpKind::kExists:
      out->append("exists (");
      Print(v.args[0], false, false, out);
      out->push_back(')');
      break;
    case JpKind::kLikeRegex:
      if (brackets) out->push_back('(');
      Print(v.args[0], false, Priority(v.args[0].kind) <= Priority(v.kind), out);
      out->append(" like_regex ");
      AppendJsonString(v.str, out);
      if (!v.flags.empty()) out->append(" flag \"" + v.flags + "\"");
      if (brackets) out->push_back(')');
      break;
    case JpKind::kPlus:
    case JpKind::kMinus:
      if (brackets) out->push_back('(');
      out->append(OperatorName(v.kind));
      Print(v.args[0], false, Priority(v.args[0].kind) <= Priority(v.kind), out);
      if (brackets) out->push_back(')');
      break;
    default:  // binary operators
      if (brackets) out->push_back('(');
      Print(v.args[0], false, Priority(v.args[0].kind) <= Priority(v.kind), out);
      out->push_back(' ');
      out->append(OperatorName(v.kind));
      out->push_back(' ');
      Print(v.args[1], false, Priority(v.args[1].kind) <= Priority(v.kind), out);
      if (brackets) out->push_back(')');
      break;
  }
  for (const JpItem& a : v.chain) Print(a, true, true, out);
}

// @ only inside filters, last only inside subscripts (PostgreSQL's checks).
void CheckPlacement(const JpItem& v, bool in_filter, bool in_subscript) {
  if (v.kind == JpKind::kCurrent && !in_filter)
    throw DbError(sqlstate::kSyntaxError, "@ is not allowed in root expressions");
  if (v.kind == JpKind::kLast && !in_subscript)
    throw DbError(sqlstate::kSyntaxError, "LAST is allowed only in array subscripts");
  for (const JpItem& a : v.args)
    CheckPlacement(a, in_filter || v.kind == JpKind::kFilter, in_subscript || v.kind == JpKind::kIndexArray);
  for (const JpItem& a : v.chain) CheckPlacement(a, in_filter, in_subscript);
}

}  // namespace

JsonPath ParseJsonPath(std::string_view text) {
  JsonPath p = JsonPathParser(text).Parse();
  CheckPlacement(p.root, false, false);
  return p;
}

std::string PrintJsonPath(const JsonPath& p) {
  std::string s = p.strict ? "strict " : "";
  Print(p.root, false, true, &s);
  return s;
}

Value JsonpathValue(std::string_view text) { return Value::Bytes(kJsonpathOid, PrintJsonPath(ParseJsonPath(text))); }

}  // namespace hearth::types
