// server/planner/select.cpp
//
// Principal entry point: QueryPlanner::PlanSelect — FROM (tables,
// subqueries, joins), WHERE, GROUP BY/aggregates/HAVING, the select list,
// DISTINCT, ORDER BY, LIMIT/OFFSET, VALUES and set operations — plus
// subqueries in expressions (init plans).
#include <algorithm>
#include <climits>
#include <unordered_set>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "executor/expr/binder.h"
#include "executor/nodes/agg_nodes.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/join_nodes.h"
#include "executor/nodes/scan_nodes.h"
#include "executor/nodes/sort_node.h"
#include "executor/row_codec.h"
#include "planner/planner_internal.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

using executor::AggSpec;
using executor::SortKey;

namespace {

constexpr int kUnsetParamIndex = 1 << 20;

[[noreturn]] void ThrowAt(DbError e, int location) {
  if (location >= 0 && e.position() == 0) e.WithPosition(location + 1);
  throw e;
}

// Applies the conjunction of `conds` (if any) to node's rows: pushed into a
// plain table scan, else as a FilterNode.
ExecNodePtr AddFilter(ExecNodePtr node, std::vector<PlanExpr> conds, int agg_base = -1) {
  if (conds.empty()) return node;
  PlanExpr all;
  for (PlanExpr& c : conds) {
    all.text = all.expr ? "(" + all.text + " AND " + c.text + ")" : c.text;
    all.expr = MakeAnd(std::move(all.expr), std::move(c.expr));
  }
  if (auto* scan = dynamic_cast<executor::SeqScanNode*>(node.get()); scan && !scan->has_filter() && agg_base < 0) {
    scan->SetFilter(std::move(all));
    return node;
  }
  return std::make_unique<executor::FilterNode>(std::move(node), std::move(all), agg_base);
}

// A WHERE/ON conjunct with the slots it reads.
struct Conjunct {
  PlanExpr e;
  std::string scan_text;  // with bare column names, as PostgreSQL shows scan filters
  int min = INT_MAX, max = -1;
  bool used = false;
};

// Builds a join of `left` (slots [0, split)) and `right` (slots [split, end))
// from `conds` (bound on the combined row): equalities across the sides with
// hash-compatible types become hash keys; the rest is a join filter.
ExecNodePtr MakeJoin(executor::JoinKind kind, ExecNodePtr left, ExecNodePtr right, int split,
                     std::vector<PlanExpr> conds) {
  std::vector<PlanExpr> lkeys, rkeys, rest;
  std::string cond_text;
  for (PlanExpr& c : conds) {
    BoundExpr& e = *c.expr;
    bool is_eq = e.kind == BoundKind::kFuncCall && e.func != nullptr && std::string(e.func->name) == "=" &&
                 e.children.size() == 2;
    if (is_eq) {
      int lmin = INT_MAX, lmax = -1, rmin = INT_MAX, rmax = -1;
      ColumnRange(*e.children[0], &lmin, &lmax);
      ColumnRange(*e.children[1], &rmin, &rmax);
      int hc0 = executor::HashClassOf(e.children[0]->type);
      bool hashable = hc0 != 0 && hc0 == executor::HashClassOf(e.children[1]->type);
      int li = -1;  // which child is on the left side
      if (lmax >= 0 && rmax >= 0 && lmax < split && rmin >= split) li = 0;
      if (lmax >= 0 && rmax >= 0 && rmax < split && lmin >= split) li = 1;
      if (hashable && li >= 0) {
        BoundExprPtr lk = std::move(e.children[static_cast<size_t>(li)]);
        BoundExprPtr rk = std::move(e.children[static_cast<size_t>(1 - li)]);
        ShiftColumns(*rk, -split);
        lkeys.push_back(PlanExpr{std::move(lk), ""});
        rkeys.push_back(PlanExpr{std::move(rk), ""});
        cond_text = cond_text.empty() ? c.text : "(" + cond_text + " AND " + c.text + ")";
        continue;
      }
    }
    rest.push_back(std::move(c));
  }
  PlanExpr filter;
  for (PlanExpr& c : rest) {
    filter.text = filter.expr ? "(" + filter.text + " AND " + c.text + ")" : c.text;
    filter.expr = MakeAnd(std::move(filter.expr), std::move(c.expr));
  }
  if (!lkeys.empty()) {
    return std::make_unique<executor::HashJoinNode>(kind, std::move(left), std::move(right), std::move(lkeys),
                                                    std::move(rkeys), std::move(filter), cond_text);
  }
  return std::make_unique<executor::NestedLoopJoinNode>(kind, std::move(left), std::move(right), std::move(filter));
}

SortKey MakeSortKey(int column, const parser::SortBy& sb, const std::string& text) {
  if (!sb.using_op.empty()) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ORDER BY ... USING is not supported yet"), sb.location);
  }
  SortKey k;
  k.column = column;
  k.descending = sb.dir == parser::SortDir::kDesc;
  k.nulls_first = sb.nulls == parser::NullsOrder::kDefault ? k.descending : sb.nulls == parser::NullsOrder::kFirst;
  k.text = text;
  if (k.descending) k.text += " DESC";
  if (k.nulls_first != k.descending) k.text += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  return k;
}

// ORDER BY/GROUP BY ordinal: the integer constant's value, or 0.
int Ordinal(const parser::Expr& e) {
  if (e.kind != parser::ExprKind::kConst) return 0;
  const auto& c = e.As<parser::ConstExpr>();
  if (c.const_kind != parser::ConstKind::kInteger) return 0;
  try {
    long v = std::stol(c.value);
    return v > 0 && v < INT_MAX ? static_cast<int>(v) : -1;
  } catch (...) {
    return -1;
  }
}

