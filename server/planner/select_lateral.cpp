// server/planner/select_lateral.cpp
//
// LATERAL: a FROM subquery marked LATERAL (and any function in FROM) may
// refer to the FROM items to its left. It is planned like a correlated
// subquery whose "outer query" is those items (its Correlation gives each
// referenced column a hidden parameter slot), and joined by a
// LateralJoinNode that sets the slots from each left row and re-runs it.
// A subquery not marked LATERAL that refers to an item to its left gets
// PostgreSQL's 42P01 `invalid reference to FROM-clause entry` with its hint.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/lateral_join_node.h"
#include "executor/nodes/scan_nodes.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

QueryPlanner::FromResult QueryPlanner::PlanSubqueryItem(const parser::SubqueryRef& sq) {
  if (sq.alias.name.empty()) {
    ThrowAt(DbError(sqlstate::kSyntaxError, "subquery in FROM must have an alias")
                .WithHint("For example, FROM (SELECT ...) [AS] foo."),
            sq.location);
  }
  if (lock_all_) {
    // PostgreSQL locks the subquery's tables; never leave them unlocked silently.
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "FOR UPDATE/SHARE of a subquery in FROM is not supported yet"),
            sq.location);
  }
  FromResult r;
  PlannedQuery q;
  if (sq.lateral && lateral_scope_ != nullptr && !lateral_scope_->entries.empty()) {
    Scope left;
    left.entries = lateral_scope_->entries;
    left.parent = outer_;
    Correlation corr;
    corr.nslots = &st_.nslots;
    QueryPlanner sub(st_, &left, &corr);
    RescannedPart rescanned(st_);
    q = sub.PlanSelect(*sq.subquery);
    for (size_t k = 0; k < corr.refs.size(); ++k) {
      auto [entry, i] = left.Find(*corr.refs[k]);
      const types::Oid type = entry->types[static_cast<size_t>(i)];
      const int32_t typmod = entry->typmods[static_cast<size_t>(i)];
      r.lateral.values.push_back(PlanExpr{MakeColumn(corr.outer_index[k], type, typmod), ""});
      r.lateral.slots.push_back(HiddenParam(type, typmod, corr.slots[k]));
      r.lateral.slot_numbers.push_back(corr.slots[k]);
      if (k == 0) {
        r.lateral.first_table = entry->alias;
        r.lateral.first_location = corr.refs[k]->location;
      }
    }
  } else {
    QueryPlanner sub(st_, outer_, corr_);  // enclosing queries: this level's correlation
    try {
      q = sub.PlanSelect(*sq.subquery);
    } catch (const DbError& e) {
      RethrowSiblingReference(e);
      throw;
    }
  }
  RangeEntry e;
  e.alias = sq.alias.name;
  std::vector<OutputColumn> cols = q.columns;
  if (sq.alias.columns.size() > cols.size()) {
    throw DbError(sqlstate::kInvalidColumnReference, "table \"" + e.alias + "\" has " + std::to_string(cols.size()) +
                                                         " columns available but " +
                                                         std::to_string(sq.alias.columns.size()) + " columns specified");
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i < sq.alias.columns.size()) cols[i].name = sq.alias.columns[i];
    e.names.push_back(cols[i].name);
    e.types.push_back(cols[i].type);
    e.typmods.push_back(cols[i].typmod);
    e.hidden.push_back(false);
  }
  if (dynamic_cast<executor::ValuesScanNode*>(q.node.get()) != nullptr) {
    // A bare VALUES list is scanned directly (PostgreSQL pulls it up too).
    r.node = std::move(q.node);
  } else {
    r.node = std::make_unique<executor::SubqueryScanNode>(std::move(q.node), sq.alias.name, cols);
  }
  r.entries.push_back(std::move(e));
  return r;
}

void QueryPlanner::RethrowSiblingReference(const DbError& e) const {
  if (lateral_scope_ == nullptr) return;
  const std::string& m = e.message();
  const std::string missing = "missing FROM-clause entry for table \"";
  if (e.sqlstate() == sqlstate::kUndefinedTable && m.rfind(missing, 0) == 0) {
    const std::string table = m.substr(missing.size(), m.size() - missing.size() - 1);
    for (const RangeEntry& re : lateral_scope_->entries) {
      if (re.alias != table) continue;
      throw DbError(sqlstate::kUndefinedTable, "invalid reference to FROM-clause entry for table \"" + table + "\"")
          .WithHint("There is an entry for table \"" + table +
                    "\", but it cannot be referenced from this part of the query.")
          .WithPosition(e.position());
    }
    return;
  }
  const std::string nocol = "column \"";
  if (e.sqlstate() == sqlstate::kUndefinedColumn && m.rfind(nocol, 0) == 0 && e.hint().empty()) {
    const std::string col = m.substr(nocol.size(), m.find('"', nocol.size()) - nocol.size());
    for (const RangeEntry& re : lateral_scope_->entries) {
      for (int i = 0; i < re.width(); ++i) {
        if (re.hidden[static_cast<size_t>(i)] || re.names[static_cast<size_t>(i)] != col) continue;
        throw DbError(sqlstate::kUndefinedColumn, m)
            .WithHint("There is a column named \"" + col + "\" in table \"" + re.alias +
                      "\", but it cannot be referenced from this part of the query.")
            .WithPosition(e.position());
      }
    }
  }
}

ExecNodePtr QueryPlanner::JoinLateral(executor::JoinKind kind, ExecNodePtr left, ExecNodePtr right, LateralRefs refs,
                                      std::vector<PlanExpr> conds) {
  if (kind != executor::JoinKind::kInner && kind != executor::JoinKind::kLeft) {
    ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                    "invalid reference to FROM-clause entry for table \"" + refs.first_table + "\"")
                .WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference."),
            refs.first_location);
  }
  PlanExpr filter;
  for (PlanExpr& c : conds) {
    // ON true: no filter line, as PostgreSQL's planner drops constant-true quals.
    if (c.expr->kind == BoundKind::kConst && c.expr->type == types::kBoolOid && !c.expr->value.is_null &&
        c.expr->value.b) {
      continue;
    }
    filter.text = filter.expr ? "(" + filter.text + " AND " + c.text + ")" : c.text;
    filter.expr = MakeAnd(std::move(filter.expr), std::move(c.expr));
  }
  return std::make_unique<executor::LateralJoinNode>(kind, std::move(left), std::move(right), std::move(refs.values),
                                                     std::move(refs.slots), std::move(filter));
}

}  // namespace hearth::planner
