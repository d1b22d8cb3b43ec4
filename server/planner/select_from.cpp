// server/planner/select_from.cpp
//
// FROM and WHERE: FROM items (tables, subqueries in FROM, joins with ON /
// USING / NATURAL) as RangeEntries, WHERE conjuncts placed at the lowest
// scan or join where all their columns exist, index scans where useful.
#include <algorithm>
#include <climits>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/scan_nodes.h"
#include "planner/cte.h"
#include "planner/planner_internal.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

// ---------------------------------------------------------------------------
// FROM
// ---------------------------------------------------------------------------

QueryPlanner::FromResult QueryPlanner::PlanFromItem(const parser::FromItem& item) {
  CheckStackDepth();  // joins nest as deep as the FROM clause is long
  FromResult r;
  switch (item.kind) {
    case parser::FromKind::kTable: {
      const auto& t = item.As<parser::TableRef>();
      if (std::optional<FromResult> cte = PlanCteRef(t)) return std::move(*cte);  // cte.cpp
      std::optional<executor::TableInfo> info = st_.tables.Lookup(t.table.schema, t.table.name);
      if (!info) {
        DbError e(sqlstate::kUndefinedTable, "relation \"" + (t.table.schema.empty() ? "" : t.table.schema + ".") +
                                                 t.table.name + "\" does not exist");
        if (t.table.schema.empty()) AddInvisibleCteHint(st_, t.table.name, &e);  // cte.cpp
        ThrowAt(std::move(e), t.table.location >= 0 ? t.table.location : item.location);
      }
      if (info->is_view()) return PlanViewRef(t, *info);  // view_ref.cpp
      if (!t.table.inh) info->DropInheritors();  // ONLY t: the table without its children
      RangeEntry e;
      e.alias = t.alias.name.empty() ? info->name : t.alias.name;
      e.origin = OriginsOf(NoteRelationUse(info->oid, /*target=*/false), info->columns.size());
      for (size_t i = 0; i < info->columns.size(); ++i) {
        const executor::ColumnInfo& c = info->columns[i];
        e.names.push_back(i < t.alias.columns.size() ? t.alias.columns[i] : c.name);
        e.types.push_back(c.type);
        e.typmods.push_back(c.typmod);
        e.hidden.push_back(false);
        if (c.system_column && e.system_from == INT32_MAX) e.system_from = static_cast<int>(i);
      }
      // FOR UPDATE/SHARE: the scan also emits the RowId (locking.cpp).
      const std::optional<LockSpec> lock = LockSpecFor(e.alias);
      if (lock) {
        e.names.push_back(kLockRowIdColumn);
        e.types.push_back(types::kInt8Oid);
        e.typmods.push_back(types::kNoTypmod);
        e.hidden.push_back(true);
        pending_locks_.push_back(PendingLock{e.alias, *info, *lock});
      }
      r.node = std::make_unique<executor::SeqScanNode>(*info, t.alias.name, PlanExpr{}, lock.has_value());
      r.entries.push_back(std::move(e));
      return r;
    }
    case parser::FromKind::kSubquery:
      return PlanSubqueryItem(item.As<parser::SubqueryRef>());
    case parser::FromKind::kJoin:
      return PlanJoin(item.As<parser::JoinRef>());
    case parser::FromKind::kFunction:
      return PlanFunctionItem(item.As<parser::FunctionRef>());
  }
  ThrowAt(DbError(sqlstate::kInternalError, "unknown FROM item"), item.location);
}

