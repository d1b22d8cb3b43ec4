// tcop/read_only_check.h
//
// A standby serves reads only (read_only_check.cpp).
#pragma once

#include "parser/ast.h"

namespace hearth::tcop {

// On a standby (recovery), throws 25006 for a statement that would write;
// called by PlanStatement.
void PreventCommandDuringRecovery(const parser::Statement& stmt);

}  // namespace hearth::tcop
