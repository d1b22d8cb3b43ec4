// tcop/constraint_commands.cpp
//
// Principal entry points: CheckConstraintText, RunConstraintCommand.
#include "tcop/constraint_commands.h"

#include "catalog/constraint_ddl.h"
#include "executor/check_constraints.h"
#include "executor/foreign_keys.h"
#include "planner/check_deparse.h"
#include "tcop/plan.h"
#include "tcop/session.h"
#include "utils/adt/regclass.h"

namespace hearth::tcop {

std::string CheckConstraintText(const parser::Expr& e, const executor::TableInfo& table, std::vector<int>* columns) {
  executor::BindCheckCondition(e, table, columns);
  return planner::DeparseCheckCondition(e, table);
}

bool IsConstraintCommand(const parser::AlterTableCmd& cmd) {
  if (cmd.kind == parser::AlterTableCmdKind::kDropConstraint) return true;
  return cmd.kind == parser::AlterTableCmdKind::kAddConstraint && cmd.constraint &&
         (cmd.constraint->kind == parser::ConstraintKind::kCheck ||
          cmd.constraint->kind == parser::ConstraintKind::kForeignKey);
}

void RunConstraintCommand(Session& s, const parser::RangeVar& table, const parser::AlterTableCmd& cmd) {
  if (cmd.kind == parser::AlterTableCmdKind::kDropConstraint) {
    const catalog::DdlResult r = catalog::AlterTableDropConstraint(table, cmd.name, cmd.if_exists);
    for (const auto& n : r.notices) s.Notice(Severity::kNotice, n.sqlstate, n.message);
    return;
  }
  catalog::DdlContext ctx;
  ctx.check_expr = CheckConstraintText;
  const catalog::AddedConstraint added = catalog::AlterTableAddCheckOrForeignKey(table, *cmd.constraint, ctx);
  if (!added.validate) return;
  std::optional<executor::TableInfo> info = s.tables->LookupByOid(added.table);
  if (!info) return;
  executor::ExecContext exec = MakeExecContext(s, {});
  if (added.type == 'c') {
    executor::CheckConstraints::ValidateExistingRows(exec, *info, added.name);
    return;
  }
  for (const executor::ForeignKeyInfo& fk : info->foreign_keys) {
    if (fk.name == added.name) executor::ForeignKeyChecker::ValidateExistingRows(exec, *info, fk);
  }
}

}  // namespace hearth::tcop
