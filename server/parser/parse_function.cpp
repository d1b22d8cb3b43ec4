// server/parser/parse_function.cpp
//
// Principal entry points: Parser::ParseCreateFunction, ParseDropFunction,
// ParseDo, ParseCall, ParseGrantFunction — PostgreSQL 15's grammar for
// CREATE [OR REPLACE] FUNCTION/PROCEDURE (parameters with modes, names and
// defaults; RETURNS type / SETOF type / TABLE (...); LANGUAGE, volatility,
// strictness, SECURITY; AS 'body' or the SQL-standard RETURN expr / BEGIN
// ATOMIC ... END), DROP FUNCTION, DO, CALL and GRANT/REVOKE ON FUNCTION.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

namespace {

bool IsParamModeWord(const std::string& w) {
  return w == "in" || w == "out" || w == "inout" || w == "variadic";
}

FuncParamMode ModeOf(const std::string& w) {
  if (w == "out") return FuncParamMode::kOut;
  if (w == "inout") return FuncParamMode::kInOut;
  if (w == "variadic") return FuncParamMode::kVariadic;
  return FuncParamMode::kIn;
}

}  // namespace

// [mode] [name] type [{DEFAULT | =} expr]. A leading word is the parameter
// name when a type follows it (PostgreSQL's func_arg: "a int" vs "int").
FuncParam Parser::ParseFuncParam(bool allow_default) {
  FuncParam p;
  if (Cur().type == TokenType::kIdent && IsParamModeWord(Cur().text) &&
      !(IsOpTok(Peek(1), ",") || IsOpTok(Peek(1), ")"))) {
    p.mode = ModeOf(Cur().text);
    Advance();
  }
  // "name type" when two type-ish tokens follow; "type" alone otherwise.
  const Token& next = Peek(1);
  const bool name_first = (Cur().type == TokenType::kIdent || Cur().type == TokenType::kQuotedIdent) &&
                          !(IsOpTok(next, ",") || IsOpTok(next, ")") || IsOpTok(next, "=") ||
                            IsOpTok(next, "[") || IsOpTok(next, "(") || IsOpTok(next, ".") ||
                            IsKwTok(next, "default") || IsOpTok(next, "%")) &&
                          !(IsKwTok(Cur(), "double") && IsKwTok(next, "precision")) &&
                          !(IsKwTok(Cur(), "character") && IsKwTok(next, "varying")) &&
                          !(IsKwTok(Cur(), "bit") && IsKwTok(next, "varying")) &&
                          !(IsKwTok(Cur(), "timestamp") || IsKwTok(Cur(), "time"));
  if (name_first) p.name = ParseColId();
  p.type = ParseTypeName();
  if (allow_default && (IsKw("default") || IsOp("="))) {
    Advance();
    const int begin = Loc();
    p.default_expr = ParseExpr();
    p.default_text = SourceText(begin, toks_[pos_ - 1].end);
  }
  return p;
}

StmtPtr Parser::ParseCreateFunction(bool or_replace, int location) {
  auto s = std::make_unique<CreateFunctionStmt>();
  s->location = location;
  s->or_replace = or_replace;
  s->is_procedure = IsKw("procedure");
  Advance();  // FUNCTION / PROCEDURE
  s->name = ParseQualifiedName();
  ExpectOp("(");
  if (!IsOp(")")) {
    do {
      s->params.push_back(ParseFuncParam(true));
    } while (AcceptOp(","));
  }
  ExpectOp(")");
  if (!s->is_procedure && AcceptKw("returns")) {
    s->has_return_type = true;
    if (AcceptKw("table")) {
      s->returns_table = true;
      s->returns_set = true;
      ExpectOp("(");
      do {
        FuncParam p;
        p.name = ParseColId();
        p.type = ParseTypeName();
        p.mode = FuncParamMode::kTable;
        s->params.push_back(std::move(p));
      } while (AcceptOp(","));
      ExpectOp(")");
    } else {
      s->returns_set = AcceptKw("setof");
      s->return_type = ParseTypeName();
    }
  }
  while (!AtEnd() && !IsOp(";")) ParseFuncOption(*s);
  if (!s->has_body) {
    ErrorAt("42P13", "no function body specified", location);
  }
  return s;
}

void Parser::ParseFuncOption(CreateFunctionStmt& s) {
  if (AcceptKw("language")) {
    if (Cur().type == TokenType::kString) {
      s.language = Cur().text;
      Advance();
    } else {
      s.language = ParseColLabel();
    }
  } else if (AcceptKw("immutable")) {
    s.volatility = 'i';
  } else if (AcceptKw("stable")) {
    s.volatility = 's';
  } else if (AcceptKw("volatile")) {
    s.volatility = 'v';
  } else if (AcceptKw("strict")) {
    s.strict = 1;
  } else if (IsKw("returns") && PeekKw(1, "null")) {  // RETURNS NULL ON NULL INPUT
    Advance();
    Advance();
    ExpectKw("on");
    ExpectKw("null");
    ExpectKw("input");
    s.strict = 1;
  } else if (AcceptKw("called")) {
    ExpectKw("on");
    ExpectKw("null");
    ExpectKw("input");
    s.strict = 0;
  } else if (IsKw("security") || IsKw("external")) {
    AcceptKw("external");
    ExpectKw("security");
    if (AcceptKw("definer")) {
      s.security_definer = true;
    } else {
      ExpectKw("invoker");
      s.security_definer = false;
    }
  } else if (AcceptKw("leakproof") || AcceptKw("window")) {
    // accepted, no effect
  } else if (IsKw("not") && PeekKw(1, "leakproof")) {
    Advance();
    Advance();
  } else if (AcceptKw("parallel")) {
    ParseColLabel();  // SAFE / RESTRICTED / UNSAFE
  } else if (AcceptKw("cost") || AcceptKw("rows")) {
    if (Cur().type != TokenType::kInteger && Cur().type != TokenType::kNumeric) SyntaxError();
    Advance();
  } else if (AcceptKw("as")) {
    if (Cur().type != TokenType::kString) SyntaxError();
    s.has_body = true;
    s.body = Cur().text;
    s.body_location = Cur().offset;
    Advance();
    if (AcceptOp(",")) {  // AS 'obj_file', 'link_symbol' (C functions)
      if (Cur().type != TokenType::kString) SyntaxError();
      Advance();
    }
  } else if (IsKw("return") || (IsKw("begin") && PeekKw(1, "atomic"))) {
    ParseSqlStandardBody(s);
  } else {
    SyntaxError();
  }
}

