// server/planner/planner.cpp
//
// Principal entry points: PlanStatement (dispatch, INSERT/UPDATE/DELETE,
// EXPLAIN, parameter finalization) and ExplainLines.
#include "planner/planner.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/bind_array.h"
#include "executor/expr/binder.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/modify_node.h"
#include "executor/nodes/scan_nodes.h"
#include "parser/parser.h"
#include "planner/cte.h"
#include "planner/on_conflict.h"
#include "planner/planner_internal.h"
#include "planner/view_dml.h"

namespace hearth::planner {

using executor::CommandType;
using executor::PlannedStatement;
using executor::TableInfo;

namespace {

TableInfo LookupTable(PlannerState& st, const parser::RangeVar& rv) {
  std::optional<TableInfo> t = st.tables.Lookup(rv.schema, rv.name);
  if (!t) {
    ThrowAt(DbError(sqlstate::kUndefinedTable,
                    "relation \"" + (rv.schema.empty() ? "" : rv.schema + ".") + rv.name + "\" does not exist"),
            rv.location);
  }
  if (!rv.inh) t->DropInheritors();  // ONLY t: the table without its children
  return *t;
}

// Scope over one table's row (UPDATE/DELETE/RETURNING).
Scope TableScope(const TableInfo& t, const std::string& alias) {
  Scope s;
  RangeEntry e = TableRangeEntry(t, alias);
  e.origin = OriginsOf(NoteRelationUse(t.oid, /*target=*/true), t.columns.size());
  s.entries.push_back(std::move(e));
  return s;
}

int ColumnIndex(const TableInfo& t, const std::string& name) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// GENERATED ALWAYS AS IDENTITY columns take only their DEFAULT, unless
// INSERT says OVERRIDING SYSTEM VALUE (428C9 as PostgreSQL).
void CheckIdentityValue(const executor::ColumnInfo& c, bool is_default, char overriding, bool update) {
  if (c.identity != 'a' || is_default || (!update && overriding == 's')) return;
  DbError e("428C9", update ? "column \"" + c.name + "\" can only be updated to DEFAULT"
                                               : "cannot insert a non-DEFAULT value into column \"" + c.name + "\"");
  e.WithDetail("Column \"" + c.name + "\" is an identity column defined as GENERATED ALWAYS.");
  if (!update) e.WithHint("Use OVERRIDING SYSTEM VALUE to override.");
  throw e;
}

class DmlPlanner {
 public:
  explicit DmlPlanner(PlannerState& st) : st_(st), q_(st, nullptr) {}

  // The column's DEFAULT (NULL when none), coerced to the column.
  BoundExprPtr Default(const executor::ColumnInfo& c) {
    BindContext ctx = q_.Context(nullptr, "DEFAULT expressions");
    if (!c.has_default()) {
      ctx.param_types = st_.params;
      return MakeNullConst(c);
    }
    std::vector<parser::StmtPtr> parsed = parser::ParseStatements("SELECT " + c.default_expr);
    const parser::Expr& e = *parsed.at(0)->As<parser::SelectStmt>().targets.at(0).expr;
    BoundExprPtr b = q_.Bind(e, ctx);
    ctx.param_types = st_.params;
    b = AssignCoerce(std::move(b), c, ctx, -1);
    st_.params = ctx.param_types;
    st_.parsed_defaults.push_back(std::move(parsed));
    return b;
  }

  // value (or DEFAULT) assigned to column c.
  BoundExprPtr Assign(const parser::Expr& value, const executor::ColumnInfo& c, BindContext& ctx) {
    if (value.kind == parser::ExprKind::kDefault) return Default(c);
    BoundExprPtr b = q_.Bind(value, ctx);
    ctx.param_types = st_.params;
    b = AssignCoerce(std::move(b), c, ctx, value.location);
    st_.params = ctx.param_types;
    return b;
  }

