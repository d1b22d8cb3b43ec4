// server/tcop/partition_eval.cpp
//
// Principal entry point: EvalConstForDdl.
#include "tcop/partition_eval.h"

#include "common/error/db_error.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "planner/deparse.h"
#include "planner/planner.h"
#include "tcop/plan.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

types::Value EvalConstForDdl(Session& s, const parser::Expr& e, types::Oid type, int32_t typmod) {
  if (e.kind == parser::ExprKind::kColumnRef) {
    throw DbError("42P10", "cannot use column reference in partition bound expression");
  }
  const std::string sql = "SELECT CAST((" + planner::Deparse(e) + ") AS " + types::FormatType(type, typmod) + ")";
  auto parsed = parser::ParseStatements(sql);
  executor::PlannedStatement plan = planner::PlanStatement(*parsed.at(0), *s.tables);
  types::Value out = types::Value::Null(type);
  executor::RunPlan(plan, MakeExecContext(s, {}), [&](const executor::Row& row) {
    if (!row.empty()) out = row[0];
  });
  return out;
}

}  // namespace hearth::tcop
