// server/utils/adt/jsonpath_exec.cpp
//
// Principal entry point: ExecuteJsonPath — runs a jsonpath over a jsonb
// document as PostgreSQL 15's executor does for the supported subset: lax
// mode unwraps arrays one level for member accessors, filters, comparisons
// and arithmetic and ignores structural errors; strict mode raises them
// (2203A, 2203C, 22039, 22033). Predicates are three-valued (an error
// inside one is "unknown"); a comparison is true when any pair of items
// compares true.
#include <regex>

#include "common/error/db_error.h"
#include "utils/adt/jsonpath_exec.h"
#include "utils/adt/numeric.h"

namespace hearth::types {
namespace {

enum class Tri { kFalse, kTrue, kUnknown };

using Seq = std::vector<JsonNode>;

[[noreturn]] void Fail(const char* sqlstate, std::string msg) { throw DbError(sqlstate, std::move(msg)); }

bool IsPredicate(JpKind k) {
  switch (k) {
    case JpKind::kOr: case JpKind::kAnd: case JpKind::kNot: case JpKind::kEq: case JpKind::kNe:
    case JpKind::kLt: case JpKind::kGt: case JpKind::kLe: case JpKind::kGe: case JpKind::kStartsWith:
    case JpKind::kLikeRegex: case JpKind::kIsUnknown: case JpKind::kExists:
      return true;
    default:
      return false;
  }
}

JsonNode NumberNode(const Numeric& n) { return JsonNode::Number(n.ToString()); }

class PathExecutor {
 public:
  PathExecutor(const JsonNode& root, const JsonNode* vars, bool strict) : root_(root), vars_(vars), strict_(strict) {}

  Seq Run(const JpItem& item) {
    if (IsPredicate(item.kind)) {
      const Tri t = Predicate(item, root_);
      Seq out;
      out.push_back(t == Tri::kUnknown ? JsonNode::Null() : JsonNode::Bool(t == Tri::kTrue));
      return out;
    }
    return Eval(item, root_);
  }

 private:
  // An expression with its accessor chain, evaluated with `cur` as @.
  Seq Eval(const JpItem& v, const JsonNode& cur) {
    Seq seq = Primary(v, cur);
    for (const JpItem& acc : v.chain) seq = Apply(acc, std::move(seq));
    return seq;
  }

  Seq Primary(const JpItem& v, const JsonNode& cur) {
    Seq out;
    switch (v.kind) {
      case JpKind::kRoot: out.push_back(root_); break;
      case JpKind::kCurrent: out.push_back(cur); break;
      case JpKind::kNull: out.push_back(JsonNode::Null()); break;
      case JpKind::kBool: out.push_back(JsonNode::Bool(v.b)); break;
      case JpKind::kNumber: out.push_back(JsonNode::Number(v.str)); break;
      case JpKind::kString: out.push_back(JsonNode::String(v.str)); break;
      case JpKind::kLast:
        if (last_ < 0) Fail(sqlstate::kSyntaxError, "evaluating jsonpath LAST outside of array subscript");
        out.push_back(NumberNode(Numeric::FromInt64(last_)));
        break;
      case JpKind::kVariable: {
        const JsonNode* val = vars_ != nullptr ? vars_->Find(v.str) : nullptr;
        if (val == nullptr) Fail(sqlstate::kUndefinedObject, "could not find jsonpath variable \"" + v.str + "\"");
        out.push_back(*val);
        break;
      }
      case JpKind::kPlus:
      case JpKind::kMinus:
        for (JsonNode& n : Unwrapped(Eval(v.args[0], cur))) {
          if (n.kind != JsonKind::kNumber)
            Fail("22038", std::string("operand of unary jsonpath operator ") + (v.kind == JpKind::kPlus ? "+" : "-") +
                              " is not a numeric value");
          out.push_back(v.kind == JpKind::kPlus ? n : NumberNode(Numeric::Parse(n.str).Neg()));
        }
        break;
      case JpKind::kAdd: case JpKind::kSub: case JpKind::kMul: case JpKind::kDiv: case JpKind::kMod:
        out.push_back(Arithmetic(v, cur));
        break;
      default: {
        const Tri t = Predicate(v, cur);
        out.push_back(t == Tri::kUnknown ? JsonNode::Null() : JsonNode::Bool(t == Tri::kTrue));
        break;
      }
    }
    return out;
  }

