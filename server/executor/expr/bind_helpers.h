// server/executor/expr/bind_helpers.h
//
// Helpers shared by the binder's files (binder.cpp, bind_array.cpp): error
// positions — PostgreSQL reports a bind error at the offending node, so
// DbErrors get the node's 0-based source offset as their 1-based P field —
// and bound-node construction. Header-only, stateless.
#pragma once

#include <memory>

#include "common/error/db_error.h"
#include "executor/expr/bound_expr.h"

namespace hearth::executor::bind {

// Runs f; a DbError without a position gets `location` (0-based) as its P field.
template <typename F>
auto AtLocation(int location, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (DbError& e) {
    if (e.position() == 0 && location >= 0) e.WithPosition(location + 1);
    throw;
  }
}

[[noreturn]] inline void ThrowAt(DbError e, int location) {
  if (location >= 0) e.WithPosition(location + 1);
  throw e;
}

inline BoundExprPtr Node(BoundKind k, types::Oid type, int location) {
  auto e = std::make_unique<BoundExpr>(k, type);
  e->location = location;
  return e;
}

}  // namespace hearth::executor::bind
