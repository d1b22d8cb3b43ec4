// tests/unit/utils/test_util.h — helpers shared by the utils tests.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "common/error/db_error.h"

// Runs f, which must throw DbError; returns it (REQUIREs that it threw).
template <typename F>
hearth::DbError CatchDbError(F&& f) {
  try {
    f();
  } catch (const hearth::DbError& e) {
    return e;
  }
  FAIL("expected a DbError");
  return hearth::DbError("00000", "unreachable");
}
