// tcop/database_plans.cpp
//
// Principal entry point: PlanDatabaseStmt (CREATE / DROP / ALTER DATABASE,
// GRANT / REVOKE ... ON DATABASE | SCHEMA). The catalog work is in
// catalog/database_ddl.h and catalog/database_privileges.h; this file adds
// the session's part: who asks, the transaction-block rule (25001), and the
// check of ALTER DATABASE SET's parameter name.
#include "catalog/database_ddl.h"
#include "catalog/database_privileges.h"
#include "catalog/role_catalog.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "config/registry.h"
#include "parser/parser.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

uint32_t CurrentUserOid(Session& s) {
  auto t = catalog::FindRoleByName(s.CurrentUserName());
  return t ? t->role.oid : 0;
}

void SendNotices(Session& s, const catalog::DdlResult& r) {
  for (const auto& n : r.notices) s.Notice(Severity::kNotice, n.sqlstate, n.message);
}

class DatabasePlan : public Plan {
 public:
  explicit DatabasePlan(const parser::Statement& stmt) : stmt_(stmt) {}

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    const char* name = parser::StatementName(stmt_);
    const bool outside_block_only = stmt_.kind == parser::StmtKind::kCreateDatabase ||
                                    stmt_.kind == parser::StmtKind::kDrop;
    if (outside_block_only && s.block != BlockState::kIdle) {
      throw DbError(sqlstate::kActiveSqlTransaction, std::string(name) + " cannot run inside a transaction block");
    }
    const uint32_t user = CurrentUserOid(s);
    switch (stmt_.kind) {
      case parser::StmtKind::kCreateDatabase:
        SendNotices(s, catalog::CreateDatabase(stmt_.As<parser::CreateDatabaseStmt>(), user));
        return "CREATE DATABASE";
      case parser::StmtKind::kAlterDatabase: {
        const auto& a = stmt_.As<parser::AlterDatabaseStmt>();
        if (!a.set_name.empty() && a.set_name != "all" && a.set_name.find('.') == std::string::npos &&
            config::FindSetting(a.set_name) == nullptr) {
          throw DbError(sqlstate::kUndefinedObject, "unrecognized configuration parameter \"" + a.set_name + "\"");
        }
        SendNotices(s, catalog::AlterDatabase(a, user));
        return "ALTER DATABASE";
      }
      case parser::StmtKind::kGrantPriv: {
        const auto& g = stmt_.As<parser::GrantPrivStmt>();
        SendNotices(s, catalog::GrantRevokeDatabaseOrSchema(g, user));
        return g.is_grant ? "GRANT" : "REVOKE";
      }
      default:
        SendNotices(s, catalog::DropDatabase(stmt_.As<parser::DropStmt>(), user));
        return "DROP DATABASE";
    }
  }

 private:
  const parser::Statement& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanDatabaseStmt(const parser::Statement& stmt) {
  using K = parser::StmtKind;
  const bool mine = stmt.kind == K::kCreateDatabase || stmt.kind == K::kAlterDatabase ||
                    (stmt.kind == K::kDrop && stmt.As<parser::DropStmt>().object_type == parser::ObjectType::kDatabase) ||
                    (stmt.kind == K::kGrantPriv && !stmt.As<parser::GrantPrivStmt>().object_kind.empty());
  if (!mine) return nullptr;
  return std::make_unique<DatabasePlan>(stmt);
}

}  // namespace hearth::tcop
