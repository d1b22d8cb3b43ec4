#include "common/error/db_error.h"

namespace hearth {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kDebug: return "DEBUG";
    case Severity::kLog: return "LOG";
    case Severity::kInfo: return "INFO";
    case Severity::kNotice: return "NOTICE";
    case Severity::kWarning: return "WARNING";
    case Severity::kError: return "ERROR";
    case Severity::kFatal: return "FATAL";
    case Severity::kPanic: return "PANIC";
  }
  return "ERROR";
}

}  // namespace hearth
