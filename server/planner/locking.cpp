// server/planner/locking.cpp
//
// SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF t, ...]
// [NOWAIT | SKIP LOCKED]: which FROM tables are locked with which strength
// and wait policy (PostgreSQL's merge rules), PostgreSQL's restrictions
// (0A000) and the LockRows node's inputs. The node itself:
// executor/nodes/lock_rows_node.h.
#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/lock_rows_node.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

namespace {

executor::RowLockStrength StrengthOf(parser::LockStrength s) {
  switch (s) {
    case parser::LockStrength::kKeyShare: return executor::RowLockStrength::kKeyShare;
    case parser::LockStrength::kShare: return executor::RowLockStrength::kShare;
    case parser::LockStrength::kNoKeyUpdate: return executor::RowLockStrength::kNoKeyUpdate;
    case parser::LockStrength::kUpdate: return executor::RowLockStrength::kUpdate;
  }
  return executor::RowLockStrength::kUpdate;
}

executor::RowLockPolicy PolicyOf(parser::LockWaitPolicy p) {
  switch (p) {
    case parser::LockWaitPolicy::kBlock: return executor::RowLockPolicy::kBlock;
    case parser::LockWaitPolicy::kSkipLocked: return executor::RowLockPolicy::kSkipLocked;
    case parser::LockWaitPolicy::kNoWait: return executor::RowLockPolicy::kNoWait;
  }
  return executor::RowLockPolicy::kBlock;
}

// Several clauses naming one table: the strongest strength and the
// strictest wait policy (NOWAIT > SKIP LOCKED > wait), as PostgreSQL.
void Merge(std::optional<LockSpec>& into, const LockSpec& add) {
  if (!into) {
    into = add;
    return;
  }
  into->strength = std::max(into->strength, add.strength);
  into->policy = std::max(into->policy, add.policy);
}

}  // namespace

const char* LockingClauseName(parser::LockStrength s) {
  switch (s) {
    case parser::LockStrength::kKeyShare: return "FOR KEY SHARE";
    case parser::LockStrength::kShare: return "FOR SHARE";
    case parser::LockStrength::kNoKeyUpdate: return "FOR NO KEY UPDATE";
    case parser::LockStrength::kUpdate: return "FOR UPDATE";
  }
  return "FOR UPDATE";
}

void CheckSelectLocking(const parser::SelectStmt& s, bool has_aggregates) {
  if (s.locking.empty()) return;
  const std::string what = LockingClauseName(s.locking.front().strength);
  auto reject = [&](const std::string& with) {
    throw DbError(sqlstate::kFeatureNotSupported, what + " is not allowed with " + with);
  };
  if (s.set_op != parser::SetOpKind::kNone) reject("UNION/INTERSECT/EXCEPT");
  if (!s.values_lists.empty()) throw DbError(sqlstate::kFeatureNotSupported, what + " cannot be applied to VALUES");
  if (s.distinct) reject("DISTINCT clause");
  if (!s.group_by.empty()) reject("GROUP BY clause");
  if (s.having) reject("HAVING clause");
  if (has_aggregates) reject("aggregate functions");
}

void QueryPlanner::SetUpLocking(const parser::SelectStmt& s) {
  lock_all_.reset();
  lock_named_.clear();
  for (const parser::LockingClause& lc : s.locking) {
    LockSpec spec{StrengthOf(lc.strength), PolicyOf(lc.wait)};
    if (lc.tables.empty()) {
      Merge(lock_all_, spec);
      continue;
    }
    for (const parser::RangeVar& rv : lc.tables) {
      auto it = std::find_if(lock_named_.begin(), lock_named_.end(), [&](const NamedLock& n) { return n.name == rv.name; });
      if (it == lock_named_.end()) {
        lock_named_.push_back(NamedLock{rv.name, std::nullopt, LockingClauseName(lc.strength), rv.location, false});
        it = lock_named_.end() - 1;
      }
      Merge(it->spec, spec);
    }
  }
}

std::optional<LockSpec> QueryPlanner::LockSpecFor(const std::string& alias) {
  std::optional<LockSpec> spec = lock_all_;
  for (NamedLock& n : lock_named_) {
    if (n.name != alias) continue;
    n.matched = true;
    Merge(spec, *n.spec);
  }
  return spec;
}