  // SET col[i][j] = value on top of `current` (the column or an earlier
  // subscripted assignment to it).
  BoundExprPtr AssignSubscripted(const std::vector<parser::ExprPtr>& subs, const std::string& column, int location,
                                 const parser::Expr& value, BoundExprPtr current, BindContext& ctx) {
    auto bind = [&](const parser::Expr& x) {
      st_.params = ctx.param_types;
      return q_.Bind(x, ctx);
    };
    BoundExprPtr b =
        executor::BindSubscriptAssignment(std::move(current), subs, value, column, location, ctx, bind);
    st_.params = ctx.param_types;
    return b;
  }

  // True if INSERT's n-th target column carries subscripts.
  static bool Subscripted(const parser::InsertStmt& s, size_t n) {
    return n < s.column_subscripts.size() && !s.column_subscripts[n].empty();
  }

  // A NULL of the column's type (no DEFAULT; what INSERT INTO t (a[1]) assigns into).
  static BoundExprPtr MakeNullConst(const executor::ColumnInfo& c) {
    auto e = std::make_unique<BoundExpr>(BoundKind::kConst, c.type);
    e->value = types::Value::Null(c.type);
    e->typmod = c.typmod;
    return e;
  }

  void Returning(const std::vector<parser::ResTarget>& targets, const Scope& scope, std::vector<PlanExpr>* exprs,
                 std::vector<OutputColumn>* cols) {
    for (const TargetSpec& t : q_.ExpandTargets(targets, scope)) {
      BindContext ctx = q_.Context(&scope, "RETURNING");
      BoundExprPtr b = q_.Bind(*t.expr, ctx);
      ctx.param_types = st_.params;
      b = executor::ResolveUnknownOutput(std::move(b), ctx);
      st_.params = ctx.param_types;
      cols->push_back(Describe(t.name, *b));
      exprs->push_back(PlanExpr{std::move(b), Deparse(*t.expr, scope.Namer())});
    }
  }

