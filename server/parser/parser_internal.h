// server/parser/parser_internal.h
//
// The recursive-descent parser class shared by the parse_*.cpp files. Not
// part of the public API: include parser/parser.h instead.
//
// One Parser parses one query string; it is single-threaded and short-lived.
// Methods are grouped by file:
//   parser.cpp        token helpers, names, statement dispatch, ParseStatements
//   parse_expr.cpp    expressions (precedence climbing as in PostgreSQL)
//   parse_type.cpp    type names
//   parse_select.cpp  SELECT / VALUES / set operations / FROM
//   parse_dml.cpp     INSERT / UPDATE / DELETE / COPY
//   parse_ddl.cpp     CREATE TABLE / INDEX, ALTER TABLE, DROP, TRUNCATE
//   parse_sequence.cpp CREATE / ALTER SEQUENCE, identity column options
//   parse_rename.cpp  ALTER INDEX / SEQUENCE ... RENAME TO
//   parse_utility.cpp transactions, SET/SHOW/RESET, EXPLAIN, VACUUM, PREPARE,
//                     EXECUTE, DEALLOCATE, databases, roles, DISCARD, CHECKPOINT
//   parse_window.cpp  OVER, frame clauses, the WINDOW clause
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parser/ast.h"
#include "parser/keywords.h"
#include "parser/lexer.h"

namespace hearth::parser {

class Parser {
 public:
  explicit Parser(std::string_view sql);

  // Parses every ';'-separated statement; see ParseStatements.
  std::vector<StmtPtr> ParseAll();

 private:
  // ---- tokens (parser.cpp) ----
  const Token& Cur() const { return toks_[pos_]; }
  const Token& Peek(size_t ahead = 1) const;
  int Loc() const { return Cur().offset; }
  void Advance() {
    if (toks_[pos_].type != TokenType::kEnd) ++pos_;
  }
  bool AtEnd() const { return Cur().type == TokenType::kEnd; }
  // Unquoted word `kw` (lowercase) at the current / a later token.
  bool IsKw(const char* kw) const { return IsKwTok(Cur(), kw); }
  static bool IsKwTok(const Token& t, const char* kw) {
    return t.type == TokenType::kIdent && t.text == kw;
  }
  bool PeekKw(size_t ahead, const char* kw) const { return IsKwTok(Peek(ahead), kw); }
  bool AcceptKw(const char* kw);
  void ExpectKw(const char* kw);
  bool IsOp(const char* op) const { return IsOpTok(Cur(), op); }
  static bool IsOpTok(const Token& t, const char* op) {
    return t.type == TokenType::kOp && t.text == op;
  }
  bool AcceptOp(const char* op);
  void ExpectOp(const char* op);
  [[noreturn]] void SyntaxError() const;  // at the current token
  [[noreturn]] void SyntaxErrorAt(const Token& t) const;
  [[noreturn]] void ErrorAt(const char* sqlstate, const std::string& msg, int offset) const;
  static void CheckWithTies(const SelectStmt& s);
  // GROUP BY items, with GROUPING SETS / ROLLUP / CUBE / () (parse_grouping.cpp).
  using GroupingSets = std::vector<std::vector<int>>;
  void ParseGroupByList(SelectStmt& s);
  GroupingSets ParseGroupingItem(SelectStmt& s, bool* special);
  // ROLLUP/CUBE element: an expression or a parenthesized list of them.
  std::vector<int> ParseGroupingElement(SelectStmt& s);
  KeywordCategory Category(const Token& t) const;
  std::string SourceText(int begin, int end) const;

  // ---- names (parser.cpp) ----
  // ColId: identifier, unreserved or column-name keyword, or quoted.
  bool IsColId(const Token& t) const;
  std::string ParseColId();
  // type_function_name: identifier, unreserved or type/function keyword.
  bool IsTypeFuncName(const Token& t) const;
  // ColLabel: any word at all (after AS, after '.', option names).
  bool IsColLabel(const Token& t) const;
  std::string ParseColLabel();
  // A word usable as an alias without AS.
  bool IsBareLabel(const Token& t) const;
  // [catalog.][schema.]name
  RangeVar ParseQualifiedName();
  // ColId [. ColLabel]* as parts (any_name: collations, opclasses).
  std::vector<std::string> ParseAnyName();
  // ( ColId, ... )
  // `locations`, when given, receives each name's offset.
  std::vector<std::string> ParseParenNameList(std::vector<int>* locations = nullptr);
  // name [, name]*
  std::vector<RangeVar> ParseQualifiedNameList();
  // ( option [=] [value], ... ) for WITH (...) and COPY/EXPLAIN/VACUUM.
  std::vector<GenericOption> ParseParenOptions();
  // A value for an option: string, number (signed), word; returns text.
  std::string ParseOptionValue();
  bool IsOptionValueStart() const;

