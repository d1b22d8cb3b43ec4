// server/parser/parser.h
//
// The SQL front end: turns query text into a typed AST (parser/ast.h).
// Hand-written lexer (parser/lexer.h) and recursive-descent parser.
//
// Thread safety: ParseStatements and StatementName are pure functions with
// no shared state; call them from any thread or process.
#pragma once

#include <string_view>
#include <vector>

#include "parser/ast.h"

namespace hearth::parser {

// Parses a query string holding zero or more ';'-separated statements.
// Empty statements (";" or only whitespace/comments) are skipped, so "" or
// ";" gives an empty vector. Each returned statement carries its own source
// text (Statement::text) and its 0-based byte offset (Statement::location).
// Throws DbError(sqlstate::kSyntaxError, "syntax error at or near \"tok\"")
// or "syntax error at end of input", with WithPosition(1-based character
// offset of the offending token, like PostgreSQL's P field). Lexical errors
// ("unterminated quoted string at or near ...", etc.) are 42601 too.
std::vector<StmtPtr> ParseStatements(std::string_view sql);

// Converts an AST `location` (0-based byte offset into `sql`) to the value
// for DbError::WithPosition: the 1-based *character* position PostgreSQL
// reports (they differ once the query holds non-ASCII text). Returns 0 (no
// position) for location < 0.
int ErrorPosition(std::string_view sql, int location);

// Human-readable statement name, e.g. "CREATE TABLE", "SELECT", "COPY",
// "DROP INDEX", "BEGIN", "ROLLBACK", used in "X is not supported yet".
// Returns a string literal (never null).
const char* StatementName(const Statement& s);

}  // namespace hearth::parser
