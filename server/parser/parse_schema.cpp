// parser/parse_schema.cpp
//
// Principal entry points: ParseCreateSchema, ParseAlterSchema (CREATE
// SCHEMA and ALTER SCHEMA after their first two words; DROP SCHEMA is a
// DropStmt).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::ParseCreateSchema(int location) {
  auto s = std::make_unique<CreateSchemaStmt>();
  s->location = location;
  s->if_not_exists = ParseIfNotExists();
  if (!IsKw("authorization")) s->name = ParseColId();
  if (AcceptKw("authorization")) s->authorization = ParseRoleSpec();
  if (s->name.empty() && s->authorization.empty()) SyntaxError();
  if (IsKw("create") || IsKw("grant")) {
    throw DbError(sqlstate::kFeatureNotSupported, "CREATE SCHEMA with schema elements is not supported yet");
  }
  return s;
}

StmtPtr Parser::ParseAlterSchema(int location) {
  auto s = std::make_unique<AlterSchemaStmt>();
  s->location = location;
  s->name = ParseColId();
  if (AcceptKw("rename")) {
    ExpectKw("to");
    s->new_name = ParseColId();
  } else if (AcceptKw("owner")) {
    ExpectKw("to");
    s->new_owner = ParseRoleSpec();
  } else {
    SyntaxError();
  }
  return s;
}

}  // namespace hearth::parser
