// server/planner/default_expr.cpp
//
// Principal entry point: CheckDefaultExpr.
#include "planner/default_expr.h"

#include <string>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

namespace {

[[noreturn]] void Refuse(const char* sqlstate, const std::string& message, int location) {
  DbError e(sqlstate, message);
  if (location >= 0) e.WithPosition(location + 1);
  throw e;
}

}  // namespace

void CheckDefaultExpr(const parser::Expr& e) {
  using parser::ExprKind;
  switch (e.kind) {
    case ExprKind::kParamRef:
      Refuse(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(e.As<parser::ParamRefExpr>().number),
             e.location);
    case ExprKind::kSubLink:
      Refuse(sqlstate::kFeatureNotSupported, "cannot use subquery in DEFAULT expression", e.location);
    case ExprKind::kColumnRef:
      Refuse(sqlstate::kFeatureNotSupported, "cannot use column reference in DEFAULT expression", e.location);
    case ExprKind::kFuncCall: {
      const auto& f = e.As<parser::FuncCallExpr>();
      if (f.over) {
        Refuse(sqlstate::kWindowingError, "window functions are not allowed in DEFAULT expressions", e.location);
      }
      if (IsAggregateCall(f)) {
        Refuse(sqlstate::kGroupingError, "aggregate functions are not allowed in DEFAULT expressions", e.location);
      }
      break;
    }
    default:
      break;
  }
  ForEachChild(e, [](const parser::Expr& child) { CheckDefaultExpr(child); });
}

}  // namespace hearth::planner
