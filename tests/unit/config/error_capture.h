// tests/unit/config/error_capture.h
//
// Test helper: run a callable that must throw hearth::DbError and return the
// error so tests can assert on its SQLSTATE, message and hint.
#pragma once

#include <catch2/catch.hpp>

#include <stdexcept>

#include "common/error/db_error.h"

namespace hearth::config::testing {

template <class F>
DbError CaptureDbError(F&& f) {
  try {
    f();
  } catch (const DbError& e) {
    return e;
  }
  FAIL("expected a DbError to be thrown");
  throw std::logic_error("unreachable");
}

}  // namespace hearth::config::testing