// Structural equality of two bound expressions (ORDER BY ambiguity).
bool SameBound(const BoundExpr& a, const BoundExpr& b) {
  if (a.kind != b.kind || a.type != b.type || a.index != b.index || a.func != b.func ||
      a.children.size() != b.children.size() || a.negated != b.negated) {
    return false;
  }
  if (a.kind == BoundKind::kConst && (a.value.is_null != b.value.is_null || a.value.i != b.value.i ||
                                      a.value.str != b.value.str)) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!SameBound(*a.children[i], *b.children[i])) return false;
  }
  return true;
}

bool IsOrdinalConst(const parser::Expr& e) {
  return e.kind == parser::ExprKind::kConst && e.As<parser::ConstExpr>().const_kind == parser::ConstKind::kInteger;
}

}  // namespace

// ---------------------------------------------------------------------------
// Binding helpers
// ---------------------------------------------------------------------------

BindContext QueryPlanner::Context(const Scope* scope, const char* agg_clause) {
  BindContext ctx;
  if (scope) {
    ctx.resolve_column = [scope](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
      return scope->Resolve(c);
    };
  }
  ctx.bind_sublink = [this, scope](const parser::SubLinkExpr& s, BindContext& c) {
    return BindSublink(s, c, scope ? scope : outer_);
  };
  if (agg_clause) {
    std::string what = agg_clause;
    ctx.bind_aggregate = [what](const parser::FuncCallExpr& f, std::vector<BoundExprPtr>, const types::ResolvedFunc&,
                                BindContext&) -> BoundExprPtr {
      ThrowAt(DbError(sqlstate::kGroupingError, "aggregate functions are not allowed in " + what), f.location);
    };
  }
  return ctx;
}

BoundExprPtr QueryPlanner::Bind(const parser::Expr& e, BindContext& ctx) {
  ctx.param_types = st_.params;
  BoundExprPtr r = executor::BindExpr(e, ctx);
  st_.params = ctx.param_types;
  ConvertOuterRefs(*r);
  return r;
}

BoundExprPtr QueryPlanner::BindCond(const parser::Expr& e, BindContext& ctx, const char* what) {
  ctx.param_types = st_.params;
  BoundExprPtr r = executor::BindCondition(e, ctx, what);
  st_.params = ctx.param_types;
  ConvertOuterRefs(*r);
  return r;
}

void QueryPlanner::ConvertOuterRefs(BoundExpr& e) {
  if (e.kind == BoundKind::kColumn && e.index >= kOuterRefBase) {
    if (corr_ == nullptr) throw DbError(sqlstate::kInternalError, "outer reference without a correlation");
    int slot = corr_->slots.at(static_cast<size_t>(e.index - kOuterRefBase));
    e.kind = BoundKind::kParam;
    e.index = kUnsetParamIndex;
    st_.hidden.emplace_back(&e, slot);
    return;
  }
  for (auto& c : e.children) ConvertOuterRefs(*c);
}

BoundExprPtr QueryPlanner::HiddenParam(types::Oid type, int32_t typmod, int slot) {
  auto e = std::make_unique<BoundExpr>(BoundKind::kParam, type);
  e->typmod = typmod;
  e->index = kUnsetParamIndex;
  st_.hidden.emplace_back(e.get(), slot);
  return e;
}

BoundExprPtr QueryPlanner::BindSublink(const parser::SubLinkExpr& s, BindContext& ctx, const Scope* scope) {
  st_.params = ctx.param_types;
  Correlation corr;
  corr.nslots = &st_.nslots;
  QueryPlanner sub(st_, scope, &corr);
  PlannedQuery q = sub.PlanSelect(*s.subselect);
  ctx.param_types = st_.params;
  if (!corr.refs.empty()) return BindCorrelated(s, ctx, std::move(q), corr);
  executor::InitPlan ip;
  int slot = st_.nslots++;
  ip.param_index = slot;
  switch (s.sublink_kind) {
    case parser::SubLinkKind::kExists: {
      ip.kind = executor::InitPlan::Kind::kExists;
      ip.type = types::kBoolOid;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      return HiddenParam(types::kBoolOid, types::kNoTypmod, slot);
    }
    case parser::SubLinkKind::kExpr: {
      if (q.columns.size() != 1) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "subquery must return only one column"), s.location);
      }
      ip.kind = executor::InitPlan::Kind::kScalar;
      ip.type = q.columns[0].type;
      ip.typmod = q.columns[0].typmod;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      return HiddenParam(q.columns[0].type, q.columns[0].typmod, slot);
    }
    case parser::SubLinkKind::kAny: {
      if (s.op != "=") {
        ThrowAt(DbError(sqlstate::kFeatureNotSupported, "op ANY (subquery) is not supported yet except for IN"),
                s.location);
      }
      if (q.columns.size() != 1) {
        ThrowAt(DbError(sqlstate::kSyntaxError, q.columns.size() > 1 ? "subquery has too many columns"
                                                                       : "subquery has too few columns"),
                s.location);
      }
      BoundExprPtr test = executor::BindExpr(*s.test_expr, ctx);
      types::Oid common = types::kInvalidOid;
      try {
        common = types::SelectCommonType({test->type, q.columns[0].type}, "IN");
      } catch (DbError& e) {
        ThrowAt(DbError(sqlstate::kUndefinedFunction, "operator does not exist: " + types::FormatType(test->type) +
                                                           " = " + types::FormatType(q.columns[0].type)),
                s.location);
      }
      test = executor::Coerce(std::move(test), common, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
      ip.kind = executor::InitPlan::Kind::kInSet;
      ip.type = common;
      ip.plan = std::move(q.node);
      st_.init_plans.push_back(std::move(ip));
      auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kBoolOid);
      call->func = executor::InSetLookupSignature();
      call->location = s.location;
      call->children.push_back(std::move(test));
      call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, slot));
      return call;
    }
    case parser::SubLinkKind::kAll:
    case parser::SubLinkKind::kArray:
      break;
  }
  ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ALL (subquery) and ARRAY(subquery) are not supported yet"),
          s.location);
}