  // ---- statements ----
  StmtPtr ParseStatement();
  StmtPtr ParseWithPrefixed();  // WITH ... SELECT/INSERT/UPDATE/DELETE
  StmtPtr ParsePreparable();    // body of EXPLAIN / PREPARE

  // ---- expressions (parse_expr.cpp) ----
  ExprPtr ParseExpr();   // a_expr
  ExprPtr ParseBExpr();  // b_expr: no AND/OR/NOT/IS/IN/LIKE/BETWEEN at top level
  ExprPtr ParseOr();
  ExprPtr ParseAnd();
  ExprPtr ParseNot();
  ExprPtr ParseIs();
  ExprPtr ParseComparison();
  ExprPtr ParseLikeIn();
  ExprPtr ParseOtherOp();
  ExprPtr ParseAdd();
  ExprPtr ParseMul();
  ExprPtr ParsePow();
  ExprPtr ParseAtTimeZone();
  ExprPtr ParseOverlaps(std::vector<ExprPtr> left, int loc);
  ExprPtr ParseCollate();
  ExprPtr ParseUnary();
  ExprPtr ParsePostfix();
  ExprPtr ParsePrimary();
  ExprPtr ParseParenExpr();
  ExprPtr ParseWordExpr();
  ExprPtr ParseNamedExpr();
  ExprPtr ParseFuncCall(std::vector<std::string> name, int location);
  ExprPtr ParseSpecialFunc(const std::string& word, int location);
  ExprPtr ParseCase();
  ExprPtr ParseArrayCtor();
  // `[i]`, `[lo:hi]`, `[:hi]`, ... applied to arg (null for UPDATE SET a[i]).
  ExprPtr ParseSubscript(ExprPtr arg);
  ExprPtr TryParseTypedLiteral();
  ExprPtr ParseColumnRefOrCall();
  ExprPtr MakeBinary(std::string op, ExprPtr l, ExprPtr r, int location);
  ExprPtr MaybeSubqueryOp(std::string op, ExprPtr left, int location);
  bool IsComparisonOp(const Token& t) const;
  bool IsOtherOp(const Token& t) const;
  bool IsOperatorKw() const;  // OPERATOR ( ... )
  std::string ParseOperatorKw();
  std::vector<ExprPtr> ParseExprList();
  bool StartsSelect(size_t ahead) const;  // SELECT / VALUES / WITH / TABLE, skipping '('s
  // ---- window specifications (parse_window.cpp) ----
  std::unique_ptr<WindowSpec> ParseOver();
  void ParseWindowBody(WindowSpec& w);  // after '(' up to and including ')'
  std::unique_ptr<WindowFrame> ParseWindowFrame();
  FrameBound ParseFrameBound();
  void ParseWindowClause(SelectStmt& s);  // after WINDOW
  void ParseSortList(std::vector<SortBy>& out);

  // ---- types (parse_type.cpp) ----
  TypeName ParseTypeName();
  bool IsSqlTypeKeyword(const Token& t) const;
  std::vector<int32_t> ParseTypmods();
  void ParseArrayBounds(TypeName& t);

  // ---- SELECT (parse_select.cpp) ----
  std::unique_ptr<SelectStmt> ParseSelect();  // full select incl. WITH/ORDER/LIMIT
  // A statement-level SELECT: its first simple SELECT may have INTO (moved
  // to the top node of a set operation); INTO anywhere else is 42601.
  std::unique_ptr<SelectStmt> ParseTopLevelSelect();
  std::unique_ptr<IntoClause> ParseIntoClause();
  std::unique_ptr<SelectStmt> ParseSetOps(int min_prec);
  std::unique_ptr<SelectStmt> ParseSelectPrimary();
  std::unique_ptr<SelectStmt> ParseSimpleSelect();
  std::unique_ptr<SelectStmt> ParseValues();
  void ParseSelectTail(SelectStmt& s);
  void ParseWithClause(std::vector<CommonTableExpr>& out, bool& recursive);
  std::vector<ResTarget> ParseTargetList();
  std::vector<FromItemPtr> ParseFromList();
  FromItemPtr ParseFromItem();
  FromItemPtr ParseFromPrimary();
  // ROWS FROM (f(...), g(...)) [WITH ORDINALITY] [alias] (after LATERAL).
  FromItemPtr ParseRowsFrom(int location, bool lateral);
  // A function call in FROM from its first name token on, and its
  // [WITH ORDINALITY] [alias] tail.
  ExprPtr ParseFromFunctionCall();
  void ParseFunctionTail(FunctionRef& f);
  void ParseAlias(Alias& alias, bool require_for_subquery);
  std::vector<ResTarget> ParseReturning();

