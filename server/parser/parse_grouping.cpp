// server/parser/parse_grouping.cpp
//
// GROUP BY lists with grouping sets. Each item yields a list of sets; the
// item lists are combined by cartesian product (GROUP BY a, ROLLUP (b, c)
// = (a, b, c), (a, b), (a)). ROLLUP (e1, ..., en) → the n+1 prefixes,
// longest first; CUBE (e1, ..., en) → all 2^n subsets, from all to none
// (first element most significant); GROUPING SETS (...) → its items' sets
// in order; () → the empty set. A ROLLUP/CUBE element or a GROUPING SETS
// item in parentheses is a list grouped together. A plain list of
// expressions sets no grouping sets.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::vector<int> Parser::ParseGroupingElement(SelectStmt& s) {
  std::vector<int> set;
  if (IsOp("(")) {
    // `(a, b)` or `()` is a list; `(a)` or `(a) + 1` an expression.
    const size_t save = pos_;
    Advance();
    if (AcceptOp(")")) return set;
    std::vector<ExprPtr> list = ParseExprList();
    if (list.size() > 1 && AcceptOp(")")) {
      for (ExprPtr& e : list) {
        set.push_back(static_cast<int>(s.group_by.size()));
        s.group_by.push_back(std::move(e));
      }
      return set;
    }
    pos_ = save;
  }
  set.push_back(static_cast<int>(s.group_by.size()));
  s.group_by.push_back(ParseExpr());
  return set;
}

Parser::GroupingSets Parser::ParseGroupingItem(SelectStmt& s, bool* special) {
  GroupingSets out;
  const bool rollup = IsKw("rollup") && IsOpTok(Peek(1), "(");
  const bool cube = IsKw("cube") && IsOpTok(Peek(1), "(");
  if (rollup || cube) {
    *special = true;
    Advance();
    ExpectOp("(");
    std::vector<std::vector<int>> elems;
    do elems.push_back(ParseGroupingElement(s));
    while (AcceptOp(","));
    ExpectOp(")");
    const size_t n = elems.size();
    if (rollup) {
      for (size_t len = n + 1; len-- > 0;) {
        std::vector<int> set;
        for (size_t i = 0; i < len; ++i) set.insert(set.end(), elems[i].begin(), elems[i].end());
        out.push_back(std::move(set));
      }
      return out;
    }
    if (n > 12) ErrorAt(sqlstate::kProgramLimitExceeded, "CUBE is limited to 12 elements", Loc());
    for (size_t mask = (size_t{1} << n); mask-- > 0;) {
      std::vector<int> set;
      for (size_t i = 0; i < n; ++i) {
        if (mask & (size_t{1} << (n - 1 - i))) set.insert(set.end(), elems[i].begin(), elems[i].end());
      }
      out.push_back(std::move(set));
    }
    return out;
  }
  if (IsKw("grouping") && PeekKw(1, "sets")) {
    *special = true;
    Advance();
    Advance();
    ExpectOp("(");
    do {
      GroupingSets sub = ParseGroupingItem(s, special);
      out.insert(out.end(), sub.begin(), sub.end());
    } while (AcceptOp(","));
    ExpectOp(")");
    return out;
  }
  if (IsOp("(") && IsOpTok(Peek(1), ")")) *special = true;
  std::vector<int> set = ParseGroupingElement(s);
  if (set.size() != 1) *special = true;
  out.push_back(std::move(set));
  return out;
}

void Parser::ParseGroupByList(SelectStmt& s) {
  bool special = false;
  GroupingSets product{{}};
  do {
    GroupingSets item = ParseGroupingItem(s, &special);
    GroupingSets next;
    for (const auto& a : product) {
      for (const auto& b : item) {
        std::vector<int> set = a;
        set.insert(set.end(), b.begin(), b.end());
        next.push_back(std::move(set));
      }
    }
    product = std::move(next);
    if (product.size() > 4096) ErrorAt(sqlstate::kProgramLimitExceeded, "too many grouping sets present (maximum 4096)", Loc());
  } while (AcceptOp(","));
  if (!special) return;
  s.has_grouping_sets = true;
  s.grouping_sets = std::move(product);
}

}  // namespace hearth::parser
