// server/parser/parse_trigger.cpp
//
// Principal entry points: Parser::ParseCreateTrigger, ParseDropTrigger.
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::ParseCreateTrigger(bool or_replace, int location) {
  auto s = std::make_unique<CreateTriggerStmt>();
  s->location = location;
  s->or_replace = or_replace;
  ExpectKw("trigger");
  s->name = ParseColId();
  if (AcceptKw("before")) {
    s->timing = 'b';
  } else if (AcceptKw("after")) {
    s->timing = 'a';
  } else if (AcceptKw("instead")) {
    ExpectKw("of");
    s->timing = 'i';
  } else {
    SyntaxError();
  }
  do {
    if (AcceptKw("insert")) {
      s->on_insert = true;
    } else if (AcceptKw("delete")) {
      s->on_delete = true;
    } else if (AcceptKw("truncate")) {
      s->on_truncate = true;
    } else if (AcceptKw("update")) {
      s->on_update = true;
      if (AcceptKw("of")) {
        do {
          s->update_columns.push_back(ParseColId());
        } while (AcceptOp(","));
      }
    } else {
      SyntaxError();
    }
  } while (AcceptKw("or"));
  ExpectKw("on");
  s->table = ParseQualifiedName();
  if (AcceptKw("referencing")) {
    s->has_transition_tables = true;
    while (IsKw("old") || IsKw("new")) {
      Advance();
      if (!AcceptKw("table")) ExpectKw("row");
      AcceptKw("as");
      ParseColId();
    }
  }
  if (AcceptKw("for")) {
    AcceptKw("each");
    if (AcceptKw("row")) {
      s->for_each_row = true;
    } else {
      ExpectKw("statement");
    }
  }
  if (AcceptKw("when")) {
    ExpectOp("(");
    const int begin = Loc();
    ParseExpr();
    s->when_text = SourceText(begin, toks_[pos_ - 1].end);
    ExpectOp(")");
  }
  ExpectKw("execute");
  if (!AcceptKw("function")) ExpectKw("procedure");
  s->function = ParseQualifiedName();
  ExpectOp("(");
  if (!IsOp(")")) {
    do {
      const Token& t = Cur();
      if (t.type == TokenType::kString || t.type == TokenType::kInteger || t.type == TokenType::kNumeric ||
          t.type == TokenType::kIdent || t.type == TokenType::kQuotedIdent) {
        s->args.push_back(t.text);
        Advance();
      } else {
        SyntaxError();
      }
    } while (AcceptOp(","));
  }
  ExpectOp(")");
  return s;
}

StmtPtr Parser::ParseDropTrigger(int location) {
  auto s = std::make_unique<DropTriggerStmt>();
  s->location = location;
  ExpectKw("trigger");
  s->if_exists = ParseIfExists();
  s->name = ParseColId();
  ExpectKw("on");
  s->table = ParseQualifiedName();
  ParseDropBehavior();
  return s;
}

}  // namespace hearth::parser
