// tcop/discard_plans.cpp
//
// Principal entry point: PlanDiscard — DISCARD {ALL | PLANS | SEQUENCES |
// TEMP}, which puts a session back into the state of a fresh connection (or
// part of it). Connection poolers send DISCARD ALL before handing a server
// connection to another client (pgpool-II always; pgbouncer in session
// mode), so what one client left behind must not reach the next.
#include "catalog/sequence.h"
#include "catalog/temp_namespace.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/cursors.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

// Cached plans are made again at their next use (the prepared statements
// themselves stay).
void DiscardPlans(Session& s) {
  for (auto& [name, ps] : s.prepared) ps->catalog_version = 0;
}

// DEALLOCATE ALL: the named prepared statements go, the unnamed one (the
// statement running this DISCARD, in the extended protocol) stays, as does
// any statement a running portal still executes.
void DeallocateAll(Session& s) {
  s.DropPortals();
  const PreparedStatement* running = s.finished_portal ? s.finished_portal->source : nullptr;
  for (auto it = s.prepared.begin(); it != s.prepared.end();) {
    if (it->first.empty() || it->second.get() == running) {
      ++it;
    } else {
      it = s.prepared.erase(it);
    }
  }
}

class DiscardPlan : public Plan {
 public:
  explicit DiscardPlan(const parser::DiscardStmt& stmt) : target_(stmt.target) {}

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    using T = parser::DiscardTarget;
    switch (target_) {
      case T::kPlans:
        DiscardPlans(s);
        return "DISCARD PLANS";
      case T::kSequences:
        catalog::ForgetSessionSequence(0);
        return "DISCARD SEQUENCES";
      case T::kTemp:
        catalog::DropTempRelations();
        return "DISCARD TEMP";
      case T::kAll:
        break;
    }
    if (s.block != BlockState::kIdle) {
      throw DbError(sqlstate::kActiveSqlTransaction, "DISCARD ALL cannot run inside a transaction block");
    }
    CloseCursor(s, "");  // CLOSE ALL
    SetRoleSetting(s, "session_authorization", nullptr, false);
    s.settings.ResetAll();
    DeallocateAll(s);
    DiscardPlans(s);
    catalog::ForgetSessionSequence(0);
    catalog::DropTempRelations();
    return "DISCARD ALL";
  }

 private:
  parser::DiscardTarget target_;
};

}  // namespace

std::unique_ptr<Plan> PlanDiscard(const parser::Statement& stmt) {
  if (stmt.kind != parser::StmtKind::kDiscard) return nullptr;
  return std::make_unique<DiscardPlan>(stmt.As<parser::DiscardStmt>());
}

}  // namespace hearth::tcop
