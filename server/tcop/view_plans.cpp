// tcop/view_plans.cpp
//
// Principal entry point: PlanViewDdl — CREATE [OR REPLACE] VIEW, DROP VIEW,
// ALTER VIEW RENAME. CREATE VIEW plans the query once (names must resolve,
// types are those of its output columns; privileges are checked at each
// use, not here) and records the relations it names as the view's
// dependencies (catalog/view_ddl.h).
#include <algorithm>

#include "catalog/view_ddl.h"
#include "common/error/sqlstate.h"
#include "planner/column_use.h"
#include "planner/planner.h"
#include "planner/view_deparse.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

void SendViewNotices(Session& s, const catalog::DdlResult& r) {
  for (const auto& n : r.notices) {
    DbError notice(n.sqlstate, n.message, Severity::kNotice);
    if (!n.detail.empty()) notice.WithDetail(n.detail);
    if (!n.hint.empty()) notice.WithHint(n.hint);
    PutError(s.sock.out(), notice);
  }
}

void RejectModifyingWith(const parser::SelectStmt& q) {
  for (const parser::CommonTableExpr& c : q.with) {
    if (c.query && c.query->kind != parser::StmtKind::kSelect) {
      throw DbError(sqlstate::kFeatureNotSupported, "views must not contain data-modifying statements in WITH");
    }
  }
}

catalog::ViewDefinition DefinitionOf(Session& s, const parser::CreateViewStmt& stmt) {
  const auto& query = stmt.query->As<parser::SelectStmt>();
  RejectModifyingWith(query);
  catalog::ViewDefinition def;
  def.name = stmt.view;
  def.or_replace = stmt.or_replace;
  def.temp = stmt.temp;
  def.query = query.text;
  planner::ColumnUseRecorder uses;
  executor::PlannedStatement plan = planner::PlanStatement(query, *s.tables);
  if (!plan.param_types.empty()) throw DbError("42P02", "there is no parameter $1");
  for (const planner::RelationUse& u : uses.uses()) {
    // Direct references only (a view named here brings its own).
    if (u.via_view != 0 || u.relid < catalog::kFirstNormalObjectId) continue;
    if (std::find(def.depends_on.begin(), def.depends_on.end(), u.relid) == def.depends_on.end()) {
      def.depends_on.push_back(u.relid);
    }
  }
  if (stmt.column_names.size() > plan.columns.size()) {
    throw DbError(sqlstate::kSyntaxError, "CREATE VIEW specifies more column names than columns");
  }
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const executor::OutputColumn& c = plan.columns[i];
    catalog::ViewColumnSpec col;
    col.name = i < stmt.column_names.size() ? stmt.column_names[i] : c.name;
    // Unknown-typed literals become text, as in PostgreSQL.
    col.type = c.type == types::kUnknownOid ? types::kTextOid : c.type;
    col.typmod = c.type == types::kUnknownOid ? types::kNoTypmod : c.typmod;
    def.columns.push_back(std::move(col));
  }
  return def;
}

class CreateViewPlan : public Plan {
 public:
  explicit CreateViewPlan(const parser::CreateViewStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (s.tables == nullptr) throw DbError(sqlstate::kFeatureNotSupported, "CREATE VIEW is not supported yet");
    if (!stmt_.check_option.empty()) {
      throw DbError(sqlstate::kFeatureNotSupported, "WITH CHECK OPTION is not supported yet");
    }
    SendViewNotices(s, catalog::CreateView(DefinitionOf(s, stmt_)));
    return "CREATE VIEW";
  }

 private:
  const parser::CreateViewStmt& stmt_;
};

class DropViewPlan : public Plan {
 public:
  explicit DropViewPlan(const parser::DropStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    SendViewNotices(s, catalog::DropViews(stmt_.objects, stmt_.if_exists, stmt_.behavior));
    return "DROP VIEW";
  }

 private:
  const parser::DropStmt& stmt_;
};

class RenameViewPlan : public Plan {
 public:
  explicit RenameViewPlan(const parser::RenameRelationStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    SendViewNotices(s, catalog::RenameView(stmt_));
    return "ALTER VIEW";
  }

 private:
  const parser::RenameRelationStmt& stmt_;
};

}  // namespace

void InstallViewDefinitionCallback(Session& s) {
  catalog::SetViewDefinitionPrinter([&s](const executor::TableInfo& view, bool pretty) {
    if (s.tables == nullptr) return " " + view.view_query + ";";
    return planner::ViewDefinitionText(view, *s.tables, pretty);
  });
  s.callbacks.catalog.view_def = [](uint32_t oid, bool pretty) -> std::optional<std::string> {
    catalog::RelationRef e = catalog::LookupRelationByOid(oid);
    if (e == nullptr || !e->info.is_view()) return std::nullopt;
    return catalog::PrintViewDefinition(e->info, pretty);
  };
}

std::unique_ptr<Plan> PlanViewDdl(const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kCreateView:
      return std::make_unique<CreateViewPlan>(stmt.As<parser::CreateViewStmt>());
    case parser::StmtKind::kRenameRelation:
      return std::make_unique<RenameViewPlan>(stmt.As<parser::RenameRelationStmt>());
    case parser::StmtKind::kDrop:
      if (stmt.As<parser::DropStmt>().object_type != parser::ObjectType::kView) return nullptr;
      return std::make_unique<DropViewPlan>(stmt.As<parser::DropStmt>());
    default:
      return nullptr;
  }
}

}  // namespace hearth::tcop
