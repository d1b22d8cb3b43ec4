// tcop/read_only_check.cpp
//
// Principal entry point: PreventCommandDuringRecovery. A standby serves
// reads only: every statement that would write is refused before it is
// planned, with PostgreSQL's 25006 and words. (Statements that only turn out
// to write while running, e.g. a data-modifying WITH, meet the same SQLSTATE
// when they ask for a transaction id.)
#include "tcop/read_only_check.h"

#include "access/transam/xlog_standby.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "common/error/db_error.h"

namespace hearth::tcop {

namespace {

// Statements that change nothing a standby replays.
bool IsReadOnly(const parser::Statement& stmt) {
  using K = parser::StmtKind;
  switch (stmt.kind) {
    case K::kSelect:
      return !stmt.As<parser::SelectStmt>().into;
    case K::kCopy:
      return !stmt.As<parser::CopyStmt>().is_from;
    case K::kTransaction:
    case K::kSet:
    case K::kShow:
    case K::kReset:
    case K::kExplain:
    case K::kCheckpoint:  // a restartpoint on a standby
    case K::kPrepare:
    case K::kExecute:
    case K::kDeallocate:
    case K::kDiscard:
    case K::kDeclareCursor:
    case K::kFetch:
    case K::kClosePortal:
      return true;
    default:
      return false;
  }
}

}  // namespace

void PreventCommandDuringRecovery(const parser::Statement& stmt) {
  if (!access::RecoveryInProgress() || IsReadOnly(stmt)) return;
  std::string name = parser::StatementName(stmt);
  if (stmt.kind == parser::StmtKind::kVacuum) {
    throw DbError(sqlstate::kReadOnlySqlTransaction, "cannot execute " + name + " during recovery");
  }
  if (stmt.kind == parser::StmtKind::kCopy) name = "COPY FROM";
  if (stmt.kind == parser::StmtKind::kSelect) name = "SELECT INTO";
  throw DbError(sqlstate::kReadOnlySqlTransaction, "cannot execute " + name + " in a read-only transaction");
}

}  // namespace hearth::tcop
