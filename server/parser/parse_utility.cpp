// server/parser/parse_utility.cpp
//
// Utility statements: transaction control, SET / SHOW / RESET, EXPLAIN,
// VACUUM / ANALYZE, PREPARE / EXECUTE / DEALLOCATE, CREATE DATABASE,
// CREATE / ALTER ROLE, DISCARD.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {
namespace {

GenericOption Opt(std::string name, int location) {
  GenericOption o;
  o.name = std::move(name);
  o.location = location;
  return o;
}

GenericOption Opt(std::string name, std::string value, int location) {
  GenericOption o = Opt(std::move(name), location);
  o.value = std::move(value);
  o.has_value = true;
  return o;
}

}  // namespace

// ---------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------

StmtPtr Parser::ParseTransaction() {
  auto s = std::make_unique<TransactionStmt>();
  s->location = Loc();
  const std::string w = Cur().text;
  Advance();
  auto chain = [this, &s]() {
    if (AcceptKw("and")) {
      if (AcceptKw("no")) {
        ExpectKw("chain");
      } else {
        ExpectKw("chain");
        s->chain = true;
      }
    }
  };
  if (w == "begin" || w == "start") {
    if (w == "start") {
      ExpectKw("transaction");
      s->txn_kind = TransactionKind::kStart;
    } else {
      if (!AcceptKw("work")) AcceptKw("transaction");
      s->txn_kind = TransactionKind::kBegin;
    }
    ParseTransactionModes(s->options);
  } else if (w == "commit" || w == "end") {
    if (w == "commit" && IsKw("prepared")) {
      ErrorAt(sqlstate::kFeatureNotSupported, "COMMIT PREPARED is not supported yet", Loc());
    }
    if (!AcceptKw("work")) AcceptKw("transaction");
    s->txn_kind = TransactionKind::kCommit;
    chain();
  } else if (w == "rollback" || w == "abort") {
    if (w == "rollback" && IsKw("prepared")) {
      ErrorAt(sqlstate::kFeatureNotSupported, "ROLLBACK PREPARED is not supported yet", Loc());
    }
    if (!AcceptKw("work")) AcceptKw("transaction");
    if (w == "rollback" && AcceptKw("to")) {
      AcceptKw("savepoint");
      s->txn_kind = TransactionKind::kRollbackTo;
      s->savepoint = ParseColId();
    } else {
      s->txn_kind = TransactionKind::kRollback;
      chain();
    }
  } else if (w == "savepoint") {
    s->txn_kind = TransactionKind::kSavepoint;
    s->savepoint = ParseColId();
  } else {  // release
    AcceptKw("savepoint");
    s->txn_kind = TransactionKind::kRelease;
    s->savepoint = ParseColId();
  }
  return s;
}

void Parser::ParseTransactionModes(TransactionOptions& o) {
  for (bool first = true;; first = false) {
    bool comma = !first && AcceptOp(",");
    if (IsKw("isolation") && PeekKw(1, "level")) {
      Advance();
      Advance();
      if (AcceptKw("serializable")) {
        o.isolation = IsolationLevel::kSerializable;
      } else if (AcceptKw("repeatable")) {
        ExpectKw("read");
        o.isolation = IsolationLevel::kRepeatableRead;
      } else {
        ExpectKw("read");
        if (AcceptKw("committed")) {
          o.isolation = IsolationLevel::kReadCommitted;
        } else {
          ExpectKw("uncommitted");
          o.isolation = IsolationLevel::kReadUncommitted;
        }
      }
    } else if (IsKw("read") && (PeekKw(1, "only") || PeekKw(1, "write"))) {
      Advance();
      o.read_only = IsKw("only");
      Advance();
    } else if (AcceptKw("deferrable")) {
      o.deferrable = true;
    } else if (IsKw("not") && PeekKw(1, "deferrable")) {
      Advance();
      Advance();
      o.deferrable = false;
    } else {
      if (comma) SyntaxError();
      return;
    }
  }
}

// ---------------------------------------------------------------------------
// SET / SHOW / RESET
// ---------------------------------------------------------------------------

std::string Parser::ParseVarName() {
  std::string name = ParseColId();
  while (AcceptOp(".")) name += "." + ParseColLabel();
  return name;
}

