// server/parser/parse_dml.cpp
//
// INSERT, UPDATE, DELETE and COPY.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {
namespace {

GenericOption MakeOption(std::string name, int location) {
  GenericOption o;
  o.name = std::move(name);
  o.location = location;
  return o;
}

GenericOption MakeOption(std::string name, std::string value, int location) {
  GenericOption o = MakeOption(std::move(name), location);
  o.value = std::move(value);
  o.has_value = true;
  return o;
}

}  // namespace

// [AS] alias after the target table of UPDATE / DELETE. A bare SET is the
// start of UPDATE's SET clause, never an alias.
std::string Parser::ParseDmlAlias() {
  if (AcceptKw("as")) return ParseColId();
  if (IsBareLabel(Cur()) && !IsKw("set")) {
    std::string a = Cur().text;
    Advance();
    return a;
  }
  return {};
}

StmtPtr Parser::ParseInsert(std::vector<CommonTableExpr> with) {
  auto s = std::make_unique<InsertStmt>();
  s->location = Loc();
  s->with = std::move(with);
  Advance();  // INSERT
  ExpectKw("into");
  s->table = ParseQualifiedName();
  if (AcceptKw("as")) s->alias = ParseColId();
  if (IsOp("(") && !StartsSelect(1) && !IsOpTok(Peek(1), "(")) {
    // ( col [ [i] ... ], ... ): like a name list, each name may be subscripted.
    ExpectOp("(");
    do {
      s->column_locations.push_back(Loc());
      s->columns.push_back(ParseColId());
      std::vector<ExprPtr> subs;
      while (IsOp("[")) subs.push_back(ParseSubscript(nullptr));
      s->column_subscripts.push_back(std::move(subs));
    } while (AcceptOp(","));
    ExpectOp(")");
  }
  if (AcceptKw("overriding")) {
    if (AcceptKw("system")) {
      s->overriding = 's';
    } else {
      ExpectKw("user");
      s->overriding = 'u';
    }
    ExpectKw("value");
  }
  if (IsKw("default") && PeekKw(1, "values")) {
    Advance();
    Advance();
    s->default_values = true;
  } else {
    s->source = ParseSelect();
  }
  if (IsKw("on") && PeekKw(1, "conflict")) s->on_conflict = ParseOnConflict();
  s->returning = ParseReturning();
  return s;
}

StmtPtr Parser::ParseUpdate(std::vector<CommonTableExpr> with) {
  auto s = std::make_unique<UpdateStmt>();
  s->location = Loc();
  s->with = std::move(with);
  Advance();  // UPDATE
  bool only = AcceptKw("only");
  s->table = ParseQualifiedName();
  s->table.inh = !only;
  AcceptOp("*");
  s->alias = ParseDmlAlias();
  ExpectKw("set");
  ParseSetList(s->set);
  if (AcceptKw("from")) s->from = ParseFromList();
  if (AcceptKw("where")) {
    if (IsKw("current") && PeekKw(1, "of")) {
      ErrorAt(sqlstate::kFeatureNotSupported, "WHERE CURRENT OF is not supported yet", Loc());
    }
    s->where = ParseExpr();
  }
  s->returning = ParseReturning();
  return s;
}

StmtPtr Parser::ParseDelete(std::vector<CommonTableExpr> with) {
  auto s = std::make_unique<DeleteStmt>();
  s->location = Loc();
  s->with = std::move(with);
  Advance();  // DELETE
  ExpectKw("from");
  bool only = AcceptKw("only");
  s->table = ParseQualifiedName();
  s->table.inh = !only;
  AcceptOp("*");
  s->alias = ParseDmlAlias();
  if (AcceptKw("using")) s->using_items = ParseFromList();
  if (AcceptKw("where")) {
    if (IsKw("current") && PeekKw(1, "of")) {
      ErrorAt(sqlstate::kFeatureNotSupported, "WHERE CURRENT OF is not supported yet", Loc());
    }
    s->where = ParseExpr();
  }
  s->returning = ParseReturning();
  return s;
}

