// server/planner/update_from.cpp
//
// Principal entry point: QueryPlanner::PlanModifyJoin — the row source of
// UPDATE ... FROM and DELETE ... USING. The target table is the first FROM
// item, scanned with its RowId, so each joined row is
// [target columns..., RowId, other FROM items' columns...], the layout
// ModifyTableNode expects. The WHERE conjuncts are placed in the join as in
// a SELECT (hash join keys, scan filters); ModifyTable evaluates the whole
// WHERE again on each row so that a concurrently updated target row is
// re-checked (with the same FROM values) under Read Committed.
#include "executor/nodes/scan_nodes.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

RangeEntry TableRangeEntry(const executor::TableInfo& t, const std::string& alias) {
  RangeEntry e;
  e.alias = alias.empty() ? t.name : alias;
  const size_t n = t.columns.size() + 1;  // room for a hidden row-id column
  e.names.reserve(n);
  e.types.reserve(n);
  e.typmods.reserve(n);
  e.hidden.reserve(n);
  for (const executor::ColumnInfo& c : t.columns) {
    e.names.push_back(c.name);
    e.types.push_back(c.type);
    e.typmods.push_back(c.typmod);
    e.hidden.push_back(false);
  }
  return e;
}

ExecNodePtr QueryPlanner::PlanModifyJoin(const executor::TableInfo& t, const std::string& alias,
                                         const std::vector<parser::FromItemPtr>& from, const parser::Expr* where,
                                         Scope* scope) {
  static const parser::SelectStmt kNoSelect;  // SelectParts' statement: only its WHERE and scope are used
  SelectParts p(kNoSelect);
  p.where = where;
  p.scope.parent = outer_;
  p.scope.corr = corr_;
  RangeEntry target = TableRangeEntry(t, alias);
  // The target's columns keep the origins TableScope noted (column privileges).
  if (!scope->entries.empty()) target.origin = scope->entries[0].origin;
  target.names.push_back(kLockRowIdColumn);  // never matched by a name or '*'
  target.types.push_back(types::kInt8Oid);
  target.typmods.push_back(types::kNoTypmod);
  target.hidden.push_back(true);
  FromResult first;
  first.node = std::make_unique<executor::SeqScanNode>(t, alias, PlanExpr{}, /*emit_rid=*/true);
  first.entries.push_back(std::move(target));
  std::vector<ExecNodePtr> items;
  std::vector<std::pair<int, int>> ranges;
  AddFromItem(p, std::move(first), -1, &items, &ranges);
  // As PostgreSQL, 42712 (a name used twice) carries no position here.
  for (const parser::FromItemPtr& fi : from) AddFromItem(p, PlanFromItem(*fi), -1, &items, &ranges);
  JoinFromItems(p, std::move(items), ranges);
  *scope = p.scope;
  return std::move(p.node);
}

}  // namespace hearth::planner