  // Lax mode's automatic unwrapping of arrays (one level).
  Seq Unwrapped(Seq in) const {
    if (strict_) return in;
    Seq out;
    for (JsonNode& n : in) {
      if (n.kind == JsonKind::kArray) {
        for (JsonNode& e : n.items) out.push_back(std::move(e));
      } else {
        out.push_back(std::move(n));
      }
    }
    return out;
  }

  static const char* OpName(JpKind k) {
    switch (k) {
      case JpKind::kAdd: return "+";
      case JpKind::kSub: return "-";
      case JpKind::kMul: return "*";
      case JpKind::kDiv: return "/";
      default: return "%";
    }
  }

  JsonNode Arithmetic(const JpItem& v, const JsonNode& cur) {
    Seq l = Unwrapped(Eval(v.args[0], cur)), r = Unwrapped(Eval(v.args[1], cur));
    if (l.size() != 1 || l[0].kind != JsonKind::kNumber)
      Fail("22038", std::string("left operand of jsonpath operator ") + OpName(v.kind) +
                        " is not a single numeric value");
    if (r.size() != 1 || r[0].kind != JsonKind::kNumber)
      Fail("22038", std::string("right operand of jsonpath operator ") + OpName(v.kind) +
                        " is not a single numeric value");
    const Numeric a = Numeric::Parse(l[0].str), b = Numeric::Parse(r[0].str);
    switch (v.kind) {
      case JpKind::kAdd: return NumberNode(a.Add(b));
      case JpKind::kSub: return NumberNode(a.Sub(b));
      case JpKind::kMul: return NumberNode(a.Mul(b));
      case JpKind::kDiv: return NumberNode(a.Div(b));
      default:
        if (b.is_zero()) Fail(sqlstate::kDivisionByZero, "division by zero");
        return NumberNode(a.Mod(b));
    }
  }

  Seq Apply(const JpItem& acc, Seq in) {
    Seq out;
    switch (acc.kind) {
      case JpKind::kKey:
      case JpKind::kAnyKey:
        for (JsonNode& n : MemberTargets(std::move(in))) {
          if (n.kind != JsonKind::kObject) {
            if (strict_)
              Fail("2203C", acc.kind == JpKind::kKey
                                ? "jsonpath member accessor can only be applied to an object"
                                : "jsonpath wildcard member accessor can only be applied to an object");
            continue;
          }
          if (acc.kind == JpKind::kAnyKey) {
            for (JsonNode& c : n.items) out.push_back(std::move(c));
          } else if (const JsonNode* m = n.Find(acc.str)) {
            out.push_back(*m);
          } else if (strict_) {
            Fail("2203A", "JSON object does not contain key \"" + acc.str + "\"");
          }
        }
        return out;
      case JpKind::kAnyArray:
        for (JsonNode& n : in) {
          if (n.kind == JsonKind::kArray) {
            for (JsonNode& c : n.items) out.push_back(std::move(c));
          } else if (strict_) {
            Fail("22039", "jsonpath wildcard array accessor can only be applied to an array");
          } else {
            out.push_back(std::move(n));
          }
        }
        return out;
      case JpKind::kIndexArray:
        for (JsonNode& n : in) Subscripts(acc, std::move(n), &out);
        return out;
      case JpKind::kAny:
        for (const JsonNode& n : in) {
          if (acc.first == 0) out.push_back(n);
          Descendants(acc, n, 1, &out);
        }
        return out;
      case JpKind::kFilter:
        for (JsonNode& n : Unwrapped(std::move(in)))
          if (Predicate(acc.args[0], n) == Tri::kTrue) out.push_back(std::move(n));
        return out;
      case JpKind::kMethod:
        for (JsonNode& n : in) Method(acc.str, std::move(n), &out);
        return out;
      default:
        Fail(sqlstate::kFeatureNotSupported, "unsupported jsonpath accessor");
    }
  }

  Seq MemberTargets(Seq in) const { return Unwrapped(std::move(in)); }

  void Descendants(const JpItem& acc, const JsonNode& n, int32_t level, Seq* out) {
    if (!n.IsContainer() || (acc.last >= 0 && level > acc.last)) return;
    for (const JsonNode& c : n.items) {
      if (level >= acc.first) out->push_back(c);
      Descendants(acc, c, level + 1, out);
    }
  }

