// parser/parse_default_privileges.cpp
//
// Principal entry point: ParseAlterDefaultPrivileges — PostgreSQL 15's
// ALTER DEFAULT PRIVILEGES [FOR ROLE|USER r, ...] [IN SCHEMA s, ...]
// GRANT / REVOKE ... ON TABLES | SEQUENCES | FUNCTIONS | ROUTINES | TYPES |
// SCHEMAS. Which privileges fit which kind is checked when it runs.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

namespace {

// defaclobjtype of the ON target, or '\0'.
char DefaultAclObjtype(const Token& t) {
  struct Target {
    const char* keyword;
    char objtype;
  };
  static constexpr Target kTargets[] = {{"tables", 'r'},    {"sequences", 'S'}, {"functions", 'f'},
                                        {"routines", 'f'}, {"types", 'T'},     {"schemas", 'n'}};
  for (const Target& target : kTargets) {
    if (t.type == TokenType::kIdent && t.text == target.keyword) return target.objtype;
  }
  return '\0';
}

}  // namespace

StmtPtr Parser::ParseAlterDefaultPrivileges(int location) {
  auto s = std::make_unique<AlterDefaultPrivilegesStmt>();
  s->location = location;
  ExpectKw("default");
  ExpectKw("privileges");
  bool saw_roles = false;
  bool saw_schemas = false;
  auto conflicting = [&](bool seen, int loc) {
    if (seen) ErrorAt(sqlstate::kSyntaxError, "conflicting or redundant options", loc);
  };
  for (;;) {
    const int loc = Loc();
    if (AcceptKw("for")) {
      if (!AcceptKw("role")) ExpectKw("user");
      conflicting(saw_roles, loc);
      saw_roles = true;
      do {
        s->roles.push_back(ParseRoleSpec());
      } while (AcceptOp(","));
    } else if (AcceptKw("in")) {
      ExpectKw("schema");
      conflicting(saw_schemas, loc);
      saw_schemas = true;
      do {
        s->schemas.push_back(ParseColId());
      } while (AcceptOp(","));
    } else {
      break;
    }
  }
  if (AcceptKw("revoke")) {
    s->is_grant = false;
    if (IsKw("grant") && PeekKw(1, "option")) {
      Advance();
      Advance();
      ExpectKw("for");
      s->grant_option = true;
    }
  } else {
    ExpectKw("grant");
  }
  if (AcceptKw("all")) {
    AcceptKw("privileges");
    s->privileges.push_back("all");
  } else {
    do {
      if (Cur().type != TokenType::kIdent) SyntaxError();
      s->privileges.push_back(Cur().text);
      Advance();
    } while (AcceptOp(","));
  }
  ExpectKw("on");
  s->objtype = DefaultAclObjtype(Cur());
  if (s->objtype == '\0') SyntaxError();
  Advance();
  s->grantees = ParseGrantees(s->is_grant);
  std::string grantor;
  if (ParseGrantTail(s->is_grant, "grant", &grantor, &s->cascade)) s->grant_option = true;
  return s;
}

}  // namespace hearth::parser
