// tcop/select_plan.cpp
//
// Principal entry point: PlanSelectWithoutFrom — `SELECT expr, ... [WHERE
// cond] [LIMIT n] [OFFSET m]` with no FROM clause: bind every target once
// (types, parameter inference, output names), evaluate per execution.
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/expr/eval.h"
#include "tcop/session.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

class ConstSelectPlan : public Plan {
 public:
  ConstSelectPlan(Session& s, const parser::SelectStmt& stmt, const std::vector<types::Oid>& param_types) {
    ctx_.param_types = param_types;
    for (const parser::ResTarget& t : stmt.targets) {
      if (t.expr->kind == parser::ExprKind::kStar) {
        throw DbError(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid")
            .WithPosition(t.expr->location + 1);
      }
      executor::BoundExprPtr e = executor::ResolveUnknownOutput(executor::BindExpr(*t.expr, ctx_), ctx_);
      executor::ResultColumn rc = executor::DescribeResult(*e);
      ColumnDesc col;
      col.name = t.alias.empty() ? executor::OutputColumnName(*t.expr) : t.alias;
      col.type_oid = rc.type;
      col.typlen = rc.typlen;
      col.typmod = rc.typmod;
      columns_.push_back(std::move(col));
      targets_.push_back(std::move(e));
    }
    if (stmt.where) where_ = executor::BindCondition(*stmt.where, ctx_, "WHERE");
    if (stmt.limit) limit_ = BindCount(*stmt.limit);
    if (stmt.offset) offset_ = BindCount(*stmt.offset);
    param_types_ = executor::FinalParamTypes(ctx_);
    (void)s;
  }

  std::vector<types::Oid> ParamTypes() const override { return param_types_; }
  const std::vector<ColumnDesc>* Columns() const override { return &columns_; }

  std::string Run(Session& s, const std::vector<types::Value>& params, RowConsumer& out) override {
    executor::EvalContext ec;
    ec.params = params.data();
    ec.nparams = params.size();
    ec.func = s.func_context;
    bool emit = where_ == nullptr || executor::EvalPredicate(*where_, ec);
    if (limit_ && EvalCount(*limit_, ec, "LIMIT") == 0) emit = false;
    if (offset_ && EvalCount(*offset_, ec, "OFFSET") > 0) emit = false;
    if (emit) {
      row_.clear();
      for (const auto& t : targets_) row_.push_back(executor::Eval(*t, ec));
      out.Row(row_);
    }
    s.func_context.random_state = ec.func.random_state;
    return "SELECT";
  }

 private:
  executor::BoundExprPtr BindCount(const parser::Expr& e) {
    return executor::Coerce(executor::BindExpr(e, ctx_), types::kInt8Oid, types::kNoTypmod,
                            types::CoercionContext::kAssignment, ctx_);
  }

  // NULL means "no limit" (LIMIT NULL) or zero offset, as in PostgreSQL.
  static int64_t EvalCount(const executor::BoundExpr& e, executor::EvalContext& ec, const char* what) {
    types::Value v = executor::Eval(e, ec);
    if (v.is_null) return std::string_view(what) == "LIMIT" ? INT64_MAX : 0;
    if (v.i < 0) {
      throw DbError(std::string_view(what) == "LIMIT" ? "2201W" : "2201X",
                    std::string(what) + " must not be negative");
    }
    return v.i;
  }

  executor::BindContext ctx_;
  std::vector<executor::BoundExprPtr> targets_;
  executor::BoundExprPtr where_;
  executor::BoundExprPtr limit_;
  executor::BoundExprPtr offset_;
  std::vector<ColumnDesc> columns_;
  std::vector<types::Oid> param_types_;
  std::vector<types::Value> row_;
};

}  // namespace

std::unique_ptr<Plan> PlanSelectWithoutFrom(Session& session, const parser::SelectStmt& stmt,
                                            const std::vector<types::Oid>& param_types) {
  return std::make_unique<ConstSelectPlan>(session, stmt, param_types);
}

}  // namespace hearth::tcop
