// parser/parse_rename.cpp
//
// ALTER INDEX | SEQUENCE [IF EXISTS] name RENAME TO new_name, parsed as an
// AlterTableStmt whose object_type names the command and whose one action
// is kRenameTable (ALTER TABLE ... RENAME TO is parsed with the table's
// other actions, parse_ddl.cpp).
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::TryParseAlterRename(int location) {
  ObjectType type;
  if (IsKw("index")) {
    type = ObjectType::kIndex;
  } else if (IsKw("sequence")) {
    type = ObjectType::kSequence;
  } else {
    return nullptr;
  }
  const size_t start = pos_;
  Advance();
  auto s = std::make_unique<AlterTableStmt>();
  s->location = location;
  s->object_type = type;
  if (IsKw("if") && PeekKw(1, "exists")) s->if_exists = ParseIfExists();
  if (Cur().type != TokenType::kIdent && Cur().type != TokenType::kQuotedIdent) {
    pos_ = start;
    return nullptr;
  }
  s->table = ParseQualifiedName();
  if (!IsKw("rename")) {
    pos_ = start;
    return nullptr;
  }
  AlterTableCmd c;
  c.location = Loc();
  Advance();  // RENAME
  ExpectKw("to");
  c.kind = AlterTableCmdKind::kRenameTable;
  c.new_name = ParseColId();
  s->cmds.push_back(std::move(c));
  return s;
}

}  // namespace hearth::parser
