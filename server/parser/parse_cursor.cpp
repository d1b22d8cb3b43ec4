// parser/parse_cursor.cpp
//
// Principal entry points: Parser::ParseDeclareCursor, ParseFetch,
// ParseClosePortal: SQL cursors as PostgreSQL 15's grammar has them
// (DECLARE ... CURSOR FOR select, FETCH/MOVE with every direction, CLOSE).
#include <stdexcept>
#include <string>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

StmtPtr Parser::ParseDeclareCursor() {
  auto s = std::make_unique<DeclareCursorStmt>();
  s->location = Loc();
  Advance();  // DECLARE
  s->name = ParseColId();
  bool scroll = false;
  bool no_scroll = false;
  for (;;) {
    if (AcceptKw("binary")) {
      s->binary = true;
    } else if (AcceptKw("asensitive") || AcceptKw("insensitive")) {
      // Hearth cursors never see later changes: both are what we do.
    } else if (AcceptKw("scroll")) {
      scroll = true;
    } else if (IsKw("no") && PeekKw(1, "scroll")) {
      Advance();
      Advance();
      no_scroll = true;
    } else {
      break;
    }
  }
  if (scroll && no_scroll) {
    // No position, as PostgreSQL (it finds this after parsing).
    throw DbError(sqlstate::kInvalidCursorDefinition, "cannot specify both SCROLL and NO SCROLL");
  }
  s->scroll = scroll ? CursorScroll::kScroll : no_scroll ? CursorScroll::kNoScroll : CursorScroll::kDefault;
  ExpectKw("cursor");
  if (AcceptKw("with")) {
    ExpectKw("hold");
    s->hold = true;
  } else if (AcceptKw("without")) {
    ExpectKw("hold");
  }
  ExpectKw("for");
  if (!(IsOp("(") || IsKw("select") || IsKw("values") || IsKw("table") || IsKw("with"))) SyntaxError();
  s->query = ParsePreparable();
  if (s->query->kind != StmtKind::kSelect) SyntaxErrorAt(toks_[pos_ - 1]);
  return s;
}

// SignedIconst.
int64_t Parser::ParseFetchCount() {
  const bool negative = AcceptOp("-");
  if (!negative) AcceptOp("+");
  if (Cur().type != TokenType::kInteger) SyntaxError();
  int64_t v = 0;
  try {
    v = std::stoll(Cur().text);
  } catch (const std::out_of_range&) {
    SyntaxError();
  }
  Advance();
  return negative ? -v : v;
}

StmtPtr Parser::ParseFetch() {
  auto s = std::make_unique<FetchStmt>();
  s->location = Loc();
  s->is_move = IsKw("move");
  Advance();  // FETCH / MOVE
  // A direction word followed by nothing but the name is the name itself.
  const bool name_next = Peek(1).type == TokenType::kEnd || IsOpTok(Peek(1), ";");
  auto is_count = [&] { return Cur().type == TokenType::kInteger || IsOp("-") || IsOp("+"); };
  if (name_next) {
    // FETCH name
  } else if (AcceptKw("next")) {
    s->count = 1;
  } else if (AcceptKw("prior")) {
    s->direction = FetchDirection::kBackward;
  } else if (AcceptKw("first")) {
    s->direction = FetchDirection::kAbsolute;
  } else if (AcceptKw("last")) {
    s->direction = FetchDirection::kAbsolute;
    s->count = -1;
  } else if (AcceptKw("absolute")) {
    s->direction = FetchDirection::kAbsolute;
    s->count = ParseFetchCount();
  } else if (AcceptKw("relative")) {
    s->direction = FetchDirection::kRelative;
    s->count = ParseFetchCount();
  } else if (AcceptKw("all")) {
    s->count = kFetchAll;
  } else if (IsKw("forward") || IsKw("backward")) {
    if (IsKw("backward")) s->direction = FetchDirection::kBackward;
    Advance();
    if (AcceptKw("all")) {
      s->count = kFetchAll;
    } else if (is_count()) {
      s->count = ParseFetchCount();
    }
  } else if (is_count()) {
    s->count = ParseFetchCount();
  }
  if (!AcceptKw("from")) AcceptKw("in");
  s->name = ParseColId();
  return s;
}

StmtPtr Parser::ParseClosePortal() {
  auto s = std::make_unique<ClosePortalStmt>();
  s->location = Loc();
  Advance();  // CLOSE
  if (!AcceptKw("all")) s->name = ParseColId();
  return s;
}

}  // namespace hearth::parser
