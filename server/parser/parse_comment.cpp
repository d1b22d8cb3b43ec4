// parser/parse_comment.cpp
//
// Principal entry point: ParseComment — COMMENT ON {TABLE | INDEX | VIEW |
// SEQUENCE} name, COLUMN rel.col, CONSTRAINT c ON t, {FUNCTION | PROCEDURE
// | ROUTINE} f[(types)], {SCHEMA | ROLE | DATABASE} name, then IS 'text' |
// NULL (PostgreSQL 15's grammar for these objects; others are 0A000).
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

namespace {

struct CommentKeyword {
  const char* word;
  CommentObject object;
};
const CommentKeyword kCommentKeywords[] = {
    {"table", CommentObject::kTable},         {"index", CommentObject::kIndex},
    {"view", CommentObject::kView},           {"sequence", CommentObject::kSequence},
    {"column", CommentObject::kColumn},       {"constraint", CommentObject::kConstraint},
    {"function", CommentObject::kFunction},   {"procedure", CommentObject::kProcedure},
    {"routine", CommentObject::kFunction},    {"schema", CommentObject::kSchema},
    {"role", CommentObject::kRole},           {"database", CommentObject::kDatabase},
};

}  // namespace

StmtPtr Parser::ParseComment() {
  auto s = std::make_unique<CommentStmt>();
  s->location = Loc();
  ExpectKw("comment");
  ExpectKw("on");
  const CommentKeyword* kw = nullptr;
  for (const CommentKeyword& k : kCommentKeywords) {
    if (IsKw(k.word)) kw = &k;
  }
  if (kw == nullptr) {
    if (Cur().type != TokenType::kIdent) SyntaxError();
    ErrorAt(sqlstate::kFeatureNotSupported, "COMMENT ON " + Cur().text + " is not supported yet", Loc());
  }
  s->object = kw->object;
  Advance();
  switch (s->object) {
    case CommentObject::kColumn:
      // Checked when the statement runs, as PostgreSQL (no position).
      s->column_path = ParseAnyName();
      break;
    case CommentObject::kConstraint:
      s->name = ParseColId();
      ExpectKw("on");
      if (IsKw("domain")) ErrorAt(sqlstate::kFeatureNotSupported, "domains are not supported yet", Loc());
      s->relation = ParseQualifiedName();
      break;
    case CommentObject::kFunction:
    case CommentObject::kProcedure:
      s->function = ParseFunctionRefSpec();
      break;
    case CommentObject::kSchema:
    case CommentObject::kRole:
    case CommentObject::kDatabase:
      s->name = ParseColId();
      break;
    default:
      s->relation = ParseQualifiedName();
      break;
  }
  ExpectKw("is");
  if (AcceptKw("null")) return s;
  if (Cur().type != TokenType::kString) SyntaxError();
  s->comment = Cur().text;
  Advance();
  return s;
}

}  // namespace hearth::parser
