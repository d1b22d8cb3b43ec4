// server/parser/parse_window.cpp
//
// Window specifications: `OVER w`, `OVER ([w] [PARTITION BY ...] [ORDER BY
// ...] [frame])`, the frame clause with PostgreSQL's grammar-level 42P20
// checks, and the `WINDOW w AS (...), ...` clause of a SELECT.
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::unique_ptr<WindowSpec> Parser::ParseOver() {
  auto w = std::make_unique<WindowSpec>();
  w->location = Loc();
  Advance();  // OVER
  if (!IsOp("(")) {
    w->location = Loc();
    w->name = ParseColId();
    w->bare_name = true;
    return w;
  }
  w->location = Loc();
  Advance();
  ParseWindowBody(*w);
  return w;
}

void Parser::ParseWindowBody(WindowSpec& w) {
  if (IsColId(Cur()) && !IsKw("partition") && !IsKw("order") && !IsKw("rows") && !IsKw("range") &&
      !IsKw("groups")) {
    w.name = ParseColId();
  }
  if (IsKw("partition") && PeekKw(1, "by")) {
    Advance();
    Advance();
    w.partition_by = ParseExprList();
  }
  if (IsKw("order") && PeekKw(1, "by")) {
    Advance();
    Advance();
    ParseSortList(w.order_by);
  }
  if (IsKw("rows") || IsKw("range") || IsKw("groups")) w.frame = ParseWindowFrame();
  ExpectOp(")");
}

FrameBound Parser::ParseFrameBound() {
  FrameBound b;
  b.location = Loc();
  // `unbounded.x PRECEDING` is an offset expression (a column reference).
  if (IsKw("unbounded") && (PeekKw(1, "preceding") || PeekKw(1, "following"))) {
    Advance();
    if (AcceptKw("preceding")) {
      b.kind = FrameBoundKind::kUnboundedPreceding;
    } else {
      ExpectKw("following");
      b.kind = FrameBoundKind::kUnboundedFollowing;
    }
    return b;
  }
  if (IsKw("current") && PeekKw(1, "row")) {
    Advance();
    Advance();
    b.kind = FrameBoundKind::kCurrentRow;
    return b;
  }
  b.offset = ParseExpr();
  if (AcceptKw("preceding")) {
    b.kind = FrameBoundKind::kPreceding;
  } else {
    ExpectKw("following");
    b.kind = FrameBoundKind::kFollowing;
  }
  return b;
}

std::unique_ptr<WindowFrame> Parser::ParseWindowFrame() {
  auto f = std::make_unique<WindowFrame>();
  f->location = Loc();
  f->mode = IsKw("rows") ? FrameMode::kRows : (IsKw("range") ? FrameMode::kRange : FrameMode::kGroups);
  Advance();
  using K = FrameBoundKind;
  if (AcceptKw("between")) {
    f->start = ParseFrameBound();
    ExpectKw("and");
    f->end = ParseFrameBound();
    if (f->start.kind == K::kUnboundedFollowing) {
      ErrorAt(sqlstate::kWindowingError, "frame start cannot be UNBOUNDED FOLLOWING", f->start.location);
    }
    if (f->end.kind == K::kUnboundedPreceding) {
      ErrorAt(sqlstate::kWindowingError, "frame end cannot be UNBOUNDED PRECEDING", f->end.location);
    }
    if (f->start.kind == K::kCurrentRow && f->end.kind == K::kPreceding) {
      ErrorAt(sqlstate::kWindowingError, "frame starting from current row cannot have preceding rows",
              f->end.location);
    }
    if (f->start.kind == K::kFollowing && (f->end.kind == K::kPreceding || f->end.kind == K::kCurrentRow)) {
      ErrorAt(sqlstate::kWindowingError, "frame starting from following row cannot have preceding rows",
              f->end.location);
    }
  } else {
    f->start = ParseFrameBound();
    f->end.kind = K::kCurrentRow;
    if (f->start.kind == K::kUnboundedFollowing) {
      ErrorAt(sqlstate::kWindowingError, "frame start cannot be UNBOUNDED FOLLOWING", f->start.location);
    }
    if (f->start.kind == K::kFollowing) {
      ErrorAt(sqlstate::kWindowingError, "frame starting from following row cannot end with current row",
              f->start.location);
    }
  }
  if (AcceptKw("exclude")) {
    if (IsKw("current") && PeekKw(1, "row")) {
      Advance();
      Advance();
      f->exclusion = FrameExclusion::kCurrentRow;
    } else if (AcceptKw("group")) {
      f->exclusion = FrameExclusion::kGroup;
    } else if (AcceptKw("ties")) {
      f->exclusion = FrameExclusion::kTies;
    } else {
      ExpectKw("no");
      ExpectKw("others");
    }
  }
  return f;
}

void Parser::ParseWindowClause(SelectStmt& s) {
  do {
    auto w = std::make_unique<WindowSpec>();
    w->def_name = ParseColId();
    ExpectKw("as");
    w->location = Loc();  // PostgreSQL points at the '('
    ExpectOp("(");
    ParseWindowBody(*w);
    s.windows.push_back(std::move(w));
  } while (AcceptOp(","));
}

}  // namespace hearth::parser
