// tcop/plpgsql_parse.cpp
//
// Principal entry point: ParsePlpgsql — the body's text into the AST of
// plpgsql_ast.h. The SQL lexer splits the body (so strings, dollar quotes
// and comments are handled once); control statements are parsed here and
// every embedded expression or SQL statement is kept as the source text
// between its first token and its terminator at parenthesis depth 0.
// Errors are PostgreSQL's 42601 "syntax error at or near" with the
// position inside the body.
#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/lexer.h"
#include "tcop/plpgsql.h"

namespace hearth::tcop::plpgsql {

namespace {

using parser::Token;
using parser::TokenType;

class BodyParser {
 public:
  explicit BodyParser(const std::string& src) : src_(src), toks_(parser::Tokenize(src)) {}

  std::unique_ptr<Function> Parse() {
    auto f = std::make_unique<Function>();
    try {
      std::string label = ParseLabel();
      if (!IsKw("declare") && !IsKw("begin")) Fail();
      f->body = ParseBlock(label);
      if (Is(";")) ++pos_;
      if (Peek().type != TokenType::kEnd) Fail();
    } catch (DbError& e) {
      // Errors without a position name the line (AddCompileContext).
      if (e.position() == 0 && e.context().empty()) {
        e.WithContext("near line " + std::to_string(LineOf(Peek().offset)));
      }
      throw;
    }
    return f;
  }

 private:
  const Token& Peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  bool IsKwAt(size_t k, const char* kw) const {
    const Token& t = Peek(k);
    return t.type == TokenType::kIdent && t.text == kw;
  }
  bool IsKw(const char* kw) const { return IsKwAt(0, kw); }
  bool Is(const char* op) const { return Peek().type == TokenType::kOp && Peek().text == op; }
  bool AtEnd() const { return Peek().type == TokenType::kEnd; }

  [[noreturn]] void Fail() const { FailAt(Peek()); }
  [[noreturn]] void FailAt(const Token& t) const {
    if (t.type == TokenType::kEnd) {
      throw DbError(sqlstate::kSyntaxError, "syntax error at end of input")
          .WithPosition(parser::CharPosition(src_, t.offset));
    }
    parser::ThrowSyntaxError(src_, t.offset, "syntax error", src_.substr(t.offset, t.end - t.offset));
  }
  void ExpectKw(const char* kw) {
    if (!IsKw(kw)) Fail();
    ++pos_;
  }
  void Expect(const char* op) {
    if (!Is(op)) Fail();
    ++pos_;
  }
  int LineOf(int offset) const {
    return 1 + static_cast<int>(std::count(src_.begin(), src_.begin() + offset, '\n'));
  }
  std::string Ident() {
    const Token& t = Peek();
    if (t.type != TokenType::kIdent && t.type != TokenType::kQuotedIdent) Fail();
    ++pos_;
    return t.text;
  }
  // A variable reference: name or name.field.
  std::string Target() {
    std::string name = Ident();
    if (Is(".")) {
      ++pos_;
      name += "." + Ident();
    }
    return name;
  }

  // SQL text up to (not including) a terminator at depth 0: ";" or one of
  // the keywords in `stops`. CASE ... END nests, so a CASE expression's
  // THEN does not end an IF condition.
  // `start_offset` >= 0: the text starts there (inside the first token).
  SqlText ScanSql(std::initializer_list<const char*> stops, bool stop_at_comma = false, int start_offset = -1) {
    const size_t start = pos_;
    int depth = 0, case_depth = 0;
    for (; !AtEnd(); ++pos_) {
      const Token& t = Peek();
      if (t.type == TokenType::kOp) {
        if (t.text == "(" || t.text == "[") ++depth;
        if (t.text == ")" || t.text == "]") --depth;
        if (depth <= 0 && t.text == ";") break;
        if (depth <= 0 && stop_at_comma && t.text == ",") break;
        if (depth < 0) break;
        continue;
      }
      if (t.type != TokenType::kIdent || depth > 0) continue;
      if (t.text == "case") ++case_depth;
      if (t.text == "end" && case_depth > 0) {
        --case_depth;
        continue;
      }
      if (case_depth > 0) continue;
      if (std::any_of(stops.begin(), stops.end(), [&](const char* s) { return t.text == s; })) break;
    }
    if (pos_ == start) Fail();
    const int from = start_offset >= 0 ? start_offset : toks_[start].offset;
    SqlText out;
    out.text = src_.substr(from, toks_[pos_ - 1].end - from);
    out.line = LineOf(from);
    return out;
  }