QueryPlanner::FromResult QueryPlanner::PlanJoin(const parser::JoinRef& j) {
  // LATERAL: the right side may refer to the left side (only).
  struct RestoreLateral {
    const Scope*& slot;
    const Scope* saved;
    ~RestoreLateral() { slot = saved; }
  } restore{lateral_scope_, lateral_scope_};
  lateral_scope_ = nullptr;
  FromResult l = PlanFromItem(*j.left);
  Scope left_scope;
  left_scope.entries = l.entries;
  lateral_scope_ = &left_scope;
  FromResult r = PlanFromItem(*j.right);
  lateral_scope_ = restore.saved;
  CheckNullableSideUnlocked(j.join_type, l.entries, r.entries);
  int split = 0;
  for (const RangeEntry& e : l.entries) split = std::max(split, e.offset + e.width());
  Scope local;
  local.parent = outer_;
  local.corr = corr_;
  for (RangeEntry& e : l.entries) local.entries.push_back(e);
  for (RangeEntry& e : r.entries) {
    e.offset += split;
    for (const RangeEntry& le : l.entries) {
      if (!e.alias.empty() && le.alias == e.alias) {
        throw DbError("42712", "table name \"" + e.alias + "\" specified more than once");
      }
    }
    local.entries.push_back(e);
  }
  std::vector<PlanExpr> conds;
  std::vector<std::string> using_cols = j.using_cols;
  if (j.natural) {
    // Common column names, in left order.
    for (const RangeEntry& le : l.entries) {
      for (int i = 0; i < std::min(le.width(), le.system_from); ++i) {
        for (const RangeEntry& re : r.entries) {
          if (le.names[static_cast<size_t>(i)] != kLockRowIdColumn &&
              std::find(re.names.begin(), re.names.end(), le.names[static_cast<size_t>(i)]) != re.names.end()) {
            using_cols.push_back(le.names[static_cast<size_t>(i)]);
          }
        }
      }
    }
  }
  std::vector<UsingColumn> using_merged;
  for (const std::string& name : using_cols) {
    // left.name = right.name; both copies are hidden from '*' and
    // unqualified references, which see the merged column instead.
    auto find_side = [&](size_t from, size_t to) -> std::pair<RangeEntry*, int> {
      for (size_t k = from; k < to; ++k) {
        RangeEntry& e = local.entries[k];
        for (int i = 0; i < e.width(); ++i) {
          if (!e.hidden[static_cast<size_t>(i)] && e.names[static_cast<size_t>(i)] == name) return {&e, i};
        }
      }
      throw DbError(sqlstate::kUndefinedColumn, "column \"" + name + "\" specified in USING clause does not exist in " +
                                                    (from == 0 ? "left" : "right") + " table");
    };
    auto [le, li] = find_side(0, l.entries.size());
    auto [re, ri] = find_side(l.entries.size(), local.entries.size());
    NoteColumnRead(OriginAt(*le, li));
    NoteColumnRead(OriginAt(*re, ri));
    BindContext ctx;
    auto lc = MakeColumn(le->offset + li, le->types[static_cast<size_t>(li)], le->typmods[static_cast<size_t>(li)]);
    auto rc = MakeColumn(re->offset + ri, re->types[static_cast<size_t>(ri)], re->typmods[static_cast<size_t>(ri)]);
    types::ResolvedFunc f = types::ResolveOperator("=", lc->type, rc->type);
    auto eq = std::make_unique<BoundExpr>(BoundKind::kFuncCall, f.result_type);
    eq->func = f.sig;
    ctx.param_types = st_.params;
    eq->children.push_back(executor::Coerce(std::move(lc), f.arg_types[0], -1, types::CoercionContext::kImplicit, ctx));
    eq->children.push_back(executor::Coerce(std::move(rc), f.arg_types[1], -1, types::CoercionContext::kImplicit, ctx));
    std::string text = "(" + le->alias + "." + name + " = " + re->alias + "." + name + ")";
    conds.push_back(PlanExpr{std::move(eq), text});
    using_merged.push_back(UsingColumn{name, le->offset + li, re->offset + ri, le->types[static_cast<size_t>(li)],
                                       re->types[static_cast<size_t>(ri)], le->typmods[static_cast<size_t>(li)],
                                       re->typmods[static_cast<size_t>(ri)]});
    le->hidden[static_cast<size_t>(li)] = true;
    re->hidden[static_cast<size_t>(ri)] = true;
  }
  if (j.on) {
    std::vector<const parser::Expr*> parts;
    SplitConjuncts(j.on.get(), &parts);
    for (const parser::Expr* p : parts) {
      BindContext ctx = Context(&local, "JOIN conditions");
      BoundExprPtr e = BindCond(*p, ctx, "JOIN/ON");
      conds.push_back(PlanExpr{std::move(e), Deparse(*p, local.Namer())});
    }
  }
  executor::JoinKind kind = executor::JoinKind::kInner;
  switch (j.join_type) {
    case parser::JoinType::kLeft: kind = executor::JoinKind::kLeft; break;
    case parser::JoinType::kRight: kind = executor::JoinKind::kRight; break;
    case parser::JoinType::kFull: kind = executor::JoinKind::kFull; break;
    default: break;
  }
  FromResult out;
  out.node = r.lateral.empty()
                 ? MakeJoin(kind, std::move(l.node), std::move(r.node), split, std::move(conds),
                            st_.options.enable_hashjoin)
                 : JoinLateral(kind, std::move(l.node), std::move(r.node), std::move(r.lateral), std::move(conds));
  out.entries = std::move(local.entries);
  MergeUsingColumns(kind, using_merged, &out.node, &out.entries);
  if (!j.using_alias.empty()) AddUsingAlias(j, &out.entries);  // join_using.cpp
  if (!j.alias.name.empty()) {
    // (a JOIN b) AS j: one entry named j over all visible columns.
    RangeEntry merged;
    merged.alias = j.alias.name;
    for (const RangeEntry& e : out.entries) {
      for (int i = 0; i < e.width(); ++i) {
        merged.names.push_back(e.names[static_cast<size_t>(i)]);
        merged.types.push_back(e.types[static_cast<size_t>(i)]);
        merged.typmods.push_back(e.typmods[static_cast<size_t>(i)]);
        merged.hidden.push_back(e.hidden[static_cast<size_t>(i)]);
        merged.origin.push_back(OriginAt(e, i));
      }
    }
    out.entries.clear();
    out.entries.push_back(std::move(merged));
  }
  return out;
}


