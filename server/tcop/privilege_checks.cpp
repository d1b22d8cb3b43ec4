// tcop/privilege_checks.cpp
//
// Principal entry points: LookupRecorder, CheckPrivileges, SetActingRole.
#include "tcop/privilege_checks.h"

#include "catalog/catalog_shared.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/role_catalog.h"
#include "catalog/system_views.h"
#include "planner/planner.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

struct Target {
  const parser::RangeVar* table = nullptr;
  uint32_t privilege = 0;
  bool reads = false;  // WHERE / RETURNING read the target's rows
};

Target TargetOf(const parser::Statement& stmt) {
  Target t;
  switch (stmt.kind) {
    case parser::StmtKind::kInsert: {
      const auto& s = stmt.As<parser::InsertStmt>();
      t = {&s.table, catalog::kAclInsert, !s.returning.empty()};
      break;
    }
    case parser::StmtKind::kUpdate: {
      const auto& s = stmt.As<parser::UpdateStmt>();
      t = {&s.table, catalog::kAclUpdate, s.where != nullptr || !s.returning.empty()};
      break;
    }
    case parser::StmtKind::kDelete: {
      const auto& s = stmt.As<parser::DeleteStmt>();
      t = {&s.table, catalog::kAclDelete, s.where != nullptr || !s.returning.empty()};
      break;
    }
    default:
      break;
  }
  return t;
}

}  // namespace

LookupRecorder::LookupRecorder(Session& s) : session_(s) {
  if (s.views != nullptr) {
    s.views->SetLookupObserver([this](const executor::TableInfo& t) { looked_up_.push_back(t); });
  }
}

LookupRecorder::~LookupRecorder() {
  if (session_.views != nullptr) session_.views->SetLookupObserver(nullptr);
}

RequiredPrivileges LookupRecorder::Required(const parser::Statement& stmt) const {
  const Target target = TargetOf(stmt);
  std::map<types::Oid, uint32_t> need;
  bool target_seen = false;
  for (const executor::TableInfo& t : looked_up_) {
    if (t.oid < catalog::kFirstNormalObjectId) continue;  // system views and catalogs
    const bool is_target = target.table != nullptr && !target_seen && t.name == target.table->name &&
                           (target.table->schema.empty() || target.table->schema == t.schema);
    if (is_target) {
      target_seen = true;
      need[t.oid] |= target.privilege | (target.reads ? uint32_t{catalog::kAclSelect} : 0u);
    } else {
      need[t.oid] |= catalog::kAclSelect;
    }
  }
  return RequiredPrivileges(need.begin(), need.end());
}

void CheckPrivileges(const RequiredPrivileges& required) {
  if (catalog::CurrentUserIsSuperuser()) return;
  for (const auto& [oid, mask] : required) {
    if (catalog::RelationRef e = catalog::LookupRelationByOid(oid)) catalog::CheckTablePrivileges(*e, mask);
  }
}

void CheckTablePrivilege(const executor::TableInfo& table, uint32_t mask) {
  if (catalog::CurrentUserIsSuperuser() || table.oid < catalog::kFirstNormalObjectId) return;
  if (catalog::RelationRef e = catalog::LookupRelationByOid(table.oid)) catalog::CheckTablePrivileges(*e, mask);
}

executor::PlannedStatement PlanAndCheck(Session& s, const parser::Statement& stmt) {
  LookupRecorder recorder(s);
  executor::PlannedStatement plan = planner::PlanStatement(stmt, *s.tables);
  CheckPrivileges(recorder.Required(stmt));
  return plan;
}

void SetActingRole(Session& s) {
  const std::string name = s.CurrentUserName();
  const uint64_t version = catalog::CatalogVersion();
  if (name == s.acting_role_name && version == s.acting_role_version) return;
  auto role = catalog::FindRoleByName(name);
  s.acting_role_name = name;
  s.acting_role_version = version;
  // A role dropped under the session acts as nobody: every check fails.
  catalog::SetCurrentUser(role ? role->role.oid : catalog::kNoSuchRole, role && role->role.superuser);
}

}  // namespace hearth::tcop