StmtPtr Parser::ParseCopy() {
  auto s = std::make_unique<CopyStmt>();
  s->location = Loc();
  Advance();  // COPY
  int binary_loc = Loc();
  bool binary_first = AcceptKw("binary");
  if (IsOp("(")) {
    Advance();
    s->query = ParsePreparable();
    ExpectOp(")");
  } else {
    s->table = ParseQualifiedName();
    if (IsOp("(")) s->columns = ParseParenNameList();
  }
  const Token& dir = Cur();
  if (AcceptKw("from")) {
    s->is_from = true;
    if (s->query) SyntaxErrorAt(dir);
  } else {
    ExpectKw("to");
  }
  if (AcceptKw("program")) s->is_program = true;
  if (!s->is_program && (IsKw("stdin") || IsKw("stdout"))) {
    Advance();
  } else if (Cur().type == TokenType::kString) {
    s->filename = Cur().text;
    Advance();
  } else {
    SyntaxError();
  }
  if (binary_first) s->options.push_back(MakeOption("format", "binary", binary_loc));
  if (AcceptKw("using")) ExpectKw("delimiters");
  if (IsKw("delimiters")) {
    int loc = Loc();
    Advance();
    if (Cur().type != TokenType::kString) SyntaxError();
    s->options.push_back(MakeOption("delimiter", Cur().text, loc));
    Advance();
  }
  AcceptKw("with");
  if (IsOp("(")) {
    for (GenericOption& o : ParseParenOptions()) s->options.push_back(std::move(o));
  } else {
    ParseCopyLegacyOptions(s->options);
  }
  if (AcceptKw("where")) s->where = ParseExpr();
  return s;
}

// Pre-9.0 COPY options: BINARY, FREEZE, CSV, HEADER, DELIMITER [AS] 'x',
// NULL [AS] 'x', QUOTE [AS] 'x', ESCAPE [AS] 'x', ENCODING 'x',
// FORCE QUOTE {* | cols}, FORCE NOT NULL cols, FORCE NULL cols, OIDS.
void Parser::ParseCopyLegacyOptions(std::vector<GenericOption>& out) {
  auto string_arg = [this](const char* name, int loc, std::vector<GenericOption>& o) {
    AcceptKw("as");
    if (Cur().type != TokenType::kString) SyntaxError();
    o.push_back(MakeOption(name, Cur().text, loc));
    Advance();
  };
  auto column_list = [this]() {
    std::string cols;
    do {
      if (!cols.empty()) cols += ',';
      cols += ParseColId();
    } while (AcceptOp(","));
    return cols;
  };
  for (;;) {
    int loc = Loc();
    if (AcceptKw("binary")) {
      out.push_back(MakeOption("format", "binary", loc));
    } else if (AcceptKw("csv")) {
      out.push_back(MakeOption("format", "csv", loc));
    } else if (AcceptKw("freeze")) {
      out.push_back(MakeOption("freeze", loc));
    } else if (AcceptKw("header")) {
      out.push_back(MakeOption("header", loc));
    } else if (AcceptKw("oids")) {
      out.push_back(MakeOption("oids", loc));
    } else if (AcceptKw("delimiter")) {
      string_arg("delimiter", loc, out);
    } else if (AcceptKw("null")) {
      string_arg("null", loc, out);
    } else if (AcceptKw("quote")) {
      string_arg("quote", loc, out);
    } else if (AcceptKw("escape")) {
      string_arg("escape", loc, out);
    } else if (AcceptKw("encoding")) {
      string_arg("encoding", loc, out);
    } else if (AcceptKw("force")) {
      if (AcceptKw("quote")) {
        out.push_back(MakeOption("force_quote", AcceptOp("*") ? "*" : column_list(), loc));
      } else if (AcceptKw("not")) {
        ExpectKw("null");
        out.push_back(MakeOption("force_not_null", column_list(), loc));
      } else {
        ExpectKw("null");
        out.push_back(MakeOption("force_null", column_list(), loc));
      }
    } else {
      return;
    }
  }
}

}  // namespace hearth::parser
