// server/parser/parse_sequence.cpp
//
// CREATE SEQUENCE, ALTER SEQUENCE and the options of an identity column
// (GENERATED ... AS IDENTITY (options)), as PostgreSQL 15's grammar
// (SeqOptElem): AS type, INCREMENT [BY] n, MINVALUE n | NO MINVALUE,
// MAXVALUE n | NO MAXVALUE, START [WITH] n, RESTART [[WITH] n], CACHE n,
// [NO] CYCLE, OWNED BY t.c | NONE, SEQUENCE NAME n (identity columns only).
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::string Parser::ParseSignedInteger() {
  std::string sign;
  if (AcceptOp("-")) {
    sign = "-";
  } else {
    AcceptOp("+");
  }
  if (Cur().type != TokenType::kInteger && Cur().type != TokenType::kNumeric) SyntaxError();
  std::string out = sign + Cur().text;
  Advance();
  return out;
}

bool Parser::ParseSeqOption(std::vector<SeqOption>& out, bool allow_restart) {
  SeqOption o;
  o.location = Loc();
  auto number = [&] {
    o.value = ParseSignedInteger();
    o.has_value = true;
  };
  if (AcceptKw("as")) {
    o.kind = SeqOptionKind::kAs;
    o.type = ParseTypeName();
  } else if (AcceptKw("increment")) {
    o.kind = SeqOptionKind::kIncrement;
    AcceptKw("by");
    number();
  } else if (AcceptKw("minvalue")) {
    o.kind = SeqOptionKind::kMinValue;
    number();
  } else if (AcceptKw("maxvalue")) {
    o.kind = SeqOptionKind::kMaxValue;
    number();
  } else if (IsKw("no") && (PeekKw(1, "minvalue") || PeekKw(1, "maxvalue") || PeekKw(1, "cycle"))) {
    Advance();
    o.is_no = true;
    o.kind = AcceptKw("minvalue") ? SeqOptionKind::kMinValue
             : AcceptKw("maxvalue") ? SeqOptionKind::kMaxValue
                                    : (Advance(), SeqOptionKind::kCycle);
  } else if (AcceptKw("start")) {
    o.kind = SeqOptionKind::kStart;
    AcceptKw("with");
    number();
  } else if (allow_restart && AcceptKw("restart")) {
    o.kind = SeqOptionKind::kRestart;
    if (AcceptKw("with")) {
      number();
    } else if (Cur().type == TokenType::kInteger || IsOp("-") || IsOp("+")) {
      number();
    }
  } else if (AcceptKw("cache")) {
    o.kind = SeqOptionKind::kCache;
    number();
  } else if (AcceptKw("cycle")) {
    o.kind = SeqOptionKind::kCycle;
  } else if (IsKw("sequence") && PeekKw(1, "name")) {
    Advance();
    Advance();
    o.kind = SeqOptionKind::kSequenceName;
    o.owned_by = ParseAnyName();
  } else if (AcceptKw("owned")) {
    ExpectKw("by");
    o.kind = SeqOptionKind::kOwnedBy;
    if (!AcceptKw("none")) o.owned_by = ParseAnyName();
  } else {
    return false;
  }
  out.push_back(std::move(o));
  return true;
}

std::vector<SeqOption> Parser::ParseSeqOptions(bool allow_restart, bool in_parens) {
  std::vector<SeqOption> out;
  while (ParseSeqOption(out, allow_restart)) {
  }
  if (in_parens && !IsOp(")")) SyntaxError();
  return out;
}

StmtPtr Parser::ParseCreateSequence(bool temp, int location) {
  auto s = std::make_unique<CreateSequenceStmt>();
  s->location = location;
  Advance();  // SEQUENCE
  s->temp = temp;
  s->if_not_exists = ParseIfNotExists();
  s->name = ParseQualifiedName();
  s->options = ParseSeqOptions(/*allow_restart=*/false, /*in_parens=*/false);
  return s;
}

StmtPtr Parser::ParseAlterSequence(int location) {
  auto s = std::make_unique<AlterSequenceStmt>();
  s->location = location;
  Advance();  // SEQUENCE
  s->if_exists = ParseIfExists();
  s->name = ParseQualifiedName();
  s->options = ParseSeqOptions(/*allow_restart=*/true, /*in_parens=*/false);
  if (s->options.empty()) SyntaxError();
  return s;
}

void Parser::ParseIdentityConstraint(Constraint& c) {
  Advance();  // GENERATED
  c.kind = ConstraintKind::kIdentity;
  if (AcceptKw("always")) {
    c.identity = 'a';
  } else {
    ExpectKw("by");
    ExpectKw("default");
    c.identity = 'd';
  }
  ExpectKw("as");
  if (IsOp("(")) ErrorAt(sqlstate::kFeatureNotSupported, "generated columns are not supported yet", Loc());
  ExpectKw("identity");
  if (AcceptOp("(")) {
    for (;;) {
      if (!ParseSeqOption(c.seq_options, /*allow_restart=*/false)) break;
    }
    if (!IsOp(")")) SyntaxError();
    ExpectOp(")");
  }
}

}  // namespace hearth::parser
