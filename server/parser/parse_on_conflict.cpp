// server/parser/parse_on_conflict.cpp
//
// Principal entry point: Parser::ParseOnConflict — INSERT's
//   ON CONFLICT [ ( elem [, ...] ) [WHERE pred] | ON CONSTRAINT name ]
//     DO NOTHING | DO UPDATE SET ... [WHERE cond]
// where elem is a column, a function call or ( expr ), each with an
// optional COLLATE, operator class and ordering (accepted, not recorded:
// PostgreSQL only uses them to narrow the indexes that may arbitrate).
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::unique_ptr<OnConflictClause> Parser::ParseOnConflict() {
  auto oc = std::make_unique<OnConflictClause>();
  oc->location = Loc();
  Advance();  // ON
  Advance();  // CONFLICT
  if (AcceptOp("(")) {
    do {
      oc->target.push_back(ParseExpr());  // COLLATE is part of the expression
      // An operator class name, then [ASC | DESC] [NULLS {FIRST | LAST}].
      if (Cur().type == TokenType::kIdent && !IsKw("asc") && !IsKw("desc") && !IsKw("nulls")) Advance();
      if (!AcceptKw("asc")) AcceptKw("desc");
      if (AcceptKw("nulls") && !AcceptKw("first")) ExpectKw("last");
    } while (AcceptOp(","));
    ExpectOp(")");
    if (AcceptKw("where")) oc->target_where = ParseExpr();
  } else if (IsKw("on")) {
    Advance();
    ExpectKw("constraint");
    oc->constraint_location = Loc();
    oc->constraint = ParseColId();
  }
  ExpectKw("do");
  if (AcceptKw("nothing")) return oc;
  ExpectKw("update");
  oc->action = OnConflictAction::kUpdate;
  ExpectKw("set");
  ParseSetList(oc->set);
  if (AcceptKw("where")) oc->where = ParseExpr();
  return oc;
}

}  // namespace hearth::parser
