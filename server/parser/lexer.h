// server/parser/lexer.h
//
// The SQL lexer: splits query text into tokens the way PostgreSQL's scanner
// does (standard_conforming_strings on). Identifiers are case-folded here,
// string literals decoded, "!=" normalized to "<>".
//
// Thread safety: pure function, no shared state.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hearth::parser {

enum class TokenType {
  kIdent,        // unquoted identifier or keyword; text is lowercased
  kQuotedIdent,  // "quoted identifier"; text exactly as written ("" undoubled)
  kString,       // 'string', E'string', $$string$$; text is the decoded value
  kInteger,      // digits only; text as written
  kNumeric,      // decimal point and/or exponent; text as written
  kParam,        // $n; param holds n
  kOp,           // operator or punctuation: ( ) , ; [ ] . : :: + - * / < <= ...
  kEnd,          // end of input (always the last token)
};

struct Token {
  TokenType type = TokenType::kEnd;
  std::string text;
  int offset = 0;  // 0-based byte offset of the first byte in the query
  int end = 0;     // byte offset one past the last byte
  int param = 0;   // kParam only
};

// Tokenizes `sql`; the result always ends with one kEnd token whose offset
// is sql.size(). Throws DbError 42601 on lexical errors: unterminated quoted
// string / identifier / dollar-quoted string / comment, zero-length
// delimited identifier, trailing junk after a numeric literal or parameter.
std::vector<Token> Tokenize(std::string_view sql);

// 1-based character (not byte) position of `byte_offset` in `sql`, as
// reported in PostgreSQL's error position field.
int CharPosition(std::string_view sql, int byte_offset);

// Throws DbError(42601, "<what> at or near \"<near>\"") with the position of
// `byte_offset`. Shared by lexer and parser so the wording stays identical.
[[noreturn]] void ThrowSyntaxError(std::string_view sql, int byte_offset, const std::string& what,
                                   std::string_view near);

}  // namespace hearth::parser