// ---------------------------------------------------------------------------
// The FROM and WHERE phases of a plain SELECT
// ---------------------------------------------------------------------------

void QueryPlanner::PlanFromClause(SelectParts& p, std::vector<ExecNodePtr>* items,
                                  std::vector<std::pair<int, int>>* ranges) {
  p.scope.parent = outer_;
  p.scope.corr = corr_;
  from_lateral_.clear();
  for (const parser::FromItemPtr& fi : p.s.from) {
    lateral_scope_ = &p.scope;  // the items so far: LATERAL may refer to them
    FromResult r = PlanFromItem(*fi);
    lateral_scope_ = nullptr;
    from_lateral_.push_back(std::move(r.lateral));
    AddFromItem(p, std::move(r), fi->location, items, ranges);
  }
  CheckLockTargetsFound(p.s, p.scope);
}

void QueryPlanner::AddFromItem(SelectParts& p, FromResult r, int location, std::vector<ExecNodePtr>* items,
                               std::vector<std::pair<int, int>>* ranges) {
  int off = p.scope.width();
  int w = 0;
  for (RangeEntry& e : r.entries) {
    w = std::max(w, e.offset + e.width());
    e.offset += off;
    for (const RangeEntry& prev : p.scope.entries) {
      if (!e.alias.empty() && prev.alias == e.alias) {
        ThrowAt(DbError("42712", "table name \"" + e.alias + "\" specified more than once"), location);
      }
    }
    p.scope.entries.push_back(std::move(e));
  }
  items->push_back(std::move(r.node));
  ranges->emplace_back(off, off + w);
}

std::vector<Conjunct> QueryPlanner::BindWhere(SelectParts& p) {
  std::vector<Conjunct> conjs;
  if (!p.where) return conjs;
  std::vector<const parser::Expr*> parts;
  SplitConjuncts(p.where, &parts);
  const Scope& scope = p.scope;
  for (const parser::Expr* e : parts) {
    BindContext ctx = Context(&scope, "WHERE");
    Conjunct c;
    pullup_target_ = PullUpCandidate(*e, &pullup_anti_);  // [NOT] EXISTS → semi_joins_ (sublink_hashed.cpp)
    pullup_done_ = false;
    c.e.expr = BindCond(*e, ctx, "WHERE");
    pullup_target_ = nullptr;
    if (pullup_done_) continue;
    c.source = e;
    c.e.text = Deparse(*e, scope.Namer());
    c.scan_text = Deparse(*e, [&scope](const parser::ColumnRefExpr& r) { return scope.DisplayName(r, true); });
    ColumnRange(*c.e.expr, &c.min, &c.max);
    conjs.push_back(std::move(c));
  }
  return conjs;
}

