// server/utils/adt/regex_vm.cpp
//
// Principal entry points: Regex::Regex (parse + compile), Regex::Search
// (Pike VM). The parser recurses only on group nesting (bounded); code
// generation and the VM's epsilon closure use explicit stacks.
#include "utils/adt/regex_vm.h"

#include <memory>

#include "common/error/db_error.h"

namespace hearth::types {

namespace {

constexpr char kInvalidRegularExpression[] = "2201B";
constexpr int kMaxNesting = 256;
constexpr size_t kMaxProgram = 100000;
constexpr int kUnbounded = -1;

[[noreturn]] void Invalid(const std::string& why) {
  throw DbError(kInvalidRegularExpression, "invalid regular expression: " + why);
}

// UTF-8 → code points; a malformed byte stands for itself.
std::u32string Decode(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + static_cast<size_t>(len) > s.size()) {
      out.push_back(b);
      i++;
      continue;
    }
    char32_t c = len == 1 ? b : b & (0x7F >> len);
    for (int k = 1; k < len; k++) c = (c << 6) | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3F);
    out.push_back(c);
    i += static_cast<size_t>(len);
  }
  return out;
}

char32_t Fold(char32_t c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

}  // namespace

// The parse tree of a pattern.
struct RegexNode {
  enum Kind { kLit, kAny, kClass, kBol, kEol, kCat, kAlt, kRepeat } kind;
  char32_t c = 0;
  int cls = 0;
  bool negate = false;
  int min = 0, max = 0;  // kRepeat
  std::vector<std::unique_ptr<RegexNode>> kids;
};

class RegexCompiler {
 public:
  RegexCompiler(Regex& re, std::u32string pattern) : re_(re), p_(std::move(pattern)) {}

  void Compile() {
    std::unique_ptr<RegexNode> root = ParseAlt(0);
    if (pos_ < p_.size()) Invalid("parentheses () not balanced");
    Emit(*root);
    Add({Regex::Op::kMatch});
  }

 private:
  using Node = RegexNode;
  using NodePtr = std::unique_ptr<RegexNode>;

  static NodePtr Make(Node::Kind k) {
    auto n = std::make_unique<Node>();
    n->kind = k;
    return n;
  }

  bool More() const { return pos_ < p_.size(); }

  NodePtr ParseAlt(int depth) {
    if (depth > kMaxNesting) Invalid("regular expression is too complex");
    NodePtr alt = Make(Node::kAlt);
    alt->kids.push_back(ParseCat(depth));
    while (More() && p_[pos_] == '|') {
      pos_++;
      alt->kids.push_back(ParseCat(depth));
    }
    return alt->kids.size() == 1 ? std::move(alt->kids[0]) : std::move(alt);
  }

  NodePtr ParseCat(int depth) {
    NodePtr cat = Make(Node::kCat);
    while (More() && p_[pos_] != '|' && p_[pos_] != ')') {
      NodePtr atom = ParseAtom(depth);
      cat->kids.push_back(ParseQuantifiers(std::move(atom)));
    }
    return cat;
  }

  NodePtr ParseQuantifiers(NodePtr atom) {
    while (More()) {
      int min = 0, max = 0;
      const char32_t q = p_[pos_];
      if (q == '*') min = 0, max = kUnbounded;
      else if (q == '+') min = 1, max = kUnbounded;
      else if (q == '?') min = 0, max = 1;
      else if (q == '{' && ParseBounds(&min, &max)) {}
      else break;
      if (q != '{') pos_++;
      if (atom->kind == Node::kBol || atom->kind == Node::kEol) Invalid("quantifier operand invalid");
      if (More() && p_[pos_] == '?') pos_++;  // non-greedy: same set of matches
      NodePtr rep = Make(Node::kRepeat);
      rep->min = min;
      rep->max = max;
      rep->kids.push_back(std::move(atom));
      atom = std::move(rep);
    }
    return atom;
  }