std::vector<SetValue> Parser::ParseSetValues() {
  std::vector<SetValue> out;
  do {
    SetValue v;
    v.location = Loc();
    const Token& t = Cur();
    switch (t.type) {
      case TokenType::kString:
      case TokenType::kQuotedIdent:
        v.text = t.text;
        v.quoted = true;
        Advance();
        break;
      case TokenType::kInteger:
      case TokenType::kNumeric:
      case TokenType::kIdent:
        v.text = t.text;
        Advance();
        break;
      default:
        if (IsOp("-") || IsOp("+")) {
          std::string sign = IsOp("-") ? "-" : "";
          Advance();
          if (Cur().type != TokenType::kInteger && Cur().type != TokenType::kNumeric) SyntaxError();
          v.text = sign + Cur().text;
          Advance();
        } else {
          SyntaxError();
        }
    }
    out.push_back(std::move(v));
  } while (AcceptOp(","));
  return out;
}

StmtPtr Parser::ParseSet() {
  auto s = std::make_unique<SetStmt>();
  s->location = Loc();
  Advance();  // SET
  if (AcceptKw("session")) {
    if (AcceptKw("characteristics")) {
      ExpectKw("as");
      ExpectKw("transaction");
      s->set_kind = SetKind::kSessionCharacteristics;
      ParseTransactionModes(s->txn_options);
      return s;
    }
  } else if (AcceptKw("local")) {
    s->is_local = true;
    if (IsKw("session") && PeekKw(1, "authorization")) Advance();  // SET LOCAL SESSION AUTHORIZATION
  }
  if (AcceptKw("transaction")) {
    if (IsKw("snapshot")) {
      ErrorAt(sqlstate::kFeatureNotSupported, "SET TRANSACTION SNAPSHOT is not supported yet", Loc());
    }
    s->set_kind = SetKind::kTransaction;
    ParseTransactionModes(s->txn_options);
    return s;
  }
  auto value_or_default = [this, &s](bool allow_local) {
    if (AcceptKw("default") || (allow_local && AcceptKw("local"))) {
      s->set_kind = SetKind::kDefault;
    } else {
      s->values = ParseSetValues();
      if (s->values.size() != 1) SyntaxError();
    }
  };
  if (IsKw("time") && PeekKw(1, "zone")) {
    Advance();
    Advance();
    s->name = "timezone";
    if (AcceptKw("interval")) {
      // INTERVAL 'x' [qualifier] → "INTERVAL 'x' qualifier" for the TimeZone
      // check hook, which reads the offset from it.
      SetValue v;
      v.location = Loc();
      if (Cur().type != TokenType::kString) SyntaxError();
      v.text = "INTERVAL '" + Cur().text + "'";
      v.quoted = true;
      Advance();
      while (Cur().type == TokenType::kIdent || IsKw("to") || IsKw("hour") || IsKw("minute") ||
             IsKw("second") || IsKw("day") || IsKw("month") || IsKw("year")) {
        v.text += " " + Cur().text;
        Advance();
      }
      s->values.push_back(std::move(v));
      return s;
    }
    value_or_default(true);
    return s;
  }
  if (AcceptKw("names")) {
    s->name = "client_encoding";
    if (AtEnd() || IsOp(";")) {
      s->set_kind = SetKind::kDefault;
    } else {
      value_or_default(false);
    }
    return s;
  }
  if (AcceptKw("schema")) {
    s->name = "search_path";
    value_or_default(false);
    return s;
  }
  if (AcceptKw("role")) {
    s->name = "role";
    value_or_default(false);
    return s;
  }
  if (AcceptKw("authorization")) {  // after SESSION
    s->name = "session_authorization";
    value_or_default(false);
    return s;
  }
  s->name = ParseVarName();
  if (!AcceptKw("to")) ExpectOp("=");
  if (AcceptKw("default")) {
    s->set_kind = SetKind::kDefault;
  } else {
    s->values = ParseSetValues();
  }
  return s;
}

// The setting named after SHOW or RESET: ALL, the multi-word forms
// (TIME ZONE, TRANSACTION ISOLATION LEVEL, SESSION AUTHORIZATION) mapped to
// their settings, or a plain (possibly dotted) name. Sets *all for ALL.
std::string Parser::ParseShowResetName(bool* all) {
  *all = false;
  if (AcceptKw("all")) {
    *all = true;
    return "all";
  }
  if (IsKw("time") && PeekKw(1, "zone")) {
    Advance();
    Advance();
    return "timezone";
  }
  if (IsKw("transaction") && PeekKw(1, "isolation")) {
    Advance();
    Advance();
    ExpectKw("level");
    return "transaction_isolation";
  }
  if (IsKw("session") && PeekKw(1, "authorization")) {
    Advance();
    Advance();
    return "session_authorization";
  }
  return ParseVarName();
}

