// tcop/lock_plans.cpp
//
// Principal entry point: PlanLockStmt — LOCK TABLE: takes the heavyweight
// lock on each named table (held to transaction end) after PostgreSQL 15's
// checks: only inside a transaction block (25P01), a relation that exists
// (42P01), a table (a sequence or a catalog view is 42809), the
// privilege the mode needs (42501), and NOWAIT's 55P03.
#include "catalog/acl.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/system_views.h"
#include "common/error/sqlstate.h"
#include "storage/lmgr/lock.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

// PostgreSQL's LockTableAclCheck: ACCESS SHARE needs SELECT, ROW
// EXCLUSIVE any of INSERT/UPDATE/DELETE/TRUNCATE, stronger modes any of
// UPDATE/DELETE/TRUNCATE (holding one is enough).
void CheckLockPrivilege(const catalog::RelationEntry& rel, storage::LockMode mode) {
  using namespace catalog;
  std::vector<uint32_t> any_of;
  if (mode == storage::LockMode::kAccessShare) {
    any_of = {kAclSelect};
  } else if (mode == storage::LockMode::kRowExclusive) {
    any_of = {kAclInsert, kAclUpdate, kAclDelete, kAclTruncate};
  } else {
    any_of = {kAclUpdate, kAclDelete, kAclTruncate};
  }
  for (uint32_t bit : any_of) {
    try {
      CheckTablePrivileges(rel, bit);
      return;
    } catch (const DbError&) {
    }
  }
  CheckTablePrivileges(rel, any_of.front());  // throws PostgreSQL's 42501
}

class LockPlan : public Plan {
 public:
  explicit LockPlan(const parser::LockStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (s.block == BlockState::kIdle && !s.implicit_block) {
      throw DbError(sqlstate::kNoActiveSqlTransaction, "LOCK TABLE can only be used in transaction blocks");
    }
    const auto mode = static_cast<storage::LockMode>(stmt_.mode);
    for (const parser::RangeVar& rv : stmt_.tables) LockOne(rv, mode);
    return "LOCK TABLE";
  }

 private:
  void LockOne(const parser::RangeVar& rv, storage::LockMode mode) const {
    catalog::RelationRef rel = catalog::LookupRelation(rv.schema, rv.name);
    if (!rel) {
      if ((rv.schema.empty() || rv.schema == "pg_catalog") && catalog::SystemViewOid(rv.name)) {
        throw DbError(sqlstate::kWrongObjectType, "\"" + rv.name + "\" is not a table or view");
      }
      throw DbError(sqlstate::kUndefinedTable,
                    "relation \"" + (rv.schema.empty() ? "" : rv.schema + ".") + rv.name + "\" does not exist");
    }
    if (rel->relkind != 'r') throw DbError(sqlstate::kWrongObjectType, "\"" + rv.name + "\" is not a table or view");
    CheckLockPrivilege(*rel, mode);
    if (stmt_.nowait &&
        storage::LockAcquire(catalog::RelationLockTag(rel->oid), mode, /*dont_wait=*/true) ==
            storage::LockAcquireResult::kNotAvailable) {
      throw DbError(sqlstate::kLockNotAvailable, "could not obtain lock on relation \"" + rv.name + "\"");
    }
    // Waits (unless NOWAIT took it above) and re-checks the relation.
    if (!catalog::OpenRelationByOid(rel->oid, mode)) {
      throw DbError(sqlstate::kUndefinedTable, "relation \"" + rv.name + "\" does not exist");
    }
  }

  const parser::LockStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanLockStmt(const parser::Statement& stmt) {
  if (stmt.kind != parser::StmtKind::kLock) return nullptr;
  return std::make_unique<LockPlan>(stmt.As<parser::LockStmt>());
}

}  // namespace hearth::tcop
