// server/parser/parse_select.cpp
//
// Queries: SELECT, VALUES, TABLE t, set operations (INTERSECT binds tighter
// than UNION/EXCEPT, all left-associative), parenthesized selects, WITH,
// ORDER BY / LIMIT / OFFSET / FETCH / FOR UPDATE, and FROM items.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

std::unique_ptr<SelectStmt> Parser::ParseSelect() {
  DepthGuard guard(depth_, sql_, Loc());
  int loc = Loc();
  // Whether this is the statement's own SELECT (else a subquery).
  const bool saved_in_top_arms = in_top_arms_;
  in_top_arms_ = top_level_pending_;
  top_level_pending_ = false;
  struct Restore {
    bool& flag;
    bool value;
    ~Restore() { flag = value; }
  } restore{in_top_arms_, saved_in_top_arms};
  std::vector<CommonTableExpr> with;
  bool recursive = false;
  if (IsKw("with")) {
    // The CTEs' SELECTs never take INTO; the main one still may.
    const bool into_allowed = into_allowed_;
    into_allowed_ = false;
    ParseWithClause(with, recursive);
    into_allowed_ = into_allowed;
  }
  std::unique_ptr<SelectStmt> s = ParseSetOps(0);
  ParseSelectTail(*s);
  if (!with.empty()) {
    if (!s->with.empty()) {
      ErrorAt(sqlstate::kSyntaxError, "multiple WITH clauses not allowed", loc);
    }
    s->with = std::move(with);
    s->with_recursive = recursive;
  }
  s->location = loc;
  return s;
}

std::unique_ptr<SelectStmt> Parser::ParseTopLevelSelect() {
  into_allowed_ = true;
  top_level_pending_ = true;
  std::unique_ptr<SelectStmt> s = ParseSelect();
  into_allowed_ = false;
  top_level_pending_ = false;
  SelectStmt* leftmost = s.get();
  while (leftmost->set_op != SetOpKind::kNone) leftmost = leftmost->larg.get();
  if (leftmost != s.get() && leftmost->into) s->into = std::move(leftmost->into);
  return s;
}

// INTO [TEMPORARY|TEMP|UNLOGGED] [TABLE] name (LOCAL/GLOBAL TEMP too).
std::unique_ptr<IntoClause> Parser::ParseIntoClause() {
  auto into = std::make_unique<IntoClause>();
  into->location = Loc();
  Advance();  // INTO
  if (IsKw("local") || IsKw("global")) Advance();
  if (AcceptKw("temporary") || AcceptKw("temp")) {
    into->temp = true;
  } else if (AcceptKw("unlogged")) {
    into->unlogged = true;
  }
  AcceptKw("table");
  into->table = ParseQualifiedName();
  return into;
}

std::unique_ptr<SelectStmt> Parser::ParseSetOps(int min_prec) {
  std::unique_ptr<SelectStmt> left = ParseSelectPrimary();
  ChainGuard chain(depth_);
  for (;;) {
    int prec;
    SetOpKind op;
    if (IsKw("union")) {
      prec = 1;
      op = SetOpKind::kUnion;
    } else if (IsKw("except")) {
      prec = 1;
      op = SetOpKind::kExcept;
    } else if (IsKw("intersect")) {
      prec = 2;
      op = SetOpKind::kIntersect;
    } else {
      break;
    }
    if (prec < min_prec) break;
    chain.Link(sql_, Loc());
    Advance();
    bool all = AcceptKw("all");
    if (!all) AcceptKw("distinct");
    auto n = std::make_unique<SelectStmt>();
    n->location = left->location;
    n->set_op = op;
    n->set_all = all;
    n->larg = std::move(left);
    n->rarg = ParseSetOps(prec + 1);
    left = std::move(n);
  }
  return left;
}

std::unique_ptr<SelectStmt> Parser::ParseSelectPrimary() {
  if (IsOp("(")) {
    Advance();
    std::unique_ptr<SelectStmt> s = ParseSelect();
    ExpectOp(")");
    return s;
  }
  if (IsKw("select")) return ParseSimpleSelect();
  into_allowed_ = false;  // VALUES and TABLE take no INTO
  if (IsKw("values")) return ParseValues();
  if (IsKw("table")) {
    auto s = std::make_unique<SelectStmt>();
    s->location = Loc();
    Advance();
    auto t = std::make_unique<TableRef>();
    t->location = Loc();
    t->table = ParseQualifiedName();
    ResTarget star;
    star.location = s->location;
    star.expr = std::make_unique<StarExpr>();
    star.expr->location = s->location;
    s->targets.push_back(std::move(star));
    s->from.push_back(std::move(t));
    return s;
  }
  SyntaxError();
}

