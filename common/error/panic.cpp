// common/error/panic.cpp
//
// Principal entry point: Panic.
#include "common/error/panic.h"

#include <unistd.h>

#include "common/log/log.h"

namespace hearth {

void Panic(std::string_view what) {
  spdlog::critical("PANIC: {}", what);
  log::FlushLog();
  _exit(kPanicExitCode);
}

}  // namespace hearth
