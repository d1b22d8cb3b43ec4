// server/parser/ast.cpp
//
// Out-of-line pieces of the AST: destructors of nodes that own a SelectStmt,
// which is incomplete at the point those nodes are declared in ast.h.
#include "parser/ast.h"

namespace hearth::parser {

SubLinkExpr::~SubLinkExpr() = default;
SubqueryRef::~SubqueryRef() = default;

}  // namespace hearth::parser
