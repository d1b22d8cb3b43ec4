// server/planner/cte_refs.h
//
// Parse-tree walks for WITH queries, done before planning: where a WITH
// query name is referenced (to decide inlining by the number of
// references, as PostgreSQL 12+), and in which context (to give
// PostgreSQL's 42P19 errors for ill-formed recursive queries).
#pragma once

#include <string>
#include <vector>

#include "parser/ast.h"

namespace hearth::planner {

// Contexts a reference can sit in (bit set).
enum CteRefContext : unsigned {
  kRefInSublink = 1,    // a subquery in an expression
  kRefInOuterJoin = 2,  // the nullable side of an outer join
  kRefInIntersect = 4,
  kRefInExcept = 8,
};

struct CteRef {
  const parser::TableRef* ref;
  unsigned context;
};

// References to `name` as an unqualified FROM name in `stmt` (SELECT,
// INSERT, UPDATE, DELETE) and all its subqueries, except below a nested
// WITH that defines `name` again. The statement's own WITH list is not
// searched (its bodies are searched separately by the caller).
std::vector<CteRef> FindCteRefs(const parser::Statement& stmt, const std::string& name);

// The same for one WITH query's body.
std::vector<CteRef> FindCteRefsInBody(const parser::CommonTableExpr& cte, const std::string& name);

// True if the WITH query calls a volatile function (random(), nextval(),
// ...): PostgreSQL then never inlines it.
bool CallsVolatileFunction(const parser::CommonTableExpr& cte);

// The first aggregate call in the select list or HAVING of `s` (not in
// subqueries), or null.
const parser::Expr* FindAggregate(const parser::SelectStmt& s);

}  // namespace hearth::planner
