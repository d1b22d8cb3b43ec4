// parser/parse_database.cpp
//
// Principal entry points: ParseAlterDatabase, ParseGrantOnDatabaseOrSchema
// (ALTER DATABASE and GRANT/REVOKE ... ON DATABASE | SCHEMA).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::ParseAlterDatabase(int location) {
  auto s = std::make_unique<AlterDatabaseStmt>();
  s->location = location;
  s->name = ParseColId();
  if (AcceptKw("rename")) {
    ExpectKw("to");
    s->new_name = ParseColId();
  } else if (AcceptKw("owner")) {
    ExpectKw("to");
    s->new_owner = ParseRoleSpec();
  } else if (AcceptKw("set")) {
    if (IsKw("tablespace")) SyntaxError();
    s->set_name = ParseColId();
    while (AcceptOp(".")) s->set_name += "." + ParseColId();
    if (AcceptKw("from")) {
      ExpectKw("current");
      throw DbError(sqlstate::kFeatureNotSupported, "ALTER DATABASE ... SET ... FROM CURRENT is not supported yet");
    }
    if (!AcceptKw("to")) ExpectOp("=");
    std::string value = ParseOptionValue();
    while (AcceptOp(",")) value += ", " + ParseOptionValue();
    s->set_value = value;
  } else if (AcceptKw("reset")) {
    s->set_name = AcceptKw("all") ? "all" : ParseColId();
  } else {
    AcceptKw("with");
    while (Cur().type == TokenType::kIdent) {
      const int loc = Loc();
      std::string name = Cur().text;
      Advance();
      if (name == "connection") {
        ExpectKw("limit");
        name = "connection_limit";
      }
      AcceptOp("=");
      s->options.push_back(GenericOption{name, ParseOptionValue(), true, loc});
    }
    if (s->options.empty()) SyntaxError();
  }
  return s;
}

void Parser::ParseGrantOnDatabaseOrSchema(GrantPrivStmt& s, bool is_grant) {
  if (AcceptKw("database")) {
    s.object_kind = "database";
  } else {
    ExpectKw("schema");
    s.object_kind = "schema";
  }
  do {
    RangeVar rv;
    rv.location = Loc();
    rv.name = ParseColId();
    s.tables.push_back(std::move(rv));
  } while (AcceptOp(","));
  s.grantees = ParseGrantees(is_grant);
  std::string grantor;
  if (ParseGrantTail(is_grant, "grant", &grantor, &s.cascade)) s.grant_option = true;
}

}  // namespace hearth::parser