BoundExprPtr QueryPlanner::BindCorrelated(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                                          const Correlation& corr) {
  executor::SubPlan sp;
  sp.plan = std::move(q.node);
  sp.arg_indexes = corr.slots;
  auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kBoolOid);
  call->func = executor::SubPlanSignature();
  call->location = s.location;
  // The outer values, bound in the context where the subquery appears.
  for (const parser::ColumnRefExpr* ref : corr.refs) {
    std::optional<ColumnBinding> b;
    try {
      b = ctx.resolve_column(*ref);
    } catch (DbError& e) {
      ThrowAt(std::move(e), ref->location);
    }
    call->children.push_back(MakeColumn(b->index, b->type, b->typmod));
  }
  switch (s.sublink_kind) {
    case parser::SubLinkKind::kExists:
      sp.kind = executor::SubPlan::Kind::kExists;
      break;
    case parser::SubLinkKind::kExpr:
      if (q.columns.size() != 1) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "subquery must return only one column"), s.location);
      }
      sp.kind = executor::SubPlan::Kind::kScalar;
      sp.type = q.columns[0].type;
      sp.typmod = q.columns[0].typmod;
      call->type = sp.type;
      call->typmod = sp.typmod;
      break;
    case parser::SubLinkKind::kAny: {
      if (s.op != "=") {
        ThrowAt(DbError(sqlstate::kFeatureNotSupported, "op ANY (subquery) is not supported yet except for IN"),
                s.location);
      }
      if (q.columns.size() != 1) {
        ThrowAt(DbError(sqlstate::kSyntaxError, q.columns.size() > 1 ? "subquery has too many columns"
                                                                       : "subquery has too few columns"),
                s.location);
      }
      BoundExprPtr test = executor::BindExpr(*s.test_expr, ctx);
      types::Oid common = types::kInvalidOid;
      try {
        common = types::SelectCommonType({test->type, q.columns[0].type}, "IN");
      } catch (DbError&) {
        ThrowAt(DbError(sqlstate::kUndefinedFunction, "operator does not exist: " + types::FormatType(test->type) +
                                                           " = " + types::FormatType(q.columns[0].type)),
                s.location);
      }
      sp.kind = executor::SubPlan::Kind::kIn;
      sp.type = common;
      call->children.push_back(
          executor::Coerce(std::move(test), common, types::kNoTypmod, types::CoercionContext::kImplicit, ctx));
      break;
    }
    default:
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ALL (subquery) and ARRAY(subquery) are not supported yet"),
              s.location);
  }
  sp.handle_index = st_.nslots++;
  call->children.push_back(HiddenParam(types::kInt8Oid, types::kNoTypmod, sp.handle_index));
  st_.sub_plans.push_back(std::move(sp));
  return call;
}

std::vector<TargetSpec> QueryPlanner::ExpandTargets(const std::vector<parser::ResTarget>& targets,
                                                    const Scope& scope) {
  std::vector<TargetSpec> out;
  // '*' shows a USING column once (the left copy); 't.*' shows all of t.
  auto expand_entry = [&](const RangeEntry& e, int location, bool skip_hidden) {
    for (int i = 0; i < e.width(); ++i) {
      if ((skip_hidden && e.hidden[static_cast<size_t>(i)]) || e.names[static_cast<size_t>(i)] == kLockRowIdColumn) continue;
      auto ref = std::make_unique<parser::ColumnRefExpr>();
      if (!e.alias.empty()) ref->fields.push_back(e.alias);
      ref->fields.push_back(e.names[static_cast<size_t>(i)]);
      ref->location = location;
      out.push_back(TargetSpec{ref.get(), e.names[static_cast<size_t>(i)]});
      st_.synthetic.push_back(std::move(ref));
    }
  };
  for (const parser::ResTarget& t : targets) {
    const parser::Expr& e = *t.expr;
    if (e.kind == parser::ExprKind::kStar) {
      if (scope.entries.empty()) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid"), e.location);
      }
      for (const RangeEntry& re : scope.entries) expand_entry(re, e.location, /*skip_hidden=*/true);
      continue;
    }
    if (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().star) {
      const auto& c = e.As<parser::ColumnRefExpr>();
      const std::string& qual = c.fields.back();
      const RangeEntry* found = nullptr;
      for (const RangeEntry& re : scope.entries) {
        if (re.alias == qual) found = &re;
      }
      if (!found) {
        ThrowAt(DbError(sqlstate::kUndefinedTable, "missing FROM-clause entry for table \"" + qual + "\""),
                e.location);
      }
      expand_entry(*found, e.location, /*skip_hidden=*/false);
      continue;
    }
    out.push_back(TargetSpec{&e, t.alias.empty() ? executor::OutputColumnName(e) : t.alias});
  }
  return out;
}

// ---------------------------------------------------------------------------
// FROM
// ---------------------------------------------------------------------------

