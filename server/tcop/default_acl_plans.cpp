// tcop/default_acl_plans.cpp
//
// Principal entry point: PlanDefaultPrivilegesStmt — ALTER DEFAULT
// PRIVILEGES (catalog/default_acl.h does the work, as the acting role).
#include "catalog/default_acl.h"
#include "parser/parser.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

class DefaultPrivilegesPlan : public Plan {
 public:
  explicit DefaultPrivilegesPlan(const parser::AlterDefaultPrivilegesStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session&, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::AlterDefaultPrivileges(stmt_);
    return "ALTER DEFAULT PRIVILEGES";
  }

 private:
  const parser::AlterDefaultPrivilegesStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanDefaultPrivilegesStmt(const parser::Statement& stmt) {
  if (stmt.kind != parser::StmtKind::kAlterDefaultPrivileges) return nullptr;
  return std::make_unique<DefaultPrivilegesPlan>(stmt.As<parser::AlterDefaultPrivilegesStmt>());
}

}  // namespace hearth::tcop
