// server/parser/parse_extension.cpp
//
// CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s] [VERSION v] [CASCADE]
// (DROP EXTENSION is part of ParseDrop).
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::ParseCreateExtension(int location) {
  auto s = std::make_unique<CreateExtensionStmt>();
  s->location = location;
  s->if_not_exists = ParseIfNotExists();
  s->name = ParseColId();
  AcceptKw("with");
  for (;;) {
    if (AcceptKw("schema")) {
      s->schema = ParseColId();
    } else if (AcceptKw("version")) {
      s->version = ParseOptionValue();
    } else if (AcceptKw("cascade")) {
      s->cascade = true;
    } else {
      return s;
    }
  }
}

}  // namespace hearth::parser
