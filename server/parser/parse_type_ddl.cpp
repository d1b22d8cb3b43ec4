// server/parser/parse_type_ddl.cpp
//
// Principal entry points: Parser::ParseCreateType (CREATE TYPE name AS
// ENUM), ParseCreateDomain, ParseAlterType (ALTER TYPE and ALTER DOMAIN),
// ParseDropType (DROP TYPE / DROP DOMAIN).
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::string Parser::ParseStringLiteral() {
  if (Cur().type != TokenType::kString) SyntaxError();
  std::string s = Cur().text;
  Advance();
  return s;
}

StmtPtr Parser::ParseCreateType(int location) {
  Advance();  // TYPE
  RangeVar name = ParseQualifiedName();
  ExpectKw("as");
  if (IsOp("(")) {
    ErrorAt(sqlstate::kFeatureNotSupported, "composite types are not supported yet", location);
  }
  if (!AcceptKw("enum")) {
    ErrorAt(sqlstate::kFeatureNotSupported, "only enum types can be created with CREATE TYPE yet", location);
  }
  auto s = std::make_unique<CreateEnumStmt>();
  s->location = location;
  s->name = std::move(name);
  ExpectOp("(");
  if (!IsOp(")")) {
    do {
      s->labels.push_back(ParseStringLiteral());
    } while (AcceptOp(","));
  }
  ExpectOp(")");
  return s;
}

DomainConstraint Parser::ParseDomainConstraint() {
  DomainConstraint c;
  c.location = Loc();
  if (AcceptKw("constraint")) c.name = ParseColId();
  if (AcceptKw("not")) {
    ExpectKw("null");
    c.kind = 'n';
  } else if (AcceptKw("null")) {
    c.kind = 'u';
  } else if (AcceptKw("check")) {
    ExpectOp("(");
    c.check = ParseExpr();
    ExpectOp(")");
    c.kind = 'c';
  } else {
    SyntaxError();
  }
  return c;
}

StmtPtr Parser::ParseCreateDomain(int location) {
  Advance();  // DOMAIN
  auto s = std::make_unique<CreateDomainStmt>();
  s->location = location;
  s->name = ParseQualifiedName();
  AcceptKw("as");
  s->base = ParseTypeName();
  for (;;) {
    if (AcceptKw("default")) {
      s->default_expr = ParseExpr();
    } else if (AcceptKw("collate")) {
      ParseAnyName();
    } else if (IsKw("constraint") || IsKw("not") || IsKw("null") || IsKw("check")) {
      s->constraints.push_back(ParseDomainConstraint());
    } else {
      break;
    }
  }
  return s;
}

StmtPtr Parser::ParseAlterType(int location) {
  auto s = std::make_unique<AlterTypeStmt>();
  s->location = location;
  s->is_domain = IsKw("domain");
  Advance();  // TYPE / DOMAIN
  s->name = ParseQualifiedName();
  using A = AlterTypeAction;
  if (AcceptKw("owner")) {
    ExpectKw("to");
    s->action = A::kOwner;
    s->value = ParseRoleSpec();
  } else if (AcceptKw("rename")) {
    if (!s->is_domain && AcceptKw("value")) {
      s->action = A::kRenameValue;
      s->value = ParseStringLiteral();
      ExpectKw("to");
      s->new_value = ParseStringLiteral();
    } else if (s->is_domain && AcceptKw("constraint")) {
      ErrorAt(sqlstate::kFeatureNotSupported, "ALTER DOMAIN ... RENAME CONSTRAINT is not supported yet", location);
    } else {
      ExpectKw("to");
      s->action = A::kRename;
      s->value = ParseColId();
    }
  } else if (IsKw("set") && PeekKw(1, "schema")) {
    Advance();
    Advance();
    s->action = A::kSetSchema;
    s->value = ParseColId();
  } else if (!s->is_domain && AcceptKw("add")) {
    ExpectKw("value");
    s->action = A::kAddValue;
    s->if_not_exists = ParseIfNotExists();
    s->value = ParseStringLiteral();
    if (IsKw("before") || IsKw("after")) {
      s->before = IsKw("before");
      Advance();
      s->neighbor = ParseStringLiteral();
    }
  } else if (s->is_domain && AcceptKw("add")) {
    s->action = A::kAddConstraint;
    s->constraint = ParseDomainConstraint();
    if (AcceptKw("not")) {
      ExpectKw("valid");
      s->not_valid = true;
    }
  } else if (s->is_domain && AcceptKw("set")) {
    if (AcceptKw("default")) {
      s->action = A::kSetDefault;
      s->default_expr = ParseExpr();
    } else {
      ExpectKw("not");
      ExpectKw("null");
      s->action = A::kSetNotNull;
    }
  } else if (s->is_domain && AcceptKw("drop")) {
    if (AcceptKw("default")) {
      s->action = A::kDropDefault;
    } else if (AcceptKw("not")) {
      ExpectKw("null");
      s->action = A::kDropNotNull;
    } else {
      ExpectKw("constraint");
      s->action = A::kDropConstraint;
      s->if_exists = ParseIfExists();
      s->value = ParseColId();
      ParseDropBehavior();
    }
  } else if (s->is_domain && AcceptKw("validate")) {
    ExpectKw("constraint");
    s->action = A::kValidateConstraint;
    s->value = ParseColId();
  } else {
    SyntaxError();
  }
  return s;
}

StmtPtr Parser::ParseDropType(int location) {
  auto s = std::make_unique<DropTypeStmt>();
  s->location = location;
  s->is_domain = IsKw("domain");
  Advance();  // TYPE / DOMAIN
  s->if_exists = ParseIfExists();
  s->names = ParseQualifiedNameList();
  s->behavior = ParseDropBehavior();
  return s;
}

}  // namespace hearth::parser
