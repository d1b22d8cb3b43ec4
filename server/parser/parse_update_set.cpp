// server/parser/parse_update_set.cpp
//
// Principal entry points: Parser::ParseSetList (the SET list of UPDATE and
// ON CONFLICT DO UPDATE), Parser::ParseMultiColumnSet — UPDATE's
// `SET (a, b, ...) = (expr, ...)`, `= ROW(...)` and `= (SELECT ...)`.
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

void Parser::ParseSetList(std::vector<SetClause>& out) {
  do {
    SetClause sc;
    sc.location = Loc();
    if (IsOp("(")) {
      ParseMultiColumnSet(out);
      continue;
    }
    sc.column = ParseColId();
    while (IsOp("[")) sc.subscripts.push_back(ParseSubscript(nullptr));
    ExpectOp("=");
    sc.value = ParseExpr();
    out.push_back(std::move(sc));
  } while (AcceptOp(","));
}

void Parser::ParseMultiColumnSet(std::vector<SetClause>& out) {
  ExpectOp("(");
  std::vector<std::string> cols;
  std::vector<int> locs;
  do {
    locs.push_back(Loc());
    cols.push_back(ParseColId());
  } while (AcceptOp(","));
  ExpectOp(")");
  ExpectOp("=");
  const int vloc = Loc();
  ExprPtr value = ParseExpr();
  if (value->kind == ExprKind::kRow) {
    auto& items = value->As<RowExpr>().items;
    if (items.size() != cols.size()) {
      ErrorAt(sqlstate::kSyntaxError, "number of columns does not match number of values", vloc);
    }
    for (size_t i = 0; i < cols.size(); ++i) {
      SetClause sc;
      sc.column = cols[i];
      sc.location = locs[i];
      sc.value = std::move(items[i]);
      out.push_back(std::move(sc));
    }
    return;
  }
  if (value->kind != ExprKind::kSubLink || value->As<SubLinkExpr>().sublink_kind != SubLinkKind::kExpr) {
    ErrorAt(sqlstate::kSyntaxError, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression",
            vloc);
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    SetClause sc;
    sc.column = cols[i];
    sc.location = locs[i];
    sc.multi_index = static_cast<int>(i);
    if (i == 0) sc.value = std::move(value);
    out.push_back(std::move(sc));
  }
}

}  // namespace hearth::parser
