// parser/parse_owner.cpp
//
// Principal entry points: TryParseAlterOwner — ALTER {TABLE | SEQUENCE |
// INDEX | VIEW} [IF EXISTS] [ONLY] name OWNER TO role (other ALTER forms
// are left to their own parsers: the position is restored); ParseOwned —
// REASSIGN OWNED / DROP OWNED.
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::TryParseAlterOwner(int location) {
  ObjectType type;
  if (IsKw("table")) {
    type = ObjectType::kTable;
  } else if (IsKw("sequence")) {
    type = ObjectType::kSequence;
  } else if (IsKw("index")) {
    type = ObjectType::kIndex;
  } else if (IsKw("view")) {
    type = ObjectType::kView;
  } else {
    return nullptr;
  }
  const size_t start = pos_;
  Advance();
  auto s = std::make_unique<AlterOwnerStmt>();
  s->location = location;
  s->object_type = type;
  if (IsKw("if") && PeekKw(1, "exists")) s->if_exists = ParseIfExists();
  if (type == ObjectType::kTable) AcceptKw("only");
  if (Cur().type != TokenType::kIdent && Cur().type != TokenType::kQuotedIdent) {
    pos_ = start;
    return nullptr;
  }
  s->object = ParseQualifiedName();
  if (type == ObjectType::kTable) AcceptOp("*");
  if (!IsKw("owner") || !PeekKw(1, "to")) {
    pos_ = start;
    return nullptr;
  }
  Advance();
  Advance();
  s->new_owner = ParseRoleSpec();
  if (IsOp(",")) {
    ErrorAt(sqlstate::kFeatureNotSupported, "OWNER TO combined with other ALTER TABLE actions is not supported yet",
            Loc());
  }
  return s;
}

// REASSIGN OWNED BY a, b TO c | DROP OWNED BY a, b [CASCADE | RESTRICT]
StmtPtr Parser::ParseOwned() {
  auto s = std::make_unique<OwnedStmt>();
  s->location = Loc();
  s->is_drop = IsKw("drop");
  Advance();
  ExpectKw("owned");
  ExpectKw("by");
  do {
    s->roles.push_back(ParseRoleSpec());
  } while (AcceptOp(","));
  if (s->is_drop) {
    s->cascade = AcceptKw("cascade");
    if (!s->cascade) AcceptKw("restrict");
  } else {
    ExpectKw("to");
    s->new_owner = ParseRoleSpec();
  }
  return s;
}

}  // namespace hearth::parser