  int64_t SubscriptValue(const JpItem& e, const JsonNode& cur) {
    Seq s = Eval(e, cur);
    if (s.size() != 1 || s[0].kind != JsonKind::kNumber)
      Fail("22033", "jsonpath array subscript is not a single numeric value");
    std::optional<int64_t> i = Numeric::Parse(s[0].str).Trunc(0).ToInt64();
    if (!i || *i > INT32_MAX || *i < INT32_MIN) Fail("22033", "jsonpath array subscript is out of integer range");
    return *i;
  }

  void Subscripts(const JpItem& acc, JsonNode n, Seq* out) {
    if (n.kind != JsonKind::kArray) {
      if (strict_) Fail("22039", "jsonpath array accessor can only be applied to an array");
      JsonNode wrap = JsonNode::Array();
      wrap.items.push_back(std::move(n));
      n = std::move(wrap);
    }
    const auto size = static_cast<int64_t>(n.items.size());
    const int64_t saved_last = last_;
    last_ = size - 1;
    for (size_t i = 0; i < acc.args.size(); i += 2) {
      const JpItem& to = acc.args[i + 1];
      int64_t from = SubscriptValue(acc.args[i], n);
      int64_t upto = (to.kind == JpKind::kNull && to.b) ? from : SubscriptValue(to, n);
      if (strict_ && (from < 0 || from > upto || upto >= size)) Fail("22033", "jsonpath array subscript is out of bounds");
      from = std::max<int64_t>(from, 0);
      upto = std::min<int64_t>(upto, size - 1);
      for (int64_t k = from; k <= upto; ++k) out->push_back(n.items[static_cast<size_t>(k)]);
    }
    last_ = saved_last;
  }

  void Method(const std::string& name, JsonNode n, Seq* out) {
    if (name == "type") {
      out->push_back(JsonNode::String(JsonTypeName(n.kind)));
      return;
    }
    if (name == "size") {
      if (n.kind == JsonKind::kArray) {
        out->push_back(NumberNode(Numeric::FromInt64(static_cast<int64_t>(n.items.size()))));
      } else if (strict_) {
        Fail("22039", "jsonpath item method .size() can only be applied to an array");
      } else {
        out->push_back(NumberNode(Numeric::FromInt64(1)));
      }
      return;
    }
    if (!strict_ && n.kind == JsonKind::kArray) {
      for (JsonNode& e : n.items) Method(name, std::move(e), out);
      return;
    }
    if (name == "double" && n.kind == JsonKind::kString) {
      out->push_back(NumberNode(Numeric::Parse(n.str)));
      return;
    }
    if (n.kind != JsonKind::kNumber)
      Fail("22038", "jsonpath item method ." + name + "() can only be applied to a numeric value");
    const Numeric x = Numeric::Parse(n.str);
    if (name == "abs") {
      out->push_back(NumberNode(x.Abs()));
    } else if (name == "floor") {
      out->push_back(NumberNode(x.Floor()));
    } else if (name == "ceiling") {
      out->push_back(NumberNode(x.Ceil()));
    } else {
      out->push_back(std::move(n));  // double(): already a number
    }
  }

  // ---- predicates ----
  Tri Predicate(const JpItem& v, const JsonNode& cur) {
    try {
      return PredicateOrThrow(v, cur);
    } catch (const DbError&) {
      return Tri::kUnknown;
    }
  }

  Tri PredicateOrThrow(const JpItem& v, const JsonNode& cur) {
    switch (v.kind) {
      case JpKind::kAnd: {
        const Tri l = Predicate(v.args[0], cur);
        if (l == Tri::kFalse) return l;
        const Tri r = Predicate(v.args[1], cur);
        return r == Tri::kTrue ? l : r;
      }
      case JpKind::kOr: {
        const Tri l = Predicate(v.args[0], cur);
        if (l == Tri::kTrue) return l;
        const Tri r = Predicate(v.args[1], cur);
        return r == Tri::kFalse ? l : r;
      }
      case JpKind::kNot: {
        const Tri a = Predicate(v.args[0], cur);
        return a == Tri::kUnknown ? a : (a == Tri::kTrue ? Tri::kFalse : Tri::kTrue);
      }
      case JpKind::kIsUnknown:
        return Predicate(v.args[0], cur) == Tri::kUnknown ? Tri::kTrue : Tri::kFalse;
      case JpKind::kExists:
        return Eval(v.args[0], cur).empty() ? Tri::kFalse : Tri::kTrue;
      case JpKind::kStartsWith:
      case JpKind::kLikeRegex:
        return StringPredicate(v, cur);
      case JpKind::kEq: case JpKind::kNe: case JpKind::kLt: case JpKind::kGt: case JpKind::kLe: case JpKind::kGe:
        return Comparison(v, cur);
      default: {
        // A non-predicate used as one: true/false/null item.
        Seq s = Eval(v, cur);
        if (s.size() == 1 && s[0].kind == JsonKind::kBool) return s[0].b ? Tri::kTrue : Tri::kFalse;
        return Tri::kUnknown;
      }
    }
  }

