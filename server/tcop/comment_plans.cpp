// tcop/comment_plans.cpp
//
// Principal entry point: PlanCommentStmt — COMMENT ON (catalog/comment_ddl.h;
// functions are resolved here by signature, as DROP FUNCTION does).
#include "catalog/comment_ddl.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/plan.h"
#include "tcop/session.h"
#include "tcop/sql_functions.h"

namespace hearth::tcop {

namespace {

class CommentPlan : public Plan {
 public:
  explicit CommentPlan(const parser::CommentStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session&, const std::vector<types::Value>&, RowConsumer&) override {
    using parser::CommentObject;
    if (stmt_.object != CommentObject::kFunction && stmt_.object != CommentObject::kProcedure) {
      catalog::CommentOn(stmt_);
      return "COMMENT";
    }
    catalog::LockFunctionName(stmt_.function.name.name);
    std::string missing;
    std::optional<catalog::ProcInfo> fn = FindFunctionForDdl(stmt_.function, &missing);
    if (!fn) throw DbError(sqlstate::kUndefinedFunction, missing);
    if (stmt_.object == CommentObject::kProcedure && fn->kind != 'p') {
      throw DbError(sqlstate::kWrongObjectType, stmt_.function.name.name + " is not a procedure");
    }
    catalog::CommentOnFunction(*fn, stmt_.comment);
    return "COMMENT";
  }

 private:
  const parser::CommentStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanCommentStmt(const parser::Statement& stmt) {
  if (stmt.kind != parser::StmtKind::kComment) return nullptr;
  return std::make_unique<CommentPlan>(stmt.As<parser::CommentStmt>());
}

}  // namespace hearth::tcop
