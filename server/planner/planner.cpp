// server/planner/planner.cpp
//
// Principal entry points: PlanStatement (dispatch, INSERT/UPDATE/DELETE,
// EXPLAIN, parameter finalization) and ExplainLines.
#include "planner/planner.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/modify_node.h"
#include "executor/nodes/scan_nodes.h"
#include "parser/parser.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

using executor::CommandType;
using executor::PlannedStatement;
using executor::TableInfo;

namespace {

[[noreturn]] void ThrowAt(DbError e, int location) {
  if (location >= 0 && e.position() == 0) e.WithPosition(location + 1);
  throw e;
}

TableInfo LookupTable(PlannerState& st, const parser::RangeVar& rv) {
  std::optional<TableInfo> t = st.tables.Lookup(rv.schema, rv.name);
  if (!t) {
    ThrowAt(DbError(sqlstate::kUndefinedTable,
                    "relation \"" + (rv.schema.empty() ? "" : rv.schema + ".") + rv.name + "\" does not exist"),
            rv.location);
  }
  return *t;
}

// Scope over one table's row (UPDATE/DELETE/RETURNING).
Scope TableScope(const TableInfo& t, const std::string& alias) {
  Scope s;
  RangeEntry e;
  e.alias = alias.empty() ? t.name : alias;
  e.origin = OriginsOf(NoteRelationUse(t.oid, /*target=*/true), t.columns.size());
  for (const executor::ColumnInfo& c : t.columns) {
    e.names.push_back(c.name);
    e.types.push_back(c.type);
    e.typmods.push_back(c.typmod);
    e.hidden.push_back(false);
  }
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
      auto n = std::make_unique<BoundExpr>(BoundKind::kConst, c.type);
      n->value = types::Value::Null(c.type);
      n->typmod = c.typmod;
      return n;
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
    if (!s.with.empty()) ThrowAt(DbError(sqlstate::kFeatureNotSupported, "WITH queries are not supported yet"), s.location);
    if (s.on_conflict_do_nothing) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "ON CONFLICT is not supported yet"), s.location);
    }
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
        if (std::find(target.begin(), target.end(), i) != target.end()) {
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
            row[static_cast<size_t>(target[i])] = Assign(*list[i], c, ctx);
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
      source = std::make_unique<executor::ValuesScanNode>(std::move(rows), std::move(cols));
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
    p.root = std::move(insert);
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

  PlannedStatement Update(const parser::UpdateStmt& s) {
    if (!s.with.empty()) ThrowAt(DbError(sqlstate::kFeatureNotSupported, "WITH queries are not supported yet"), s.location);
    if (!s.from.empty()) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "UPDATE ... FROM is not supported yet"), s.from[0]->location);
    }
    TableInfo t = LookupTable(st_, s.table);
    Scope scope = TableScope(t, s.alias);
    std::vector<BoundExprPtr> row(t.columns.size());
    for (const parser::SetClause& sc : s.set) {
      int i = ColumnIndex(t, sc.column);
      if (i < 0) {
        ThrowAt(DbError(sqlstate::kUndefinedColumn,
                        "column \"" + sc.column + "\" of relation \"" + t.name + "\" does not exist"),
                sc.location);
      }
      if (row[static_cast<size_t>(i)]) {
        ThrowAt(DbError(sqlstate::kSyntaxError, "multiple assignments to same column \"" + sc.column + "\""),
                sc.location);
      }
      CheckIdentityValue(t.columns[static_cast<size_t>(i)], sc.value->kind == parser::ExprKind::kDefault, 0, true);
      NoteModifiedColumn(t.oid, i + 1);
      BindContext ctx = q_.Context(&scope, "UPDATE");
      row[static_cast<size_t>(i)] = Assign(*sc.value, t.columns[static_cast<size_t>(i)], ctx);
    }
    PlanExpr where = Where(scope, s.where.get());
    std::vector<PlanExpr> exprs;
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (!row[c]) row[c] = MakeColumn(static_cast<int>(c), t.columns[c].type, t.columns[c].typmod);
      exprs.push_back(PlanExpr{std::move(row[c]), ""});
    }
    ExecNodePtr scan = ModifyScan(t, s.alias, where);
    PlannedStatement p;
    p.command = CommandType::kUpdate;
    std::vector<PlanExpr> ret;
    Returning(s.returning, scope, &ret, &p.columns);
    p.root = std::make_unique<executor::ModifyTableNode>(executor::ModifyKind::kUpdate, t, std::move(scan),
                                                         std::move(where), std::move(exprs), std::move(ret),
                                                         p.columns);
    return p;
  }

  PlannedStatement Delete(const parser::DeleteStmt& s) {
    if (!s.with.empty()) ThrowAt(DbError(sqlstate::kFeatureNotSupported, "WITH queries are not supported yet"), s.location);
    if (!s.using_items.empty()) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "DELETE ... USING is not supported yet"),
              s.using_items[0]->location);
    }
    TableInfo t = LookupTable(st_, s.table);
    Scope scope = TableScope(t, s.alias);
    PlanExpr where = Where(scope, s.where.get());
    ExecNodePtr scan = ModifyScan(t, s.alias, where);
    PlannedStatement p;
    p.command = CommandType::kDelete;
    std::vector<PlanExpr> ret;
    Returning(s.returning, scope, &ret, &p.columns);
    p.root = std::make_unique<executor::ModifyTableNode>(executor::ModifyKind::kDelete, t, std::move(scan),
                                                         std::move(where), std::vector<PlanExpr>{}, std::move(ret),
                                                         p.columns);
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
  for (auto& [node, slot] : st.hidden) node->index = nuser + slot;
  for (executor::InitPlan& ip : st.init_plans) ip.param_index += nuser;
  for (executor::SubPlan& sp : st.sub_plans) {
    sp.handle_index += nuser;
    for (int& a : sp.arg_indexes) a += nuser;
  }
  p.init_plans = std::move(st.init_plans);
  p.sub_plans = std::move(st.sub_plans);
  p.nslots = nuser + st.nslots;
}

}  // namespace

std::vector<std::string> ExplainLines(const PlannedStatement& plan) {
  std::vector<std::string> lines;
  plan.root->Explain(&lines, 0, false);
  for (size_t i = 0; i < plan.init_plans.size(); ++i) {
    const executor::InitPlan& ip = plan.init_plans[i];
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
                               const std::vector<types::Oid>& param_types) {
  PlannerState st(tables);
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
  PlannedStatement p = PlanInner(stmt, st);
  FinishParams(st, p);
  return p;
}

}  // namespace hearth::planner