std::unique_ptr<SelectStmt> Parser::ParseSimpleSelect() {
  const bool into_ok = into_allowed_;
  into_allowed_ = false;  // subqueries and later arms never take INTO
  auto s = std::make_unique<SelectStmt>();
  s->location = Loc();
  Advance();  // SELECT
  if (AcceptKw("distinct")) {
    s->distinct = true;
    if (AcceptKw("on")) {
      ExpectOp("(");
      s->distinct_on = ParseExprList();
      ExpectOp(")");
    }
  } else {
    AcceptKw("all");
  }
  static const char* kEnders[] = {"from",  "where",  "group", "having", "union", "intersect",
                                  "except", "order", "limit", "offset", "fetch", "for",
                                  "window", "into"};
  bool empty_targets = AtEnd() || IsOp(";") || IsOp(")");
  for (const char* w : kEnders) empty_targets = empty_targets || IsKw(w);
  if (!empty_targets) s->targets = ParseTargetList();
  if (IsKw("into")) {
    s->into = ParseIntoClause();
    if (!into_ok) {
      ErrorAt(sqlstate::kSyntaxError,
              in_top_arms_ ? "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT"
                           : "SELECT ... INTO is not allowed here",
              s->into->table.location);
    }
  }
  if (AcceptKw("from")) s->from = ParseFromList();
  if (AcceptKw("where")) s->where = ParseExpr();
  if (IsKw("group") && PeekKw(1, "by")) {
    Advance();
    Advance();
    if (!AcceptKw("all")) AcceptKw("distinct");
    ParseGroupByList(*s);
  }
  if (AcceptKw("having")) s->having = ParseExpr();
  if (AcceptKw("window")) ParseWindowClause(*s);
  return s;
}

std::unique_ptr<SelectStmt> Parser::ParseValues() {
  auto s = std::make_unique<SelectStmt>();
  s->location = Loc();
  Advance();  // VALUES
  do {
    int row_loc = Loc();
    ExpectOp("(");
    std::vector<ExprPtr> row = ParseExprList();
    ExpectOp(")");
    if (!s->values_lists.empty() && row.size() != s->values_lists.front().size()) {
      // Reported at the list's first expression, as PostgreSQL does.
      ErrorAt(sqlstate::kSyntaxError, "VALUES lists must all be the same length",
              row.front()->location >= 0 ? row.front()->location : row_loc);
    }
    s->values_lists.push_back(std::move(row));
  } while (AcceptOp(","));
  return s;
}

void Parser::ParseSelectTail(SelectStmt& s) {
  if (IsKw("order") && PeekKw(1, "by")) {
    if (!s.order_by.empty()) {
      ErrorAt(sqlstate::kSyntaxError, "multiple ORDER BY clauses not allowed", Loc());
    }
    Advance();
    Advance();
    ParseSortList(s.order_by);
  }
  bool saw_limit = false, saw_offset = false;
  for (;;) {
    int loc = Loc();
    if (IsKw("limit")) {
      if (saw_limit || s.limit) ErrorAt(sqlstate::kSyntaxError, "multiple LIMIT clauses not allowed", loc);
      saw_limit = true;
      Advance();
      if (!AcceptKw("all")) {
        s.limit = ParseExpr();
        if (IsOp(",")) {
          throw DbError(sqlstate::kSyntaxError, "LIMIT #,# syntax is not supported")
              .WithHint("Use separate LIMIT and OFFSET clauses.")
              .WithPosition(CharPosition(sql_, loc));
        }
      }
    } else if (IsKw("offset")) {
      if (saw_offset || s.offset) {
        ErrorAt(sqlstate::kSyntaxError, "multiple OFFSET clauses not allowed", loc);
      }
      saw_offset = true;
      Advance();
      s.offset = ParseExpr();
      if (!AcceptKw("row")) AcceptKw("rows");
    } else if (IsKw("fetch")) {
      if (saw_limit || s.limit) ErrorAt(sqlstate::kSyntaxError, "multiple LIMIT clauses not allowed", loc);
      saw_limit = true;
      Advance();
      if (!AcceptKw("first")) ExpectKw("next");
      if (IsKw("row") || IsKw("rows")) {
        auto one = std::make_unique<ConstExpr>();
        one->const_kind = ConstKind::kInteger;
        one->value.push_back('1');  // (not = "1": GCC 12 -Wrestrict false positive)
        one->location = loc;
        s.limit = std::move(one);
      } else {
        s.limit = ParseUnary();
      }
      if (!AcceptKw("row")) ExpectKw("rows");
      if (IsKw("with") && PeekKw(1, "ties")) {
        Advance();
        Advance();
        s.limit_with_ties = true;
      } else {
        ExpectKw("only");
      }
    } else if (IsKw("for")) {
      Advance();
      LockingClause lc;
      if (AcceptKw("update")) {
        lc.strength = LockStrength::kUpdate;
      } else if (AcceptKw("share")) {
        lc.strength = LockStrength::kShare;
      } else if (AcceptKw("no")) {
        ExpectKw("key");
        ExpectKw("update");
        lc.strength = LockStrength::kNoKeyUpdate;
      } else {
        ExpectKw("key");
        ExpectKw("share");
        lc.strength = LockStrength::kKeyShare;
      }
      if (AcceptKw("of")) lc.tables = ParseQualifiedNameList();
      if (AcceptKw("nowait")) {
        lc.wait = LockWaitPolicy::kNoWait;
      } else if (AcceptKw("skip")) {
        ExpectKw("locked");
        lc.wait = LockWaitPolicy::kSkipLocked;
      }
      s.locking.push_back(std::move(lc));
    } else {
      CheckWithTies(s);
      return;
    }
  }
}

