// server/parser/parse_partition.cpp
//
// Principal entry points: ParsePartitionSpec, ParsePartitionBoundSpec,
// ParsePartitionOf — PostgreSQL's PARTITION BY, FOR VALUES ... / DEFAULT
// and CREATE TABLE ... PARTITION OF grammar.
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::shared_ptr<PartitionSpec> Parser::ParsePartitionSpec() {
  auto spec = std::make_shared<PartitionSpec>();
  ExpectKw("partition");
  ExpectKw("by");
  spec->location = Loc();
  if (!IsKw("range") && !IsKw("list") && !IsKw("hash")) {
    ErrorAt(sqlstate::kInvalidParameterValue, "unrecognized partitioning strategy \"" + Cur().text + "\"", Loc());
  }
  spec->strategy = Cur().text;
  Advance();
  ExpectOp("(");
  do {
    IndexElem e;
    e.location = Loc();
    if (IsOp("(")) {
      Advance();
      e.expr = ParseExpr();
      ExpectOp(")");
    } else if (IsColId(Cur()) && (IsOpTok(Peek(1), ",") || IsOpTok(Peek(1), ")"))) {
      e.column = ParseColId();
    } else {
      e.expr = ParseExpr();
    }
    spec->keys.push_back(std::move(e));
  } while (AcceptOp(","));
  ExpectOp(")");
  return spec;
}

std::shared_ptr<PartitionBoundSpec> Parser::ParsePartitionBoundSpec() {
  auto b = std::make_shared<PartitionBoundSpec>();
  b->location = Loc();
  if (AcceptKw("default")) {
    b->strategy = 'd';
    return b;
  }
  ExpectKw("for");
  ExpectKw("values");
  b->location = Loc();
  auto expr_list = [this](std::vector<ExprPtr>& out) {
    ExpectOp("(");
    do out.push_back(ParseExpr()); while (AcceptOp(","));
    ExpectOp(")");
  };
  if (AcceptKw("in")) {
    b->strategy = 'l';
    expr_list(b->in_values);
  } else if (AcceptKw("from")) {
    b->strategy = 'r';
    expr_list(b->from);
    ExpectKw("to");
    expr_list(b->to);
  } else {
    ExpectKw("with");
    b->strategy = 'h';
    ExpectOp("(");
    for (int i = 0; i < 2; ++i) {
      if (i > 0) ExpectOp(",");
      const bool modulus = AcceptKw("modulus");
      if (!modulus) ExpectKw("remainder");
      const int64_t v = std::stoll(ParseSignedInteger());
      (modulus ? b->modulus : b->remainder) = v;
    }
    ExpectOp(")");
  }
  return b;
}

void Parser::ParsePartitionOf(CreateTableStmt& s) {
  ExpectKw("partition");
  ExpectKw("of");
  s.inherits.push_back(ParseQualifiedName());
  if (AcceptOp("(")) {  // constraints only (column options are not supported yet)
    do s.constraints.push_back(ParseTableConstraint()); while (AcceptOp(","));
    ExpectOp(")");
  }
  s.partition_of = ParsePartitionBoundSpec();
  if (IsKw("partition") && PeekKw(1, "by")) s.partition_by = ParsePartitionSpec();
}

}  // namespace hearth::parser
