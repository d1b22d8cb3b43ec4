// tcop/query_protocol.cpp
//
// Principal entry points: QueryProtocol::SimpleQuery, QueryProtocol::Extended.
#include "tcop/query_protocol.h"

#include "catalog/catalog_shared.h"
#include "catalog/pending_delete.h"
#include "common/error/stack_depth.h"
#include "common/error/sqlstate.h"
#include "common/protocol/wire.h"
#include "executor/spill_file.h"
#include "parser/parser.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/backend_activity.h"
#include "storage/lmgr/lock.h"
#include "tcop/frontend_messages.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/text_io.h"

namespace hearth::tcop {

namespace {

// Streams rows of a simple query straight into the socket's output buffer.
// The RowDescription goes out with the first row (or at completion), so a
// statement that fails before producing anything answers just 'E', as
// PostgreSQL does for errors raised while planning.
class SocketRowConsumer : public RowConsumer {
 public:
  SocketRowConsumer(ClientSocket& sock, const std::vector<ColumnDesc>* columns) : sock_(sock), columns_(columns) {}
  void Row(const std::vector<types::Value>& row) override {
    CheckForInterrupts();
    DescribeOnce();
    PutDataRow(sock_.out(), row, formats_, scratch_);
    sock_.MaybeFlush();
    count_++;
  }
  uint64_t count() const { return count_; }
  void DescribeOnce() {
    if (columns_ != nullptr && !described_) {
      PutRowDescription(sock_.out(), *columns_, formats_);
      described_ = true;
    }
  }

