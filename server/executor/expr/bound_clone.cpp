// server/executor/expr/bound_clone.cpp
//
// CloneBound: deep copies of bound expressions, for plan cloning.
#include "common/error/stack_depth.h"
#include "executor/expr/bound_expr.h"

namespace hearth::executor {

BoundExprPtr CloneBound(const BoundExpr& e) {
  CheckStackDepth();
  auto c = std::make_unique<BoundExpr>(e.kind, e.type);
  c->typmod = e.typmod;
  c->location = e.location;
  c->value = e.value;
  c->index = e.index;
  c->func = e.func;
  c->children.reserve(e.children.size());
  for (const BoundExprPtr& child : e.children) c->children.push_back(CloneBound(child));
  c->cast_context = e.cast_context;
  c->negated = e.negated;
  c->case_insensitive = e.case_insensitive;
  c->has_operand = e.has_operand;
  c->has_else = e.has_else;
  c->is_greatest = e.is_greatest;
  c->bool_test = e.bool_test;
  c->is_all = e.is_all;
  c->subscript_flags = e.subscript_flags;
  c->in_set = e.in_set;
  return c;
}

}  // namespace hearth::executor
