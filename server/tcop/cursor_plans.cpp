// tcop/cursor_plans.cpp
//
// Principal entry point: PlanCursorStmt (DECLARE, FETCH/MOVE, CLOSE over
// tcop/cursors.h), with PostgreSQL's command tags: DECLARE CURSOR,
// FETCH n, MOVE n, CLOSE CURSOR, CLOSE CURSOR ALL.
#include "tcop/cursors.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

class DeclareCursorPlan : public Plan {
 public:
  DeclareCursorPlan(Session& s, const parser::DeclareCursorStmt& stmt, const std::vector<types::Oid>& param_types)
      : stmt_(stmt) {
    // Planned here for the errors (positions in the whole statement) and
    // the parameter types; each run plans a private copy (cursors.cpp).
    param_types_ = PlanQuery(s, *stmt.query, param_types)->ParamTypes();
  }
  std::vector<types::Oid> ParamTypes() const override { return param_types_; }
  std::string Run(Session& s, const std::vector<types::Value>& params, RowConsumer&) override {
    DeclareCursor(s, stmt_, params);
    return "DECLARE CURSOR";
  }

 private:
  const parser::DeclareCursorStmt& stmt_;  // outlives the plan (simple query / prepared statement)
  std::vector<types::Oid> param_types_;
};

class FetchPlan : public Plan {
 public:
  FetchPlan(Session& s, const parser::FetchStmt& stmt) : stmt_(stmt) {
    // The result columns are the cursor's (34000 here when there is none).
    SqlCursor& c = FindCursor(s, stmt.name);
    if (!stmt.is_move) columns_ = c.columns;
  }
  const std::vector<ColumnDesc>* Columns() const override { return stmt_.is_move ? nullptr : &columns_; }
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer& out) override {
    SqlCursor& c = FindCursor(s, stmt_.name);
    const uint64_t n = FetchCursor(c, stmt_.direction, stmt_.count, stmt_.is_move ? nullptr : &out);
    return std::string(stmt_.is_move ? "MOVE " : "FETCH ") + std::to_string(n);
  }

 private:
  const parser::FetchStmt& stmt_;
  std::vector<ColumnDesc> columns_;
};

class ClosePortalPlan : public Plan {
 public:
  explicit ClosePortalPlan(const parser::ClosePortalStmt& stmt) : name_(stmt.name) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    CloseCursor(s, name_);
    return name_.empty() ? "CLOSE CURSOR ALL" : "CLOSE CURSOR";
  }

 private:
  std::string name_;
};

}  // namespace

std::unique_ptr<Plan> PlanCursorStmt(Session& session, const parser::Statement& stmt,
                                     const std::vector<types::Oid>& param_types) {
  switch (stmt.kind) {
    case parser::StmtKind::kDeclareCursor:
      return std::make_unique<DeclareCursorPlan>(session, stmt.As<parser::DeclareCursorStmt>(), param_types);
    case parser::StmtKind::kFetch:
      return std::make_unique<FetchPlan>(session, stmt.As<parser::FetchStmt>());
    case parser::StmtKind::kClosePortal:
      return std::make_unique<ClosePortalPlan>(stmt.As<parser::ClosePortalStmt>());
    default:
      return nullptr;
  }
}

}  // namespace hearth::tcop
