// fuzz_sql: the SQL lexer and parser on arbitrary text, as a backend runs
// them on every simple Query and Parse message. Errors (DbError with a
// SQLSTATE) are the expected answer to bad input; anything else that
// escapes, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "parser/lexer.h"
#include "parser/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hearth::SetStackBase();
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  try {
    hearth::parser::Tokenize(sql);
  } catch (const hearth::DbError&) {
  }
  try {
    for (const auto& stmt : hearth::parser::ParseStatements(sql)) hearth::parser::StatementName(*stmt);
  } catch (const hearth::DbError&) {
  }
  return 0;
}