QueryPlanner::FromResult QueryPlanner::PlanFromItem(const parser::FromItem& item) {
  CheckStackDepth();  // joins nest as deep as the FROM clause is long
  FromResult r;
  switch (item.kind) {
    case parser::FromKind::kTable: {
      const auto& t = item.As<parser::TableRef>();
      std::optional<executor::TableInfo> info = st_.tables.Lookup(t.table.schema, t.table.name);
      if (!info) {
        ThrowAt(DbError(sqlstate::kUndefinedTable, "relation \"" +
                                                      (t.table.schema.empty() ? "" : t.table.schema + ".") +
                                                      t.table.name + "\" does not exist"),
                t.table.location >= 0 ? t.table.location : item.location);
      }
      RangeEntry e;
      e.alias = t.alias.name.empty() ? info->name : t.alias.name;
      e.origin = OriginsOf(NoteRelationUse(info->oid, /*target=*/false), info->columns.size());
      for (size_t i = 0; i < info->columns.size(); ++i) {
        const executor::ColumnInfo& c = info->columns[i];
        e.names.push_back(i < t.alias.columns.size() ? t.alias.columns[i] : c.name);
        e.types.push_back(c.type);
        e.typmods.push_back(c.typmod);
        e.hidden.push_back(false);
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
    case parser::FromKind::kSubquery: {
      const auto& sq = item.As<parser::SubqueryRef>();
      if (sq.alias.name.empty()) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "subquery in FROM must have an alias")
                    .WithHint("For example, FROM (SELECT ...) [AS] foo."),
                item.location);
      }
      if (lock_all_) {
        // PostgreSQL locks the subquery's tables; never leave them unlocked silently.
        ThrowAt(DbError(sqlstate::kFeatureNotSupported, "FOR UPDATE/SHARE of a subquery in FROM is not supported yet"),
                item.location);
      }
      QueryPlanner sub(st_, outer_);
      PlannedQuery q = sub.PlanSelect(*sq.subquery);
      RangeEntry e;
      e.alias = sq.alias.name;
      std::vector<OutputColumn> cols = q.columns;
      for (size_t i = 0; i < cols.size(); ++i) {
        if (i < sq.alias.columns.size()) cols[i].name = sq.alias.columns[i];
        e.names.push_back(cols[i].name);
        e.types.push_back(cols[i].type);
        e.typmods.push_back(cols[i].typmod);
        e.hidden.push_back(false);
      }
      r.node = std::make_unique<executor::SubqueryScanNode>(std::move(q.node), sq.alias.name, cols);
      r.entries.push_back(std::move(e));
      return r;
    }
    case parser::FromKind::kJoin:
      return PlanJoin(item.As<parser::JoinRef>());
    case parser::FromKind::kFunction:
      break;
  }
  ThrowAt(DbError(sqlstate::kFeatureNotSupported, "functions in FROM are not supported yet"), item.location);
}

QueryPlanner::FromResult QueryPlanner::PlanJoin(const parser::JoinRef& j) {
  FromResult l = PlanFromItem(*j.left);
  FromResult r = PlanFromItem(*j.right);
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
      for (int i = 0; i < le.width(); ++i) {
        for (const RangeEntry& re : r.entries) {
          if (le.names[static_cast<size_t>(i)] != kLockRowIdColumn &&
              std::find(re.names.begin(), re.names.end(), le.names[static_cast<size_t>(i)]) != re.names.end()) {
            using_cols.push_back(le.names[static_cast<size_t>(i)]);
          }
        }
      }
    }
  }
  for (const std::string& name : using_cols) {
    // left.name = right.name; the right column is hidden from '*' and
    // unqualified references, like PostgreSQL's merged USING column.
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
  out.node = MakeJoin(kind, std::move(l.node), std::move(r.node), split, std::move(conds));
  out.entries = std::move(local.entries);
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
// SELECT
// ---------------------------------------------------------------------------

PlannedQuery QueryPlanner::PlanSelect(const parser::SelectStmt& s) {
  CheckStackDepth();
  if (!s.with.empty()) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "WITH queries are not supported yet"), s.location);
  }
  if (s.set_op != parser::SetOpKind::kNone || !s.values_lists.empty()) CheckSelectLocking(s, false);
  if (s.set_op != parser::SetOpKind::kNone) return PlanSetOp(s);
  if (!s.values_lists.empty()) {
    PlannedQuery q = PlanValues(s);
    ApplyOutputOrder(q, s);
    ApplyLimit(q, s);
    return q;
  }
  return PlanSimple(s);
}