StmtPtr Parser::ParseShow() {
  auto s = std::make_unique<ShowStmt>();
  s->location = Loc();
  Advance();  // SHOW
  s->name = ParseShowResetName(&s->all);
  return s;
}

StmtPtr Parser::ParseReset() {
  auto s = std::make_unique<ResetStmt>();
  s->location = Loc();
  Advance();  // RESET
  s->name = ParseShowResetName(&s->all);
  return s;
}

// ---------------------------------------------------------------------------
// EXPLAIN, VACUUM / ANALYZE
// ---------------------------------------------------------------------------

StmtPtr Parser::ParseExplain() {
  auto s = std::make_unique<ExplainStmt>();
  s->location = Loc();
  Advance();  // EXPLAIN
  if (IsOp("(")) {
    s->options = ParseParenOptions();
  } else {
    int loc = Loc();
    if (AcceptKw("analyze") || AcceptKw("analyse")) s->options.push_back(Opt("analyze", loc));
    loc = Loc();
    if (AcceptKw("verbose")) s->options.push_back(Opt("verbose", loc));
  }
  size_t first = pos_;
  if (IsKw("execute")) {
    s->query = ParseExecute();
  } else if (IsKw("create")) {
    s->query = ParseCreate();
    if (s->query->kind != StmtKind::kCreateTableAs) SyntaxErrorAt(toks_[first]);
  } else {
    s->query = ParsePreparable();
  }
  s->query->location = toks_[first].offset;
  s->query->text = SourceText(toks_[first].offset, toks_[pos_ - 1].end);
  return s;
}

StmtPtr Parser::ParseVacuum(bool is_vacuum) {
  auto s = std::make_unique<VacuumStmt>();
  s->location = Loc();
  s->is_vacuum = is_vacuum;
  Advance();  // VACUUM / ANALYZE
  if (IsOp("(")) {
    s->options = ParseParenOptions();
  } else {
    for (;;) {
      int loc = Loc();
      if (is_vacuum && AcceptKw("full")) {
        s->options.push_back(Opt("full", loc));
      } else if (is_vacuum && AcceptKw("freeze")) {
        s->options.push_back(Opt("freeze", loc));
      } else if (AcceptKw("verbose")) {
        s->options.push_back(Opt("verbose", loc));
      } else if (is_vacuum && (AcceptKw("analyze") || AcceptKw("analyse"))) {
        s->options.push_back(Opt("analyze", loc));
      } else {
        break;
      }
    }
  }
  if (IsColId(Cur())) {
    do {
      VacuumRelation r;
      r.table = ParseQualifiedName();
      if (IsOp("(")) r.columns = ParseParenNameList();
      s->relations.push_back(std::move(r));
    } while (AcceptOp(","));
  }
  return s;
}

// ---------------------------------------------------------------------------
// PREPARE / EXECUTE / DEALLOCATE
// ---------------------------------------------------------------------------

StmtPtr Parser::ParsePrepare() {
  auto s = std::make_unique<PrepareStmt>();
  s->location = Loc();
  Advance();  // PREPARE
  if (IsKw("transaction")) {
    ErrorAt(sqlstate::kFeatureNotSupported, "PREPARE TRANSACTION is not supported yet", Loc());
  }
  s->name = ParseColId();
  if (AcceptOp("(")) {
    do {
      s->arg_types.push_back(ParseTypeName());
    } while (AcceptOp(","));
    ExpectOp(")");
  }
  ExpectKw("as");
  s->query = ParsePreparable();
  return s;
}

StmtPtr Parser::ParseExecute() {
  auto s = std::make_unique<ExecuteStmt>();
  s->location = Loc();
  Advance();  // EXECUTE
  s->name = ParseColId();
  if (AcceptOp("(")) {
    s->params = ParseExprList();
    ExpectOp(")");
  }
  return s;
}

StmtPtr Parser::ParseDeallocate() {
  auto s = std::make_unique<DeallocateStmt>();
  s->location = Loc();
  Advance();  // DEALLOCATE
  AcceptKw("prepare");
  if (AcceptKw("all")) {
    s->all = true;
  } else {
    s->name = ParseColId();
  }
  return s;
}

// ---------------------------------------------------------------------------
// Databases, roles, DISCARD
// ---------------------------------------------------------------------------

