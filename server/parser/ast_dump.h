// server/parser/ast_dump.h
//
// Compact, deterministic text rendering of expression trees, for tests and
// debug logging (not for deparsing back to executable SQL). Binary and unary
// operators are fully parenthesized so precedence is visible:
//   1 + 2 * 3  →  (1 + (2 * 3))
//   x::int     →  CAST(x AS int4)
// Thread safety: pure functions.
#pragma once

#include <string>

#include "parser/ast.h"

namespace hearth::parser {

// Renders `e`; subqueries appear as "(SELECT ...)".
std::string DumpExpr(const Expr& e);

// Renders a type name: [schema.]name[(m1,m2)][[]...].
std::string DumpTypeName(const TypeName& t);

}  // namespace hearth::parser