  // {n}, {n,}, {n,m} at pos_; false (pos_ unchanged) if not a bound.
  bool ParseBounds(int* min, int* max) {
    size_t i = pos_ + 1;
    auto number = [&](int* out) {
      size_t start = i;
      long v = 0;
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9') {
        v = v * 10 + (p_[i] - '0');
        if (v > 255) Invalid("invalid repetition count(s)");
        i++;
      }
      *out = static_cast<int>(v);
      return i > start;
    };
    if (!number(min)) return false;
    *max = *min;
    if (i < p_.size() && p_[i] == ',') {
      i++;
      if (!number(max)) *max = kUnbounded;
    }
    if (i >= p_.size() || p_[i] != '}') Invalid("braces {} not balanced");
    if (*max != kUnbounded && *max < *min) Invalid("invalid repetition count(s)");
    pos_ = i + 1;
    return true;
  }

  NodePtr ParseAtom(int depth) {
    const char32_t c = p_[pos_++];
    switch (c) {
      case '(': {
        if (More() && p_[pos_] == '?') {
          if (pos_ + 1 < p_.size() && p_[pos_ + 1] == ':') pos_ += 2;
          else Invalid("quantifier operand invalid");
        }
        NodePtr inner = ParseAlt(depth + 1);
        if (!More() || p_[pos_] != ')') Invalid("parentheses () not balanced");
        pos_++;
        return inner;
      }
      case ')': Invalid("parentheses () not balanced");
      case '*': case '+': case '?': Invalid("quantifier operand invalid");
      case '.': return Make(Node::kAny);
      case '^': return Make(Node::kBol);
      case '$': return Make(Node::kEol);
      case '[': return ParseBracket();
      case '\\': return ParseEscape();
      default: return Literal(c);
    }
  }

  NodePtr Literal(char32_t c) {
    NodePtr n = Make(Node::kLit);
    n->c = re_.icase_ ? Fold(c) : c;
    return n;
  }

  NodePtr ClassNode(std::vector<Regex::Range> ranges, bool negate) {
    NodePtr n = Make(Node::kClass);
    n->cls = static_cast<int>(re_.classes_.size());
    n->negate = negate;
    re_.classes_.push_back(std::move(ranges));
    return n;
  }

  static bool NamedClass(std::u32string_view name, std::vector<Regex::Range>* out) {
    auto add = [&](char32_t lo, char32_t hi) { out->push_back({lo, hi}); };
    if (name == U"digit") add('0', '9');
    else if (name == U"alpha") add('a', 'z'), add('A', 'Z');
    else if (name == U"alnum") add('a', 'z'), add('A', 'Z'), add('0', '9');
    else if (name == U"upper") add('A', 'Z');
    else if (name == U"lower") add('a', 'z');
    else if (name == U"space") add(' ', ' '), add('\t', '\r');
    else if (name == U"xdigit") add('0', '9'), add('a', 'f'), add('A', 'F');
    else if (name == U"punct") add('!', '/'), add(':', '@'), add('[', '`'), add('{', '~');
    else if (name == U"word") add('a', 'z'), add('A', 'Z'), add('0', '9'), add('_', '_');
    else return false;
    return true;
  }

  NodePtr ParseEscape() {
    if (!More()) Invalid("invalid escape \\ sequence");
    const char32_t e = p_[pos_++];
    std::vector<Regex::Range> r;
    switch (e) {
      case 'd': case 'D': NamedClass(U"digit", &r); return ClassNode(std::move(r), e == 'D');
      case 'w': case 'W': NamedClass(U"word", &r); return ClassNode(std::move(r), e == 'W');
      case 's': case 'S': NamedClass(U"space", &r); return ClassNode(std::move(r), e == 'S');
      case 'n': return Literal('\n');
      case 't': return Literal('\t');
      default:
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
          Invalid("invalid escape \\ sequence");
        }
        return Literal(e);
    }
  }

  NodePtr ParseBracket() {
    bool negate = false;
    if (More() && p_[pos_] == '^') negate = true, pos_++;
    std::vector<Regex::Range> ranges;
    bool first = true;
    for (;;) {
      if (!More()) Invalid("brackets [] not balanced");
      char32_t c = p_[pos_];
      if (c == ']' && !first) {
        pos_++;
        break;
      }
      first = false;
      if (c == '[' && pos_ + 1 < p_.size() && p_[pos_ + 1] == ':') {
        size_t end = p_.find(U":]", pos_ + 2);
        if (end == std::u32string::npos || !NamedClass(std::u32string_view(p_).substr(pos_ + 2, end - pos_ - 2), &ranges)) {
          Invalid("invalid character class");
        }
        pos_ = end + 2;
        continue;
      }
      pos_++;
      if (c == '\\' && More()) c = p_[pos_++];
      char32_t hi = c;
      if (pos_ + 1 < p_.size() && p_[pos_] == '-' && p_[pos_ + 1] != ']') {
        hi = p_[pos_ + 1];
        pos_ += 2;
        if (hi < c) Invalid("invalid character range");
      }
      ranges.push_back({c, hi});
    }
    return ClassNode(std::move(ranges), negate);
  }

  int Add(Regex::Inst in) {
    if (re_.prog_.size() >= kMaxProgram) Invalid("regular expression is too complex");
    re_.prog_.push_back(in);
    return static_cast<int>(re_.prog_.size() - 1);
  }
  int Here() const { return static_cast<int>(re_.prog_.size()); }

  // Recursion follows the tree, whose depth the parser bounded.
  void Emit(const Node& n) {
    using Op = Regex::Op;
    switch (n.kind) {
      case Node::kLit: Add({Op::kChar, false, n.c}); return;
      case Node::kAny: Add({Op::kAny}); return;
      case Node::kClass: Add({Op::kClass, n.negate, 0, n.cls}); return;
      case Node::kBol: Add({Op::kBol}); return;
      case Node::kEol: Add({Op::kEol}); return;
      case Node::kCat:
        for (const NodePtr& k : n.kids) Emit(*k);
        return;
      case Node::kAlt: {
        std::vector<int> jumps;
        for (size_t i = 0; i < n.kids.size(); ++i) {
          if (i + 1 < n.kids.size()) {
            const int split = Add({Op::kSplit});
            re_.prog_[static_cast<size_t>(split)].x = Here();
            Emit(*n.kids[i]);
            jumps.push_back(Add({Op::kJmp}));
            re_.prog_[static_cast<size_t>(split)].y = Here();
          } else {
            Emit(*n.kids[i]);
          }
        }
        for (int j : jumps) re_.prog_[static_cast<size_t>(j)].x = Here();
        return;
      }
      case Node::kRepeat: EmitRepeat(n); return;
    }
  }

  void EmitRepeat(const Node& n) {
    using Op = Regex::Op;
    const Node& body = *n.kids[0];
    for (int i = 0; i < n.min; ++i) Emit(body);
    if (n.max == kUnbounded) {
      const int split = Add({Op::kSplit});
      re_.prog_[static_cast<size_t>(split)].x = Here();
      Emit(body);
      Add({Op::kJmp, false, 0, split});
      re_.prog_[static_cast<size_t>(split)].y = Here();
      return;
    }
    std::vector<int> splits;
    for (int i = n.min; i < n.max; ++i) {
      splits.push_back(Add({Op::kSplit}));
      re_.prog_[static_cast<size_t>(splits.back())].x = Here();
      Emit(body);
    }
    for (int s : splits) re_.prog_[static_cast<size_t>(s)].y = Here();
  }

  Regex& re_;
  std::u32string p_;
  size_t pos_ = 0;
};