// RETURN expr | BEGIN ATOMIC stmt; ... END. The body keeps the statements'
// text ("SELECT expr" for RETURN); sql_body_text the clause as written.
void Parser::ParseSqlStandardBody(CreateFunctionStmt& s) {
  const int begin = Loc();
  s.has_body = true;
  s.sql_standard_body = true;
  s.body_location = begin;
  if (AcceptKw("return")) {
    const int expr_begin = Loc();
    ParseExpr();
    s.body = "SELECT " + SourceText(expr_begin, toks_[pos_ - 1].end);
  } else {
    Advance();  // BEGIN
    Advance();  // ATOMIC
    std::string body;
    while (!IsKw("end")) {
      if (AtEnd()) SyntaxError();
      if (AcceptOp(";")) continue;
      const int stmt_begin = Loc();
      ParseStatement();
      if (!body.empty()) body += ";\n";
      body += SourceText(stmt_begin, toks_[pos_ - 1].end);
      if (!IsKw("end")) ExpectOp(";");
    }
    Advance();  // END
    s.body = body;
  }
  s.sql_body_text = SourceText(begin, toks_[pos_ - 1].end);
}

// name [( [[mode] [name] type, ...] )]
FunctionRefSpec Parser::ParseFunctionRefSpec() {
  FunctionRefSpec f;
  f.name = ParseQualifiedName();
  if (AcceptOp("(")) {
    f.has_args = true;
    if (!IsOp(")")) {
      do {
        FuncParam p = ParseFuncParam(false);
        if (p.mode == FuncParamMode::kOut) continue;  // OUT parameters do not identify a function
        f.arg_types.push_back(std::move(p.type));
        f.arg_modes.push_back(p.mode);
      } while (AcceptOp(","));
    }
    ExpectOp(")");
  }
  return f;
}

StmtPtr Parser::ParseDropFunction(int location) {
  auto s = std::make_unique<DropFunctionStmt>();
  s->location = location;
  s->is_procedure = IsKw("procedure");
  Advance();  // FUNCTION / PROCEDURE / ROUTINE
  s->if_exists = ParseIfExists();
  do {
    s->functions.push_back(ParseFunctionRefSpec());
  } while (AcceptOp(","));
  s->cascade = ParseDropBehavior() == DropBehavior::kCascade;
  return s;
}

StmtPtr Parser::ParseDo() {
  auto s = std::make_unique<DoStmt>();
  s->location = Loc();
  Advance();  // DO
  bool have_code = false;
  while (!AtEnd() && !IsOp(";")) {
    if (AcceptKw("language")) {
      s->language = Cur().type == TokenType::kString ? Cur().text : ParseColLabel();
      if (Cur().type == TokenType::kString && s->language == Cur().text) Advance();
    } else if (Cur().type == TokenType::kString && !have_code) {
      s->code = Cur().text;
      have_code = true;
      Advance();
    } else {
      SyntaxError();
    }
  }
  if (!have_code) SyntaxError();
  return s;
}

StmtPtr Parser::ParseCall() {
  auto s = std::make_unique<CallStmt>();
  s->location = Loc();
  Advance();  // CALL
  const int loc = Loc();
  std::vector<std::string> name;
  name.push_back(ParseColId());
  while (AcceptOp(".")) name.push_back(ParseColLabel());
  if (!IsOp("(")) SyntaxError();
  ExprPtr call = ParseFuncCall(std::move(name), loc);
  if (call->kind != ExprKind::kFuncCall) SyntaxError();
  s->call.reset(static_cast<FuncCallExpr*>(call.release()));
  return s;
}

StmtPtr Parser::ParseGrantFunction(bool is_grant, bool grant_option, int location) {
  auto s = std::make_unique<GrantFunctionStmt>();
  s->location = location;
  s->is_grant = is_grant;
  s->grant_option = grant_option;
  Advance();  // FUNCTION / PROCEDURE / ROUTINE
  do {
    s->functions.push_back(ParseFunctionRefSpec());
  } while (AcceptOp(","));
  s->grantees = ParseGrantees(is_grant);
  std::string grantor;
  if (ParseGrantTail(is_grant, "grant", &grantor, &s->cascade)) s->grant_option = true;
  return s;
}

}  // namespace hearth::parser
