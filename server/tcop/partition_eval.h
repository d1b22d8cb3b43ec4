// server/tcop/partition_eval.h
//
// The value of a partition bound expression: `SELECT CAST((expr) AS type)`
// planned and run in the session (constant expressions of any form, with
// PostgreSQL's input and cast errors). Installed as DdlContext::eval_const
// by CREATE TABLE and ALTER TABLE.
#pragma once

#include "parser/ast.h"
#include "tcop/session.h"
#include "utils/adt/value.h"

namespace hearth::tcop {

types::Value EvalConstForDdl(Session& s, const parser::Expr& e, types::Oid type, int32_t typmod);

}  // namespace hearth::tcop