  std::string ParseLabel() {
    if (!Is("<<")) return "";
    ++pos_;
    std::string label = Ident();
    Expect(">>");
    return label;
  }

  std::unique_ptr<Block> ParseBlock(std::string label) {
    auto b = std::make_unique<Block>();
    b->label = std::move(label);
    const size_t scope = declared_.size();
    while (IsKw("declare")) {
      ++pos_;
      while (!IsKw("begin") && !AtEnd()) {
        if (IsKw("declare")) break;
        b->declarations.push_back(ParseDeclaration());
        declared_.emplace_back(b->declarations.back().name, b->declarations.back().constant);
      }
    }
    ExpectKw("begin");
    b->body = ParseStatements({"end", "exception"});
    if (IsKw("exception")) {
      ++pos_;
      while (IsKw("when")) b->handlers.push_back(ParseHandler());
      if (b->handlers.empty()) Fail();
    }
    ExpectKw("end");
    if (!b->label.empty() && (Peek().type == TokenType::kIdent) && Peek().text == b->label) ++pos_;
    declared_.resize(scope);
    return b;
  }

  Declaration ParseDeclaration() {
    Declaration d;
    d.line = LineOf(Peek().offset);
    d.name = Ident();
    if (IsKw("constant")) {
      ++pos_;
      d.constant = true;
    }
    if (IsKw("alias")) Fail();
    const size_t start = pos_;
    while (!AtEnd() && !Is(";") && !Is(":=") && !Is("=") && !IsKw("default") && !IsKw("not") && !IsKw("collate")) {
      ++pos_;
    }
    if (pos_ == start) Fail();
    d.type_text = src_.substr(toks_[start].offset, toks_[pos_ - 1].end - toks_[start].offset);
    if (IsKw("collate")) pos_ += 2;
    if (IsKw("not")) {
      ++pos_;
      ExpectKw("null");
      d.not_null = true;
    }
    if (Is(":=") || Is("=") || IsKw("default")) {
      ++pos_;
      d.default_expr = ScanSql({});
    }
    Expect(";");
    return d;
  }

  ExceptionHandler ParseHandler() {
    ExpectKw("when");
    ExceptionHandler h;
    for (;;) {
      if (IsKw("sqlstate")) {
        ++pos_;
        if (Peek().type != TokenType::kString) Fail();
        h.conditions.push_back(Peek().text);
        ++pos_;
      } else {
        const Token& t = Peek();
        std::string name = Ident();
        if (name != "others" && ConditionSqlstate(name).empty()) {
          throw DbError(sqlstate::kUndefinedObject, "unrecognized exception condition \"" + name + "\"");
        }
        (void)t;
        h.conditions.push_back(name);
      }
      if (!IsKw("or")) break;
      ++pos_;
    }
    ExpectKw("then");
    h.body = ParseStatements({"when", "end"});
    return h;
  }

  bool AtStop(std::initializer_list<const char*> stops) const {
    return std::any_of(stops.begin(), stops.end(), [&](const char* s) { return IsKw(s); });
  }

  StmtList ParseStatements(std::initializer_list<const char*> stops) {
    StmtList out;
    while (!AtEnd() && !AtStop(stops)) out.push_back(ParseStatement());
    return out;
  }