PlannedQuery QueryPlanner::PlanValues(const parser::SelectStmt& s) {
  size_t ncols = s.values_lists[0].size();
  std::vector<std::vector<BoundExprPtr>> rows;
  for (const auto& list : s.values_lists) {
    if (list.size() != ncols) {
      ThrowAt(DbError(sqlstate::kSyntaxError, "VALUES lists must all be the same length"),
              list.empty() ? s.location : list[0]->location);
    }
    std::vector<BoundExprPtr> row;
    for (const auto& e : list) {
      BindContext ctx = Context(nullptr, "VALUES");
      row.push_back(Bind(*e, ctx));
    }
    rows.push_back(std::move(row));
  }
  PlannedQuery q;
  for (size_t c = 0; c < ncols; ++c) {
    std::vector<types::Oid> ts;
    for (const auto& row : rows) ts.push_back(row[c]->type);
    types::Oid common;
    try {
      common = types::SelectCommonType(ts, "VALUES");
    } catch (DbError& e) {
      ThrowAt(std::move(e), s.values_lists[0][c]->location);
    }
    int32_t typmod = rows[0][c]->typmod;
    for (auto& row : rows) {
      if (row[c]->typmod != typmod) typmod = types::kNoTypmod;
    }
    for (auto& row : rows) {
      BindContext ctx;
      ctx.param_types = st_.params;
      row[c] = executor::Coerce(std::move(row[c]), common, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
      st_.params = ctx.param_types;
    }
    q.columns.push_back(OutputColumn{"column" + std::to_string(c + 1), common, typmod});
  }
  std::vector<std::vector<PlanExpr>> exprs;
  for (auto& row : rows) {
    std::vector<PlanExpr> r;
    for (auto& e : row) r.push_back(PlanExpr{std::move(e), ""});
    exprs.push_back(std::move(r));
  }
  q.node = std::make_unique<executor::ValuesScanNode>(std::move(exprs), q.columns);
  return q;
}

PlannedQuery QueryPlanner::PlanSetOp(const parser::SelectStmt& s) {
  QueryPlanner lp(st_, outer_), rp(st_, outer_);
  lp.set_op_arm_ = rp.set_op_arm_ = true;
  PlannedQuery l = lp.PlanSelect(*s.larg);
  PlannedQuery r = rp.PlanSelect(*s.rarg);
  const char* opname = s.set_op == parser::SetOpKind::kUnion       ? "UNION"
                       : s.set_op == parser::SetOpKind::kIntersect ? "INTERSECT"
                                                                   : "EXCEPT";
  if (l.columns.size() != r.columns.size()) {
    // As PostgreSQL (checked on 15.18): point at the right query's first column.
    int where = !s.rarg->targets.empty() && s.rarg->targets[0].expr ? s.rarg->targets[0].expr->location
                                                                     : s.rarg->location;
    ThrowAt(DbError(sqlstate::kSyntaxError, std::string("each ") + opname + " query must have the same number of columns"),
            where);
  }
  std::vector<OutputColumn> cols = l.columns;
  bool lcast = false, rcast = false;
  for (size_t i = 0; i < cols.size(); ++i) {
    types::Oid t;
    try {
      t = types::SelectCommonType({l.columns[i].type, r.columns[i].type}, opname);
    } catch (DbError& e) {
      ThrowAt(std::move(e), s.rarg->location);
    }
    lcast |= t != l.columns[i].type;
    rcast |= t != r.columns[i].type;
    if (l.columns[i].typmod != r.columns[i].typmod) cols[i].typmod = types::kNoTypmod;
    cols[i].type = t;
  }
  auto conform = [&](PlannedQuery& q) {
    std::vector<PlanExpr> exprs;
    for (size_t i = 0; i < cols.size(); ++i) {
      BindContext ctx;
      ctx.param_types = st_.params;
      BoundExprPtr c = MakeColumn(static_cast<int>(i), q.columns[i].type, q.columns[i].typmod);
      exprs.push_back(PlanExpr{executor::Coerce(std::move(c), cols[i].type, types::kNoTypmod,
                                                types::CoercionContext::kImplicit, ctx),
                               ""});
    }
    q.node = std::make_unique<executor::ProjectNode>(std::move(q.node), std::move(exprs), cols);
  };
  if (lcast) conform(l);
  if (rcast) conform(r);
  PlannedQuery q;
  q.columns = cols;
  if (s.set_op == parser::SetOpKind::kUnion) {
    std::vector<ExecNodePtr> kids;
    kids.push_back(std::move(l.node));
    kids.push_back(std::move(r.node));
    q.node = std::make_unique<executor::AppendNode>(std::move(kids), cols);
    if (!s.set_all) q.node = std::make_unique<executor::DistinctNode>(std::move(q.node));
  } else {
    q.node = std::make_unique<executor::SetOpNode>(
        s.set_op == parser::SetOpKind::kIntersect ? executor::SetOpKind::kIntersect : executor::SetOpKind::kExcept,
        s.set_all, std::move(l.node), std::move(r.node));
  }
  ApplyOutputOrder(q, s);
  ApplyLimit(q, s);
  return q;
}

void QueryPlanner::ApplyOutputOrder(PlannedQuery& q, const parser::SelectStmt& s) {
  if (s.order_by.empty()) return;
  std::vector<SortKey> keys;
  for (const parser::SortBy& sb : s.order_by) {
    int col = -1;
    if (IsOrdinalConst(*sb.expr)) {
      int n = Ordinal(*sb.expr);
      if (n < 1 || n > static_cast<int>(q.columns.size())) {
        ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                        "ORDER BY position " + sb.expr->As<parser::ConstExpr>().value + " is not in select list"),
                sb.expr->location);
      }
      col = n - 1;
    } else if (sb.expr->kind == parser::ExprKind::kColumnRef &&
               sb.expr->As<parser::ColumnRefExpr>().fields.size() == 1) {
      const std::string& name = sb.expr->As<parser::ColumnRefExpr>().fields[0];
      for (size_t i = 0; i < q.columns.size(); ++i) {
        if (q.columns[i].name == name) {
          col = static_cast<int>(i);
          break;
        }
      }
      if (col < 0) {
        ThrowAt(DbError(sqlstate::kUndefinedColumn, "column \"" + name + "\" does not exist"), sb.expr->location);
      }
    } else {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported,
                      "invalid UNION/INTERSECT/EXCEPT ORDER BY clause")
                  .WithDetail("Only result column names can be used, not expressions or functions."),
              sb.expr->location);
    }
    keys.push_back(MakeSortKey(col, sb, q.columns[static_cast<size_t>(col)].name));
  }
  q.node = std::make_unique<executor::SortNode>(std::move(q.node), std::move(keys), q.columns.size());
}

