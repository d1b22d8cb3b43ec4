// tcop/plan_statement.cpp
//
// Principal entry point: PlanStatement, the dispatch from parsed statement to
// plan. Statements whose execution has not arrived yet answer 0A000 naming
// the statement — never a fake result.
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/plan.h"
#include "tcop/sql_functions.h"
#include "tcop/trigger_plans.h"
#include "tcop/type_plans.h"
#include "tcop/read_only_check.h"

namespace hearth::tcop {

namespace {

[[noreturn]] void NotSupported(const parser::Statement& stmt) {
  throw DbError(sqlstate::kFeatureNotSupported,
                std::string(parser::StatementName(stmt)) + " is not supported yet")
;
}

}  // namespace

std::unique_ptr<Plan> PlanStatement(Session& session, const parser::Statement& stmt,
                                    const std::vector<types::Oid>& param_types) {
  PreventCommandDuringRecovery(stmt);
  using K = parser::StmtKind;
  switch (stmt.kind) {
    case K::kTransaction:
      return PlanTransactionStmt(stmt.As<parser::TransactionStmt>());
    case K::kSet:
      return PlanSetStmt(stmt.As<parser::SetStmt>());
    case K::kShow:
      return PlanShowStmt(session, stmt.As<parser::ShowStmt>());
    case K::kReset:
      return PlanResetStmt(stmt.As<parser::ResetStmt>());
    case K::kCopy:
      // Option positions are offsets into the whole query string; the
      // statement's own text matches it only when it starts at offset 0.
      return PlanCopy(session, stmt.As<parser::CopyStmt>(),
                      stmt.location == 0 ? std::string_view(stmt.text) : std::string_view());
    case K::kSelect:
      if (stmt.As<parser::SelectStmt>().into) return PlanSelectInto(session, stmt.As<parser::SelectStmt>());
      return PlanQuery(session, stmt, param_types);
    case K::kInsert:
    case K::kUpdate:
    case K::kDelete:
    case K::kExplain:
      return PlanQuery(session, stmt, param_types);
    default:
      if (auto plan = PlanDatabaseStmt(stmt)) return plan;
      if (auto plan = PlanRoleStmt(stmt)) return plan;
      if (auto plan = PlanSequenceDdl(stmt)) return plan;
      if (auto plan = PlanDdl(session, stmt)) return plan;
      if (auto plan = PlanViewDdl(stmt)) return plan;
      if (auto plan = PlanPrepared(session, stmt)) return plan;
      if (auto plan = PlanExtension(stmt)) return plan;
      if (auto plan = PlanCursorStmt(session, stmt, param_types)) return plan;
      if (auto plan = PlanFunctionStmt(session, stmt)) return plan;
      if (auto plan = PlanTriggerStmt(stmt)) return plan;
      if (auto plan = PlanLockStmt(stmt)) return plan;
      if (auto plan = PlanCommentStmt(stmt)) return plan;
      if (auto plan = PlanDiscard(stmt)) return plan;
      if (auto plan = PlanDefaultPrivilegesStmt(stmt)) return plan;
      if (auto plan = PlanTypeStmt(stmt)) return plan;
      NotSupported(stmt);
  }
}

}  // namespace hearth::tcop
