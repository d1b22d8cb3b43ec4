// tcop/privilege_checks.cpp
//
// Principal entry points: LookupRecorder, CheckPrivileges, SetActingRole.
#include "tcop/privilege_checks.h"

#include <set>

#include "catalog/catalog_shared.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/system_views.h"
#include "planner/planner.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

// A statement's target table and the privilege it needs there.
struct Target {
  const parser::RangeVar* table = nullptr;
  uint32_t privilege = 0;
};

Target TargetOf(const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kInsert: {
      // ON CONFLICT DO UPDATE updates too (its SET columns are among the
      // modified ones, so column grants must cover both).
      const auto& ins = stmt.As<parser::InsertStmt>();
      const bool upsert = ins.on_conflict && ins.on_conflict->action == parser::OnConflictAction::kUpdate;
      return {&ins.table, catalog::kAclInsert | (upsert ? uint32_t{catalog::kAclUpdate} : 0u)};
    }
    case parser::StmtKind::kUpdate: return {&stmt.As<parser::UpdateStmt>().table, catalog::kAclUpdate};
    case parser::StmtKind::kDelete: return {&stmt.As<parser::DeleteStmt>().table, catalog::kAclDelete};
    default: return {};
  }
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
    s.views->SetLookupObserver(
        [this](const executor::TableInfo& t) { looked_up_.push_back({t.oid, t.columns.size()}); });
  }
}

LookupRecorder::~LookupRecorder() {
  if (session_.views != nullptr) session_.views->SetLookupObserver(nullptr);
}

RequiredPrivileges LookupRecorder::Required(const parser::Statement& stmt) const {
  // The statement's target and those of its data-modifying WITH queries,
  // matched to the planner's target uses by name in planning order.
  std::vector<Target> targets;
  CollectTargets(stmt, &targets);
  std::vector<bool> target_seen(targets.size(), false);
  auto target_privilege = [&](types::Oid relid) -> uint32_t {
    catalog::RelationRef e = catalog::LookupRelationByOid(relid);
    if (e == nullptr) return 0;
    for (size_t i = 0; i < targets.size(); ++i) {
      const parser::RangeVar& rv = *targets[i].table;
      if (target_seen[i] || rv.name != e->info.name) continue;
      target_seen[i] = true;
      return targets[i].privilege;
    }
    return 0;
  };
  RequiredPrivileges need;
  std::set<types::Oid> covered;
  for (const planner::RelationUse& u : columns_.uses()) {
    if (u.relid < catalog::kFirstNormalObjectId) continue;  // system views and catalogs
    covered.insert(u.relid);
    RelationPrivileges r{u.relid, catalog::kAclSelect, u.read, u.modified, u.check_as};
    // The base relation of a view the statement changes: the statement's
    // privilege, checked as the view's owner (check_as).
    const uint32_t privilege = !u.target ? 0
                               : u.via_view != 0 ? (targets.empty() ? 0 : targets[0].privilege)
                                                 : target_privilege(u.relid);
    if (privilege != 0) r.mask = privilege | (u.read.empty() ? 0u : uint32_t{catalog::kAclSelect});
    need.push_back(std::move(r));
  }
  // Relations looked up but not bound as a reference: SELECT on all of it.
  for (const LookedUp& t : looked_up_) {
    if (t.oid < catalog::kFirstNormalObjectId || !covered.insert(t.oid).second) continue;
    RelationPrivileges r{t.oid, catalog::kAclSelect, {}, {}};
    for (size_t i = 0; i < t.ncolumns; ++i) r.selected.push_back(static_cast<int>(i) + 1);
    need.push_back(std::move(r));
  }
  return need;
}

namespace {

// Acts as `role` while it lives (a view's relations are checked with its
// owner's privileges, whoever runs the query).
class ActingRoleSwap {
 public:
  explicit ActingRoleSwap(types::Oid role)
      : saved_(catalog::GetCurrentUserId()), saved_super_(catalog::CurrentUserIsSuperuser()) {
    catalog::SetCurrentUser(role, catalog::RoleIsSuperuser(role));
  }
  ~ActingRoleSwap() { catalog::SetCurrentUser(saved_, saved_super_); }
  ActingRoleSwap(const ActingRoleSwap&) = delete;
  ActingRoleSwap& operator=(const ActingRoleSwap&) = delete;

 private:
  types::Oid saved_;
  bool saved_super_;
};

}  // namespace

void CheckPrivileges(const RequiredPrivileges& required) {
  const bool superuser = catalog::CurrentUserIsSuperuser();
  for (const RelationPrivileges& r : required) {
    if (superuser && r.check_as == 0) continue;
    catalog::RelationRef e = catalog::LookupRelationByOid(r.relid);
    if (e == nullptr) continue;
    if (r.check_as == 0) {
      catalog::CheckRelationPrivileges(*e, r.mask, r.selected, r.modified);
      continue;
    }
    ActingRoleSwap as_owner(r.check_as);
    catalog::CheckRelationPrivileges(*e, r.mask, r.selected, r.modified);
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
