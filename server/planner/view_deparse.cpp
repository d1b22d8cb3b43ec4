// server/planner/view_deparse.cpp
//
// Principal entry point: ViewDefinitionText (see view_deparse.h).
#include "planner/view_deparse.h"

#include <algorithm>
#include <optional>

#include "common/error/db_error.h"
#include "parser/parser.h"
#include "planner/deparse.h"

namespace hearth::planner {

namespace {

// Thrown when the query uses what this printer does not cover.
struct Unsupported {};

struct FromRel {
  std::string ref;  // alias or table name
  std::vector<std::string> columns;
};

class ViewDeparser {
 public:
  ViewDeparser(executor::TableProvider& tables, bool pretty) : tables_(tables), pretty_(pretty) {}

  std::string Run(const parser::SelectStmt& q, const std::vector<executor::ColumnInfo>& out) {
    if (!q.with.empty() || q.set_op != parser::SetOpKind::kNone || !q.values_lists.empty() || !q.windows.empty() ||
        !q.distinct_on.empty() || q.has_grouping_sets || !q.locking.empty() || q.limit_with_ties) {
      throw Unsupported{};
    }
    std::vector<std::string> from;
    for (const parser::FromItemPtr& f : q.from) from.push_back(FromItem(*f, /*top=*/true));
    std::string s = std::string(" SELECT ") + (q.distinct ? "DISTINCT " : "");
    size_t col = 0;
    for (const parser::ResTarget& t : q.targets) {
      for (std::string& item : Target(t, out, &col)) s += (col > 1 ? ",\n    " : "") + item;
    }
    if (col != out.size()) throw Unsupported{};
    for (size_t i = 0; i < from.size(); ++i) s += (i == 0 ? "\n   FROM " : ",\n    ") + from[i];
    if (q.where) s += "\n  WHERE " + Expr(*q.where);
    for (size_t i = 0; i < q.group_by.size(); ++i) s += (i == 0 ? "\n  GROUP BY " : ", ") + Expr(*q.group_by[i]);
    if (q.having) s += "\n HAVING " + Expr(*q.having);
    for (size_t i = 0; i < q.order_by.size(); ++i) s += (i == 0 ? "\n  ORDER BY " : ", ") + SortItem(q, q.order_by[i]);
    if (q.offset) s += "\n OFFSET " + Expr(*q.offset);
    if (q.limit) s += "\n LIMIT " + Expr(*q.limit);
    return s + ";";
  }

