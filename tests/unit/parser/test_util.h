// tests/unit/parser/test_util.h
//
// Helpers shared by the parser unit tests.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "common/error/db_error.h"
#include "parser/ast_dump.h"
#include "parser/parser.h"

namespace hearth::parser::test {

// Parses `sql`, which must hold exactly one statement.
inline StmtPtr ParseOne(std::string_view sql) {
  std::vector<StmtPtr> v = ParseStatements(sql);
  REQUIRE(v.size() == 1);
  return std::move(v[0]);
}

// Parses `sql` as exactly one statement of type T and returns it (the
// owning pointer is kept in `holder`).
template <typename T>
const T& ParseAs(std::string_view sql, StmtPtr& holder) {
  holder = ParseOne(sql);
  REQUIRE(holder->kind == T::kKind);
  return holder->As<T>();
}

// The first target expression of "SELECT <expr>".
inline ExprPtr ParseExpr1(const std::string& expr) {
  StmtPtr s = ParseOne("SELECT " + expr);
  REQUIRE(s->kind == StmtKind::kSelect);
  auto& sel = s->As<SelectStmt>();
  REQUIRE(sel.targets.size() == 1);
  return std::move(sel.targets[0].expr);
}

// DumpExpr of the first target of "SELECT <expr>".
inline std::string Dump(const std::string& expr) { return DumpExpr(*ParseExpr1(expr)); }

struct ErrorInfo {
  std::string sqlstate;
  std::string message;
  int position = -1;
};

// Parses `sql`, which must fail with a DbError; returns the error's fields.
inline ErrorInfo ParseError(std::string_view sql) {
  try {
    ParseStatements(sql);
  } catch (const DbError& e) {
    return {e.sqlstate(), e.message(), e.position()};
  }
  FAIL("expected a parse error for: " << sql);
  return {};
}

}  // namespace hearth::parser::test