StmtPtr Parser::ParseCreateDatabase(int location) {
  auto s = std::make_unique<CreateDatabaseStmt>();
  s->location = location;
  s->name = ParseColId();
  AcceptKw("with");
  while (Cur().type == TokenType::kIdent) {
    int loc = Loc();
    std::string name = Cur().text;
    Advance();
    if (name == "connection") {
      ExpectKw("limit");
      name = "connection_limit";
    }
    AcceptOp("=");
    s->options.push_back(Opt(name, ParseOptionValue(), loc));
  }
  return s;
}

void Parser::ParseRoleOptions(std::vector<GenericOption>& out) {
  auto name_list = [this]() {
    std::string names;
    do {
      if (!names.empty()) names += ',';
      names += ParseColLabel();
    } while (AcceptOp(","));
    return names;
  };
  while (Cur().type == TokenType::kIdent) {
    int loc = Loc();
    std::string w = Cur().text;
    Advance();
    if (w == "encrypted" || w == "unencrypted") {
      ExpectKw("password");
      w = "password";
    }
    if (w == "password") {
      if (AcceptKw("null")) {
        out.push_back(Opt("password", loc));
      } else {
        if (Cur().type != TokenType::kString) SyntaxError();
        out.push_back(Opt("password", Cur().text, loc));
        Advance();
      }
    } else if (w == "connection") {
      ExpectKw("limit");
      out.push_back(Opt("connection_limit", ParseOptionValue(), loc));
    } else if (w == "valid") {
      ExpectKw("until");
      if (Cur().type != TokenType::kString) SyntaxError();
      out.push_back(Opt("valid_until", Cur().text, loc));
      Advance();
    } else if (w == "in") {
      if (!AcceptKw("role")) ExpectKw("group");
      out.push_back(Opt("in_role", name_list(), loc));
    } else if (w == "role" || w == "user" || w == "admin") {
      out.push_back(Opt(w == "admin" ? "admin" : "role", name_list(), loc));
    } else if (w == "sysid") {
      out.push_back(Opt("sysid", ParseOptionValue(), loc));
    } else {
      out.push_back(Opt(w, loc));
    }
  }
}

StmtPtr Parser::ParseCreateRole(RoleStmtKind kind, int location) {
  auto s = std::make_unique<CreateRoleStmt>();
  s->location = location;
  s->role_kind = kind;
  s->name = ParseColId();
  AcceptKw("with");
  ParseRoleOptions(s->options);
  return s;
}

StmtPtr Parser::ParseAlterRole(RoleStmtKind kind, int location) {
  auto s = std::make_unique<AlterRoleStmt>();
  s->location = location;
  s->role_kind = kind;
  s->name = ParseColLabel();
  int loc = Loc();
  if (AcceptKw("rename")) {
    ExpectKw("to");
    s->options.push_back(Opt("rename to", ParseColId(), loc));
  } else if (AcceptKw("set")) {
    std::string param = ParseVarName();
    if (!AcceptKw("to")) ExpectOp("=");
    if (AcceptKw("default")) {
      s->options.push_back(Opt("set " + param, loc));
    } else {
      std::string joined;
      for (const SetValue& v : ParseSetValues()) joined += (joined.empty() ? "" : ",") + v.text;
      s->options.push_back(Opt("set " + param, joined, loc));
    }
  } else if (AcceptKw("reset")) {
    s->options.push_back(Opt("reset " + (AcceptKw("all") ? std::string("all") : ParseVarName()), loc));
  } else {
    AcceptKw("with");
    ParseRoleOptions(s->options);
  }
  return s;
}

StmtPtr Parser::ParseDiscard() {
  auto s = std::make_unique<DiscardStmt>();
  s->location = Loc();
  Advance();  // DISCARD
  if (AcceptKw("all")) {
    s->target = DiscardTarget::kAll;
  } else if (AcceptKw("plans")) {
    s->target = DiscardTarget::kPlans;
  } else if (AcceptKw("sequences")) {
    s->target = DiscardTarget::kSequences;
  } else if (AcceptKw("temp") || AcceptKw("temporary")) {
    s->target = DiscardTarget::kTemp;
  } else {
    SyntaxError();
  }
  return s;
}

// A role name, or CURRENT_USER / CURRENT_ROLE / SESSION_USER / PUBLIC as
// lowercase keywords.
std::string Parser::ParseRoleSpec() {
  for (const char* kw : {"current_user", "current_role", "session_user", "public"}) {
    if (AcceptKw(kw)) return kw;
  }
  return ParseColId();
}

