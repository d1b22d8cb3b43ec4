// server/executor/domain_checks.h
//
// A domain's constraints applied to a value: NOT NULL (23502 `domain d does
// not allow null values`) and its CHECKs in name order (23514 `value for
// domain d violates check constraint "c"`), the constraints of the domains
// under it first. Called by casts to a domain (BoundKind::kCoerceToDomain)
// and for every written column of a domain (CheckConstraints: INSERT,
// UPDATE, COPY FROM). The conditions are bound once per process and type
// snapshot (user_types.h) with VALUE as the only column.
#pragma once

#include "executor/expr/bound_expr.h"
#include "executor/expr/eval.h"
#include "parser/ast.h"
#include "utils/adt/value.h"

namespace hearth::executor {

// Violations name `domain` (PostgreSQL flattens a domain's stack of base
// domains into one list of constraints of the outermost one).
void CheckDomainValue(types::Oid domain, const types::Value& v, EvalContext& eval);

// Binds a domain CHECK condition over VALUE of type `base` (42703 for other
// column names, 42804 for a non-boolean condition).
BoundExprPtr BindDomainCheck(const parser::Expr& cond, types::Oid base, int32_t typmod);

}  // namespace hearth::executor