  // ---- DML (parse_dml.cpp) ----
  StmtPtr ParseInsert(std::vector<CommonTableExpr> with);
  StmtPtr ParseUpdate(std::vector<CommonTableExpr> with);
  StmtPtr ParseDelete(std::vector<CommonTableExpr> with);
  StmtPtr ParseCopy();
  std::string ParseDmlAlias();
  // SET (a, b, ...) = ROW(...) | (SELECT ...) (parse_update_set.cpp).
  void ParseMultiColumnSet(std::vector<SetClause>& out);
  // The list after SET of UPDATE and ON CONFLICT DO UPDATE (parse_update_set.cpp).
  void ParseSetList(std::vector<SetClause>& out);
  // INSERT's ON CONFLICT clause, at ON (parse_on_conflict.cpp).
  std::unique_ptr<OnConflictClause> ParseOnConflict();
  void ParseCopyLegacyOptions(std::vector<GenericOption>& out);

  // ---- DDL (parse_ddl.cpp) ----
  StmtPtr ParseCreate();
  StmtPtr ParseCreateTable(bool temp, bool unlogged, int location);
  StmtPtr ParseCreateIndex(int location);
  StmtPtr ParseAlter();
  StmtPtr ParseAlterTable(int location);
  AlterTableCmd ParseAlterTableCmd();
  // parse_rename.cpp: ALTER INDEX|SEQUENCE [IF EXISTS] name RENAME TO new
  // (nullptr, position unchanged, for other ALTER INDEX/SEQUENCE forms).
  StmtPtr TryParseAlterRename(int location);
  void ParseIndexConstraintOptions(Constraint& c);
  StmtPtr ParseDrop();
  StmtPtr ParseTruncate();
  ColumnDef ParseColumnDef();
  bool IsTableConstraintStart() const;
  Constraint ParseTableConstraint();
  bool ParseColumnConstraint(std::vector<Constraint>& out);
  void ParseCheckClause(Constraint& c);
  void ParseReferences(Constraint& c);
  void ParseConstraintAttributes(Constraint& c);
  DropBehavior ParseDropBehavior();
  // ---- partitioning (parse_partition.cpp) ----
  // PARTITION BY {RANGE|LIST|HASH} (keys), at PARTITION.
  std::shared_ptr<PartitionSpec> ParsePartitionSpec();
  // FOR VALUES ... | DEFAULT, at FOR / DEFAULT.
  std::shared_ptr<PartitionBoundSpec> ParsePartitionBoundSpec();
  // CREATE TABLE name PARTITION OF parent ..., at PARTITION.
  void ParsePartitionOf(CreateTableStmt& s);

  // ---- sequences (parse_sequence.cpp) ----
  StmtPtr ParseCreateSequence(bool temp, int location);
  StmtPtr ParseAlterSequence(int location);
  // Options until none follows; `in_parens`: an identity column's list.
  std::vector<SeqOption> ParseSeqOptions(bool allow_restart, bool in_parens);
  bool ParseSeqOption(std::vector<SeqOption>& out, bool allow_restart);
  std::string ParseSignedInteger();
  // GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [( options )], at GENERATED.
  void ParseIdentityConstraint(Constraint& c);
  // LIKE source [{INCLUDING | EXCLUDING} option ...] in CREATE TABLE, at LIKE.
  TableLikeClause ParseTableLikeClause();
  bool ParseIfNotExists();
  bool ParseIfExists();