void QueryPlanner::JoinFromItems(SelectParts& p, std::vector<ExecNodePtr> items,
                                 const std::vector<std::pair<int, int>>& ranges) {
  const bool from_correlated = corr_ != nullptr && !corr_->refs.empty();
  std::vector<Conjunct> conjs = BindWhere(p);
  if (probe_ != nullptr) ExtractHashProbe(p, &conjs, from_correlated);  // sublink_hashed.cpp
  // The conjuncts `pred` accepts that are not placed yet, columns shifted.
  auto take = [&](auto pred, int shift, bool scan_text) {
    std::vector<PlanExpr> out;
    for (Conjunct& c : conjs) {
      if (c.used || c.max < 0 || !pred(c)) continue;
      c.used = true;
      if (shift) ShiftColumns(*c.e.expr, shift);
      if (scan_text) c.e.text = c.scan_text;
      out.push_back(std::move(c.e));
    }
    return out;
  };
  ExecNodePtr node;
  if (items.empty()) node = std::make_unique<executor::ResultNode>();
  for (size_t k = 0; k < items.size(); ++k) {
    // Plain variables, not a structured binding: clang before 16 cannot
    // capture bindings in the lambdas below (the fuzz build uses clang).
    const int off = ranges[k].first;
    const int end = ranges[k].second;
    auto* seq = dynamic_cast<executor::SeqScanNode*>(items[k].get());
    std::vector<PlanExpr> item_conds =
        take([&](const Conjunct& c) { return c.min >= off && c.max < end; }, -off, seq != nullptr);
    ExecNodePtr item;
    if (seq != nullptr && seq->table().partitioned && !seq->table().inheritors.empty()) {
      PrunePartitions(st_.tables, seq, item_conds);  // partition_prune.cpp
    }
    if (seq != nullptr && !seq->table().indexes.empty() && st_.options.enable_indexscan) {
      // An index scan for WHERE conditions on an index column, or for an
      // ORDER BY ... LIMIT on an index prefix (single-table queries).
      const RangeEntry* entry = nullptr;
      for (const RangeEntry& e : p.scope.entries) {
        if (e.offset == off && entry == nullptr) entry = &e;
      }
      const WantedOrder* want = nullptr;
      if (items.size() == 1 && entry != nullptr && WantedOrderOf(p.s, *entry, &p.wanted_order)) {
        want = &p.wanted_order;
      }
      bool ordered = false;
      const bool locked = entry != nullptr && entry->names.back() == kLockRowIdColumn;
      item = PlanIndexScan(seq->table(), entry != nullptr ? entry->alias : "", &item_conds, want,
                           /*emit_rid=*/locked, &ordered);
      p.index_ordered = item != nullptr && ordered;
    }
    if (!item) item = AddFilter(std::move(items[k]), std::move(item_conds));
    if (k == 0) {
      node = std::move(item);
      continue;
    }
    std::vector<PlanExpr> conds = take([&](const Conjunct& c) { return c.max < end; }, 0, false);
    // (UPDATE … FROM plans its items without PlanFromClause: none lateral.)
    const bool lateral = k < from_lateral_.size() && !from_lateral_[k].empty();
    node = !lateral
               ? MakeJoin(executor::JoinKind::kInner, std::move(node), std::move(item), off, std::move(conds),
                          st_.options.enable_hashjoin)
               : JoinLateral(executor::JoinKind::kInner, std::move(node), std::move(item), std::move(from_lateral_[k]),
                             std::move(conds));
  }
  node = AddSemiJoins(std::move(node));
  std::vector<PlanExpr> rest;
  for (Conjunct& c : conjs) {
    if (!c.used) rest.push_back(std::move(c.e));
  }
  p.node = AddFilter(std::move(node), std::move(rest));
}

}  // namespace hearth::planner