Regex::Regex(std::string_view pattern, bool icase) : icase_(icase) {
  RegexCompiler(*this, Decode(pattern)).Compile();
}

bool Regex::ClassHas(int cls, char32_t c) const {
  auto in = [&](char32_t x) {
    for (const Range& r : classes_[static_cast<size_t>(cls)]) {
      if (x >= r.lo && x <= r.hi) return true;
    }
    return false;
  };
  if (in(c)) return true;
  if (!icase_) return false;
  const char32_t lower = Fold(c);
  const char32_t upper = c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
  return in(lower) || in(upper);
}

bool Regex::Step(const Inst& in, char32_t c) const {
  switch (in.op) {
    case Op::kChar: return in.c == (icase_ ? Fold(c) : c);
    case Op::kAny: return true;
    case Op::kClass: return ClassHas(in.x, c) != in.negate;
    default: return false;
  }
}

bool Regex::Search(std::string_view subject) const {
  const std::u32string s = Decode(subject);
  const size_t n = s.size();
  // Thread lists of program counters; `mark` makes each pc enter a list
  // once per position (this also cuts empty loops such as (a*)*).
  std::vector<int> current, next, stack;
  std::vector<size_t> mark(prog_.size(), SIZE_MAX);
  auto add_thread = [&](std::vector<int>& list, int start, size_t at, size_t stamp) {
    stack.assign(1, start);
    while (!stack.empty()) {
      const int pc = stack.back();
      stack.pop_back();
      if (mark[static_cast<size_t>(pc)] == stamp) continue;
      mark[static_cast<size_t>(pc)] = stamp;
      const Inst& in = prog_[static_cast<size_t>(pc)];
      switch (in.op) {
        case Op::kJmp: stack.push_back(in.x); break;
        case Op::kSplit: stack.push_back(in.y); stack.push_back(in.x); break;
        case Op::kBol: if (at == 0) stack.push_back(pc + 1); break;
        case Op::kEol: if (at == n) stack.push_back(pc + 1); break;
        default: list.push_back(pc); break;
      }
    }
  };
  for (size_t at = 0;; ++at) {
    add_thread(current, 0, at, at);  // unanchored: a new start at every position
    for (int pc : current) {
      if (prog_[static_cast<size_t>(pc)].op == Op::kMatch) return true;
    }
    if (at == n) return false;
    next.clear();
    for (int pc : current) {
      if (Step(prog_[static_cast<size_t>(pc)], s[at])) add_thread(next, pc + 1, at + 1, at + 1);
    }
    current.swap(next);
  }
}

}  // namespace hearth::types