  PlannedStatement Insert(const parser::InsertStmt& s) {
    std::unique_ptr<WithScope> with = q_.EnterWith(s.with, s.with_recursive, s);  // cte.cpp
    TableInfo t = LookupTable(st_, s.table);
    std::vector<int> target;  // table column index per source column
    if (s.columns.empty()) {
      for (size_t i = 0; i < t.columns.size(); ++i) target.push_back(static_cast<int>(i));
    } else {
      for (size_t n = 0; n < s.columns.size(); ++n) {
        const std::string& name = s.columns[n];
        int where = n < s.column_locations.size() ? s.column_locations[n] : s.table.location;
        int i = ColumnIndex(t, name);
        if (i < 0) {
          ThrowAt(DbError(sqlstate::kUndefinedColumn,
                          "column \"" + name + "\" of relation \"" + t.name + "\" does not exist"),
                  where);
        }
        if (std::find(target.begin(), target.end(), i) != target.end() && !Subscripted(s, n)) {
          ThrowAt(DbError(sqlstate::kDuplicateColumn, "column \"" + name + "\" specified more than once"),
                  where);
        }
        target.push_back(i);
      }
    }
    ExecNodePtr source;
    const parser::SelectStmt* src = s.source.get();
    bool plain_values = src && !src->values_lists.empty() && src->order_by.empty() && !src->limit && !src->offset;
    if (!src || plain_values) {
      // VALUES rows (or DEFAULT VALUES) → full table rows of expressions.
      std::vector<std::vector<PlanExpr>> rows;
      size_t nrows = src ? src->values_lists.size() : 1;
      for (size_t r = 0; r < nrows; ++r) {
        std::vector<BoundExprPtr> row(t.columns.size());
        if (src) {
          const auto& list = src->values_lists[r];
          if (list.size() > target.size()) {
            ThrowAt(DbError(sqlstate::kSyntaxError, "INSERT has more expressions than target columns"),
                    list[target.size()]->location);
          }
          if (list.size() != src->values_lists[0].size()) {
            ThrowAt(DbError(sqlstate::kSyntaxError, "VALUES lists must all be the same length"),
                    list.empty() ? s.location : list[0]->location);
          }
          if (s.columns.empty() && list.size() < target.size()) target.resize(list.size());
          if (list.size() < target.size()) {
            ThrowAt(DbError(sqlstate::kSyntaxError, "INSERT has more target columns than expressions"),
                    list.empty() ? s.location : list.back()->location);
          }
          for (size_t i = 0; i < list.size(); ++i) {
            const executor::ColumnInfo& c = t.columns[static_cast<size_t>(target[i])];
            const bool is_default = list[i]->kind == parser::ExprKind::kDefault;
            CheckIdentityValue(c, is_default, s.overriding, false);
            if (s.overriding == 'u' && c.identity != 0) continue;  // the value is ignored
            BindContext ctx = q_.Context(nullptr, "VALUES");
            BoundExprPtr& slot = row[static_cast<size_t>(target[i])];
            if (Subscripted(s, i)) {  // INSERT INTO t (a[1:2]) VALUES (...): into a NULL array
              BoundExprPtr base = slot ? std::move(slot) : MakeNullConst(c);
              slot = AssignSubscripted(s.column_subscripts[i], s.columns[i], s.column_locations[i], *list[i],
                                       std::move(base), ctx);
              continue;
            }
            slot = Assign(*list[i], c, ctx);
          }
        }
        std::vector<PlanExpr> out;
        for (size_t c = 0; c < t.columns.size(); ++c) {
          if (!row[c]) row[c] = Default(t.columns[c]);
          out.push_back(PlanExpr{std::move(row[c]), ""});
        }
        rows.push_back(std::move(out));
      }
      std::vector<OutputColumn> cols;
      for (const auto& c : t.columns) cols.push_back(OutputColumn{c.name, c.type, c.typmod});
      auto values = std::make_unique<executor::ValuesScanNode>(std::move(rows), std::move(cols));
      if (nrows == 1) values->ExplainAsResult();
      source = std::move(values);
    } else {
      PlannedQuery q = q_.PlanSelect(*src);
      if (q.columns.size() > target.size()) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "INSERT has more expressions than target columns"), src->location);
      }
      if (s.columns.empty() && q.columns.size() < target.size()) target.resize(q.columns.size());
      if (q.columns.size() < target.size()) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "INSERT has more target columns than expressions"), src->location);
      }
      std::vector<BoundExprPtr> row(t.columns.size());
      for (size_t i = 0; i < target.size(); ++i) {
        if (Subscripted(s, i)) {
          ThrowAt(DbError(sqlstate::kFeatureNotSupported, "INSERT ... SELECT into array subscripts is not supported yet"),
                  s.column_locations[i]);
        }
        const executor::ColumnInfo& c = t.columns[static_cast<size_t>(target[i])];
        CheckIdentityValue(c, false, s.overriding, false);
        if (s.overriding == 'u' && c.identity != 0) continue;
        BindContext ctx;
        ctx.param_types = st_.params;
        BoundExprPtr col = MakeColumn(static_cast<int>(i), q.columns[i].type, q.columns[i].typmod);
        row[static_cast<size_t>(target[i])] = AssignCoerce(std::move(col), c, ctx, src->location);
        st_.params = ctx.param_types;
      }
      std::vector<PlanExpr> exprs;
      std::vector<OutputColumn> cols;
      for (size_t c = 0; c < t.columns.size(); ++c) {
        if (!row[c]) row[c] = Default(t.columns[c]);
        exprs.push_back(PlanExpr{std::move(row[c]), ""});
        cols.push_back(OutputColumn{t.columns[c].name, t.columns[c].type, t.columns[c].typmod});
      }
      source = std::make_unique<executor::ProjectNode>(std::move(q.node), std::move(exprs), std::move(cols));
    }
    for (int i : target) NoteModifiedColumn(t.oid, i + 1);
    PlannedStatement p;
    p.command = CommandType::kInsert;
    std::vector<PlanExpr> ret;
    Scope scope = TableScope(t, s.alias);
    Returning(s.returning, scope, &ret, &p.columns);
    auto insert = std::make_unique<executor::ModifyTableNode>(executor::ModifyKind::kInsert, t, std::move(source),
                                                              PlanExpr{}, std::vector<PlanExpr>{}, std::move(ret),
                                                              p.columns);
    if (src != nullptr && !plain_values) insert->UseBulkInsert();  // VALUES lists stay row by row: usually a few rows
    if (s.on_conflict) {  // on_conflict.cpp
      insert->SetOnConflict(PlanOnConflict(q_, t, s.alias, *s.on_conflict, [&](const Scope& sc) {
        return SetRow(t, s.on_conflict->set, sc);
      }));
    }
    p.root = std::move(insert);
    if (with) p.root = with->Anchor(std::move(p.root));
    return p;
  }

  // The WHERE clause of UPDATE/DELETE, bound on the table row.
  PlanExpr Where(const Scope& scope, const parser::Expr* where) {
    PlanExpr filter;
    if (where) {
      BindContext ctx = q_.Context(&scope, "WHERE");
      filter.expr = q_.BindCond(*where, ctx, "WHERE");
      filter.text = Deparse(*where, scope.Namer());
    }
    return filter;
  }

  // The SET list of UPDATE / ON CONFLICT DO UPDATE bound on `scope`: one
  // expression per table column, null where the column keeps its value.
  std::vector<BoundExprPtr> SetRow(const TableInfo& t, const std::vector<parser::SetClause>& set, const Scope& scope) {
    std::vector<BoundExprPtr> row(t.columns.size());
    std::vector<BoundExprPtr> multi;  // values of the current SET (...) = (SELECT ...)
    for (size_t n = 0; n < set.size(); ++n) {
      const parser::SetClause& sc = set[n];
      int i = ColumnIndex(t, sc.column);
      if (i < 0) {
        ThrowAt(DbError(sqlstate::kUndefinedColumn,
                        "column \"" + sc.column + "\" of relation \"" + t.name + "\" does not exist"),
                sc.location);
      }
      if (!sc.subscripts.empty()) {  // SET a[i] = x (several may nest: a[1] = x, a[2] = y)
        BoundExprPtr& slot = row[static_cast<size_t>(i)];
        const executor::ColumnInfo& c = t.columns[static_cast<size_t>(i)];
        BindContext ctx = q_.Context(&scope, "UPDATE");
        slot = AssignSubscripted(sc.subscripts, sc.column, sc.location, *sc.value,
                                 slot ? std::move(slot) : MakeColumn(i, c.type, c.typmod), ctx);
        continue;
      }
      if (row[static_cast<size_t>(i)]) {
        // No position, as PostgreSQL.
        throw DbError(sqlstate::kSyntaxError, "multiple assignments to same column \"" + sc.column + "\"");
      }
      CheckIdentityValue(t.columns[static_cast<size_t>(i)],
                         sc.value && sc.value->kind == parser::ExprKind::kDefault, 0, true);
      NoteModifiedColumn(t.oid, i + 1);
      BindContext ctx = q_.Context(&scope, "UPDATE");
      if (sc.multi_index < 0) {
        row[static_cast<size_t>(i)] = Assign(*sc.value, t.columns[static_cast<size_t>(i)], ctx);
        continue;
      }
      if (sc.multi_index == 0) {
        std::vector<int> cols;
        for (size_t m = n; m < set.size() && (m == n || set[m].multi_index > 0); ++m) {
          cols.push_back(ColumnIndex(t, set[m].column));
        }
        multi = q_.BindMultiAssign(sc.value->As<parser::SubLinkExpr>(), ctx, &scope, cols);
      }
      ctx.param_types = st_.params;
      row[static_cast<size_t>(i)] = AssignCoerce(std::move(multi.at(static_cast<size_t>(sc.multi_index))),
                                                 t.columns[static_cast<size_t>(i)], ctx, sc.location);
      st_.params = ctx.param_types;
    }
    return row;
  }

  PlannedStatement Update(const parser::UpdateStmt& s) {
    std::unique_ptr<WithScope> with = q_.EnterWith(s.with, s.with_recursive, s);  // cte.cpp
    TableInfo t = LookupTable(st_, s.table);
    Scope scope = TableScope(t, s.alias);
    ExecNodePtr scan;
    if (!s.from.empty()) scan = q_.PlanModifyJoin(t, s.alias, s.from, s.where.get(), &scope);
    std::vector<BoundExprPtr> row = SetRow(t, s.set, scope);
    PlanExpr where = Where(scope, s.where.get());
    std::vector<PlanExpr> exprs;
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (!row[c]) row[c] = MakeColumn(static_cast<int>(c), t.columns[c].type, t.columns[c].typmod);
      exprs.push_back(PlanExpr{std::move(row[c]), ""});
    }
    if (!scan) scan = ModifyScan(t, s.alias, where);
    PlannedStatement p;
    p.command = CommandType::kUpdate;
    std::vector<PlanExpr> ret;
    Returning(s.returning, scope, &ret, &p.columns);
    p.root = std::make_unique<executor::ModifyTableNode>(executor::ModifyKind::kUpdate, t, std::move(scan),
                                                         std::move(where), std::move(exprs), std::move(ret),
                                                         p.columns);
    if (with) p.root = with->Anchor(std::move(p.root));
    return p;
  }

  PlannedStatement Delete(const parser::DeleteStmt& s) {
    std::unique_ptr<WithScope> with = q_.EnterWith(s.with, s.with_recursive, s);  // cte.cpp
    TableInfo t = LookupTable(st_, s.table);
    Scope scope = TableScope(t, s.alias);
    ExecNodePtr scan;
    if (!s.using_items.empty()) scan = q_.PlanModifyJoin(t, s.alias, s.using_items, s.where.get(), &scope);
    PlanExpr where = Where(scope, s.where.get());
    if (!scan) scan = ModifyScan(t, s.alias, where);
    PlannedStatement p;
    p.command = CommandType::kDelete;
    std::vector<PlanExpr> ret;
    Returning(s.returning, scope, &ret, &p.columns);
    p.root = std::make_unique<executor::ModifyTableNode>(executor::ModifyKind::kDelete, t, std::move(scan),
                                                         std::move(where), std::vector<PlanExpr>{}, std::move(ret),
                                                         p.columns);
    if (with) p.root = with->Anchor(std::move(p.root));
    return p;
  }

  PlannedStatement Select(const parser::SelectStmt& s) {
    PlannedQuery q = q_.PlanSelect(s);
    PlannedStatement p;
    p.command = CommandType::kSelect;
    p.root = std::move(q.node);
    p.columns = std::move(q.columns);
    return p;
  }

 private:
  // The row source of UPDATE/DELETE: an index scan when WHERE has a usable
  // condition on an index's first column (ModifyTable still evaluates the
  // whole WHERE), else a sequential scan. Both emit the RowId.
  static ExecNodePtr ModifyScan(const TableInfo& t, const std::string& alias, PlanExpr& where) {
    if (where.expr && !t.indexes.empty()) {
      std::vector<PlanExpr> conds;
      conds.push_back(std::move(where));
      bool ordered = false;
      ExecNodePtr ix = PlanIndexScan(t, alias, &conds, nullptr, /*emit_rid=*/true, &ordered, /*keep_conds=*/true);
      where = std::move(conds[0]);
      if (ix) return ix;
    }
    return std::make_unique<executor::SeqScanNode>(t, alias, PlanExpr{}, /*emit_rid=*/true);
  }

  PlannerState& st_;
  QueryPlanner q_;
};

