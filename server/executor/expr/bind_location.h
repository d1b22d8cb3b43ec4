// server/executor/expr/bind_location.h
//
// Error positions for the binder's files: PostgreSQL reports a bind error
// at the offending node, so DbErrors get the node's 0-based source offset
// as their 1-based P field. Header-only, stateless.
#pragma once

#include "common/error/db_error.h"

namespace hearth::executor {

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

}  // namespace hearth::executor