// PostgreSQL's grammar checks (42601, no position).
void Parser::CheckWithTies(const SelectStmt& s) {
  if (!s.limit_with_ties) return;
  if (s.order_by.empty()) throw DbError(sqlstate::kSyntaxError, "WITH TIES cannot be specified without ORDER BY clause");
  for (const LockingClause& lc : s.locking) {
    if (lc.wait == LockWaitPolicy::kSkipLocked) {
      throw DbError(sqlstate::kSyntaxError, "SKIP LOCKED and WITH TIES options cannot be used together");
    }
  }
}

void Parser::ParseWithClause(std::vector<CommonTableExpr>& out, bool& recursive) {
  Advance();  // WITH
  recursive = AcceptKw("recursive");
  do {
    CommonTableExpr cte;
    cte.location = Loc();
    cte.name = ParseColId();
    if (IsOp("(")) cte.columns = ParseParenNameList();
    ExpectKw("as");
    if (AcceptKw("not")) {
      ExpectKw("materialized");
      cte.materialized = CteMaterialize::kNever;
    } else if (AcceptKw("materialized")) {
      cte.materialized = CteMaterialize::kAlways;
    }
    ExpectOp("(");
    cte.query = ParsePreparable();
    ExpectOp(")");
    out.push_back(std::move(cte));
  } while (AcceptOp(","));
}

std::vector<ResTarget> Parser::ParseTargetList() {
  std::vector<ResTarget> out;
  do {
    ResTarget rt;
    rt.location = Loc();
    if (IsOp("*")) {
      rt.expr = std::make_unique<StarExpr>();
      rt.expr->location = Loc();
      Advance();
    } else {
      rt.expr = ParseExpr();
      if (AcceptKw("as")) {
        rt.alias = ParseColLabel();
      } else if (IsBareLabel(Cur())) {
        rt.alias = Cur().text;
        Advance();
      }
    }
    out.push_back(std::move(rt));
  } while (AcceptOp(","));
  return out;
}

std::vector<ResTarget> Parser::ParseReturning() {
  if (!AcceptKw("returning")) return {};
  return ParseTargetList();
}

std::vector<FromItemPtr> Parser::ParseFromList() {
  std::vector<FromItemPtr> out;
  do {
    out.push_back(ParseFromItem());
  } while (AcceptOp(","));
  return out;
}

