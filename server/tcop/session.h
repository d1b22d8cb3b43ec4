// tcop/session.h
//
// Everything one client session owns: the socket, who it is, its settings,
// its transaction-block state, and the extended protocol's prepared
// statements and portals. One per backend process.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/session_settings.h"
#include "executor/table_access.h"
#include "tcop/cursors.h"
#include "tcop/dest.h"
#include "tcop/plan.h"
#include "tcop/pqcomm.h"
#include "utils/adt/func_context.h"

namespace hearth::catalog {
class HeapTableProvider;
class SystemViewProvider;
}

namespace hearth::tcop {

// Transaction-block state as the client sees it (ReadyForQuery's byte).
enum class BlockState {
  kIdle,     // 'I': no transaction block
  kInBlock,  // 'T': inside BEGIN ... COMMIT
  kFailed,   // 'E': inside a block that hit an error; only ROLLBACK/COMMIT work
};

struct PreparedStatement {
  std::string query;
  std::unique_ptr<parser::Statement> stmt;  // null for an empty query
  std::unique_ptr<Plan> plan;               // null for an empty query
  std::vector<types::Oid> declared_types;   // as the client gave them (0 = infer)
  uint64_t catalog_version = 0;             // catalog the plan was made against
  // The plan was handed to the one portal that ran it (Portal::own_plan);
  // `plan` is null until the next use plans the statement again.
  bool plan_lent = false;
  uint64_t starts = 0;  // portals started from it so far
};

struct Portal {
  PreparedStatement* source = nullptr;  // owned by Session::prepared
  // The source's plan when it was lent to this portal (the unnamed
  // statement's plan, run once: its execution takes the plan's trees
  // instead of cloning them). Declared before `cursor`, which uses it.
  std::unique_ptr<Plan> own_plan;
  Plan* plan() const { return own_plan ? own_plan.get() : source->plan.get(); }
  std::vector<types::Value> params;
  std::vector<int16_t> result_formats;
  // Started at the first Execute; later Executes continue it.
  std::unique_ptr<Cursor> cursor;
  bool done = false;
  std::string tag;
};

class Session {
 public:
  Session(ClientSocket& sock, config::SessionSettings settings) : sock(sock), settings(std::move(settings)) {}

  ClientSocket& sock;
  config::SessionSettings settings;
  std::string datadir;
  std::string database;
  std::string user;            // the authenticated user (login role)
  uint32_t login_role = 0;     // its pg_authid oid
  bool login_superuser = false;
  int32_t backend_pid = 0;

  // session_user: the login role, or SET SESSION AUTHORIZATION's.
  std::string SessionUserName() const;
  // current_user: SET ROLE's role, else the session user.
  std::string CurrentUserName() const;

  BlockState block = BlockState::kIdle;
  // Open savepoints, outermost first (tcop/savepoints.h); empty outside a block.
  std::vector<std::string> savepoints;
  // SQL cursors by name (tcop/cursors.h).
  SqlCursorMap sql_cursors;
  // The query string being run (pg_cursors.statement) and whether its
  // statements form PostgreSQL's implicit block (a simple Query of several
  // statements outside BEGIN), where DECLARE CURSOR is allowed.
  std::string_view query_string;
  bool implicit_block = false;
  // The tables statements see (catalog + heap); null until storage is wired.
  executor::TableProvider* tables = nullptr;
  catalog::HeapTableProvider* provider = nullptr;  // the same object, typed
  catalog::SystemViewProvider* views = nullptr;    // `tables` when it has the system views
  // The role privilege checks act as, and when it was resolved
  // (privilege_checks.h, SetActingRole).
  std::string acting_role_name;
  uint64_t acting_role_version = 0;
  // What built-in functions see of the session (now(), current_user, ...).
  types::SessionCallbacks callbacks;
  types::FuncCallContext func_context;
  // µs since 2000-01-01: start of the current transaction and statement.
  int64_t transaction_start_us = 0;
  int64_t statement_start_us = 0;

  // Fills `callbacks` with this session's answers (call once, at start).
  void InstallCallbacks();
  // Starts a transaction unless one is running or the block has failed.
  void EnsureTransaction();
  // Publishes the current isolation level as transaction_isolation.
  void ShowIsolation();
  // Called when a statement starts: stamps it and EnsureTransaction();
  // `reads_tables`: also accept catalog invalidations and take the
  // statement snapshot (not for BEGIN/SET, so they can still choose the
  // transaction's isolation level).
  void StartStatement(bool reads_tables);
  // Called after a statement succeeded: its changes become visible to the
  // next command of the transaction.
  void EndStatement();
  // After an error: aborts the transaction now; a block becomes failed.
  void AbortAfterError();
  // Plans a prepared statement again when DDL committed since it was planned
  // (a dropped index, a new column), unless a portal still runs its plan.
  void RevalidatePrepared(PreparedStatement& ps);
  std::map<std::string, std::unique_ptr<PreparedStatement>> prepared;
  std::map<std::string, std::unique_ptr<Portal>> portals;
  // The portal an Execute message is running. When it ends the transaction
  // (COMMIT/END through the extended protocol) every portal is dropped, but
  // this one is parked in `finished_portal` until Execute is done with it.
  Portal* executing_portal = nullptr;
  std::unique_ptr<Portal> finished_portal;
  // Drops every portal (the executing one is parked, see above).
  void DropPortals();

  // Sends a NOTICE/WARNING now (queued with the statement's output).
  // Sent unless client_min_messages is above its level (INFO always goes,
  // as in PostgreSQL).
  void Notice(Severity severity, const std::string& sqlstate, const std::string& message,
              const std::string& detail = {}) {
    if (BelowClientMinMessages(severity)) return;
    PutNotice(sock.out(), severity, sqlstate, message, detail);
  }
  bool BelowClientMinMessages(Severity severity) const {
    const config::MessageLevel min = settings.hot().client_min_messages;
    switch (severity) {
      case Severity::kDebug: return min > config::MessageLevel::kDebug1;
      case Severity::kLog: return min > config::MessageLevel::kLog;
      case Severity::kNotice: return min > config::MessageLevel::kNotice;
      case Severity::kWarning: return min > config::MessageLevel::kWarning;
      default: return false;
    }
  }

  // Sends ParameterStatus for every reported setting changed since last time.
  void ReportChangedSettings();

  char ReadyStatus() const {
    switch (block) {
      case BlockState::kIdle: return 'I';
      case BlockState::kInBlock: return 'T';
      case BlockState::kFailed: return 'E';
    }
    return 'I';
  }

  // Ends the current transaction (commit or abort) and leaves block state
  // Idle; drops portals, which live only as long as their transaction.
  // A failing commit aborts instead and rethrows.
  void EndTransaction(bool commit);
};

}  // namespace hearth::tcop
