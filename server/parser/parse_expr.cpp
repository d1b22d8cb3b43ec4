// server/parser/parse_expr.cpp
//
// Expressions, by precedence climbing. Levels, lowest first (as PostgreSQL):
//   OR < AND < NOT < IS/ISNULL/NOTNULL < comparison (nonassoc) <
//   BETWEEN/IN/LIKE/ILIKE/SIMILAR (nonassoc) < other operators (||, ~, ...) <
//   + - < * / % < ^ < AT TIME ZONE < COLLATE < unary minus < :: and [].
// Prefix operators other than - and + (e.g. ~, @) take an operand at the
// + - level, like PostgreSQL's "other operator" precedence.
#include <charconv>
#include <string_view>
#include <unordered_set>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {
namespace {

template <typename T>
std::unique_ptr<T> Node(int location) {
  auto n = std::make_unique<T>();
  n->location = location;
  return n;
}

ExprPtr MakeStringConst(std::string value, int location) {
  auto c = Node<ConstExpr>(location);
  c->const_kind = ConstKind::kString;
  c->value = std::move(value);
  return c;
}

ExprPtr MakeIntConst(std::string digits, int location) {
  auto c = Node<ConstExpr>(location);
  c->const_kind = ConstKind::kInteger;
  c->value = std::move(digits);
  return c;
}

ExprPtr MakeFunc(std::string name, std::vector<ExprPtr> args, int location) {
  auto f = Node<FuncCallExpr>(location);
  f->name.push_back(std::move(name));
  f->args = std::move(args);
  return f;
}

bool IsSqlValueFunction(const std::string& w, SqlValueFunctionOp& op) {
  static const struct {
    const char* word;
    SqlValueFunctionOp op;
  } kFuncs[] = {
      {"current_date", SqlValueFunctionOp::kCurrentDate},
      {"current_time", SqlValueFunctionOp::kCurrentTime},
      {"current_timestamp", SqlValueFunctionOp::kCurrentTimestamp},
      {"localtime", SqlValueFunctionOp::kLocalTime},
      {"localtimestamp", SqlValueFunctionOp::kLocalTimestamp},
      {"current_role", SqlValueFunctionOp::kCurrentRole},
      {"current_user", SqlValueFunctionOp::kCurrentUser},
      {"session_user", SqlValueFunctionOp::kSessionUser},
      {"user", SqlValueFunctionOp::kUser},
      {"current_catalog", SqlValueFunctionOp::kCurrentCatalog},
      {"current_schema", SqlValueFunctionOp::kCurrentSchema},
  };
  for (const auto& f : kFuncs) {
    if (w == f.word) {
      op = f.op;
      return true;
    }
  }
  return false;
}

bool TakesPrecision(SqlValueFunctionOp op) {
  return op == SqlValueFunctionOp::kCurrentTime || op == SqlValueFunctionOp::kCurrentTimestamp ||
         op == SqlValueFunctionOp::kLocalTime || op == SqlValueFunctionOp::kLocalTimestamp;
}

bool IsOpChar(char c) {
  switch (c) {
    case '~': case '!': case '@': case '#': case '^': case '&': case '|': case '`': case '?':
    case '+': case '-': case '*': case '/': case '%': case '<': case '>': case '=':
      return true;
    default:
      return false;
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Entry points and the binary levels
// ---------------------------------------------------------------------------

ExprPtr Parser::ParseExpr() {
  DepthGuard guard(depth_, sql_, Loc());
  bool saved = b_expr_;
  b_expr_ = false;
  ExprPtr e = ParseOr();
  b_expr_ = saved;
  return e;
}

ExprPtr Parser::ParseBExpr() {
  DepthGuard guard(depth_, sql_, Loc());
  bool saved = b_expr_;
  b_expr_ = true;
  ExprPtr e = ParseComparison();
  b_expr_ = saved;
  return e;
}

std::vector<ExprPtr> Parser::ParseExprList() {
  std::vector<ExprPtr> out;
  do {
    out.push_back(ParseExpr());
  } while (AcceptOp(","));
  return out;
}

ExprPtr Parser::MakeBinary(std::string op, ExprPtr l, ExprPtr r, int location) {
  auto b = Node<BinaryOpExpr>(location);
  b->op = std::move(op);
  b->left = std::move(l);
  b->right = std::move(r);
  return b;
}

ExprPtr Parser::ParseOr() {
  ExprPtr left = ParseAnd();
  ChainGuard chain(depth_);
  while (IsKw("or")) {
    int loc = Loc();
    chain.Link(sql_, loc);
    Advance();
    left = MakeBinary("OR", std::move(left), ParseAnd(), loc);
  }
  return left;
}

ExprPtr Parser::ParseAnd() {
  ExprPtr left = ParseNot();
  ChainGuard chain(depth_);
  while (IsKw("and")) {
    int loc = Loc();
    chain.Link(sql_, loc);
    Advance();
    left = MakeBinary("AND", std::move(left), ParseNot(), loc);
  }
  return left;
}

ExprPtr Parser::ParseNot() {
  if (!IsKw("not")) return ParseIs();
  DepthGuard guard(depth_, sql_, Loc());
  auto u = Node<UnaryOpExpr>(Loc());
  Advance();
  u->op = "NOT";
  u->operand = ParseNot();
  return u;
}

ExprPtr Parser::ParseIs() {
  ExprPtr e = ParseComparison();
  ChainGuard chain(depth_);
  for (;;) {
    int loc = Loc();
    if (IsKw("isnull") || IsKw("notnull") || IsKw("is")) chain.Link(sql_, loc);
    if (IsKw("isnull") || IsKw("notnull")) {
      auto n = Node<IsNullExpr>(loc);
      n->negated = IsKw("notnull");
      Advance();
      n->arg = std::move(e);
      e = std::move(n);
      continue;
    }
    if (!IsKw("is")) break;
    Advance();
    bool negated = AcceptKw("not");
    if (AcceptKw("null")) {
      auto n = Node<IsNullExpr>(loc);
      n->negated = negated;
      n->arg = std::move(e);
      e = std::move(n);
    } else if (IsKw("true") || IsKw("false") || IsKw("unknown")) {
      auto n = Node<IsBoolExpr>(loc);
      n->test = IsKw("true") ? BoolTestKind::kTrue
                             : IsKw("false") ? BoolTestKind::kFalse : BoolTestKind::kUnknown;
      Advance();
      n->negated = negated;
      n->arg = std::move(e);
      e = std::move(n);
    } else if (AcceptKw("distinct")) {
      ExpectKw("from");
      auto n = Node<IsDistinctExpr>(loc);
      n->negated = negated;
      n->left = std::move(e);
      n->right = ParseComparison();
      e = std::move(n);
    } else {
      SyntaxError();
    }
  }
  return e;
}

bool Parser::IsComparisonOp(const Token& t) const {
  if (t.type != TokenType::kOp) return false;
  const std::string& s = t.text;
  return s == "<" || s == ">" || s == "=" || s == "<=" || s == ">=" || s == "<>";
}

bool Parser::IsOtherOp(const Token& t) const {
  if (t.type != TokenType::kOp || t.text.empty() || !IsOpChar(t.text[0])) return false;
  const std::string& s = t.text;
  if (s.size() == 1) {
    switch (s[0]) {
      case '+': case '-': case '*': case '/': case '%': case '^': case '<': case '>': case '=':
        return false;
      default:
        return true;
    }
  }
  return s != "<=" && s != ">=" && s != "<>" && s != "=>";
}

bool Parser::IsOperatorKw() const { return IsKw("operator") && IsOpTok(Peek(1), "("); }

// OPERATOR ( [schema .] op ): the schema is dropped; op is returned.
std::string Parser::ParseOperatorKw() {
  Advance();  // OPERATOR
  ExpectOp("(");
  while (IsColId(Cur()) && IsOpTok(Peek(1), ".")) {
    Advance();
    Advance();
  }
  if (Cur().type != TokenType::kOp || Cur().text.empty() || !IsOpChar(Cur().text[0])) SyntaxError();
  std::string op = Cur().text;
  Advance();
  ExpectOp(")");
  return op;
}

// After `left op`: op ANY|SOME|ALL ( subquery | array ).
ExprPtr Parser::MaybeSubqueryOp(std::string op, ExprPtr left, int location) {
  bool all = IsKw("all");
  Advance();
  ExpectOp("(");
  if (StartsSelect(0)) {
    auto s = Node<SubLinkExpr>(location);
    s->sublink_kind = all ? SubLinkKind::kAll : SubLinkKind::kAny;
    s->op = std::move(op);
    s->test_expr = std::move(left);
    s->subselect = ParseSelect();
    ExpectOp(")");
    return s;
  }
  auto a = Node<AnyAllExpr>(location);
  a->op = std::move(op);
  a->all = all;
  a->left = std::move(left);
  a->right = ParseExpr();
  ExpectOp(")");
  return a;
}

ExprPtr Parser::ParseComparison() {
  ExprPtr left = ParseLikeIn();
  if (!IsComparisonOp(Cur())) return left;
  int loc = Loc();
  std::string op = Cur().text;
  Advance();
  if ((IsKw("any") || IsKw("some") || IsKw("all")) && IsOpTok(Peek(1), "(")) {
    return MaybeSubqueryOp(std::move(op), std::move(left), loc);
  }
  return MakeBinary(std::move(op), std::move(left), ParseLikeIn(), loc);
}

ExprPtr Parser::ParseLikeIn() {
  ExprPtr left = ParseOtherOp();
  if (b_expr_) return left;
  int loc = Loc();
  bool negated = false;
  if (IsKw("not") && (PeekKw(1, "between") || PeekKw(1, "in") || PeekKw(1, "like") ||
                      PeekKw(1, "ilike") || PeekKw(1, "similar"))) {
    negated = true;
    Advance();
  }
  if (AcceptKw("between")) {
    auto b = Node<BetweenExpr>(loc);
    b->negated = negated;
    if (AcceptKw("symmetric")) {
      b->symmetric = true;
    } else {
      AcceptKw("asymmetric");
    }
    b->arg = std::move(left);
    b->low = ParseBExpr();
    ExpectKw("and");
    b->high = ParseOtherOp();
    return b;
  }
  if (AcceptKw("in")) {
    ExpectOp("(");
    if (StartsSelect(0)) {
      auto s = Node<SubLinkExpr>(loc);
      s->sublink_kind = SubLinkKind::kAny;
      s->op = "=";
      s->test_expr = std::move(left);
      s->subselect = ParseSelect();
      ExpectOp(")");
      if (!negated) return s;
      auto n = Node<UnaryOpExpr>(loc);
      n->op = "NOT";
      n->operand = std::move(s);
      return n;
    }
    auto in = Node<InListExpr>(loc);
    in->negated = negated;
    in->arg = std::move(left);
    in->items = ParseExprList();
    ExpectOp(")");
    return in;
  }
  if (IsKw("like") || IsKw("ilike")) {
    bool ci = IsKw("ilike");
    Advance();
    if ((IsKw("any") || IsKw("some") || IsKw("all")) && IsOpTok(Peek(1), "(")) {
      // x [NOT] [I]LIKE ANY|ALL (array or subquery): PostgreSQL's operator names.
      std::string op = std::string(negated ? "!" : "") + (ci ? "~~*" : "~~");
      return MaybeSubqueryOp(std::move(op), std::move(left), loc);
    }
    auto l = Node<LikeExpr>(loc);
    l->case_insensitive = ci;
    l->negated = negated;
    l->arg = std::move(left);
    l->pattern = ParseOtherOp();
    if (AcceptKw("escape")) l->escape = ParseOtherOp();
    return l;
  }
  if (AcceptKw("similar")) {
    // x SIMILAR TO p [ESCAPE e]  ==  x ~ similar_to_escape(p [, e])
    ExpectKw("to");
    std::vector<ExprPtr> args;
    args.push_back(ParseOtherOp());
    if (AcceptKw("escape")) args.push_back(ParseOtherOp());
    return MakeBinary(negated ? "!~" : "~", std::move(left),
                      MakeFunc("similar_to_escape", std::move(args), loc), loc);
  }
  if (negated) SyntaxError();
  return left;
}

ExprPtr Parser::ParseOtherOp() {
  ExprPtr left = ParseAdd();
  ChainGuard chain(depth_);
  for (;;) {
    int loc = Loc();
    std::string op;
    if (IsOtherOp(Cur())) {
      op = Cur().text;
      Advance();
    } else if (IsOperatorKw()) {
      op = ParseOperatorKw();
    } else {
      break;
    }
    chain.Link(sql_, loc);
    if ((IsKw("any") || IsKw("some") || IsKw("all")) && IsOpTok(Peek(1), "(")) {
      left = MaybeSubqueryOp(std::move(op), std::move(left), loc);
      continue;
    }
    left = MakeBinary(std::move(op), std::move(left), ParseAdd(), loc);
  }
  return left;
}

ExprPtr Parser::ParseAdd() {
  ExprPtr left = ParseMul();
  ChainGuard chain(depth_);
  while (IsOp("+") || IsOp("-")) {
    int loc = Loc();
    chain.Link(sql_, loc);
    std::string op = Cur().text;
    Advance();
    left = MakeBinary(std::move(op), std::move(left), ParseMul(), loc);
  }
  return left;
}

ExprPtr Parser::ParseMul() {
  ExprPtr left = ParsePow();
  ChainGuard chain(depth_);
  while (IsOp("*") || IsOp("/") || IsOp("%")) {
    int loc = Loc();
    chain.Link(sql_, loc);
    std::string op = Cur().text;
    Advance();
    left = MakeBinary(std::move(op), std::move(left), ParsePow(), loc);
  }
  return left;
}

ExprPtr Parser::ParsePow() {
  ExprPtr left = ParseAtTimeZone();
  ChainGuard chain(depth_);
  while (IsOp("^")) {
    int loc = Loc();
    chain.Link(sql_, loc);
    Advance();
    left = MakeBinary("^", std::move(left), ParseAtTimeZone(), loc);
  }
  return left;
}

ExprPtr Parser::ParseAtTimeZone() {
  ExprPtr left = ParseCollate();
  ChainGuard chain(depth_);
  while (IsKw("at") && PeekKw(1, "time") && PeekKw(2, "zone")) {
    int loc = Loc();
    chain.Link(sql_, loc);
    Advance();
    Advance();
    Advance();
    // x AT TIME ZONE z  ==  timezone(z, x)
    std::vector<ExprPtr> args;
    args.push_back(ParseCollate());
    args.push_back(std::move(left));
    left = MakeFunc("timezone", std::move(args), loc);
  }
  return left;
}

ExprPtr Parser::ParseCollate() {
  ExprPtr left = ParseUnary();
  ChainGuard chain(depth_);
  while (IsKw("collate")) {
    chain.Link(sql_, Loc());
    auto c = Node<CollateExpr>(Loc());
    Advance();
    c->collation = ParseAnyName();
    c->arg = std::move(left);
    left = std::move(c);
  }
  return left;
}

ExprPtr Parser::ParseUnary() {
  DepthGuard guard(depth_, sql_, Loc());
  int loc = Loc();
  if (IsOp("-")) {
    Advance();
    ExprPtr operand = ParseUnary();
    if (operand->kind == ExprKind::kConst) {
      auto& c = operand->As<ConstExpr>();
      if (c.const_kind == ConstKind::kInteger || c.const_kind == ConstKind::kNumeric) {
        // Fold the sign into the literal, as PostgreSQL does.
        if (!c.value.empty() && c.value[0] == '-') {
          c.value.erase(0, 1);
        } else {
          c.value.insert(0, "-");
        }
        c.location = loc;
        return operand;
      }
    }
    auto u = Node<UnaryOpExpr>(loc);
    u->op = "-";
    u->operand = std::move(operand);
    return u;
  }
  if (IsOp("+")) {
    auto u = Node<UnaryOpExpr>(loc);
    u->op = "+";
    Advance();
    u->operand = ParseUnary();
    return u;
  }
  if (IsOtherOp(Cur())) {
    // Prefix ~, @, |/ ...: PostgreSQL gives them "other operator" precedence,
    // so the operand extends over + - * / but stops at ||, ~, comparisons.
    auto u = Node<UnaryOpExpr>(loc);
    u->op = Cur().text;
    Advance();
    u->operand = ParseAdd();
    return u;
  }
  return ParsePostfix();
}

ExprPtr Parser::ParseSubscript(ExprPtr arg) {
  auto s = Node<SubscriptExpr>(Loc());
  Advance();  // [
  if (!IsOp(":")) s->index = ParseExpr();
  if (AcceptOp(":")) {
    s->is_slice = true;
    if (!IsOp("]")) s->upper = ParseExpr();
  }
  ExpectOp("]");
  s->arg = std::move(arg);
  return s;
}

ExprPtr Parser::ParsePostfix() {
  ExprPtr e = ParsePrimary();
  ChainGuard chain(depth_);
  for (;;) {
    if (IsOp("::") || IsOp("[")) chain.Link(sql_, Loc());
    if (IsOp("::")) {
      auto c = Node<CastExpr>(Loc());
      Advance();
      c->type = ParseTypeName();
      c->arg = std::move(e);
      e = std::move(c);
    } else if (IsOp("[")) {
      e = ParseSubscript(std::move(e));
    } else {
      return e;
    }
  }
}

// ---------------------------------------------------------------------------
// Primary expressions
// ---------------------------------------------------------------------------

bool Parser::StartsSelect(size_t ahead) const {
  const Token& t = Peek(ahead);
  return IsKwTok(t, "select") || IsKwTok(t, "values") || IsKwTok(t, "with") ||
         IsKwTok(t, "table");
}

ExprPtr Parser::ParsePrimary() {
  const Token& t = Cur();
  int loc = t.offset;
  switch (t.type) {
    case TokenType::kInteger:
    case TokenType::kNumeric: {
      auto c = Node<ConstExpr>(loc);
      c->const_kind = t.type == TokenType::kInteger ? ConstKind::kInteger : ConstKind::kNumeric;
      c->value = t.text;
      Advance();
      return c;
    }
    case TokenType::kString: {
      ExprPtr c = MakeStringConst(t.text, loc);
      Advance();
      return c;
    }
    case TokenType::kParam: {
      auto p = Node<ParamRefExpr>(loc);
      p->number = t.param;
      Advance();
      return p;
    }
    case TokenType::kOp:
      if (t.text == "(") return ParseParenExpr();
      SyntaxError();
    case TokenType::kIdent:
    case TokenType::kQuotedIdent:
      return ParseWordExpr();
    case TokenType::kEnd:
      break;
  }
  SyntaxError();
}

ExprPtr Parser::ParseParenExpr() {
  int loc = Loc();
  if (IsOpTok(Peek(1), "(")) {
    // `((SELECT 2) UNION SELECT 2)`: a parenthesized query whose first arm
    // is parenthesized too, unless it turns out an expression (`((SELECT 2) + 1)`).
    size_t k = 1;
    while (IsOpTok(Peek(k), "(")) ++k;
    if (StartsSelect(k)) {
      const size_t save = pos_;
      try {
        Advance();
        auto s = Node<SubLinkExpr>(loc);
        s->sublink_kind = SubLinkKind::kExpr;
        s->subselect = ParseSelect();
        ExpectOp(")");
        return s;
      } catch (const DbError&) {
        pos_ = save;
      }
    }
  }
  if (StartsSelect(1)) {
    Advance();
    auto s = Node<SubLinkExpr>(loc);
    s->sublink_kind = SubLinkKind::kExpr;
    s->subselect = ParseSelect();
    ExpectOp(")");
    return s;
  }
  Advance();
  ExprPtr e = ParseExpr();
  if (IsOp(",")) {
    auto r = Node<RowExpr>(loc);
    r->items.push_back(std::move(e));
    while (AcceptOp(",")) r->items.push_back(ParseExpr());
    ExpectOp(")");
    if (IsKw("overlaps")) return ParseOverlaps(std::move(r->items), loc);
    return r;
  }
  ExpectOp(")");
  return e;
}

// The words ParseWordExpr treats specially (constants, special syntax,
// SQL value functions, typed-literal type names). Most words in an
// expression are column and function names: one hash lookup sends them
// straight to ParseColumnRefOrCall instead of through every comparison.
bool IsSpecialExprWord(std::string_view w) {
  static const std::unordered_set<std::string_view> kWords = {
      "null", "true", "false", "case", "cast", "array", "exists", "row", "default",
      "current_date", "current_time", "current_timestamp", "localtime", "localtimestamp", "current_role",
      "current_user", "session_user", "user", "current_catalog", "current_schema",
      "extract", "position", "substring", "trim", "coalesce", "nullif", "greatest", "least",
      "int", "integer", "smallint", "bigint", "real", "float", "double", "decimal", "dec", "numeric",
      "boolean", "char", "character", "varchar", "nchar", "national", "bit", "timestamp", "time", "interval"};
  return kWords.count(w) > 0;
}

// (a, b) OVERLAPS (c, d) → overlaps(a, b, c, d); each side has two items.
ExprPtr Parser::ParseOverlaps(std::vector<ExprPtr> left, int loc) {
  Advance();
  if (left.size() != 2) {
    ErrorAt(sqlstate::kSyntaxError, "wrong number of parameters on left side of OVERLAPS expression", loc);
  }
  int right_loc = Loc();
  ExpectOp("(");
  std::vector<ExprPtr> args = std::move(left);
  args.push_back(ParseExpr());
  size_t right_items = 1;
  while (AcceptOp(",")) {
    args.push_back(ParseExpr());
    ++right_items;
  }
  ExpectOp(")");
  if (right_items != 2) {
    ErrorAt(sqlstate::kSyntaxError, "wrong number of parameters on right side of OVERLAPS expression", right_loc);
  }
  return MakeFunc("overlaps", std::move(args), loc);
}

ExprPtr Parser::ParseWordExpr() {
  const Token& t = Cur();
  int loc = t.offset;
  if (t.type == TokenType::kQuotedIdent || !IsSpecialExprWord(t.text)) return ParseNamedExpr();
  const std::string w = t.text;
  bool call = IsOpTok(Peek(1), "(");

  if (w == "null") {
    Advance();
    return Node<ConstExpr>(loc);
  }
  if (w == "true" || w == "false") {
    auto c = Node<ConstExpr>(loc);
    c->const_kind = ConstKind::kBool;
    c->bool_value = w == "true";
    c->value = w;
    Advance();
    return c;
  }
  if (w == "case") return ParseCase();
  if (w == "cast" && call) {
    Advance();
    Advance();
    auto c = Node<CastExpr>(loc);
    c->arg = ParseExpr();
    ExpectKw("as");
    c->type = ParseTypeName();
    ExpectOp(")");
    return c;
  }
  if (w == "array") return ParseArrayCtor();
  if (w == "exists" && call) {
    Advance();
    Advance();
    auto s = Node<SubLinkExpr>(loc);
    s->sublink_kind = SubLinkKind::kExists;
    s->subselect = ParseSelect();
    ExpectOp(")");
    return s;
  }
  if (w == "row" && call) {
    Advance();
    Advance();
    auto r = Node<RowExpr>(loc);
    r->explicit_row = true;
    if (!IsOp(")")) r->items = ParseExprList();
    ExpectOp(")");
    return r;
  }
  if (w == "default") {
    Advance();
    return Node<DefaultExpr>(loc);
  }
  SqlValueFunctionOp svf;
  if (IsSqlValueFunction(w, svf) && !(svf == SqlValueFunctionOp::kCurrentSchema && call)) {
    Advance();
    auto f = Node<SqlValueFunctionExpr>(loc);
    f->op = svf;
    if (TakesPrecision(svf) && AcceptOp("(")) {
      // Beyond int range the token is not an integer constant to
      // PostgreSQL's grammar either: a syntax error, not an exception.
      const std::string& digits = Cur().text;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), f->typmod);
      if (Cur().type != TokenType::kInteger || ec != std::errc() || end != digits.data() + digits.size()) {
        SyntaxError();
      }
      Advance();
      ExpectOp(")");
    }
    return f;
  }
  if (call && (w == "extract" || w == "position" || w == "substring" || w == "trim" ||
               w == "coalesce" || w == "nullif" || w == "greatest" || w == "least")) {
    return ParseSpecialFunc(w, loc);
  }
  if (IsSqlTypeKeyword(t)) {
    if (ExprPtr lit = TryParseTypedLiteral()) return lit;
  }
  return ParseNamedExpr();
}

// A column reference or function call, after the keyword checks PostgreSQL's
// grammar makes (a reserved word cannot start one; a type/function-name
// keyword only a call).
ExprPtr Parser::ParseNamedExpr() {
  const Token& t = Cur();
  const bool call = IsOpTok(Peek(1), "(");
  switch (Category(t)) {
    case KeywordCategory::kReserved:
      SyntaxError();
    case KeywordCategory::kTypeFuncName:
      if (!call) SyntaxError();
      break;
    case KeywordCategory::kColName:
    case KeywordCategory::kNone:
      break;
  }
  return ParseColumnRefOrCall();
}

// name[.name...][.*] followed by '(' (function call), a string (typed
// literal such as date '2026-01-01'), or nothing (column reference).
ExprPtr Parser::ParseColumnRefOrCall() {
  int loc = Loc();
  std::vector<std::string> names;
  names.push_back(Cur().text);
  Advance();
  bool star = false;
  while (IsOp(".")) {
    Advance();
    if (AcceptOp("*")) {
      star = true;
      break;
    }
    names.push_back(ParseColLabel());
  }
  if (!star && IsOp("(")) return ParseFuncCall(std::move(names), loc);
  if (!star && Cur().type == TokenType::kString && names.size() <= 2) {
    auto c = Node<CastExpr>(loc);
    c->type.location = loc;
    if (names.size() == 2) c->type.schema = names[0];
    c->type.name = names.back();
    c->arg = MakeStringConst(Cur().text, Cur().offset);
    Advance();
    return c;
  }
  auto r = Node<ColumnRefExpr>(loc);
  r->fields = std::move(names);
  r->star = star;
  return r;
}

// A SQL-syntax type keyword (int, timestamp, interval, double precision, ...)
// followed by a string is a typed literal; anything else backs off so that
// col-name keywords like `time` can still be column references.
ExprPtr Parser::TryParseTypedLiteral() {
  size_t save = pos_;
  int loc = Loc();
  TypeName type;
  try {
    type = ParseTypeName();
  } catch (const DbError&) {
    pos_ = save;
    return nullptr;
  }
  if (Cur().type != TokenType::kString || type.is_array) {
    pos_ = save;
    return nullptr;
  }
  auto c = Node<CastExpr>(loc);
  c->arg = MakeStringConst(Cur().text, Cur().offset);
  Advance();
  if (type.name == "interval") {
    // INTERVAL '1' DAY [TO SECOND]. A single field after a bare number gives
    // the number its unit ('1' DAY → '1 day'); other qualifiers are accepted
    // and ignored.
    static const char* kFields[] = {"year", "month", "day", "hour", "minute", "second"};
    std::vector<std::string> fields;
    for (int round = 0; round < 2; ++round) {
      bool any = false;
      for (const char* f : kFields) {
        if (AcceptKw(f)) {
          fields.push_back(f);
          any = true;
          break;
        }
      }
      if (!any || !AcceptKw("to")) break;
    }
    auto& text = c->arg->As<ConstExpr>().value;
    bool bare_number = !text.empty() && text.find_first_not_of("+-0123456789. ") == std::string::npos;
    if (fields.size() == 1 && bare_number) text += " " + fields[0];
  }
  c->type = std::move(type);
  return c;
}

ExprPtr Parser::ParseFuncCall(std::vector<std::string> name, int location) {
  auto f = Node<FuncCallExpr>(location);
  f->name = std::move(name);
  ExpectOp("(");
  if (IsOp("*") && IsOpTok(Peek(1), ")")) {
    f->star = true;
    Advance();
    Advance();
  } else if (!AcceptOp(")")) {
    if (AcceptKw("distinct")) {
      f->distinct = true;
    } else {
      AcceptKw("all");
    }
    do {
      if (AcceptKw("variadic")) f->variadic = true;
      f->args.push_back(ParseExpr());
    } while (AcceptOp(","));
    if (IsKw("order") && PeekKw(1, "by")) {
      Advance();
      Advance();
      ParseSortList(f->agg_order);
    }
    ExpectOp(")");
  }
  if (IsKw("within") && PeekKw(1, "group")) {
    Advance();
    Advance();
    ExpectOp("(");
    ExpectKw("order");
    ExpectKw("by");
    if (!f->agg_order.empty()) ErrorAt(sqlstate::kSyntaxError, "cannot use multiple ORDER BY clauses with WITHIN GROUP", Loc());
    if (f->distinct) ErrorAt(sqlstate::kSyntaxError, "cannot use DISTINCT with WITHIN GROUP", Loc());
    ParseSortList(f->agg_order);
    f->within_group = true;
    ExpectOp(")");
  }
  if (IsKw("filter") && IsOpTok(Peek(1), "(")) {
    Advance();
    Advance();
    ExpectKw("where");
    f->filter = ParseExpr();
    ExpectOp(")");
  }
  if (IsKw("over")) f->over = ParseOver();
  return f;
}

void Parser::ParseSortList(std::vector<SortBy>& out) {
  do {
    SortBy s;
    s.location = Loc();
    s.expr = ParseExpr();
    if (AcceptKw("asc")) {
      s.dir = SortDir::kAsc;
    } else if (AcceptKw("desc")) {
      s.dir = SortDir::kDesc;
    } else if (AcceptKw("using")) {
      if (IsOperatorKw()) {
        s.using_op.push_back(ParseOperatorKw());
      } else {
        if (Cur().type != TokenType::kOp) SyntaxError();
        s.using_op.push_back(Cur().text);
        Advance();
      }
    }
    if (AcceptKw("nulls")) {
      if (AcceptKw("first")) {
        s.nulls = NullsOrder::kFirst;
      } else {
        ExpectKw("last");
        s.nulls = NullsOrder::kLast;
      }
    }
    out.push_back(std::move(s));
  } while (AcceptOp(","));
}

ExprPtr Parser::ParseCase() {
  auto c = Node<CaseExpr>(Loc());
  Advance();  // CASE
  if (!IsKw("when")) c->operand = ParseExpr();
  if (!IsKw("when")) SyntaxError();
  while (IsKw("when")) {
    CaseWhen w;
    w.location = Loc();
    Advance();
    w.condition = ParseExpr();
    ExpectKw("then");
    w.result = ParseExpr();
    c->whens.push_back(std::move(w));
  }
  if (AcceptKw("else")) c->else_result = ParseExpr();
  ExpectKw("end");
  return c;
}

ExprPtr Parser::ParseArrayCtor() {
  int loc = Loc();
  Advance();  // ARRAY
  if (IsOp("(")) {
    Advance();
    auto s = Node<SubLinkExpr>(loc);
    s->sublink_kind = SubLinkKind::kArray;
    s->subselect = ParseSelect();
    ExpectOp(")");
    return s;
  }
  // ARRAY[...]; inner bare [...] are sub-arrays.
  struct Body {
    static ExprPtr Parse(Parser& p, int location) {
      DepthGuard guard(p.depth_, p.sql_, location);
      auto a = Node<ArrayExpr>(location);
      p.ExpectOp("[");
      if (!p.IsOp("]")) {
        do {
          if (p.IsOp("[")) {
            a->elements.push_back(Parse(p, p.Loc()));
          } else {
            a->elements.push_back(p.ParseExpr());
          }
        } while (p.AcceptOp(","));
      }
      p.ExpectOp("]");
      return a;
    }
  };
  return Body::Parse(*this, loc);
}

// EXTRACT, POSITION, SUBSTRING, TRIM (SQL-standard argument syntax) and
// COALESCE / NULLIF / GREATEST / LEAST (keywords that are not function
// names). All become FuncCallExpr; see ast.h for the argument order.
ExprPtr Parser::ParseSpecialFunc(const std::string& word, int location) {
  Advance();  // the word
  ExpectOp("(");
  std::vector<ExprPtr> args;
  std::string name = word;
  if (word == "extract") {
    if (Cur().type == TokenType::kString || IsColLabel(Cur())) {
      args.push_back(MakeStringConst(Cur().text, Loc()));
      Advance();
    } else {
      SyntaxError();
    }
    ExpectKw("from");
    args.push_back(ParseExpr());
  } else if (word == "position") {
    ExprPtr needle = ParseBExpr();
    ExpectKw("in");
    args.push_back(ParseBExpr());
    args.push_back(std::move(needle));
  } else if (word == "substring") {
    args.push_back(ParseExpr());
    if (AcceptOp(",")) {
      do {
        args.push_back(ParseExpr());
      } while (AcceptOp(","));
    } else if (AcceptKw("from")) {
      args.push_back(ParseExpr());
      if (AcceptKw("for")) args.push_back(ParseExpr());
    } else if (AcceptKw("for")) {
      ExprPtr count = ParseExpr();
      if (AcceptKw("from")) {
        args.push_back(ParseExpr());
      } else {
        args.push_back(MakeIntConst("1", -1));
      }
      args.push_back(std::move(count));
    }
  } else if (word == "trim") {
    name = "btrim";
    if (AcceptKw("leading")) {
      name = "ltrim";
    } else if (AcceptKw("trailing")) {
      name = "rtrim";
    } else {
      AcceptKw("both");
    }
    if (AcceptKw("from")) {
      args = ParseExprList();
    } else {
      ExprPtr first = ParseExpr();
      if (AcceptKw("from")) {
        args = ParseExprList();
        args.push_back(std::move(first));
      } else {
        args.push_back(std::move(first));
        while (AcceptOp(",")) args.push_back(ParseExpr());
      }
    }
  } else {
    args = ParseExprList();
  }
  ExpectOp(")");
  return MakeFunc(std::move(name), std::move(args), location);
}

}  // namespace hearth::parser
