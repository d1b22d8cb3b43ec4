// server/planner/view_dml.cpp
//
// Principal entry point: RewriteViewDml (see view_dml.h).
#include "planner/view_dml.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"

namespace hearth::planner {

namespace {

const char* Verb(parser::StmtKind k) {
  return k == parser::StmtKind::kInsert ? "insert into" : k == parser::StmtKind::kUpdate ? "update" : "delete from";
}

std::string Hint(parser::StmtKind k) {
  const char* op = k == parser::StmtKind::kInsert ? "INSERT" : k == parser::StmtKind::kUpdate ? "UPDATE" : "DELETE";
  const char* what = k == parser::StmtKind::kInsert   ? "inserting into"
                     : k == parser::StmtKind::kUpdate ? "updating"
                                                      : "deleting from";
  return std::string("To enable ") + what + " the view, provide an INSTEAD OF " + op +
         " trigger or an unconditional ON " + op + " DO INSTEAD rule.";
}

bool HasCall(const parser::Expr& e, bool window) {
  if (e.kind == parser::ExprKind::kFuncCall) {
    const auto& f = e.As<parser::FuncCallExpr>();
    if (window ? f.over != nullptr : (f.over == nullptr && IsAggregateCall(f))) return true;
  }
  bool found = false;
  ForEachChild(e, [&](const parser::Expr& c) { found = found || HasCall(c, window); });
  return found;
}

// PostgreSQL's reason a view is not automatically updatable (empty: it is).
std::string NotUpdatableReason(const parser::SelectStmt& q) {
  if (q.distinct) return "Views containing DISTINCT are not automatically updatable.";
  if (!q.group_by.empty() || q.has_grouping_sets) return "Views containing GROUP BY are not automatically updatable.";
  if (q.having) return "Views containing HAVING are not automatically updatable.";
  if (q.set_op != parser::SetOpKind::kNone) {
    return "Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.";
  }
  if (!q.with.empty()) return "Views containing WITH are not automatically updatable.";
  if (q.limit || q.offset) return "Views containing LIMIT or OFFSET are not automatically updatable.";
  for (const parser::ResTarget& t : q.targets) {
    if (HasCall(*t.expr, false)) return "Views that return aggregate functions are not automatically updatable.";
  }
  for (const parser::ResTarget& t : q.targets) {
    if (HasCall(*t.expr, true)) return "Views that return window functions are not automatically updatable.";
  }
  if (q.from.size() != 1 || q.from[0]->kind != parser::FromKind::kTable || !q.values_lists.empty()) {
    return "Views that do not select from a single table or view are not automatically updatable.";
  }
  return "";
}

// The base column each view column is (empty: an expression), by `*`
// expansion or a plain (possibly qualified) column reference.
std::vector<std::string> BaseColumns(const parser::SelectStmt& q, const executor::TableInfo& base,
                                     const std::string& ref) {
  std::vector<std::string> out;
  for (const parser::ResTarget& t : q.targets) {
    const parser::Expr& e = *t.expr;
    const bool star = e.kind == parser::ExprKind::kStar ||
                      (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().star);
    if (star) {
      for (const executor::ColumnInfo& c : base.columns) out.push_back(c.name);
      continue;
    }
    std::string name;
    if (e.kind == parser::ExprKind::kColumnRef) {
      const auto& c = e.As<parser::ColumnRefExpr>();
      if (c.fields.size() == 1 || (c.fields.size() == 2 && c.fields[0] == ref)) name = c.fields.back();
    }
    out.push_back(name);
  }
  return out;
}

// Renames references to view columns (unqualified, or qualified by
// `alias`) to their base columns, in an expression tree the rewrite owns.
void RenameColumns(parser::Expr& e, const std::vector<executor::ColumnInfo>& view_cols,
                   const std::vector<std::string>& base_cols, const std::string& alias) {
  if (e.kind == parser::ExprKind::kColumnRef) {
    auto& c = e.As<parser::ColumnRefExpr>();
    const bool mine = c.fields.size() == 1 || (c.fields.size() == 2 && c.fields[0] == alias);
    for (size_t i = 0; mine && !c.star && i < view_cols.size(); ++i) {
      if (view_cols[i].name == c.fields.back() && !base_cols[i].empty()) {
        c.fields.back() = base_cols[i];
        break;
      }
    }
  }
  ForEachChild(e, [&](const parser::Expr& child) {
    RenameColumns(const_cast<parser::Expr&>(child), view_cols, base_cols, alias);  // our own copy
  });
}

// `ref.x` in the view's WHERE → `alias.x`.
void Requalify(parser::Expr& e, const std::string& ref, const std::string& alias) {
  if (e.kind == parser::ExprKind::kColumnRef) {
    auto& c = e.As<parser::ColumnRefExpr>();
    if (c.fields.size() == 2 && c.fields[0] == ref) c.fields[0] = alias;
  }
  ForEachChild(e, [&](const parser::Expr& child) { Requalify(const_cast<parser::Expr&>(child), ref, alias); });
}

parser::ExprPtr And(parser::ExprPtr a, parser::ExprPtr b) {
  if (!a) return b;
  if (!b) return a;
  auto e = std::make_unique<parser::BinaryOpExpr>();
  e->op = "AND";
  e->location = a->location;
  e->left = std::move(a);
  e->right = std::move(b);
  return e;
}

[[noreturn]] void ColumnNotUpdatable(parser::StmtKind k, const std::string& column, const std::string& view) {
  throw DbError(sqlstate::kFeatureNotSupported,
                std::string("cannot ") + (k == parser::StmtKind::kInsert ? "insert into" : "update") + " column \"" +
                    column + "\" of view \"" + view + "\"")
      .WithDetail("View columns that are not columns of their base relation are not updatable.");
}

// The view column named `name` mapped to its base column (0A000 if none).
std::string MapColumn(parser::StmtKind k, const std::string& name, const executor::TableInfo& view,
                      const std::vector<std::string>& base_cols) {
  for (size_t i = 0; i < view.columns.size(); ++i) {
    if (view.columns[i].name != name) continue;
    if (base_cols[i].empty()) ColumnNotUpdatable(k, name, view.name);
    NoteModifiedColumn(view.oid, static_cast<int>(i) + 1);
    return base_cols[i];
  }
  throw DbError(sqlstate::kUndefinedColumn, "column \"" + name + "\" of relation \"" + view.name + "\" does not exist");
}

const parser::RangeVar& TargetOf(const parser::Statement& s) {
  switch (s.kind) {
    case parser::StmtKind::kInsert: return s.As<parser::InsertStmt>().table;
    case parser::StmtKind::kUpdate: return s.As<parser::UpdateStmt>().table;
    default: return s.As<parser::DeleteStmt>().table;
  }
}

}  // namespace

std::optional<ViewDmlTarget> RewriteViewDml(const parser::Statement& stmt, PlannerState& st) {
  CheckStackDepth();  // a view over itself (through OR REPLACE) rewrites without end
  const parser::RangeVar& rv = TargetOf(stmt);
  std::optional<executor::TableInfo> view = st.tables.Lookup(rv.schema, rv.name);
  if (!view || !view->is_view()) return std::nullopt;
  const parser::StmtKind kind = stmt.kind;
  std::vector<parser::StmtPtr> def = parser::ParseStatements(view->view_query);
  const auto& q = def.at(0)->As<parser::SelectStmt>();
  if (std::string reason = NotUpdatableReason(q); !reason.empty()) {
    throw DbError("55000", std::string("cannot ") + Verb(kind) + " view \"" + view->name + "\"")
        .WithDetail(reason)
        .WithHint(Hint(kind));
  }
  const auto& from = q.from[0]->As<parser::TableRef>();
  std::optional<executor::TableInfo> base = st.tables.Lookup(from.table.schema, from.table.name);
  if (!base) throw DbError(sqlstate::kUndefinedTable, "relation \"" + from.table.name + "\" does not exist");
  const std::string ref = from.alias.name.empty() ? from.table.name : from.alias.name;
  const std::vector<std::string> base_cols = BaseColumns(q, *base, ref);
  if (stmt.text.empty() && std::find(st.owned_statements.begin(), st.owned_statements.end(), &stmt) ==
                               st.owned_statements.end()) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string("cannot ") + Verb(kind) + " view \"" + view->name + "\"");
  }
  if (base_cols.size() != view->columns.size()) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string("cannot ") + Verb(kind) + " view \"" + view->name + "\"");
  }
  if (kind != parser::StmtKind::kDelete &&
      std::all_of(base_cols.begin(), base_cols.end(), [](const std::string& c) { return c.empty(); })) {
    throw DbError("55000", std::string("cannot ") + Verb(kind) + " view \"" + view->name + "\"")
        .WithDetail("Views that have no updatable columns are not automatically updatable.")
        .WithHint(Hint(kind));
  }
  NoteRelationUse(view->oid, /*target=*/true);
  // A statement this rewrite made (a view over a view) is changed in place;
  // the user's is parsed again from its text.
  const bool owned = std::find(st.owned_statements.begin(), st.owned_statements.end(), &stmt) !=
                     st.owned_statements.end();
  std::vector<parser::StmtPtr> copy;
  if (!owned) copy = parser::ParseStatements(stmt.text);
  parser::Statement& s = owned ? const_cast<parser::Statement&>(stmt) : *copy.at(0);
  parser::ExprPtr view_where;
  if (q.where) {
    std::vector<parser::StmtPtr> again = parser::ParseStatements(view->view_query);
    view_where = std::move(again.at(0)->As<parser::SelectStmt>().where);
  }
  auto no_returning = [&](const std::vector<parser::ResTarget>& r) {
    if (!r.empty()) throw DbError(sqlstate::kFeatureNotSupported, "RETURNING on a view is not supported yet");
  };
  if (kind == parser::StmtKind::kInsert) {
    auto& ins = s.As<parser::InsertStmt>();
    no_returning(ins.returning);
    if (ins.columns.empty()) {
      const size_t given = ins.source && !ins.source->values_lists.empty() ? ins.source->values_lists[0].size()
                                                                             : view->columns.size();
      for (size_t i = 0; i < std::min(given, view->columns.size()); ++i) ins.columns.push_back(view->columns[i].name);
      ins.column_locations.assign(ins.columns.size(), ins.table.location);
      ins.column_subscripts.resize(ins.columns.size());
    }
    for (std::string& c : ins.columns) c = MapColumn(kind, c, *view, base_cols);
    ins.table = from.table;
  } else {
    const std::string alias = [&] {
      const std::string& a = kind == parser::StmtKind::kUpdate ? s.As<parser::UpdateStmt>().alias
                                                               : s.As<parser::DeleteStmt>().alias;
      return a.empty() ? view->name : a;
    }();
    if (view_where) Requalify(*view_where, ref, alias);
    auto rename = [&](parser::ExprPtr& e) {
      if (e) RenameColumns(*e, view->columns, base_cols, alias);
    };
    if (kind == parser::StmtKind::kUpdate) {
      auto& up = s.As<parser::UpdateStmt>();
      no_returning(up.returning);
      for (parser::SetClause& sc : up.set) {
        rename(sc.value);
        sc.column = MapColumn(kind, sc.column, *view, base_cols);
      }
      rename(up.where);
      up.where = And(std::move(view_where), std::move(up.where));
      up.alias = alias;
      up.table = from.table;
    } else {
      auto& del = s.As<parser::DeleteStmt>();
      no_returning(del.returning);
      rename(del.where);
      del.where = And(std::move(view_where), std::move(del.where));
      del.alias = alias;
      del.table = from.table;
    }
  }
  st.parsed_views.push_back(std::move(def));
  if (!owned) {
    st.parsed_views.push_back(std::move(copy));
    st.owned_statements.push_back(st.parsed_views.back()[0].get());
  }
  return ViewDmlTarget{&s, view->oid, base->oid, view->view_owner};
}

}  // namespace hearth::planner