PlannedStatement PlanInner(const parser::Statement& stmt, PlannerState& st) {
  DmlPlanner d(st);
  switch (stmt.kind) {
    case parser::StmtKind::kSelect: return d.Select(stmt.As<parser::SelectStmt>());
    case parser::StmtKind::kInsert:
    case parser::StmtKind::kUpdate:
    case parser::StmtKind::kDelete:
      if (std::optional<ViewDmlTarget> v = RewriteViewDml(stmt, st)) {  // view_dml.cpp
        ViewTargetScope as_owner(v->base, v->view, v->owner);
        return PlanInner(*v->rewritten, st);
      }
      break;
    default:
      break;
  }
  switch (stmt.kind) {
    case parser::StmtKind::kInsert: return d.Insert(stmt.As<parser::InsertStmt>());
    case parser::StmtKind::kUpdate: return d.Update(stmt.As<parser::UpdateStmt>());
    case parser::StmtKind::kDelete: return d.Delete(stmt.As<parser::DeleteStmt>());
    default:
      break;
  }
  throw DbError(sqlstate::kFeatureNotSupported,
                std::string(parser::StatementName(stmt)) + " is not supported by the planner");
}

// Gives init-plan results their parameter slots after the user's $n.
void FinishParams(PlannerState& st, PlannedStatement& p) {
  BindContext ctx;
  ctx.param_types = st.params;
  p.param_types = executor::FinalParamTypes(ctx);
  int nuser = static_cast<int>(p.param_types.size());
  for (executor::InitPlan& ip : st.init_plans) ip.param_index += nuser;
  for (executor::SubPlan& sp : st.sub_plans) {
    sp.handle_index += nuser;
    for (int& a : sp.arg_indexes) a += nuser;
    for (int& r : sp.result_slots) r += nuser;
  }
  p.init_plans = std::move(st.init_plans);
  p.sub_plans = std::move(st.sub_plans);
  p.nslots = nuser + st.nslots;
}

}  // namespace