  std::unique_ptr<Stmt> ParseStatement() {
    std::string label = ParseLabel();
    auto s = std::make_unique<Stmt>();
    s->line = LineOf(Peek().offset);
    s->label = label;
    if (IsKw("declare") || IsKw("begin")) {
      s->kind = StmtKind::kBlock;
      s->block = ParseBlock(label);
    } else if (IsKw("if")) {
      ParseIf(*s);
    } else if (IsKw("case")) {
      ParseCase(*s);
    } else if (IsKw("loop")) {
      s->kind = StmtKind::kLoop;
      ParseLoopBody(*s);
    } else if (IsKw("while")) {
      ++pos_;
      s->kind = StmtKind::kWhile;
      s->expr = ScanSql({"loop"});
      ParseLoopBody(*s);
    } else if (IsKw("for")) {
      ParseFor(*s);
    } else if (IsKw("foreach")) {
      ParseForEach(*s);
    } else if (IsKw("exit") || IsKw("continue")) {
      s->kind = IsKw("exit") ? StmtKind::kExit : StmtKind::kContinue;
      ++pos_;
      s->label.clear();
      if (Peek().type == TokenType::kIdent && !IsKw("when")) s->label = Ident();
      if (IsKw("when")) {
        ++pos_;
        s->expr = ScanSql({});
      }
    } else if (IsKw("return")) {
      ParseReturn(*s);
    } else if (IsKw("raise")) {
      ParseRaise(*s);
    } else if (IsKw("perform")) {
      ++pos_;
      s->kind = StmtKind::kPerform;
      s->query = ScanSql({});
      s->query.text = "SELECT " + s->query.text;
    } else if (IsKw("get")) {
      ParseGetDiagnostics(*s);
    } else if (IsKw("assert")) {
      ++pos_;
      s->kind = StmtKind::kAssert;
      s->expr = ScanSql({}, /*stop_at_comma=*/true);
      if (Is(",")) {
        ++pos_;
        s->args.push_back(ScanSql({}));
      }
    } else if (IsKw("execute")) {
      ParseExecute(*s);
    } else if (IsKw("null") && (Peek(1).type == TokenType::kOp && Peek(1).text == ";")) {
      ++pos_;
      s->kind = StmtKind::kNull;
    } else if (IsAssignment()) {
      s->kind = StmtKind::kAssign;
      const Token& at = Peek();
      s->target = Target();
      CheckAssignable(s->target, at);
      ++pos_;  // := or =
      s->expr = ScanSql({});
    } else {
      ParseSql(*s);
    }
    Expect(";");
    return s;
  }

  bool IsAssignment() const {
    const Token& t = Peek();
    if (t.type != TokenType::kIdent && t.type != TokenType::kQuotedIdent) return false;
    auto assign_op = [&](size_t k) {
      return Peek(k).type == TokenType::kOp && (Peek(k).text == ":=" || Peek(k).text == "=");
    };
    if (assign_op(1)) return true;
    return Peek(1).type == TokenType::kOp && Peek(1).text == "." && assign_op(3);
  }

  void ParseIf(Stmt& s) {
    s.kind = StmtKind::kIf;
    ExpectKw("if");
    s.conditions.push_back(ScanSql({"then"}));
    ExpectKw("then");
    s.branches.push_back(ParseStatements({"elsif", "elseif", "else", "end"}));
    while (IsKw("elsif") || IsKw("elseif")) {
      ++pos_;
      s.conditions.push_back(ScanSql({"then"}));
      ExpectKw("then");
      s.branches.push_back(ParseStatements({"elsif", "elseif", "else", "end"}));
    }
    if (IsKw("else")) {
      ++pos_;
      s.has_else = true;
      s.else_body = ParseStatements({"end"});
    }
    ExpectKw("end");
    ExpectKw("if");
  }