// GRANT/REVOKE of role membership, or of privileges (ParseGrantPrivileges).
StmtPtr Parser::ParseGrant() {
  auto s = std::make_unique<GrantRoleStmt>();
  s->location = Loc();
  s->is_grant = Cur().text == "grant";
  Advance();
  if (!s->is_grant && IsKw("admin") && PeekKw(1, "option")) {
    Advance();
    Advance();
    ExpectKw("for");
    s->admin_option = true;
  }
  if (!s->is_grant && IsKw("grant") && PeekKw(1, "option")) {
    Advance();
    Advance();
    ExpectKw("for");
    return ParseGrantPrivileges(false, true, s->location);
  }
  for (const char* kw : {"all", "select", "insert", "update", "delete", "truncate", "references", "trigger", "usage",
                         "create", "connect", "temporary", "temp", "execute"}) {
    if (IsKw(kw)) return ParseGrantPrivileges(s->is_grant, s->admin_option, s->location);
  }
  do {
    s->roles.push_back(ParseColId());
  } while (AcceptOp(","));
  s->members = ParseGrantees(s->is_grant);
  if (ParseGrantTail(s->is_grant, "admin", &s->grantor)) s->admin_option = true;
  return s;
}

// TO | FROM grantee[, ...] of GRANT / REVOKE.
std::vector<std::string> Parser::ParseGrantees(bool is_grant) {
  ExpectKw(is_grant ? "to" : "from");
  std::vector<std::string> out;
  do {
    AcceptKw("group");
    out.push_back(ParseRoleSpec());
  } while (AcceptOp(","));
  return out;
}

// [WITH <option> OPTION] (GRANT) [GRANTED BY r] [CASCADE | RESTRICT]
// (REVOKE); true when the WITH clause was there.
bool Parser::ParseGrantTail(bool is_grant, const char* option, std::string* grantor, bool* cascade) {
  bool with = false;
  if (is_grant && AcceptKw("with")) {
    ExpectKw(option);
    ExpectKw("option");
    with = true;
  }
  if (AcceptKw("granted")) {
    ExpectKw("by");
    *grantor = ParseRoleSpec();
  }
  if (!is_grant) {
    const bool is_cascade = AcceptKw("cascade");
    if (!is_cascade) AcceptKw("restrict");
    if (cascade != nullptr) *cascade = is_cascade;
  }
  return with;
}

// The privileges form of GRANT/REVOKE, after GRANT / REVOKE [GRANT OPTION
// FOR]. Only tables (ON [TABLE]), with optional column lists; other
// objects answer 0A000.
StmtPtr Parser::ParseGrantPrivileges(bool is_grant, bool grant_option, int location) {
  auto s = std::make_unique<GrantPrivStmt>();
  s->location = location;
  s->is_grant = is_grant;
  s->grant_option = grant_option;
  auto column_list = [&] {
    std::vector<std::string> cols;
    if (AcceptOp("(")) {
      do {
        cols.push_back(ParseColId());
      } while (AcceptOp(","));
      ExpectOp(")");
    }
    s->columns.push_back(std::move(cols));
  };
  if (AcceptKw("all")) {
    AcceptKw("privileges");
    s->privileges.push_back("all");
    column_list();
  } else {
    do {
      s->privileges.push_back(Cur().text);
      Advance();
      column_list();
    } while (AcceptOp(","));
  }
  ExpectKw("on");
  if (IsKw("function") || IsKw("procedure") || IsKw("routine")) {
    for (const std::string& p : s->privileges) {
      if (p != "all" && p != "execute") {
        std::string upper;
        for (char c : p) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ErrorAt("0LP01", "invalid privilege type " + upper + " for function", location);
      }
    }
    return ParseGrantFunction(is_grant, grant_option, location);
  }
  if (IsKw("database") || IsKw("schema")) {
    ParseGrantOnDatabaseOrSchema(*s, is_grant);
    return s;
  }
  s->on_sequence = AcceptKw("sequence");
  for (const char* kw : {"schema", "database", "language",
                         "tablespace", "type", "domain", "foreign", "large", "all"}) {
    if (IsKw(kw)) {
      ErrorAt(sqlstate::kFeatureNotSupported, "GRANT and REVOKE are supported on tables only", Loc());
    }
  }
  if (!s->on_sequence) AcceptKw("table");
  s->tables = ParseQualifiedNameList();
  s->grantees = ParseGrantees(is_grant);
  std::string grantor;
  if (ParseGrantTail(is_grant, "grant", &grantor, &s->cascade)) s->grant_option = true;
  return s;
}

}  // namespace hearth::parser