  static Tri CompareItems(JpKind op, const JsonNode& a, const JsonNode& b) {
    if (a.kind != b.kind) {
      if (a.kind == JsonKind::kNull || b.kind == JsonKind::kNull) return op == JpKind::kNe ? Tri::kTrue : Tri::kFalse;
      return Tri::kUnknown;
    }
    int c = 0;
    switch (a.kind) {
      case JsonKind::kNull: c = 0; break;
      case JsonKind::kBool: c = static_cast<int>(a.b) - static_cast<int>(b.b); break;
      case JsonKind::kNumber: c = Numeric::Compare(Numeric::Parse(a.str), Numeric::Parse(b.str)); break;
      case JsonKind::kString: c = a.str.compare(b.str); break;
      default: return Tri::kUnknown;
    }
    bool r = false;
    switch (op) {
      case JpKind::kEq: r = c == 0; break;
      case JpKind::kNe: r = c != 0; break;
      case JpKind::kLt: r = c < 0; break;
      case JpKind::kGt: r = c > 0; break;
      case JpKind::kLe: r = c <= 0; break;
      default: r = c >= 0; break;
    }
    return r ? Tri::kTrue : Tri::kFalse;
  }

  // Any pair true → true (lax stops there); else unknown if any pair was.
  Tri Comparison(const JpItem& v, const JsonNode& cur) {
    const Seq l = Unwrapped(Eval(v.args[0], cur)), r = Unwrapped(Eval(v.args[1], cur));
    bool found = false, error = false;
    for (const JsonNode& a : l) {
      for (const JsonNode& b : r) {
        const Tri t = CompareItems(v.kind, a, b);
        if (t == Tri::kUnknown) {
          if (strict_) return Tri::kUnknown;
          error = true;
        } else if (t == Tri::kTrue) {
          if (!strict_) return Tri::kTrue;
          found = true;
        }
      }
    }
    if (found) return Tri::kTrue;
    return error ? Tri::kUnknown : Tri::kFalse;
  }

  Tri StringPredicate(const JpItem& v, const JsonNode& cur) {
    const Seq l = Unwrapped(Eval(v.args[0], cur));
    std::string prefix;
    std::optional<std::regex> re;
    if (v.kind == JpKind::kStartsWith) {
      const Seq r = Eval(v.args[1], cur);
      if (r.size() != 1 || r[0].kind != JsonKind::kString) return Tri::kUnknown;
      prefix = r[0].str;
    } else {
      auto flags = std::regex::ECMAScript;
      if (v.flags.find('i') != std::string::npos) flags |= std::regex::icase;
      try {
        re.emplace(v.str, flags);
      } catch (const std::regex_error&) {
        Fail("2201B", "invalid regular expression: " + v.str);
      }
    }
    bool found = false, error = false;
    for (const JsonNode& a : l) {
      if (a.kind != JsonKind::kString) {
        if (strict_) return Tri::kUnknown;
        error = true;
        continue;
      }
      const bool hit = re ? std::regex_search(a.str, *re) : a.str.compare(0, prefix.size(), prefix) == 0;
      if (hit) {
        if (!strict_) return Tri::kTrue;
        found = true;
      }
    }
    if (found) return Tri::kTrue;
    return error ? Tri::kUnknown : Tri::kFalse;
  }

  const JsonNode& root_;
  const JsonNode* vars_;
  bool strict_;
  int64_t last_ = -1;
};

}  // namespace

std::vector<JsonNode> ExecuteJsonPath(const JsonPath& path, const JsonNode& doc, const JsonNode* vars) {
  if (vars != nullptr && vars->kind != JsonKind::kObject)
    throw DbError(sqlstate::kInvalidParameterValue, "\"vars\" argument is not an object")
        .WithDetail("Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.");
  return PathExecutor(doc, vars, path.strict).Run(path.root);
}

}  // namespace hearth::types