  void ParseCase(Stmt& s) {
    s.kind = StmtKind::kCase;
    ExpectKw("case");
    if (!IsKw("when")) s.expr = ScanSql({"when"});
    while (IsKw("when")) {
      ++pos_;
      s.conditions.push_back(ScanSql({"then"}));
      ExpectKw("then");
      s.branches.push_back(ParseStatements({"when", "else", "end"}));
    }
    if (s.conditions.empty()) Fail();
    if (IsKw("else")) {
      ++pos_;
      s.has_else = true;
      s.else_body = ParseStatements({"end"});
    }
    ExpectKw("end");
    ExpectKw("case");
  }

  void ParseLoopBody(Stmt& s) {
    ExpectKw("loop");
    s.body = ParseStatements({"end"});
    ExpectKw("end");
    ExpectKw("loop");
    if (Peek().type == TokenType::kIdent && Peek().text == s.label) ++pos_;
  }

  // Token k starts a ".." (the lexer reads "1..10" as 1, ".", ".10").
  bool IsRangeAt(size_t k) const {
    if (k + 1 >= toks_.size()) return false;
    const Token& t = toks_[k];
    const Token& n = toks_[k + 1];
    if (t.type != TokenType::kOp || t.text != "." || n.offset != t.end) return false;
    return (n.type == TokenType::kOp && n.text == ".") || (n.type == TokenType::kNumeric && n.text[0] == '.');
  }

  // Index of the ".." between here and LOOP at depth 0 (an integer FOR), or 0.
  size_t RangeAhead() const {
    int depth = 0;
    for (size_t k = pos_; k + 1 < toks_.size(); ++k) {
      const Token& t = toks_[k];
      if (t.type == TokenType::kOp && (t.text == "(" || t.text == "[")) ++depth;
      if (t.type == TokenType::kOp && (t.text == ")" || t.text == "]")) --depth;
      if (t.type == TokenType::kIdent && t.text == "loop" && depth == 0) return 0;
      if (depth == 0 && IsRangeAt(k)) return k;
      if (t.type == TokenType::kOp && t.text == ";") return 0;
    }
    return 0;
  }

  // The lower bound (up to the ".." at `range`) and the upper bound.
  void ScanRange(size_t range, Stmt& s) {
    if (pos_ >= range) Fail();
    s.expr.text = src_.substr(toks_[pos_].offset, toks_[range].offset - toks_[pos_].offset);
    s.expr.line = LineOf(toks_[pos_].offset);
    const bool split = toks_[range + 1].type == TokenType::kNumeric;  // ".10": the bound starts inside it
    pos_ = split ? range + 1 : range + 2;
    s.expr2 = ScanSql({"loop", "by"}, false, split ? toks_[range].offset + 2 : -1);
  }

  void ParseFor(Stmt& s) {
    ExpectKw("for");
    s.target = Ident();
    declared_.emplace_back(s.target, false);  // the loop's own variable (popped with the enclosing block)
    if (Is(",")) Fail();  // several targets: not supported
    ExpectKw("in");
    if (const size_t range = RangeAhead()) {
      s.kind = StmtKind::kForInt;
      if (IsKw("reverse")) {
        ++pos_;
        s.reverse = true;
      }
      ScanRange(range, s);
      if (IsKw("by")) {
        ++pos_;
        s.step = ScanSql({"loop"});
      }
    } else {
      s.kind = StmtKind::kForQuery;
      if (IsKw("execute")) {
        ++pos_;
        s.dynamic = true;
        s.expr = ScanSql({"loop", "using"});
        ParseUsing(s);
      } else {
        s.query = ScanSql({"loop"});
      }
    }
    ParseLoopBody(s);
  }

  void ParseForEach(Stmt& s) {
    ExpectKw("foreach");
    s.kind = StmtKind::kForEach;
    s.target = Ident();
    if (IsKw("slice")) Fail();
    ExpectKw("in");
    ExpectKw("array");
    s.expr = ScanSql({"loop"});
    ParseLoopBody(s);
  }

