// tcop/plpgsql_ast.h
//
// The parsed body of a LANGUAGE plpgsql routine or DO block: blocks with
// declarations and exception handlers, control statements, and SQL text
// (expressions and statements) kept as written, to be planned when the
// body runs with the visible variables as named parameters.
//
// Built once per body by ParsePlpgsql (plpgsql_parse.cpp), immutable after;
// the interpreter (plpgsql_exec.cpp) keeps its run-time state elsewhere.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace hearth::tcop::plpgsql {

// A piece of SQL: an expression ("x + 1", evaluated as SELECT x + 1) or a
// whole statement. `line` is the body line it starts on (1-based).
struct SqlText {
  std::string text;
  int line = 0;
  bool empty() const { return text.empty(); }
};

struct Stmt;
using StmtList = std::vector<std::unique_ptr<Stmt>>;

struct Declaration {
  std::string name;
  std::string type_text;  // as written: "integer", "t.c%TYPE", "record", "t%ROWTYPE"
  bool constant = false;
  bool not_null = false;
  SqlText default_expr;  // empty: NULL
  int line = 0;
};

struct ExceptionHandler {
  std::vector<std::string> conditions;  // lowercased names or 5-character SQLSTATEs ("others")
  StmtList body;
};

struct Block {
  std::string label;
  std::vector<Declaration> declarations;
  StmtList body;
  std::vector<ExceptionHandler> handlers;  // empty: no EXCEPTION clause
};

enum class StmtKind {
  kBlock,
  kAssign,      // target := expr
  kIf,          // conditions[i] / branches[i], else_body
  kCase,        // expr (may be empty: searched CASE), conditions / branches, else_body
  kLoop,
  kWhile,       // expr
  kForInt,      // var, expr (lower), expr2 (upper), step, reverse
  kForQuery,    // var, query (or dynamic: query is the expression of EXECUTE), using_args
  kForEach,     // var, expr (array)
  kExit,        // label, expr (WHEN, may be empty)
  kContinue,
  kReturn,      // expr (may be empty)
  kReturnNext,  // expr
  kReturnQuery, // query (dynamic: expr + using_args)
  kPerform,     // query (SELECT ...)
  kSql,         // query; into targets (strict)
  kExecute,     // expr; into targets (strict); using_args
  kGetDiagnostics,  // diag_targets / diag_items (stacked: of the error being handled)
  kAssert,      // expr, args[0] (message, may be absent)
  kRaise,       // level, condition, format, args, options
  kNull,
};

struct RaiseOption {
  std::string name;  // message, detail, hint, errcode
  SqlText expr;
};

struct Stmt {
  StmtKind kind = StmtKind::kNull;
  int line = 0;
  std::string label;  // loop label, or EXIT/CONTINUE's target
  std::unique_ptr<Block> block;

  std::string target;  // assignment target / loop variable ("a" or "rec.f")
  SqlText expr;
  SqlText expr2;
  SqlText step;
  bool reverse = false;
  SqlText query;
  bool dynamic = false;  // FOR ... IN EXECUTE / RETURN QUERY EXECUTE
  std::vector<SqlText> using_args;
  std::vector<std::string> into;
  bool strict = false;

  std::vector<SqlText> conditions;
  std::vector<StmtList> branches;
  StmtList else_body;
  bool has_else = false;
  StmtList body;

  std::vector<std::string> diag_targets;
  std::vector<std::string> diag_items;  // row_count, message_text, ...
  bool stacked = false;

  std::string level;      // exception, warning, notice, info, log, debug
  std::string condition;  // RAISE condition_name / SQLSTATE 'xxxxx'
  std::string format;     // RAISE 'fmt'
  bool has_format = false;
  std::vector<SqlText> args;
  std::vector<RaiseOption> options;
};

// A whole routine body: the outermost block.
struct Function {
  std::unique_ptr<Block> body;
};

// The statement's name in CONTEXT lines ("assignment", "RAISE", "SQL statement", ...).
const char* StmtContextName(const Stmt& s);

// SQLSTATE of a condition name (division_by_zero → 22012), "" when unknown.
std::string ConditionSqlstate(const std::string& name);

}  // namespace hearth::tcop::plpgsql