  // ---- utility (parse_utility.cpp) ----
  StmtPtr ParseTransaction();
  void ParseTransactionModes(TransactionOptions& o);
  StmtPtr ParseSet();
  std::vector<SetValue> ParseSetValues();
  StmtPtr ParseShow();
  std::string ParseShowResetName(bool* all);
  StmtPtr ParseReset();
  std::string ParseVarName();
  StmtPtr ParseExplain();
  StmtPtr ParseVacuum(bool is_vacuum);
  StmtPtr ParsePrepare();
  // ---- cursors (parse_cursor.cpp) ----
  StmtPtr ParseDeclareCursor();
  StmtPtr ParseFetch();
  StmtPtr ParseClosePortal();
  int64_t ParseFetchCount();
  StmtPtr ParseExecute();
  StmtPtr ParseDeallocate();
  StmtPtr ParseCreateDatabase(int location);
  StmtPtr ParseAlterDatabase(int location);  // parse_database.cpp
  // GRANT/REVOKE ... ON DATABASE|SCHEMA names TO|FROM ...: the tail after ON.
  void ParseGrantOnDatabaseOrSchema(GrantPrivStmt& s, bool is_grant);
  StmtPtr ParseCreateExtension(int location);
  StmtPtr ParseCreateSchema(int location);  // parse_schema.cpp
  StmtPtr ParseAlterSchema(int location);
  StmtPtr ParseLock();  // parse_lock.cpp
  StmtPtr ParseCreateRole(RoleStmtKind kind, int location);
  StmtPtr ParseAlterRole(RoleStmtKind kind, int location);
  void ParseRoleOptions(std::vector<GenericOption>& out);
  StmtPtr ParseDiscard();
  StmtPtr ParseGrant();
  StmtPtr ParseGrantPrivileges(bool is_grant, bool grant_option, int location);
  std::string ParseRoleSpec();
  std::vector<std::string> ParseGrantees(bool is_grant);
  bool ParseGrantTail(bool is_grant, const char* option, std::string* grantor, bool* cascade = nullptr);
  StmtPtr TryParseAlterOwner(int location);
  StmtPtr ParseCreateView(bool or_replace, bool temp, int location);  // parse_view.cpp
  StmtPtr TryParseAlterViewRename(int location);
  StmtPtr ParseOwned();
  StmtPtr ParseComment();  // parse_comment.cpp
  // ---- SQL functions (parse_function.cpp) ----
  StmtPtr ParseCreateFunction(bool or_replace, int location);
  // CREATE TRIGGER / DROP TRIGGER (parse_trigger.cpp).
  StmtPtr ParseCreateTrigger(bool or_replace, int location);
  StmtPtr ParseDropTrigger(int location);
  // CREATE TYPE ... AS ENUM, CREATE DOMAIN, ALTER TYPE/DOMAIN, DROP TYPE/DOMAIN (parse_type_ddl.cpp).
  StmtPtr ParseCreateType(int location);
  StmtPtr ParseCreateDomain(int location);
  StmtPtr ParseAlterType(int location);
  StmtPtr ParseDropType(int location);
  DomainConstraint ParseDomainConstraint();
  std::string ParseStringLiteral();
  FuncParam ParseFuncParam(bool allow_default);
  void ParseFuncOption(CreateFunctionStmt& s);
  void ParseSqlStandardBody(CreateFunctionStmt& s);
  StmtPtr ParseDropFunction(int location);
  FunctionRefSpec ParseFunctionRefSpec();
  StmtPtr ParseDo();
  StmtPtr ParseCall();
  StmtPtr ParseGrantFunction(bool is_grant, bool grant_option, int location);
  StmtPtr ParseAlterDefaultPrivileges(int location);  // parse_default_privileges.cpp

  std::string_view sql_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;  // recursion depth guard (stack overflow on deep nesting)
  // True while parsing a b_expr (DEFAULT values, POSITION(a IN b), BETWEEN's
  // lower bound): IN / LIKE / BETWEEN are then not consumed as operators.
  bool b_expr_ = false;
  // SELECT INTO bookkeeping: into_allowed_ is set by ParseTopLevelSelect and
  // taken by the first simple SELECT parsed; in_top_arms_ is true while the
  // arms of the statement's own set operation are parsed (not subqueries),
  // where a later INTO gets PostgreSQL's "only allowed on first SELECT".
  bool into_allowed_ = false;
  bool top_level_pending_ = false;
  bool in_top_arms_ = false;
};

// RAII recursion-depth guard for deeply nested input: counts the level and
// checks the real stack (max_stack_depth) too.
class DepthGuard {
 public:
  DepthGuard(int& depth, std::string_view sql, int offset);
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  int& depth_;
};

// The levels a flat chain (a+b+c..., x AND y AND z, q UNION ALL r ...) adds
// to the tree being built, counted in the same budget as DepthGuard. The
// parser builds chains in a loop, but every later pass (and the tree's
// destructor) recurses down them, so their height must be bounded too.
class ChainGuard {
 public:
  explicit ChainGuard(int& depth) : depth_(depth) {}
  ~ChainGuard() { depth_ -= links_; }
  ChainGuard(const ChainGuard&) = delete;
  ChainGuard& operator=(const ChainGuard&) = delete;
  // One more level; throws 54001 past the limit.
  void Link(std::string_view sql, int offset);

 private:
  int& depth_;
  int links_ = 0;
};

}  // namespace hearth::parser