  void ParseUsing(Stmt& s) {
    if (!IsKw("using")) return;
    ++pos_;
    for (;;) {
      s.using_args.push_back(ScanSql({"loop", "into"}, /*stop_at_comma=*/true));
      if (!Is(",")) break;
      ++pos_;
    }
  }

  void ParseInto(Stmt& s) {
    ExpectKw("into");
    if (IsKw("strict")) {
      ++pos_;
      s.strict = true;
    }
    s.into.push_back(Target());
    while (Is(",")) {
      ++pos_;
      s.into.push_back(Target());
    }
  }

  void ParseReturn(Stmt& s) {
    ExpectKw("return");
    s.kind = StmtKind::kReturn;
    if (IsKw("next")) {
      ++pos_;
      s.kind = StmtKind::kReturnNext;
    } else if (IsKw("query")) {
      ++pos_;
      s.kind = StmtKind::kReturnQuery;
      if (IsKw("execute")) {
        ++pos_;
        s.dynamic = true;
        s.expr = ScanSql({"using"});
        ParseUsing(s);
      } else {
        s.query = ScanSql({});
      }
      return;
    }
    if (!Is(";")) s.expr = ScanSql({});
  }

  void ParseRaise(Stmt& s) {
    ExpectKw("raise");
    s.kind = StmtKind::kRaise;
    static const char* const kLevels[] = {"exception", "warning", "notice", "info", "log", "debug"};
    for (const char* l : kLevels) {
      if (IsKw(l)) {
        s.level = l;
        ++pos_;
        break;
      }
    }
    if (s.level.empty()) s.level = "exception";
    if (Is(";")) return;  // re-raise
    if (Peek().type == TokenType::kString) {
      s.has_format = true;
      s.format = Peek().text;
      ++pos_;
      while (Is(",")) {
        ++pos_;
        s.args.push_back(ScanSql({"using"}, /*stop_at_comma=*/true));
      }
      CheckPlaceholders(s);
    } else if (IsKw("sqlstate")) {
      ++pos_;
      if (Peek().type != TokenType::kString) Fail();
      s.condition = Peek().text;
      ++pos_;
    } else if (!IsKw("using")) {
      s.condition = Ident();
      if (ConditionSqlstate(s.condition).empty()) {
        throw DbError(sqlstate::kUndefinedObject, "unrecognized exception condition \"" + s.condition + "\"");
      }
    }
    if (IsKw("using")) {
      ++pos_;
      for (;;) {
        RaiseOption o;
        o.name = Ident();
        if (!Is("=") && !Is(":=")) Fail();
        ++pos_;
        o.expr = ScanSql({}, /*stop_at_comma=*/true);
        s.options.push_back(std::move(o));
        if (!Is(",")) break;
        ++pos_;
      }
    }
  }

  void CheckPlaceholders(const Stmt& s) const {
    size_t n = 0;
    for (size_t i = 0; i < s.format.size(); ++i) {
      if (s.format[i] != '%') continue;
      if (i + 1 < s.format.size() && s.format[i + 1] == '%') {
        ++i;
        continue;
      }
      ++n;
    }
    if (n > s.args.size()) throw DbError(sqlstate::kSyntaxError, "too few parameters specified for RAISE");
    if (n < s.args.size()) throw DbError(sqlstate::kSyntaxError, "too many parameters specified for RAISE");
  }

