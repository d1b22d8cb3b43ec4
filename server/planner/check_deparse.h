// server/planner/check_deparse.h
//
// The stored text of a CHECK condition as PostgreSQL 15's
// pg_get_constraintdef prints it: Deparse's parenthesized form plus the
// casts PostgreSQL's parse analysis puts on a comparison between a column
// and a literal — the literal takes the column's type ("'1800-01-01'::date",
// "'x'::text", "(0)::numeric", "(1)::double precision"), a varchar column is
// compared as text ("((v)::text = 'x'::text)"), an integer column with a
// decimal literal as numeric ("((n)::numeric > 1.5)"). Other shapes print as
// Deparse does. Columns print bare, quoted where needed.
#pragma once

#include <string>

#include "executor/table_access.h"
#include "parser/ast.h"

namespace hearth::planner {

std::string DeparseCheckCondition(const parser::Expr& e, const executor::TableInfo& table);

}  // namespace hearth::planner