 private:
  std::string FromItem(const parser::FromItem& f, bool top) {
    if (f.kind == parser::FromKind::kTable) {
      const auto& t = f.As<parser::TableRef>();
      std::optional<executor::TableInfo> info = tables_.Lookup(t.table.schema, t.table.name);
      if (!info || !t.alias.columns.empty()) throw Unsupported{};
      FromRel rel{t.alias.name.empty() ? info->name : t.alias.name, {}};
      for (const executor::ColumnInfo& c : info->columns) rel.columns.push_back(c.name);
      rels_.push_back(std::move(rel));
      return (t.table.schema.empty() ? "" : t.table.schema + ".") + t.table.name +
             (t.alias.name.empty() ? "" : " " + t.alias.name);
    }
    if (f.kind != parser::FromKind::kJoin) throw Unsupported{};
    const auto& j = f.As<parser::JoinRef>();
    if (j.natural || !j.using_cols.empty() || !j.alias.name.empty()) throw Unsupported{};
    static const char* const kJoin[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN"};
    std::string s = FromItem(*j.left, false) + "\n     " + kJoin[static_cast<int>(j.join_type)] + " " +
                    FromItem(*j.right, false);
    if (j.on) s += " ON " + (pretty_ ? Expr(*j.on) : "(" + Expr(*j.on) + ")");
    return pretty_ || !top ? s : "(" + s + ")";
  }

  // The relation of an unqualified column (the first FROM item that has it).
  std::string Qualified(const parser::ColumnRefExpr& c) const {
    if (c.fields.size() != 1) {
      std::string s;
      for (size_t i = 0; i < c.fields.size(); ++i) s += (i ? "." : "") + c.fields[i];
      return s;
    }
    for (const FromRel& r : rels_) {
      if (std::find(r.columns.begin(), r.columns.end(), c.fields[0]) != r.columns.end()) return r.ref + "." + c.fields[0];
    }
    return c.fields[0];
  }

  std::string Expr(const parser::Expr& e) const {
    std::string s = Deparse(e, [this](const parser::ColumnRefExpr& c) { return Qualified(c); });
    if (e.kind == parser::ExprKind::kConst && e.As<parser::ConstExpr>().const_kind == parser::ConstKind::kString) {
      s += "::text";
    }
    if (pretty_ && s.size() >= 2 && s.front() == '(' && s.back() == ')' && Balanced(s.substr(1, s.size() - 2))) {
      s = s.substr(1, s.size() - 2);
    }
    return s;
  }

  static bool Balanced(const std::string& s) {
    int depth = 0;
    bool quoted = false;
    for (char ch : s) {
      if (ch == '\'') quoted = !quoted;
      if (quoted) continue;
      depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      if (depth < 0) return false;
    }
    return depth == 0;
  }

  std::vector<std::string> Target(const parser::ResTarget& t, const std::vector<executor::ColumnInfo>& out,
                                  size_t* col) {
    std::vector<std::string> items;
    const parser::Expr& e = *t.expr;
    const bool star = e.kind == parser::ExprKind::kStar ||
                      (e.kind == parser::ExprKind::kColumnRef && e.As<parser::ColumnRefExpr>().star);
    if (star) {
      const std::string only = e.kind == parser::ExprKind::kStar ? "" : e.As<parser::ColumnRefExpr>().fields.back();
      for (const FromRel& r : rels_) {
        if (!only.empty() && r.ref != only) continue;
        for (const std::string& c : r.columns) items.push_back(Named(r.ref + "." + c, c, out, col));
      }
      return items;
    }
    std::string text = Expr(e);
    const bool column = e.kind == parser::ExprKind::kColumnRef;
    const std::string plain = column ? e.As<parser::ColumnRefExpr>().fields.back() : "";
    items.push_back(Named(text, plain, out, col));
    return items;
  }

  static std::string Named(const std::string& text, const std::string& column_name,
                           const std::vector<executor::ColumnInfo>& out, size_t* col) {
    if (*col >= out.size()) throw Unsupported{};
    const std::string& name = out[(*col)++].name;
    if (name == column_name) return text;
    return text + " AS " + QuoteName(name);
  }

  static std::string QuoteName(const std::string& n) {
    bool plain = !n.empty() && (std::islower(static_cast<unsigned char>(n[0])) || n[0] == '_');
    for (char ch : n) plain = plain && (std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_');
    if (plain) return n;
    std::string s = "\"";
    for (char ch : n) s += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return s + "\"";
  }

  std::string SortItem(const parser::SelectStmt& q, const parser::SortBy& b) const {
    const parser::Expr* e = b.expr.get();
    if (e->kind == parser::ExprKind::kConst && e->As<parser::ConstExpr>().const_kind == parser::ConstKind::kInteger) {
      const size_t k = std::stoul(e->As<parser::ConstExpr>().value);  // ORDER BY 1: the target's expression
      if (k < 1 || k > q.targets.size() || q.targets[k - 1].expr->kind == parser::ExprKind::kStar) throw Unsupported{};
      e = q.targets[k - 1].expr.get();
    }
    std::string s = Deparse(*e, [this](const parser::ColumnRefExpr& c) { return Qualified(c); });
    if (b.dir == parser::SortDir::kDesc) s += " DESC";
    if (b.nulls == parser::NullsOrder::kFirst && b.dir != parser::SortDir::kDesc) s += " NULLS FIRST";
    if (b.nulls == parser::NullsOrder::kLast && b.dir == parser::SortDir::kDesc) s += " NULLS LAST";
    return s;
  }

  executor::TableProvider& tables_;
  bool pretty_;
  std::vector<FromRel> rels_;
};

}  // namespace

std::string ViewDefinitionText(const executor::TableInfo& view, executor::TableProvider& tables, bool pretty) {
  try {
    std::vector<parser::StmtPtr> parsed = parser::ParseStatements(view.view_query);
    if (parsed.size() == 1 && parsed[0]->kind == parser::StmtKind::kSelect) {
      return ViewDeparser(tables, pretty).Run(parsed[0]->As<parser::SelectStmt>(), view.columns);
    }
  } catch (const Unsupported&) {
  } catch (const DbError&) {
  }
  return " " + view.view_query + ";";
}

}  // namespace hearth::planner