 private:
  ClientSocket& sock_;
  const std::vector<ColumnDesc>* columns_;
  bool described_ = false;
  std::vector<int16_t> formats_;
  std::string scratch_;
  uint64_t count_ = 0;
};

// A bare "SELECT" tag gets the row count, as PostgreSQL's tags carry it.
std::string FinalTag(const std::string& tag, uint64_t rows) {
  if (tag == "SELECT") return "SELECT " + std::to_string(rows);
  return tag;
}


int64_t StatementTimeout(Session& s) { return s.settings.hot().statement_timeout_ms; }

// RAII: arms cancel/statement_timeout for the duration of one statement.
// Statements that never read tables take no snapshot: BEGIN ISOLATION
// LEVEL / SET TRANSACTION must still be able to choose the isolation level.
// The extended protocol's usual shape for a statement run once (libpq's
// PQexecParams, pgjdbc below its prepare threshold, node-postgres): Parse
// into the unnamed statement, Bind, Execute. Such a portal may take the
// plan instead of cloning it; only the first run of the statement lends it,
// so a client that binds the unnamed statement again and again pays one
// extra planning, not one per execution.
bool CanLendPlan(const Session& s, const Portal& portal) {
  const PreparedStatement* ps = portal.source;
  if (portal.own_plan || ps->plan == nullptr || ps->starts > 0 || !ps->plan->CheaperToStartOnce()) return false;
  auto unnamed = s.prepared.find("");
  if (unnamed == s.prepared.end() || unnamed->second.get() != ps) return false;
  for (const auto& [name, other] : s.portals) {
    if (other.get() != &portal && other->source == ps) return false;
  }
  return true;
}

bool NeedsSnapshot(const parser::Statement* stmt) {
  if (stmt == nullptr) return false;
  switch (stmt->kind) {
    case parser::StmtKind::kTransaction:
    case parser::StmtKind::kSet:
    case parser::StmtKind::kShow:
    case parser::StmtKind::kReset:
      return false;
    default:
      return true;
  }
}

// A failed allocation is an ERROR of the statement (its memory and pins
// were released while unwinding), as in PostgreSQL.
DbError OutOfMemory() { return DbError(sqlstate::kOutOfMemory, "out of memory"); }

// Text (0) and binary (1) are the only formats of protocol 3.0.
void CheckFormatCode(int16_t format) {
  if (format != 0 && format != 1) {
    throw DbError(sqlstate::kInvalidParameterValue, "unsupported format code: " + std::to_string(format));
  }
}

class StatementScope {
 public:
  StatementScope(Session& s, const parser::Statement* stmt) {
    BeginStatementInterrupts(StatementTimeout(s));
    storage::SetLockTimeouts(static_cast<int>(s.settings.hot().deadlock_timeout_ms),
                             static_cast<int>(s.settings.hot().lock_timeout_ms));
    // A SET max_stack_depth earlier in the same Query string applies here.
    SetMaxStackDepth(static_cast<size_t>(s.settings.hot().max_stack_depth_kb) * 1024);
    SetClientConnectionCheck(s.sock.fd(), s.settings.hot().client_connection_check_interval_ms);
    executor::SpillFile::SetLimitKb(s.settings.hot().temp_file_limit_kb);
    s.StartStatement(NeedsSnapshot(stmt));
  }
  ~StatementScope() { EndStatementInterrupts(); }
  StatementScope(const StatementScope&) = delete;
  StatementScope& operator=(const StatementScope&) = delete;
};

}  // namespace

void QueryProtocol::CheckNotFailed(const Plan& plan) const {
  if (s_.block == BlockState::kFailed && !plan.EndsFailedTransaction()) {
    throw DbError(sqlstate::kInFailedSqlTransaction,
                  "current transaction is aborted, commands ignored until end of transaction block");
  }
}

void QueryProtocol::ReportError(const DbError& e) {
  PutError(s_.sock.out(), e);
  if (e.severity() >= Severity::kFatal) throw e;
  s_.AbortAfterError();
  in_implicit_txn_ = false;
}

void QueryProtocol::AfterStatement(const parser::Statement*) {
  s_.EndStatement();
  s_.ReportChangedSettings();
}

void QueryProtocol::SimpleQuery(std::string_view body) {
  std::string_view sql = DecodeQuery(body);
  try {
    std::vector<parser::StmtPtr> stmts = parser::ParseStatements(sql);
    if (stmts.empty()) {
      PutSimple(s_.sock.out(), protocol::be::kEmptyQueryResponse);
    }
    in_implicit_txn_ = s_.block == BlockState::kIdle;
    s_.query_string = sql;
    s_.implicit_block = stmts.size() > 1;
    for (const auto& stmt : stmts) {
      RunSimpleStatement(*stmt);
    }
    s_.query_string = {};
    s_.implicit_block = false;
    if (in_implicit_txn_ && s_.block == BlockState::kIdle) s_.EndTransaction(true);
    in_implicit_txn_ = false;
  } catch (const DbError& e) {
    ReportError(e);
  } catch (const std::bad_alloc&) {
    ReportError(OutOfMemory());
  }
  s_.query_string = {};
  s_.implicit_block = false;
  s_.ReportChangedSettings();
  PutReadyForQuery(s_.sock.out(), s_.ReadyStatus());
}

void QueryProtocol::RunSimpleStatement(const parser::Statement& stmt) {
  StatementScope scope(s_, &stmt);
  // In a failed block only COMMIT/ROLLBACK may run; check before planning so
  // an unknown table does not mask the 25P02.
  if (s_.block == BlockState::kFailed && stmt.kind != parser::StmtKind::kTransaction) {
    throw DbError(sqlstate::kInFailedSqlTransaction,
                  "current transaction is aborted, commands ignored until end of transaction block");
  }
  std::unique_ptr<Plan> plan = PlanStatement(s_, stmt, {});
  CheckNotFailed(*plan);
  SocketRowConsumer out(s_.sock, plan->Columns());
  std::string tag = plan->RunOnce(s_, {}, out);
  CheckForInterrupts();
  out.DescribeOnce();
  PutCommandComplete(s_.sock.out(), FinalTag(tag, out.count()));
  AfterStatement(&stmt);
}

void QueryProtocol::Extended(char type, std::string_view body) {
  if (type == protocol::fe::kSync) {
    Sync();
    return;
  }
  if (skip_until_sync_) return;
  try {
    switch (type) {
      case protocol::fe::kParse: Parse(body); break;
      case protocol::fe::kBind: Bind(body); break;
      case protocol::fe::kDescribe: Describe(body); break;
      case protocol::fe::kExecute: Execute(body); break;
      case protocol::fe::kClose: Close(body); break;
      default: break;
    }
  } catch (const DbError& e) {
    ReportError(e);
    skip_until_sync_ = true;
  } catch (const std::bad_alloc&) {
    ReportError(OutOfMemory());
    skip_until_sync_ = true;
  }
}

void QueryProtocol::Parse(std::string_view body) {
  ParseMessage msg = DecodeParse(body);
  std::string stmt_name(msg.name);
  if (!stmt_name.empty() && s_.prepared.count(stmt_name)) {
    throw DbError(sqlstate::kDuplicatePreparedStatement, "prepared statement \"" + stmt_name + "\" already exists");
  }
  auto ps = std::make_unique<PreparedStatement>();
  ps->query = std::string(msg.query);
  std::vector<parser::StmtPtr> stmts = parser::ParseStatements(ps->query);
  if (stmts.size() > 1) {
    throw DbError(sqlstate::kSyntaxError, "cannot insert multiple commands into a prepared statement");
  }
  if (!stmts.empty()) {
    ps->stmt = std::move(stmts[0]);
    if (s_.block == BlockState::kFailed && ps->stmt->kind != parser::StmtKind::kTransaction) {
      throw DbError(sqlstate::kInFailedSqlTransaction,
                    "current transaction is aborted, commands ignored until end of transaction block");
    }
    // Planning reads the catalog: it needs a transaction (and, for
    // statements over tables, the statement's catalog view).
    s_.StartStatement(NeedsSnapshot(ps->stmt.get()));
    ps->catalog_version = catalog::PlanCacheVersion();
    ps->declared_types = msg.param_types;
    ps->plan = PlanStatement(s_, *ps->stmt, msg.param_types);
  }
  auto old = s_.prepared.find(stmt_name);
  if (old != s_.prepared.end()) {
    // Replacing the unnamed statement ends the portals built from it.
    for (auto p = s_.portals.begin(); p != s_.portals.end();) {
      p = p->second->source == old->second.get() ? s_.portals.erase(p) : std::next(p);
    }
  }
  s_.prepared[stmt_name] = std::move(ps);
  PutSimple(s_.sock.out(), protocol::be::kParseComplete);
}

void QueryProtocol::Bind(std::string_view body) {
  protocol::MessageReader r(body);
  auto portal_name = r.CString();
  auto stmt_name = r.CString();
  auto nformats = r.Int16();
  if (!portal_name || !stmt_name || !nformats || *nformats < 0) ProtocolViolation("invalid Bind message");
  std::vector<int16_t> param_formats;
  for (int i = 0; i < *nformats; i++) {
    auto f = r.Int16();
    if (!f) ProtocolViolation("invalid Bind message");
    CheckFormatCode(*f);
    param_formats.push_back(*f);
  }
  auto it = s_.prepared.find(std::string(*stmt_name));
  if (it == s_.prepared.end()) {
    throw DbError(sqlstate::kInvalidSqlStatementName,
                  "prepared statement \"" + std::string(*stmt_name) + "\" does not exist");
  }
  PreparedStatement* ps = it->second.get();
  if (ps->stmt) {
    s_.StartStatement(NeedsSnapshot(ps->stmt.get()));
    s_.RevalidatePrepared(*ps);
  }
  if (s_.block == BlockState::kFailed && (ps->plan == nullptr || !ps->plan->EndsFailedTransaction())) {
    throw DbError(sqlstate::kInFailedSqlTransaction,
                  "current transaction is aborted, commands ignored until end of transaction block");
  }
  std::vector<types::Oid> types = ps->plan ? ps->plan->ParamTypes() : std::vector<types::Oid>{};
  auto nparams = r.Int16();
  if (!nparams || *nparams < 0) ProtocolViolation("invalid Bind message");
  if (static_cast<size_t>(*nparams) != types.size()) {
    throw DbError(sqlstate::kProtocolViolation,
                  "bind message supplies " + std::to_string(*nparams) + " parameters, but prepared statement \"" +
                      std::string(*stmt_name) + "\" requires " + std::to_string(types.size()));
  }
  if (param_formats.size() > 1 && param_formats.size() != types.size()) {
    throw DbError(sqlstate::kProtocolViolation, "bind message has " + std::to_string(param_formats.size()) +
                                                    " parameter formats but " + std::to_string(types.size()) +
                                                    " parameters");
  }
  auto portal = std::make_unique<Portal>();
  portal->source = ps;
  for (size_t i = 0; i < types.size(); i++) {
    auto len = r.Int32();
    if (!len) ProtocolViolation("invalid Bind message");
    // -1 is NULL; any other negative length is an ERROR, as in PostgreSQL.
    if (*len < -1) throw DbError(sqlstate::kProtocolViolation, "insufficient data left in message");
    if (*len == -1) {
      portal->params.push_back(types::Value::Null(types[i]));
      continue;
    }
    auto bytes = r.Bytes(static_cast<size_t>(*len));
    if (!bytes) ProtocolViolation("insufficient data left in message");
    int16_t fmt = FormatFor(param_formats, i);
    portal->params.push_back(fmt == 1 ? types::ReceiveBinary(types[i], -1, *bytes)
                                      : types::InputValue(types[i], -1, *bytes));
  }
  auto nresult = r.Int16();
  if (!nresult || *nresult < 0) ProtocolViolation("invalid Bind message");
  for (int i = 0; i < *nresult; i++) {
    auto f = r.Int16();
    if (!f) ProtocolViolation("invalid Bind message");
    CheckFormatCode(*f);
    portal->result_formats.push_back(*f);
  }
  std::string pname(*portal_name);
  if (!pname.empty() && s_.portals.count(pname)) {
    throw DbError("42P03", "cursor \"" + pname + "\" already exists");
  }
  s_.portals[pname] = std::move(portal);
  PutSimple(s_.sock.out(), protocol::be::kBindComplete);
}

void QueryProtocol::Describe(std::string_view body) {
  TargetMessage msg = DecodeDescribe(body);
  if (msg.kind == 'S') {
    auto it = s_.prepared.find(std::string(msg.name));
    if (it == s_.prepared.end()) {
      throw DbError(sqlstate::kInvalidSqlStatementName,
                    "prepared statement \"" + std::string(msg.name) + "\" does not exist");
    }
    if (it->second->plan_lent) {
      s_.StartStatement(NeedsSnapshot(it->second->stmt.get()));
      s_.RevalidatePrepared(*it->second);
    }
    const Plan* plan = it->second->plan.get();
    protocol::MessageWriter w(protocol::be::kParameterDescription);
    std::vector<types::Oid> types = plan ? plan->ParamTypes() : std::vector<types::Oid>{};
    w.Int16(static_cast<int16_t>(types.size()));
    for (types::Oid t : types) w.Int32(static_cast<int32_t>(t));
    s_.sock.Send(w.Finish());
    if (plan && plan->Columns()) {
      PutRowDescription(s_.sock.out(), *plan->Columns(), {});
    } else {
      PutSimple(s_.sock.out(), protocol::be::kNoData);
    }
  } else if (msg.kind == 'P') {
    auto it = s_.portals.find(std::string(msg.name));
    if (it == s_.portals.end()) {
      throw DbError(sqlstate::kInvalidCursorName, "portal \"" + std::string(msg.name) + "\" does not exist");
    }
    const Plan* plan = it->second->plan();
    if (plan && plan->Columns()) {
      PutRowDescription(s_.sock.out(), *plan->Columns(), it->second->result_formats);
    } else {
      PutSimple(s_.sock.out(), protocol::be::kNoData);
    }
  } else {
    ProtocolViolation("invalid DESCRIBE message subtype " + std::to_string(msg.kind));
  }
}

void QueryProtocol::Execute(std::string_view body) {
  ExecuteMessage msg = DecodeExecute(body);
  auto it = s_.portals.find(std::string(msg.portal));
  if (it == s_.portals.end()) {
    throw DbError(sqlstate::kInvalidCursorName, "portal \"" + std::string(msg.portal) + "\" does not exist");
  }
  Portal& portal = *it->second;
  Plan* plan = portal.plan();
  if (plan == nullptr) {
    PutSimple(s_.sock.out(), protocol::be::kEmptyQueryResponse);
    return;
  }
  // A COMMIT run here drops the portals while `portal` is still in use.
  struct Running {
    Session& s;
    ~Running() {
      s.executing_portal = nullptr;
      s.finished_portal.reset();
    }
  } running{s_};
  s_.executing_portal = &portal;
  if (portal.done) {
    // A completed portal answers later Executes with an empty result.
    PutCommandComplete(s_.sock.out(), portal.tag.rfind("SELECT ", 0) == 0 ? "SELECT 0" : portal.tag);
    return;
  }
  // As PostgreSQL's exec_execute_message: other sessions see the prepared
  // statement's text in pg_stat_activity while the portal runs.
  storage::ReportQuery(portal.source->query, types::CurrentTimestampUsecs());
  StatementScope scope(s_, portal.source->stmt.get());
  CheckNotFailed(*plan);
  if (s_.block == BlockState::kIdle) in_implicit_txn_ = true;
  if (!portal.cursor) {
    s_.query_string = portal.source->query;
    const bool lend = CanLendPlan(s_, portal);
    portal.source->starts++;
    if (lend) {
      portal.own_plan = std::move(portal.source->plan);
      portal.source->plan_lent = true;
      portal.cursor = portal.own_plan->StartOnce(s_, portal.params);
    } else {
      portal.cursor = plan->Start(s_, portal.params);
    }
    s_.query_string = {};
  }
  std::string scratch;
  size_t limit = msg.max_rows > 0 ? static_cast<size_t>(msg.max_rows) : SIZE_MAX;
  size_t sent = 0;
  std::vector<types::Value> row;
  // As PostgreSQL: an Execute that stops because it reached max_rows
  // suspends the portal even if no row is left; the next one completes it.
  while (sent < limit) {
    if (!portal.cursor->Next(row)) {
      portal.done = true;
      break;
    }
    CheckForInterrupts();
    PutDataRow(s_.sock.out(), row, portal.result_formats, scratch);
    s_.sock.MaybeFlush();
    sent++;
  }
  if (!portal.done) {
    PutSimple(s_.sock.out(), protocol::be::kPortalSuspended);
    return;
  }
  portal.tag = portal.cursor->Tag();
  // PostgreSQL's SELECT tag after a chunked fetch counts the last Execute's rows.
  if (portal.tag.rfind("SELECT ", 0) == 0 && msg.max_rows > 0) portal.tag = "SELECT " + std::to_string(sent);
  portal.cursor.reset();
  PutCommandComplete(s_.sock.out(), portal.tag);
  AfterStatement(portal.source->stmt.get());
}

void QueryProtocol::Close(std::string_view body) {
  TargetMessage msg = DecodeClose(body);
  if (msg.kind == 'S') {
    auto it = s_.prepared.find(std::string(msg.name));
    if (it != s_.prepared.end()) {
      // Portals made from it die with it.
      for (auto p = s_.portals.begin(); p != s_.portals.end();) {
        p = p->second->source == it->second.get() ? s_.portals.erase(p) : std::next(p);
      }
      s_.prepared.erase(it);
    }
  } else if (msg.kind == 'P') {
    s_.portals.erase(std::string(msg.name));
  } else {
    ProtocolViolation("invalid CLOSE message subtype " + std::to_string(msg.kind));
  }
  PutSimple(s_.sock.out(), protocol::be::kCloseComplete);
}

void QueryProtocol::Sync() {
  skip_until_sync_ = false;
  if (s_.block == BlockState::kIdle) {
    try {
      s_.EndTransaction(true);
    } catch (const DbError& e) {
      ReportError(e);
    }
  }
  in_implicit_txn_ = false;
  s_.ReportChangedSettings();
  PutReadyForQuery(s_.sock.out(), s_.ReadyStatus());
}

}  // namespace hearth::tcop
