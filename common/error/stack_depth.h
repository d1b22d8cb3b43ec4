// common/error/stack_depth.h
//
// CheckStackDepth: PostgreSQL's check_stack_depth. Every recursive pass over
// a statement (parser, binder, planner, expression compilation, deparse)
// calls it on entry, so a deep tree, nested or a flat chain like
// `1+1+...+1`, ends the statement with ERROR 54001 instead of overflowing
// the stack and crashing the backend. The limit is max_stack_depth, counted
// from the stack base recorded when the process started serving (or from
// the first check, in programs that never record one). Process-local.
#pragma once

#include <cstddef>

namespace hearth {

// Records the current stack position as the base; call near the bottom of
// the process's stack (BackendMain).
void SetStackBase();

// The limit in bytes (the max_stack_depth setting).
void SetMaxStackDepth(size_t bytes);

// Throws DbError 54001 "stack depth limit exceeded" when the stack has
// grown more than max_stack_depth past the base.
void CheckStackDepth();

}  // namespace hearth