  void ParseGetDiagnostics(Stmt& s) {
    ExpectKw("get");
    if (IsKw("current")) ++pos_;
    if (IsKw("stacked")) {
      ++pos_;
      s.stacked = true;
    }
    ExpectKw("diagnostics");
    s.kind = StmtKind::kGetDiagnostics;
    static const char* const kCurrent[] = {"row_count"};
    static const char* const kStacked[] = {"returned_sqlstate", "message_text", "pg_exception_detail",
                                           "pg_exception_hint", "pg_exception_context", "column_name",
                                           "constraint_name", "table_name", "schema_name"};
    for (;;) {
      s.diag_targets.push_back(Target());
      if (!Is("=") && !Is(":=")) Fail();
      ++pos_;
      const Token& at = Peek();
      std::string item = Ident();
      const bool known = s.stacked ? std::find(std::begin(kStacked), std::end(kStacked), item) != std::end(kStacked)
                                   : std::find(std::begin(kCurrent), std::end(kCurrent), item) != std::end(kCurrent);
      if (!known) {
        if (item == "pg_context") {
          throw DbError(sqlstate::kFeatureNotSupported, "GET DIAGNOSTICS PG_CONTEXT is not supported yet");
        }
        FailAt(at);
      }
      s.diag_items.push_back(item);
      if (!Is(",")) break;
      ++pos_;
    }
  }

  void ParseExecute(Stmt& s) {
    ExpectKw("execute");
    s.kind = StmtKind::kExecute;
    s.expr = ScanSql({"into", "using"});
    while (IsKw("into") || IsKw("using")) {
      if (IsKw("into")) {
        ParseInto(s);
      } else {
        ParseUsing(s);
      }
    }
  }

  // A SQL statement; a top-level INTO (not INSERT's or MERGE's) names the
  // targets and is cut out of the text.
  void ParseSql(Stmt& s) {
    s.kind = StmtKind::kSql;
    const size_t start = pos_;
    const bool is_insert = IsKw("insert") || IsKw("merge");
    int depth = 0;
    size_t into_at = 0, into_end = 0;
    for (; !AtEnd(); ++pos_) {
      const Token& t = Peek();
      if (t.type == TokenType::kOp) {
        if (t.text == "(" || t.text == "[") ++depth;
        if (t.text == ")" || t.text == "]") --depth;
        if (depth == 0 && t.text == ";") break;
        continue;
      }
      if (depth != 0 || into_at != 0 || t.type != TokenType::kIdent || t.text != "into") continue;
      if (is_insert && pos_ == start + 1) continue;
      into_at = pos_;
      ParseInto(s);
      into_end = pos_;
      --pos_;
    }
    if (pos_ == start) Fail();
    const int begin = toks_[start].offset;
    const int end = toks_[pos_ - 1].end;
    if (into_at == 0) {
      s.query.text = src_.substr(begin, end - begin);
    } else {
      const int cut_from = toks_[into_at].offset;
      const int cut_to = into_end < pos_ ? toks_[into_end].offset : end;
      s.query.text = src_.substr(begin, cut_from - begin) + " " + src_.substr(cut_to, end - cut_to);
    }
    s.query.line = LineOf(begin);
  }

  // Names declared by the enclosing blocks (innermost last), to refuse an
  // assignment to a CONSTANT when the body is compiled, as PostgreSQL.
  std::vector<std::pair<std::string, bool>> declared_;

  void CheckAssignable(const std::string& target, const Token& at) const {
    const std::string name = target.substr(0, target.find('.'));
    for (size_t i = declared_.size(); i-- > 0;) {
      if (declared_[i].first != name) continue;
      if (!declared_[i].second) return;
      throw DbError(sqlstate::kSyntaxError, "variable \"" + name + "\" is declared CONSTANT")
          .WithPosition(parser::CharPosition(src_, at.offset));
    }
  }

  const std::string& src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<Function> ParsePlpgsql(const std::string& src) { return BodyParser(src).Parse(); }

void AddCompileContext(DbError& e, const std::string& function_name) {
  const std::string& ctx = e.context();
  if (ctx.rfind("near line ", 0) != 0) return;
  e.WithContext("compilation of PL/pgSQL function \"" + function_name + "\" " + ctx);
}

}  // namespace hearth::tcop::plpgsql
