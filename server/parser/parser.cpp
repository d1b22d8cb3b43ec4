// server/parser/parser.cpp
//
// Entry points (ParseStatements, StatementName), token helpers, name rules
// and the statement dispatcher. Grammar pieces live in parse_*.cpp.
#include "parser/parser.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "common/error/stack_depth.h"
#include "parser/parser_internal.h"

namespace hearth::parser {
namespace {

// Trees higher than this are rejected: every pass after the parser recurses
// over them (each checks max_stack_depth), and so does their destructor,
// which cannot report an error.
constexpr int kMaxDepth = 10000;

[[noreturn]] void TooDeep(std::string_view sql, int offset) {
  throw DbError(sqlstate::kStatementTooComplex, "stack depth limit exceeded")
      .WithPosition(CharPosition(sql, offset))
      .WithHint("The statement is nested too deeply.");
}

}  // namespace

DepthGuard::DepthGuard(int& depth, std::string_view sql, int offset) : depth_(depth) {
  if (depth_ + 1 > kMaxDepth) TooDeep(sql, offset);
  CheckStackDepth();
  ++depth_;
}

void ChainGuard::Link(std::string_view sql, int offset) {
  if (depth_ + 1 > kMaxDepth) TooDeep(sql, offset);
  ++depth_;
  ++links_;
}

Parser::Parser(std::string_view sql) : sql_(sql), toks_(Tokenize(sql)) {}

// ---------------------------------------------------------------------------
// Token helpers
// ---------------------------------------------------------------------------

const Token& Parser::Peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

bool Parser::AcceptKw(const char* kw) {
  if (!IsKw(kw)) return false;
  Advance();
  return true;
}

void Parser::ExpectKw(const char* kw) {
  if (!AcceptKw(kw)) SyntaxError();
}

bool Parser::AcceptOp(const char* op) {
  if (!IsOp(op)) return false;
  Advance();
  return true;
}

void Parser::ExpectOp(const char* op) {
  if (!AcceptOp(op)) SyntaxError();
}

void Parser::SyntaxError() const { SyntaxErrorAt(Cur()); }

void Parser::SyntaxErrorAt(const Token& t) const {
  if (t.type == TokenType::kEnd) {
    throw DbError(sqlstate::kSyntaxError, "syntax error at end of input")
        .WithPosition(CharPosition(sql_, static_cast<int>(sql_.size())));
  }
  ThrowSyntaxError(sql_, t.offset, "syntax error", sql_.substr(t.offset, t.end - t.offset));
}

void Parser::ErrorAt(const char* state, const std::string& msg, int offset) const {
  throw DbError(state, msg).WithPosition(CharPosition(sql_, offset));
}

KeywordCategory Parser::Category(const Token& t) const {
  if (t.type != TokenType::kIdent) return KeywordCategory::kNone;
  return LookupKeyword(t.text);
}

std::string Parser::SourceText(int begin, int end) const {
  return std::string(sql_.substr(begin, end - begin));
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

bool Parser::IsColId(const Token& t) const {
  if (t.type == TokenType::kQuotedIdent) return true;
  if (t.type != TokenType::kIdent) return false;
  KeywordCategory c = Category(t);
  return c == KeywordCategory::kNone || c == KeywordCategory::kColName;
}

std::string Parser::ParseColId() {
  if (!IsColId(Cur())) SyntaxError();
  std::string s = Cur().text;
  Advance();
  return s;
}

bool Parser::IsTypeFuncName(const Token& t) const {
  if (t.type == TokenType::kQuotedIdent) return true;
  if (t.type != TokenType::kIdent) return false;
  KeywordCategory c = Category(t);
  return c == KeywordCategory::kNone || c == KeywordCategory::kTypeFuncName;
}

bool Parser::IsColLabel(const Token& t) const {
  return t.type == TokenType::kIdent || t.type == TokenType::kQuotedIdent;
}

std::string Parser::ParseColLabel() {
  if (!IsColLabel(Cur())) SyntaxError();
  std::string s = Cur().text;
  Advance();
  return s;
}

bool Parser::IsBareLabel(const Token& t) const {
  if (t.type == TokenType::kQuotedIdent) return true;
  return t.type == TokenType::kIdent && Category(t) == KeywordCategory::kNone;
}

RangeVar Parser::ParseQualifiedName() {
  RangeVar rv;
  rv.location = Loc();
  std::vector<std::string> parts;
  parts.push_back(ParseColId());
  while (IsOp(".")) {
    Advance();
    parts.push_back(ParseColLabel());
  }
  if (parts.size() > 3) {
    std::string joined;
    for (size_t i = 0; i < parts.size(); ++i) joined += (i ? "." : "") + parts[i];
    ErrorAt(sqlstate::kSyntaxError, "improper qualified name (too many dotted names): " + joined,
            rv.location);
  }
  rv.name = parts.back();
  if (parts.size() >= 2) rv.schema = parts[parts.size() - 2];
  if (parts.size() == 3) rv.catalog = parts[0];
  return rv;
}

std::vector<std::string> Parser::ParseAnyName() {
  std::vector<std::string> parts;
  parts.push_back(ParseColId());
  while (AcceptOp(".")) parts.push_back(ParseColLabel());
  return parts;
}

std::vector<std::string> Parser::ParseParenNameList(std::vector<int>* locations) {
  std::vector<std::string> out;
  ExpectOp("(");
  do {
    if (locations != nullptr) locations->push_back(Loc());
    out.push_back(ParseColId());
  } while (AcceptOp(","));
  ExpectOp(")");
  return out;
}

std::vector<RangeVar> Parser::ParseQualifiedNameList() {
  std::vector<RangeVar> out;
  do {
    out.push_back(ParseQualifiedName());
  } while (AcceptOp(","));
  return out;
}

bool Parser::IsOptionValueStart() const {
  switch (Cur().type) {
    case TokenType::kString:
    case TokenType::kInteger:
    case TokenType::kNumeric:
    case TokenType::kIdent:
    case TokenType::kQuotedIdent:
      return true;
    case TokenType::kOp:
      return IsOp("-") || IsOp("+") || IsOp("*") || IsOp("(");
    default:
      return false;
  }
}

std::string Parser::ParseOptionValue() {
  const Token& t = Cur();
  std::string out;
  switch (t.type) {
    case TokenType::kString:
    case TokenType::kInteger:
    case TokenType::kNumeric:
    case TokenType::kIdent:
    case TokenType::kQuotedIdent:
      out = t.text;
      Advance();
      return out;
    default:
      break;
  }
  if (IsOp("-") || IsOp("+")) {
    std::string sign = IsOp("-") ? "-" : "";
    Advance();
    if (Cur().type != TokenType::kInteger && Cur().type != TokenType::kNumeric) SyntaxError();
    out = sign + Cur().text;
    Advance();
    return out;
  }
  if (AcceptOp("*")) return "*";
  if (AcceptOp("(")) {
    do {
      if (!out.empty()) out += ',';
      out += ParseColLabel();
    } while (AcceptOp(","));
    ExpectOp(")");
    return out;
  }
  SyntaxError();
}

std::vector<GenericOption> Parser::ParseParenOptions() {
  std::vector<GenericOption> out;
  ExpectOp("(");
  do {
    GenericOption o;
    o.location = Loc();
    o.name = ParseColLabel();
    while (AcceptOp(".")) o.name += "." + ParseColLabel();
    bool eq = AcceptOp("=");
    if (eq || (!IsOp(",") && !IsOp(")"))) {
      o.value = ParseOptionValue();
      o.has_value = true;
    }
    out.push_back(std::move(o));
  } while (AcceptOp(","));
  ExpectOp(")");
  return out;
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

std::vector<StmtPtr> Parser::ParseAll() {
  std::vector<StmtPtr> out;
  for (;;) {
    while (AcceptOp(";")) {
    }
    if (AtEnd()) break;
    size_t first = pos_;
    StmtPtr stmt = ParseStatement();
    if (!AtEnd() && !IsOp(";")) SyntaxError();
    const Token& last = toks_[pos_ - 1];
    stmt->location = toks_[first].offset;
    stmt->text = SourceText(toks_[first].offset, last.end);
    out.push_back(std::move(stmt));
  }
  return out;
}

StmtPtr Parser::ParseStatement() {
  DepthGuard guard(depth_, sql_, Loc());
  const Token& t = Cur();
  if (IsOp("(")) return ParseTopLevelSelect();
  if (t.type != TokenType::kIdent) SyntaxError();
  const std::string& w = t.text;
  if (w == "select" || w == "values" || w == "table") return ParseTopLevelSelect();
  if (w == "with") return ParseWithPrefixed();
  if (w == "insert") return ParseInsert({});
  if (w == "update") return ParseUpdate({});
  if (w == "delete") return ParseDelete({});
  if (w == "create") return ParseCreate();
  if (w == "alter") return ParseAlter();
  if (w == "drop") return ParseDrop();
  if (w == "reassign") return ParseOwned();
  if (w == "truncate") return ParseTruncate();
  if (w == "copy") return ParseCopy();
  if (w == "begin" || w == "start" || w == "commit" || w == "end" || w == "rollback" ||
      w == "abort" || w == "savepoint" || w == "release") {
    return ParseTransaction();
  }
  if (w == "set") return ParseSet();
  if (w == "show") return ParseShow();
  if (w == "reset") return ParseReset();
  if (w == "explain") return ParseExplain();
  if (w == "vacuum") return ParseVacuum(true);
  if (w == "analyze" || w == "analyse") return ParseVacuum(false);
  if (w == "checkpoint") {
    auto s = std::make_unique<CheckpointStmt>();
    s->location = Loc();
    Advance();
    return s;
  }
  if (w == "prepare") return ParsePrepare();
  if (w == "execute") return ParseExecute();
  if (w == "deallocate") return ParseDeallocate();
  if (w == "discard") return ParseDiscard();
  if (w == "grant" || w == "revoke") return ParseGrant();
  if (w == "declare") return ParseDeclareCursor();
  if (w == "fetch" || w == "move") return ParseFetch();
  if (w == "close") return ParseClosePortal();
  if (w == "do") return ParseDo();
  if (w == "call") return ParseCall();
  if (w == "lock") return ParseLock();
  if (w == "comment") return ParseComment();
  SyntaxError();
}

namespace {

// WITH RECURSIVE before INSERT/UPDATE/DELETE.
void SetWithRecursive(Statement& dml, bool recursive) {
  switch (dml.kind) {
    case StmtKind::kInsert: dml.As<InsertStmt>().with_recursive = recursive; break;
    case StmtKind::kUpdate: dml.As<UpdateStmt>().with_recursive = recursive; break;
    case StmtKind::kDelete: dml.As<DeleteStmt>().with_recursive = recursive; break;
    default: break;
  }
}

}  // namespace

StmtPtr Parser::ParseWithPrefixed() {
  int loc = Loc();
  std::vector<CommonTableExpr> with;
  bool recursive = false;
  ParseWithClause(with, recursive);
  if (IsKw("insert") || IsKw("update") || IsKw("delete")) {
    StmtPtr dml = IsKw("insert")   ? ParseInsert(std::move(with))
                  : IsKw("update") ? ParseUpdate(std::move(with))
                                   : ParseDelete(std::move(with));
    SetWithRecursive(*dml, recursive);
    return dml;
  }
  auto s = ParseTopLevelSelect();
  if (!s->with.empty()) SyntaxError();
  s->with = std::move(with);
  s->with_recursive = recursive;
  s->location = loc;
  return s;
}

StmtPtr Parser::ParsePreparable() {
  size_t first = pos_;
  StmtPtr s;
  if (IsOp("(") || IsKw("select") || IsKw("values") || IsKw("table")) {
    s = ParseSelect();
  } else if (IsKw("with")) {
    s = ParseWithPrefixed();
  } else if (IsKw("insert")) {
    s = ParseInsert({});
  } else if (IsKw("update")) {
    s = ParseUpdate({});
  } else if (IsKw("delete")) {
    s = ParseDelete({});
  } else {
    SyntaxError();
  }
  s->location = toks_[first].offset;
  s->text = SourceText(toks_[first].offset, toks_[pos_ - 1].end);
  return s;
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

std::vector<StmtPtr> ParseStatements(std::string_view sql) { return Parser(sql).ParseAll(); }

int ErrorPosition(std::string_view sql, int location) {
  return location < 0 ? 0 : CharPosition(sql, location);
}

const char* StatementName(const Statement& s) {
  switch (s.kind) {
    case StmtKind::kSelect: return "SELECT";
    case StmtKind::kInsert: return "INSERT";
    case StmtKind::kUpdate: return "UPDATE";
    case StmtKind::kDelete: return "DELETE";
    case StmtKind::kCreateTable: return "CREATE TABLE";
    case StmtKind::kCreateTableAs: return "CREATE TABLE AS";
    case StmtKind::kCreateIndex: return "CREATE INDEX";
    case StmtKind::kAlterTable:
      switch (s.As<AlterTableStmt>().object_type) {
        case ObjectType::kIndex: return "ALTER INDEX";
        case ObjectType::kSequence: return "ALTER SEQUENCE";
        default: return "ALTER TABLE";
      }
    case StmtKind::kDrop:
      switch (s.As<DropStmt>().object_type) {
        case ObjectType::kTable: return "DROP TABLE";
        case ObjectType::kIndex: return "DROP INDEX";
        case ObjectType::kView: return "DROP VIEW";
        case ObjectType::kSequence: return "DROP SEQUENCE";
        case ObjectType::kSchema: return "DROP SCHEMA";
        case ObjectType::kDatabase: return "DROP DATABASE";
        case ObjectType::kRole: return "DROP ROLE";
        case ObjectType::kExtension: return "DROP EXTENSION";
      }
      return "DROP";
    case StmtKind::kTruncate: return "TRUNCATE TABLE";
    case StmtKind::kCopy: return "COPY";
    case StmtKind::kTransaction:
      switch (s.As<TransactionStmt>().txn_kind) {
        case TransactionKind::kBegin: return "BEGIN";
        case TransactionKind::kStart: return "START TRANSACTION";
        case TransactionKind::kCommit: return "COMMIT";
        case TransactionKind::kRollback: return "ROLLBACK";
        case TransactionKind::kSavepoint: return "SAVEPOINT";
        case TransactionKind::kRelease: return "RELEASE";
        case TransactionKind::kRollbackTo: return "ROLLBACK";
      }
      return "TRANSACTION";
    case StmtKind::kSet: return "SET";
    case StmtKind::kShow: return "SHOW";
    case StmtKind::kReset: return "RESET";
    case StmtKind::kExplain: return "EXPLAIN";
    case StmtKind::kVacuum: return s.As<VacuumStmt>().is_vacuum ? "VACUUM" : "ANALYZE";
    case StmtKind::kCheckpoint: return "CHECKPOINT";
    case StmtKind::kPrepare: return "PREPARE";
    case StmtKind::kExecute: return "EXECUTE";
    case StmtKind::kDeallocate: return s.As<DeallocateStmt>().all ? "DEALLOCATE ALL" : "DEALLOCATE";
    case StmtKind::kCreateDatabase: return "CREATE DATABASE";
    case StmtKind::kCreateExtension: return "CREATE EXTENSION";
    case StmtKind::kCreateRole: return "CREATE ROLE";
    case StmtKind::kAlterRole: return "ALTER ROLE";
    case StmtKind::kDiscard:
      switch (s.As<DiscardStmt>().target) {
        case DiscardTarget::kAll: return "DISCARD ALL";
        case DiscardTarget::kPlans: return "DISCARD PLANS";
        case DiscardTarget::kSequences: return "DISCARD SEQUENCES";
        case DiscardTarget::kTemp: return "DISCARD TEMP";
      }
      return "DISCARD";
    case StmtKind::kCreateSequence: return "CREATE SEQUENCE";
    case StmtKind::kAlterSequence: return "ALTER SEQUENCE";
    case StmtKind::kGrantRole: return s.As<GrantRoleStmt>().is_grant ? "GRANT ROLE" : "REVOKE ROLE";
    case StmtKind::kGrantPriv: return s.As<GrantPrivStmt>().is_grant ? "GRANT" : "REVOKE";
    case StmtKind::kDeclareCursor: return "DECLARE CURSOR";
    case StmtKind::kFetch: return s.As<FetchStmt>().is_move ? "MOVE" : "FETCH";
    case StmtKind::kClosePortal: return "CLOSE CURSOR";
    case StmtKind::kOwned: return s.As<OwnedStmt>().is_drop ? "DROP OWNED" : "REASSIGN OWNED";
    case StmtKind::kCreateSchema: return "CREATE SCHEMA";
    case StmtKind::kAlterSchema: return "ALTER SCHEMA";
    case StmtKind::kAlterDatabase: return "ALTER DATABASE";
    case StmtKind::kCreateFunction:
      return s.As<CreateFunctionStmt>().is_procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION";
    case StmtKind::kDropFunction:
      return s.As<DropFunctionStmt>().is_procedure ? "DROP PROCEDURE" : "DROP FUNCTION";
    case StmtKind::kDo: return "DO";
    case StmtKind::kCall: return "CALL";
    case StmtKind::kGrantFunction: return s.As<GrantFunctionStmt>().is_grant ? "GRANT" : "REVOKE";
    case StmtKind::kCreateView: return "CREATE VIEW";
    case StmtKind::kRenameRelation:
      return s.As<RenameRelationStmt>().object_type == ObjectType::kView ? "ALTER VIEW" : "ALTER TABLE";
    case StmtKind::kAlterOwner:
      switch (s.As<AlterOwnerStmt>().object_type) {
        case ObjectType::kSequence: return "ALTER SEQUENCE";
        case ObjectType::kIndex: return "ALTER INDEX";
        case ObjectType::kView: return "ALTER VIEW";
        default: return "ALTER TABLE";
      }
    case StmtKind::kLock: return "LOCK TABLE";
    case StmtKind::kCreateTrigger: return "CREATE TRIGGER";
    case StmtKind::kDropTrigger: return "DROP TRIGGER";
    case StmtKind::kCreateEnum: return "CREATE TYPE";
    case StmtKind::kCreateDomain: return "CREATE DOMAIN";
    case StmtKind::kAlterType: return "ALTER TYPE";
    case StmtKind::kDropType: return "DROP TYPE";
    case StmtKind::kComment: return "COMMENT";
    case StmtKind::kAlterDefaultPrivileges: return "ALTER DEFAULT PRIVILEGES";
  }
  return "UNKNOWN";
}

}  // namespace hearth::parser
