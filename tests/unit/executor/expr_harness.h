// tests/unit/executor/expr_harness.h — parse "SELECT <expr>", bind, evaluate.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "executor/expr/binder.h"
#include "executor/expr/eval.h"
#include "parser/parser.h"
#include "utils/adt/text_io.h"

namespace harness {

using hearth::executor::BindContext;
using hearth::executor::BoundExprPtr;
using hearth::executor::EvalContext;
using hearth::types::Value;

// Holds the parse tree so the Expr stays alive.
struct Parsed {
  std::vector<hearth::parser::StmtPtr> stmts;
  const hearth::parser::Expr& expr() const {
    return *stmts.at(0)->As<hearth::parser::SelectStmt>().targets.at(0).expr;
  }
};

inline Parsed Parse(const std::string& expr_text) {
  Parsed p;
  p.stmts = hearth::parser::ParseStatements("SELECT " + expr_text);
  REQUIRE(p.stmts.size() == 1);
  REQUIRE(p.stmts[0]->kind == hearth::parser::StmtKind::kSelect);
  return p;
}

struct Result {
  Value value;
  hearth::types::Oid type;
  std::string text;  // output text, "NULL" for NULL
};

// Binds and evaluates a select-list expression (unknown outputs → text).
inline Result Run(const std::string& expr_text, BindContext* bctx = nullptr,
                  EvalContext* ectx = nullptr) {
  Parsed p = Parse(expr_text);
  BindContext local_b;
  EvalContext local_e;
  BindContext& b = bctx ? *bctx : local_b;
  EvalContext& e = ectx ? *ectx : local_e;
  BoundExprPtr bound = hearth::executor::ResolveUnknownOutput(hearth::executor::BindExpr(p.expr(), b), b);
  Result r;
  r.type = bound->type;
  r.value = hearth::executor::Eval(*bound, e);
  r.text = r.value.is_null ? "NULL" : hearth::types::OutputValue(r.value);
  return r;
}

inline std::string Text(const std::string& expr_text) { return Run(expr_text).text; }

// Runs expr and returns the DbError it throws (bind or eval).
inline hearth::DbError Error(const std::string& expr_text) {
  try {
    Run(expr_text);
  } catch (const hearth::DbError& e) {
    return e;
  }
  FAIL("expected an error from: " << expr_text);
  return hearth::DbError("00000", "unreachable");
}

}  // namespace harness