void QueryPlanner::ApplyLimit(PlannedQuery& q, const parser::SelectStmt& s) {
  if (!s.limit && !s.offset) return;
  auto bind_count = [&](const parser::ExprPtr& e, const char* what) {
    PlanExpr p;
    if (!e) return p;
    BindContext ctx = Context(nullptr, what);
    BoundExprPtr b = Bind(*e, ctx);
    ctx.param_types = st_.params;
    p.expr = executor::Coerce(std::move(b), types::kInt8Oid, types::kNoTypmod, types::CoercionContext::kAssignment, ctx);
    st_.params = ctx.param_types;
    p.text = Deparse(*e);
    return p;
  };
  PlanExpr limit = bind_count(s.limit, "LIMIT");
  PlanExpr offset = bind_count(s.offset, "OFFSET");
  q.node = std::make_unique<executor::LimitNode>(std::move(q.node), std::move(limit), std::move(offset));
}

PlannedQuery QueryPlanner::PlanSimple(const parser::SelectStmt& s) {
  if (!s.distinct_on.empty()) {
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "SELECT DISTINCT ON is not supported yet"), s.location);
  }
  SetUpLocking(s);
  // ---- FROM: plan each item, then join left-deep in the order written.
  Scope scope;
  scope.parent = outer_;
  scope.corr = corr_;
  std::vector<ExecNodePtr> items;
  std::vector<std::pair<int, int>> ranges;  // [offset, end) of each item
  for (const parser::FromItemPtr& fi : s.from) {
    FromResult r = PlanFromItem(*fi);
    int off = scope.width();
    int w = 0;
    for (RangeEntry& e : r.entries) {
      w = std::max(w, e.offset + e.width());
      e.offset += off;
      for (const RangeEntry& prev : scope.entries) {
        if (!e.alias.empty() && prev.alias == e.alias) {
          ThrowAt(DbError("42712", "table name \"" + e.alias + "\" specified more than once"), fi->location);
        }
      }
      scope.entries.push_back(std::move(e));
    }
    items.push_back(std::move(r.node));
    ranges.emplace_back(off, off + w);
  }
  CheckLockTargetsFound(s, scope);

  // Set when the single table is read through an index in ORDER BY order.
  WantedOrder wanted_order;
  bool index_ordered = false;

  // ---- WHERE conjuncts, bound on the full FROM row.
  std::vector<Conjunct> conjs;
  if (s.where) {
    std::vector<const parser::Expr*> parts;
    SplitConjuncts(s.where.get(), &parts);
    for (const parser::Expr* p : parts) {
      BindContext ctx = Context(&scope, "WHERE");
      Conjunct c;
      c.e.expr = BindCond(*p, ctx, "WHERE");
      c.e.text = Deparse(*p, scope.Namer());
      c.scan_text = Deparse(*p, [&scope](const parser::ColumnRefExpr& r) { return scope.DisplayName(r, true); });
      ColumnRange(*c.e.expr, &c.min, &c.max);
      conjs.push_back(std::move(c));
    }
  }
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
  if (items.empty()) {
    node = std::make_unique<executor::ResultNode>();
  } else {
    for (size_t k = 0; k < items.size(); ++k) {
      // Plain variables, not a structured binding: clang before 16 cannot
      // capture bindings in the lambdas below (the fuzz build uses clang).
      const int off = ranges[k].first;
      const int end = ranges[k].second;
      auto* seq = dynamic_cast<executor::SeqScanNode*>(items[k].get());
      bool is_scan = seq != nullptr;
      std::vector<PlanExpr> item_conds =
          take([&](const Conjunct& c) { return c.min >= off && c.max < end; }, -off, is_scan);
      ExecNodePtr item;
      if (seq != nullptr && !seq->table().indexes.empty()) {
        // An index scan for WHERE conditions on an index column, or for an
        // ORDER BY ... LIMIT on an index prefix (single-table queries).
        const RangeEntry* entry = nullptr;
        for (const RangeEntry& e : scope.entries) {
          if (e.offset == off && entry == nullptr) entry = &e;
        }
        const WantedOrder* want = nullptr;
        if (items.size() == 1 && entry != nullptr && WantedOrderOf(s, *entry, &wanted_order)) want = &wanted_order;
        bool ordered = false;
        const bool locked = entry != nullptr && entry->names.back() == kLockRowIdColumn;
        item = PlanIndexScan(seq->table(), entry != nullptr ? entry->alias : "", &item_conds, want,
                             /*emit_rid=*/locked, &ordered);
        index_ordered = item != nullptr && ordered;
      }
      if (!item) item = AddFilter(std::move(items[k]), std::move(item_conds));
      if (k == 0) {
        node = std::move(item);
        continue;
      }
      std::vector<PlanExpr> conds = take([&](const Conjunct& c) { return c.max < end; }, 0, false);
      node = MakeJoin(executor::JoinKind::kInner, std::move(node), std::move(item), off, std::move(conds));
    }
  }
  {
    std::vector<PlanExpr> rest;
    for (Conjunct& c : conjs) {
      if (!c.used) rest.push_back(std::move(c.e));
    }
    node = AddFilter(std::move(node), std::move(rest));
  }

  // ---- Select list and aggregation.
  std::vector<TargetSpec> targets = ExpandTargets(s.targets, scope);
  bool has_agg = !s.group_by.empty() || s.having != nullptr;
  // Column references inside aggregate arguments (resolved on input rows).
  std::unordered_set<const parser::Expr*> in_agg;
  std::function<void(const parser::Expr&, bool, const char*)> scan = [&](const parser::Expr& e, bool inside,
                                                                           const char* clause) {
    if (e.kind == parser::ExprKind::kFuncCall && IsAggregateCall(e.As<parser::FuncCallExpr>())) {
      if (inside) ThrowAt(DbError(sqlstate::kGroupingError, "aggregate function calls cannot be nested"), e.location);
      if (clause) {
        ThrowAt(DbError(sqlstate::kGroupingError, std::string("aggregate functions are not allowed in ") + clause),
                e.location);
      }
      has_agg = true;
      inside = true;
    }
    if (inside && e.kind == parser::ExprKind::kColumnRef) in_agg.insert(&e);
    ForEachChild(e, [&](const parser::Expr& c) { scan(c, inside, clause); });
  };
  for (const TargetSpec& t : targets) scan(*t.expr, false, nullptr);
  if (s.having) scan(*s.having, false, nullptr);
  for (const parser::SortBy& sb : s.order_by) scan(*sb.expr, false, nullptr);
  CheckSelectLocking(s, has_agg);

  std::vector<PlanExpr> exprs;        // project list: targets then junk sort columns
  std::vector<OutputColumn> columns;  // visible outputs
  std::vector<std::string> target_texts;
  int agg_base = -1;
  BindContext out_ctx;                // binds select-list level expressions
  std::vector<PlanExpr> group_keys;
  std::vector<std::string> group_raw;  // raw deparse of GROUP BY exprs, for matching
  std::vector<AggSpec> aggs;

  // Group-key match of a whole expression (GROUP BY a+1 ... SELECT a+1).
  auto match_group = [&](const parser::Expr& e) -> BoundExprPtr {
    if (group_raw.empty()) return nullptr;
    std::string raw = Deparse(e);
    for (size_t k = 0; k < group_raw.size(); ++k) {
      if (group_raw[k] == raw) {
        return MakeColumn(static_cast<int>(k), group_keys[k].expr->type, group_keys[k].expr->typmod);
      }
    }
    return nullptr;
  };

  if (has_agg) {
    // GROUP BY: ordinals and output names refer to the select list; other
    // names are input columns.
    for (const parser::ExprPtr& g : s.group_by) {
      const parser::Expr* ge = g.get();
      if (IsOrdinalConst(*g)) {
        int n = Ordinal(*g);
        if (n < 1 || n > static_cast<int>(targets.size())) {
          ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                          "GROUP BY position " + g->As<parser::ConstExpr>().value + " is not in select list"),
                  g->location);
        }
        ge = targets[static_cast<size_t>(n - 1)].expr;
      } else if (g->kind == parser::ExprKind::kColumnRef && g->As<parser::ColumnRefExpr>().fields.size() == 1) {
        const auto& c = g->As<parser::ColumnRefExpr>();
        bool is_input = false;
        try {
          scope.Find(c);
          is_input = true;
        } catch (const DbError&) {
        }
        if (!is_input) {
          for (const TargetSpec& t : targets) {
            if (t.name == c.fields[0]) {
              ge = t.expr;
              break;
            }
          }
        }
      }
      BindContext ctx = Context(&scope, "GROUP BY");
      BoundExprPtr b = Bind(*ge, ctx);
      group_raw.push_back(Deparse(*ge));
      group_keys.push_back(PlanExpr{std::move(b), Deparse(*ge, scope.Namer())});
    }
    agg_base = static_cast<int>(group_keys.size());
    out_ctx.resolve_column = [&](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
      ColumnBinding in = scope.Resolve(c);
      if (in_agg.count(&c) || in.index >= kOuterRefBase) return in;
      for (size_t k = 0; k < group_keys.size(); ++k) {
        const BoundExpr& ke = *group_keys[k].expr;
        if (ke.kind == BoundKind::kColumn && ke.index == in.index) {
          return ColumnBinding{static_cast<int>(k), ke.type, ke.typmod};
        }
      }
      auto [entry, i] = scope.Find(c);
      throw DbError(sqlstate::kGroupingError, "column \"" + entry->alias + "." + entry->names[static_cast<size_t>(i)] +
                                                  "\" must appear in the GROUP BY clause or be used in an aggregate function");
    };
    out_ctx.bind_aggregate = [&](const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                 const types::ResolvedFunc& rf, BindContext&) -> BoundExprPtr {
      AggSpec spec;
      spec.sig = rf.sig;
      spec.distinct = f.distinct;
      spec.result_type = rf.result_type;
      for (auto& a : args) {
        ConvertOuterRefs(*a);
        spec.args.push_back(PlanExpr{std::move(a), ""});
      }
      if (f.filter) {
        BindContext fctx = Context(&scope, "FILTER");
        spec.filter = PlanExpr{BindCond(*f.filter, fctx, "FILTER"), Deparse(*f.filter, scope.Namer())};
      }
      aggs.push_back(std::move(spec));
      auto ref = std::make_unique<BoundExpr>(BoundKind::kAggRef, rf.result_type);
      ref->index = static_cast<int>(aggs.size() - 1);
      ref->location = f.location;
      return ref;
    };
  } else {
    out_ctx.resolve_column = [&](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
      return scope.Resolve(c);
    };
  }
  out_ctx.bind_sublink = [this, &scope](const parser::SubLinkExpr& sl, BindContext& c) {
    return BindSublink(sl, c, &scope);
  };
  auto bind_out = [&](const parser::Expr& e) -> BoundExprPtr {
    if (BoundExprPtr m = match_group(e)) return m;
    return Bind(e, out_ctx);
  };

  for (const TargetSpec& t : targets) {
    BoundExprPtr b = bind_out(*t.expr);
    if (!set_op_arm_) {
      // A set operation's arms keep unknown outputs ('1' UNION SELECT 2 is
      // int4); PlanSetOp resolves the column types across the arms.
      out_ctx.param_types = st_.params;
      b = executor::ResolveUnknownOutput(std::move(b), out_ctx);
      st_.params = out_ctx.param_types;
    }
    columns.push_back(Describe(t.name, *b));
    target_texts.push_back(Deparse(*t.expr));
    exprs.push_back(PlanExpr{std::move(b), Deparse(*t.expr, scope.Namer())});
  }

  // FOR UPDATE/SHARE: the FROM row rides along after the outputs up to LockRows.
  const int lock_width = AddLockColumns(s, scope, &exprs);

  PlanExpr having;
  if (s.having) {
    if (BoundExprPtr m = match_group(*s.having)) {
      having.expr = std::move(m);
    } else {
      having.expr = BindCond(*s.having, out_ctx, "HAVING");
    }
    having.text = Deparse(*s.having, scope.Namer());
  }

  // ---- ORDER BY: output names/ordinals, select-list expressions, or
  // extra ("junk") expressions computed by the projection and dropped by Sort.
  std::vector<SortKey> keys;
  for (const parser::SortBy& sb : s.order_by) {
    int col = -1;
    const parser::Expr& e = *sb.expr;
    if (IsOrdinalConst(e)) {
      int n = Ordinal(e);
      if (n < 1 || n > static_cast<int>(targets.size())) {
        ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                        "ORDER BY position " + e.As<parser::ConstExpr>().value + " is not in select list"),
                e.location);
      }
      col = n - 1;
    } else {
      if (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().fields.size() == 1) {
        const std::string& name = e.As<parser::ColumnRefExpr>().fields[0];
        for (size_t i = 0; i < targets.size(); ++i) {
          if (targets[i].name == name) {
            if (col >= 0 && !SameBound(*exprs[static_cast<size_t>(col)].expr, *exprs[i].expr)) {
              ThrowAt(DbError(sqlstate::kAmbiguousColumn, "ORDER BY \"" + name + "\" is ambiguous"), e.location);
            }
            if (col < 0) col = static_cast<int>(i);
          }
        }
      }
      if (col < 0) {
        std::string raw = Deparse(e);
        for (size_t i = 0; i < targets.size(); ++i) {
          if (target_texts[i] == raw) {
            col = static_cast<int>(i);
            break;
          }
        }
      }
      if (col < 0) {
        if (s.distinct) {
          ThrowAt(DbError(sqlstate::kInvalidColumnReference,
                          "for SELECT DISTINCT, ORDER BY expressions must appear in select list"),
                  e.location);
        }
        BoundExprPtr b = bind_out(e);
        col = static_cast<int>(exprs.size());
        exprs.push_back(PlanExpr{std::move(b), Deparse(e, scope.Namer())});
      }
    }
    keys.push_back(MakeSortKey(col, sb, exprs[static_cast<size_t>(col)].text));
  }

  // An index scan already delivers this order: no Sort (only when every key
  // is the plain table column the index order was chosen for).
  if (index_ordered && !has_agg && !s.distinct && keys.size() == wanted_order.columns.size()) {
    bool same = true;
    for (size_t k = 0; k < keys.size() && same; ++k) {
      const BoundExpr& e = *exprs[static_cast<size_t>(keys[k].column)].expr;
      same = e.kind == BoundKind::kColumn && e.index == wanted_order.columns[k] &&
             keys[k].descending == wanted_order.descending[k] && keys[k].nulls_first == wanted_order.nulls_first[k];
    }
    if (same) {
      keys.clear();
      exprs.resize(columns.size() + static_cast<size_t>(lock_width));  // sort junk existed only for the Sort
    }
  }

  // ---- Assemble: [Aggregate → HAVING] → Project → [Distinct] → [Sort] → [Limit].
  if (has_agg) {
    std::vector<OutputColumn> agg_cols;
    for (const PlanExpr& k : group_keys) agg_cols.push_back(Describe(k.text, *k.expr));
    for (const AggSpec& a : aggs) agg_cols.push_back(OutputColumn{a.sig->name, a.result_type, types::kNoTypmod});
    node = std::make_unique<executor::AggregateNode>(std::move(node), std::move(group_keys), std::move(aggs),
                                                     std::move(agg_cols));
    if (having.expr) {
      std::vector<PlanExpr> h;
      h.push_back(std::move(having));
      node = AddFilter(std::move(node), std::move(h), agg_base);
    }
  }
  std::vector<OutputColumn> proj_cols = columns;
  for (size_t i = columns.size(); i < exprs.size(); ++i) proj_cols.push_back(Describe("?sort?", *exprs[i].expr));
  node = std::make_unique<executor::ProjectNode>(std::move(node), std::move(exprs), proj_cols, agg_base);
  if (s.distinct) node = std::make_unique<executor::DistinctNode>(std::move(node));
  if (!keys.empty()) {
    node = std::make_unique<executor::SortNode>(std::move(node), std::move(keys),
                                                columns.size() + static_cast<size_t>(lock_width));
  }
  node = AddLockRows(std::move(node), s, scope, targets, columns, lock_width);
  PlannedQuery q;
  q.node = std::move(node);
  q.columns = std::move(columns);
  ApplyLimit(q, s);
  return q;
}

}  // namespace hearth::planner
