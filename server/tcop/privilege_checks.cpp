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

// The statement's target and those of data-modifying WITH queries.
void CollectTargets(const parser::Statement& stmt, std::vector<Target>* out) {
  Target t = TargetOf(stmt);
  if (t.table != nullptr) out->push_back(t);
  const std::vector<parser::CommonTableExpr>* with = nullptr;
  switch (stmt.kind) {
    case parser::StmtKind::kSelect: with = &stmt.As<parser::SelectStmt>().with; break;
    case parser::StmtKind::kInsert: with = &stmt.As<parser::InsertStmt>().with; break;
    case parser::StmtKind::kUpdate: with = &stmt.As<parser::UpdateStmt>().with; break;
    case parser::StmtKind::kDelete: with = &stmt.As<parser::DeleteStmt>().with; break;
    default: return;
  }
  for (const parser::CommonTableExpr& c : *with) {
    if (c.query) CollectTargets(*c.query, out);
  }
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
  std::vector<Target> targets;
  CollectTargets(stmt, &targets);
  std::vector<bool> target_seen(targets.size(), false);
  std::map<types::Oid, uint32_t> need;
  for (const executor::TableInfo& t : looked_up_) {
    if (t.oid < catalog::kFirstNormalObjectId) continue;  // system views and catalogs
    // The first lookup of a target's name is the target (INSERT/UPDATE/DELETE
    // look their table up first); every other lookup reads.
    uint32_t bits = catalog::kAclSelect;
    for (size_t i = 0; i < targets.size(); ++i) {
      const Target& target = targets[i];
      if (target_seen[i] || t.name != target.table->name ||
          (!target.table->schema.empty() && target.table->schema != t.schema)) {
        continue;
      }
      target_seen[i] = true;
      bits = target.privilege | (target.reads ? uint32_t{catalog::kAclSelect} : 0u);
      break;
    }
    need[t.oid] |= bits;
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
