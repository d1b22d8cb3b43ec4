// parser/parse_view.cpp
//
// Principal entry points: ParseCreateView — CREATE [OR REPLACE] [TEMP] VIEW
// name [(col, ...)] AS query [WITH [CASCADED | LOCAL] CHECK OPTION];
// TryParseAlterViewRename — ALTER VIEW [IF EXISTS] name RENAME TO new (other
// ALTER VIEW forms are left to their own parsers: the position is restored).
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::ParseCreateView(bool or_replace, bool temp, int location) {
  if (AcceptKw("recursive")) {
    ErrorAt(sqlstate::kFeatureNotSupported, "CREATE RECURSIVE VIEW is not supported yet", Loc());
  }
  ExpectKw("view");
  auto s = std::make_unique<CreateViewStmt>();
  s->location = location;
  s->or_replace = or_replace;
  s->temp = temp;
  s->view = ParseQualifiedName();
  if (IsOp("(")) s->column_names = ParseParenNameList();
  if (IsKw("with") && IsOpTok(Peek(1), "(")) {
    const int at = Loc();
    Advance();
    if (!ParseParenOptions().empty()) ErrorAt(sqlstate::kFeatureNotSupported, "view options are not supported yet", at);
  }
  ExpectKw("as");
  const size_t first = pos_;
  std::unique_ptr<SelectStmt> query = ParseSelect();
  query->location = toks_[first].offset;
  query->text = SourceText(toks_[first].offset, toks_[pos_ - 1].end);
  s->query = std::move(query);
  if (IsKw("with") && (PeekKw(1, "check") || PeekKw(1, "cascaded") || PeekKw(1, "local"))) {
    Advance();
    if (AcceptKw("local")) {
      s->check_option = "local";
    } else {
      AcceptKw("cascaded");
      s->check_option = "cascaded";
    }
    ExpectKw("check");
    ExpectKw("option");
  }
  return s;
}

StmtPtr Parser::TryParseAlterViewRename(int location) {
  if (!IsKw("view")) return nullptr;
  const size_t start = pos_;
  Advance();
  auto s = std::make_unique<RenameRelationStmt>();
  s->location = location;
  s->object_type = ObjectType::kView;
  if (IsKw("if") && PeekKw(1, "exists")) s->if_exists = ParseIfExists();
  if (Cur().type != TokenType::kIdent && Cur().type != TokenType::kQuotedIdent) {
    pos_ = start;
    return nullptr;
  }
  s->object = ParseQualifiedName();
  if (!IsKw("rename") || !PeekKw(1, "to")) {
    pos_ = start;
    return nullptr;
  }
  Advance();
  Advance();
  s->new_name = ParseColId();
  return s;
}

}  // namespace hearth::parser