FromItemPtr Parser::ParseFromItem() {
  DepthGuard guard(depth_, sql_, Loc());
  FromItemPtr left = ParseFromPrimary();
  ChainGuard chain(depth_);
  for (;;) {
    int loc = Loc();
    JoinType jt = JoinType::kInner;
    bool natural = false;
    if (IsKw("cross") && PeekKw(1, "join")) {
      Advance();
      Advance();
      jt = JoinType::kCross;
    } else {
      size_t save = pos_;
      natural = AcceptKw("natural");
      if (AcceptKw("join")) {
        jt = JoinType::kInner;
      } else if (AcceptKw("inner")) {
        ExpectKw("join");
      } else if (IsKw("left") || IsKw("right") || IsKw("full")) {
        jt = IsKw("left") ? JoinType::kLeft : IsKw("right") ? JoinType::kRight : JoinType::kFull;
        Advance();
        AcceptKw("outer");
        ExpectKw("join");
      } else {
        if (natural) SyntaxError();
        pos_ = save;
        break;
      }
    }
    chain.Link(sql_, loc);
    auto j = std::make_unique<JoinRef>();
    j->location = loc;
    j->join_type = jt;
    j->natural = natural;
    j->left = std::move(left);
    j->right = ParseFromPrimary();
    if (!natural && jt != JoinType::kCross) {
      if (AcceptKw("on")) {
        j->on = ParseExpr();
      } else if (AcceptKw("using")) {
        j->using_cols = ParseParenNameList();
        if (AcceptKw("as")) j->using_alias = ParseColId();
      } else {
        SyntaxError();
      }
    }
    left = std::move(j);
  }
  return left;
}

FromItemPtr Parser::ParseFromPrimary() {
  int loc = Loc();
  bool lateral = AcceptKw("lateral");
  if (IsKw("rows") && PeekKw(1, "from")) return ParseRowsFrom(loc, lateral);
  if (IsOp("(")) {
    size_t k = 1;
    while (IsOpTok(Peek(k), "(")) ++k;
    if (StartsSelect(k)) {
      auto sq = std::make_unique<SubqueryRef>();
      sq->location = loc;
      sq->lateral = lateral;
      sq->subquery = ParseSelect();
      ParseAlias(sq->alias, true);
      return sq;
    }
    if (lateral) SyntaxError();
    Advance();
    FromItemPtr inner = ParseFromItem();
    ExpectOp(")");
    if (inner->kind == FromKind::kJoin) ParseAlias(inner->As<JoinRef>().alias, false);
    return inner;
  }
  bool only = AcceptKw("only");
  bool paren_only = only && AcceptOp("(");
  if (!IsColId(Cur()) && !IsTypeFuncName(Cur())) SyntaxError();
  size_t first = pos_;
  std::vector<std::string> names;
  names.push_back(Cur().text);
  Advance();
  while (AcceptOp(".")) names.push_back(ParseColLabel());
  if (IsOp("(") && !only) {
    auto f = std::make_unique<FunctionRef>();
    f->location = loc;
    f->lateral = lateral;
    f->call = ParseFuncCall(std::move(names), toks_[first].offset);
    ParseFunctionTail(*f);
    return f;
  }
  if (lateral || !IsColId(toks_[first])) SyntaxErrorAt(toks_[first]);
  pos_ = first;
  auto t = std::make_unique<TableRef>();
  t->location = loc;
  t->table = ParseQualifiedName();
  t->table.inh = !only;
  if (paren_only) ExpectOp(")");
  AcceptOp("*");
  ParseAlias(t->alias, false);
  return t;
}

FromItemPtr Parser::ParseRowsFrom(int location, bool lateral) {
  Advance();  // ROWS
  Advance();  // FROM
  auto f = std::make_unique<FunctionRef>();
  f->location = location;
  f->lateral = lateral;
  f->rows_from = true;
  ExpectOp("(");
  do {
    ExprPtr call = ParseFromFunctionCall();
    if (!f->call) {
      f->call = std::move(call);
    } else {
      f->more_calls.push_back(std::move(call));
    }
  } while (AcceptOp(","));
  ExpectOp(")");
  ParseFunctionTail(*f);
  return f;
}

ExprPtr Parser::ParseFromFunctionCall() {
  if (!IsColId(Cur()) && !IsTypeFuncName(Cur())) SyntaxError();
  const int at = Cur().offset;
  std::vector<std::string> names;
  names.push_back(Cur().text);
  Advance();
  while (AcceptOp(".")) names.push_back(ParseColLabel());
  if (!IsOp("(")) SyntaxError();
  return ParseFuncCall(std::move(names), at);
}

void Parser::ParseFunctionTail(FunctionRef& f) {
  if (IsKw("with") && PeekKw(1, "ordinality")) {
    Advance();
    Advance();
    f.with_ordinality = true;
  }
  ParseAlias(f.alias, false);
}

void Parser::ParseAlias(Alias& alias, bool /*require_for_subquery*/) {
  if (AcceptKw("as")) {
    alias.name = ParseColId();
  } else if (IsBareLabel(Cur())) {
    alias.name = Cur().text;
    Advance();
  } else {
    return;
  }
  if (IsOp("(")) alias.columns = ParseParenNameList();
}

}  // namespace hearth::parser
