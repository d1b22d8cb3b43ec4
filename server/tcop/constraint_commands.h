// tcop/constraint_commands.h
//
// The tcop side of CHECK and FOREIGN KEY constraints: the hook that turns a
// CHECK condition into stored text (DdlContext::check_expr) and the ALTER
// TABLE commands ADD CHECK / ADD FOREIGN KEY (catalog row, then the check
// of existing rows by the executor unless NOT VALID) and DROP CONSTRAINT.
#pragma once

#include <string>
#include <vector>

#include "executor/table_access.h"
#include "parser/ast.h"

namespace hearth::tcop {

class Session;

// DdlContext::check_expr: binds `e` over `table` (42703, 42804 ...) and
// returns it deparsed as PostgreSQL prints it (`(a > 0)`).
std::string CheckConstraintText(const parser::Expr& e, const executor::TableInfo& table, std::vector<int>* columns);

// True for ADD CHECK, ADD FOREIGN KEY and DROP CONSTRAINT.
bool IsConstraintCommand(const parser::AlterTableCmd& cmd);

// Runs one of them; notices go to the client.
void RunConstraintCommand(Session& s, const parser::RangeVar& table, const parser::AlterTableCmd& cmd);

}  // namespace hearth::tcop