void QueryPlanner::CheckLockTargetsFound(const parser::SelectStmt& s, const Scope& scope) {
  for (const NamedLock& n : lock_named_) {
    if (n.matched) continue;
    const bool is_join = std::any_of(s.from.begin(), s.from.end(), [&](const parser::FromItemPtr& fi) {
      return fi->kind == parser::FromKind::kJoin && fi->As<parser::JoinRef>().alias.name == n.name;
    });
    const bool other_item = std::any_of(scope.entries.begin(), scope.entries.end(),
                                        [&](const RangeEntry& e) { return e.alias == n.name; });
    DbError e = is_join      ? DbError(sqlstate::kFeatureNotSupported, std::string(n.clause) + " cannot be applied to a join")
                : other_item ? DbError(sqlstate::kFeatureNotSupported,
                                       std::string(n.clause) + " of a subquery in FROM is not supported yet")
                             : DbError(sqlstate::kUndefinedTable,
                                       "relation \"" + n.name + "\" in " + n.clause + " clause not found in FROM clause");
    if (n.location >= 0) e.WithPosition(n.location + 1);
    throw e;
  }
}

std::vector<executor::LockedTable> QueryPlanner::LockedTables(const Scope& scope) {
  std::vector<executor::LockedTable> out;
  for (PendingLock& p : pending_locks_) {
    const RangeEntry* entry = nullptr;
    for (const RangeEntry& e : scope.entries) {
      if (e.alias == p.alias && !e.names.empty() && e.names.back() == kLockRowIdColumn) entry = &e;
    }
    if (entry == nullptr) {
      throw DbError(sqlstate::kFeatureNotSupported, "FOR UPDATE of a table inside an aliased join is not supported yet");
    }
    executor::LockedTable t;
    t.table = std::move(p.table);
    t.strength = p.spec.strength;
    t.policy = p.spec.policy;
    t.first_column = entry->offset;
    t.rid_column = entry->offset + entry->width() - 1;
    out.push_back(std::move(t));
  }
  pending_locks_.clear();
  return out;
}

void QueryPlanner::CheckNullableSideUnlocked(parser::JoinType type, const std::vector<RangeEntry>& left,
                                             const std::vector<RangeEntry>& right) {
  auto check = [&](const std::vector<RangeEntry>& side) {
    for (const RangeEntry& e : side) {
      if (e.names.empty() || e.names.back() != kLockRowIdColumn) continue;
      for (const PendingLock& p : pending_locks_) {
        if (p.alias != e.alias) continue;
        static const char* const kNames[] = {"FOR KEY SHARE", "FOR SHARE", "FOR NO KEY UPDATE", "FOR UPDATE"};
        throw DbError(sqlstate::kFeatureNotSupported, std::string(kNames[static_cast<int>(p.spec.strength)]) +
                                                          " cannot be applied to the nullable side of an outer join");
      }
    }
  };
  if (type == parser::JoinType::kRight || type == parser::JoinType::kFull) check(left);
  if (type == parser::JoinType::kLeft || type == parser::JoinType::kFull) check(right);
}

int QueryPlanner::AddLockColumns(const parser::SelectStmt& s, const Scope& scope, std::vector<PlanExpr>* exprs) {
  if (s.locking.empty() || pending_locks_.empty()) return 0;
  const int width = scope.width();
  std::vector<types::Oid> col_types(static_cast<size_t>(width), types::kInt4Oid);
  std::vector<int32_t> col_typmods(static_cast<size_t>(width), types::kNoTypmod);
  for (const RangeEntry& e : scope.entries) {
    for (int i = 0; i < e.width(); ++i) {
      col_types[static_cast<size_t>(e.offset + i)] = e.types[static_cast<size_t>(i)];
      col_typmods[static_cast<size_t>(e.offset + i)] = e.typmods[static_cast<size_t>(i)];
    }
  }
  for (int i = 0; i < width; ++i) {
    exprs->push_back(PlanExpr{MakeColumn(i, col_types[static_cast<size_t>(i)], col_typmods[static_cast<size_t>(i)]), ""});
  }
  return width;
}

ExecNodePtr QueryPlanner::AddLockRows(ExecNodePtr node, const parser::SelectStmt& s, const Scope& scope,
                                      const std::vector<TargetSpec>& targets, const std::vector<OutputColumn>& columns,
                                      int from_width) {
  if (from_width == 0) return node;
  std::vector<executor::LockedTable> locked = LockedTables(scope);
  // The Read Committed re-check evaluates WHERE and the select list again
  // on the FROM row holding the newest version: bind them once more there.
  PlanExpr where;
  if (s.where) {
    BindContext ctx = Context(&scope, "WHERE");
    where.expr = BindCond(*s.where, ctx, "WHERE");
  }
  std::vector<PlanExpr> outputs;
  for (const TargetSpec& t : targets) {
    BindContext ctx = Context(&scope, nullptr);
    BoundExprPtr b = Bind(*t.expr, ctx);
    ctx.param_types = st_.params;
    b = executor::ResolveUnknownOutput(std::move(b), ctx);
    st_.params = ctx.param_types;
    outputs.push_back(PlanExpr{std::move(b), ""});
  }
  return std::make_unique<executor::LockRowsNode>(std::move(node), columns, from_width, std::move(locked),
                                                  std::move(where), std::move(outputs));
}

}  // namespace hearth::planner