executor::PlannedStatement PlanDataModifyingCte(const parser::Statement& stmt, PlannerState& st) {
  return PlanInner(stmt, st);
}

std::vector<std::string> ExplainLines(const PlannedStatement& plan) {
  std::vector<std::string> lines;
  plan.root->Explain(&lines, 0, false);
  for (size_t i = 0; i < plan.init_plans.size(); ++i) {
    const executor::InitPlan& ip = plan.init_plans[i];
    if (ip.kind == executor::InitPlan::Kind::kCte || ip.kind == executor::InitPlan::Kind::kWorkTable) {
      continue;  // shown as "CTE x" under its query level (CteAnchorNode)
    }
    lines.push_back("  InitPlan " + std::to_string(i + 1) + " (returns $" + std::to_string(ip.param_index + 1) + ")");
    ip.plan->Explain(&lines, 4, true);
  }
  for (size_t i = 0; i < plan.sub_plans.size(); ++i) {
    lines.push_back("  SubPlan " + std::to_string(i + 1));
    plan.sub_plans[i].plan->Explain(&lines, 4, true);
  }
  return lines;
}

PlannedStatement PlanStatement(const parser::Statement& stmt, executor::TableProvider& tables,
                               const std::vector<types::Oid>& param_types, const PlannerOptions& options) {
  PlannerState st(tables);
  st.options = options;
  st.params = param_types;
  if (stmt.kind == parser::StmtKind::kExplain) {
    const auto& ex = stmt.As<parser::ExplainStmt>();
    for (const parser::GenericOption& o : ex.options) {
      bool off = o.has_value && (o.value == "false" || o.value == "off" || o.value == "0");
      if ((o.name == "analyze" && !off) || o.name == "format") {
        ThrowAt(DbError(sqlstate::kFeatureNotSupported, "EXPLAIN option \"" + o.name + "\" is not supported yet"),
                o.location);
      }
    }
    st.top = ex.query.get();
    PlannedStatement inner = PlanInner(*ex.query, st);
    FinishParams(st, inner);
    PlannedStatement p;
    p.command = CommandType::kExplain;
    p.param_types = inner.param_types;
    std::vector<executor::Row> rows;
    for (std::string& l : ExplainLines(inner)) rows.push_back({types::Value::Text(std::move(l))});
    p.columns.push_back(OutputColumn{"QUERY PLAN", types::kTextOid, types::kNoTypmod});
    p.root = std::make_unique<executor::ValuesScanNode>(std::move(rows), p.columns);
    return p;
  }
  st.top = &stmt;
  PlannedStatement p = PlanInner(stmt, st);
  FinishParams(st, p);
  return p;
}

}  // namespace hearth::planner
