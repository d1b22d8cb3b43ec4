// tcop/role_plans.cpp
//
// Principal entry points: PlanRoleStmt (CREATE/ALTER/DROP ROLE, GRANT/REVOKE
// role, GRANT/REVOKE privileges, ALTER ... OWNER TO, and the schema
// statements, whose checks need the same actor), SetRoleSetting (SET
// ROLE, SET SESSION AUTHORIZATION and their RESETs). The role catalog work is in catalog/role_ddl.h;
// this file supplies who is asking.
#include "catalog/owner_ddl.h"
#include "catalog/privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/schema_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/dest.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

void SendRoleNotices(Session& s, const catalog::DdlResult& r) {
  for (const auto& n : r.notices) {
    const bool warning = n.sqlstate.rfind("01", 0) == 0 || n.sqlstate == "0LP01";
    const Severity severity = warning ? Severity::kWarning : Severity::kNotice;
    if (n.hint.empty() && n.detail.empty()) {
      s.Notice(severity, n.sqlstate, n.message);
      continue;
    }
    DbError e(n.sqlstate, n.message, severity);
    if (!n.hint.empty()) e.WithHint(n.hint);
    if (!n.detail.empty()) e.WithDetail(n.detail);
    PutError(s.sock.out(), e);
  }
}

uint32_t RoleOidOf(const std::string& name) {
  auto t = catalog::FindRoleByName(name);
  return t ? t->role.oid : 0;
}

// is_superuser follows the current user (reported to the client), undone
// with the SET that changed the user.
void RefreshIsSuperuser(Session& s, bool is_local) {
  s.settings.SetFollowing("is_superuser", catalog::RoleIsSuperuser(RoleOidOf(s.CurrentUserName())) ? "on" : "off",
                          is_local);
}

// Who runs the statement, as the role catalog's checks need it.
catalog::RoleActor MakeRoleActor(Session& s) {
  catalog::RoleActor a;
  a.current_user = RoleOidOf(s.CurrentUserName());
  a.session_user = RoleOidOf(s.SessionUserName());
  a.password_encryption = s.settings.Show("password_encryption");
  return a;
}

class RolePlan : public Plan {
 public:
  explicit RolePlan(const parser::Statement& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    const catalog::RoleActor actor = MakeRoleActor(s);
    using K = parser::StmtKind;
    switch (stmt_.kind) {
      case K::kCreateRole:
        SendRoleNotices(s, catalog::CreateRole(stmt_.As<parser::CreateRoleStmt>(), actor));
        return "CREATE ROLE";
      case K::kAlterRole:
        SendRoleNotices(s, catalog::AlterRole(stmt_.As<parser::AlterRoleStmt>(), actor));
        RefreshIsSuperuser(s, false);
        return "ALTER ROLE";
      case K::kGrantPriv: {
        const auto& g = stmt_.As<parser::GrantPrivStmt>();
        SendRoleNotices(s, catalog::GrantRevokeTablePrivileges(g));
        return g.is_grant ? "GRANT" : "REVOKE";
      }
      case K::kAlterOwner:
        SendRoleNotices(s, catalog::AlterRelationOwner(stmt_.As<parser::AlterOwnerStmt>(), actor.session_user));
        return parser::StatementName(stmt_);
      case K::kOwned: {
        const auto& o = stmt_.As<parser::OwnedStmt>();
        SendRoleNotices(s, o.is_drop ? catalog::DropOwned(o, actor.session_user)
                                     : catalog::ReassignOwned(o, actor.session_user));
        return parser::StatementName(stmt_);
      }
      case K::kGrantRole: {
        const auto& g = stmt_.As<parser::GrantRoleStmt>();
        SendRoleNotices(s, catalog::GrantRevokeRoles(g, actor));
        return g.is_grant ? "GRANT ROLE" : "REVOKE ROLE";
      }
      case K::kCreateSchema:
        SendRoleNotices(s, catalog::CreateSchema(stmt_.As<parser::CreateSchemaStmt>(), actor.session_user, s.database));
        return "CREATE SCHEMA";
      case K::kAlterSchema:
        SendRoleNotices(s, catalog::AlterSchema(stmt_.As<parser::AlterSchemaStmt>(), actor.session_user, s.database));
        return "ALTER SCHEMA";
      default:
        if (stmt_.As<parser::DropStmt>().object_type == parser::ObjectType::kSchema) {
          SendRoleNotices(s, catalog::DropSchemas(stmt_.As<parser::DropStmt>()));
          return "DROP SCHEMA";
        }
        SendRoleNotices(s, catalog::DropRoles(stmt_.As<parser::DropStmt>(), actor));
        return "DROP ROLE";
    }
  }

 private:
  const parser::Statement& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanRoleStmt(const parser::Statement& stmt) {
  using K = parser::StmtKind;
  const bool is_drop = stmt.kind == K::kDrop && (stmt.As<parser::DropStmt>().object_type == parser::ObjectType::kRole ||
                                                 stmt.As<parser::DropStmt>().object_type == parser::ObjectType::kSchema);
  const bool is_role = stmt.kind == K::kCreateRole || stmt.kind == K::kAlterRole || stmt.kind == K::kGrantRole ||
                       stmt.kind == K::kGrantPriv || stmt.kind == K::kAlterOwner || stmt.kind == K::kOwned ||
                       stmt.kind == K::kCreateSchema || stmt.kind == K::kAlterSchema || is_drop;
  if (!is_role) return nullptr;
  return std::make_unique<RolePlan>(stmt);
}

bool SetRoleSetting(Session& s, const std::string& name, const std::vector<std::string>* values, bool is_local) {
  if (name != "role" && name != "session_authorization") return false;
  if (values == nullptr) {  // DEFAULT / RESET: back to the login's values
    s.settings.SetDefault(name, is_local);
    if (name == "session_authorization") s.settings.SetDefault("role", is_local);
    RefreshIsSuperuser(s, is_local);
    return true;
  }
  if (values->size() != 1) {
    throw DbError(sqlstate::kSyntaxError, "SET " + name + " takes only one argument");
  }
  const std::string& target = values->front();
  if (name == "role") {
    if (target != "none") {
      auto t = catalog::FindRoleByName(target);
      if (!t) throw DbError(sqlstate::kUndefinedObject, "role \"" + target + "\" does not exist");
      const uint32_t session_role = RoleOidOf(s.SessionUserName());
      if (!catalog::RoleIsSuperuser(session_role) && !catalog::IsMemberOfRole(session_role, t->role.oid)) {
        throw DbError(sqlstate::kInsufficientPrivilege, "permission denied to set role \"" + target + "\"");
      }
    }
    s.settings.Set("role", {target}, is_local);
  } else {
    auto t = catalog::FindRoleByName(target);
    if (!t) throw DbError(sqlstate::kUndefinedObject, "role \"" + target + "\" does not exist");
    // Only a session that logged in as a superuser may become someone
    // else (and anyone may return to the login role).
    if (!s.login_superuser && t->role.oid != s.login_role) {
      throw DbError(sqlstate::kInsufficientPrivilege, "permission denied to set session authorization");
    }
    s.settings.Set("session_authorization", {target}, is_local);
    s.settings.SetDefault("role", is_local);
  }
  RefreshIsSuperuser(s, is_local);
  return true;
}

}  // namespace hearth::tcop
