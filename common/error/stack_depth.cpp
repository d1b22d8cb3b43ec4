// common/error/stack_depth.cpp
//
// Principal entry point: CheckStackDepth.
#include "common/error/stack_depth.h"

#include <cstdint>
#include <string>

#include "common/error/db_error.h"

namespace hearth {

namespace {

uintptr_t g_stack_base = 0;
size_t g_max_stack_depth = 2048 * 1024;  // max_stack_depth's default, 2MB

uintptr_t StackPointer() { return reinterpret_cast<uintptr_t>(__builtin_frame_address(0)); }

}  // namespace

void SetStackBase() { g_stack_base = StackPointer(); }

void SetMaxStackDepth(size_t bytes) { g_max_stack_depth = bytes; }

void CheckStackDepth() {
  const uintptr_t sp = StackPointer();
  if (g_stack_base == 0) g_stack_base = sp;
  // The stack grows down on every platform we build for.
  if (g_stack_base > sp && g_stack_base - sp > g_max_stack_depth) {
    throw DbError(sqlstate::kStatementTooComplex, "stack depth limit exceeded")
        .WithHint("Increase the configuration parameter \"max_stack_depth\" (currently " +
                  std::to_string(g_max_stack_depth / 1024) +
                  "kB), after ensuring the platform's stack depth limit is adequate.");
  }
}

}  // namespace hearth
