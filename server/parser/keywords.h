// server/parser/keywords.h
//
// SQL keyword categories, used to decide where a word may be an identifier.
// Only the categories matter to the parser; every other word (including
// keywords PostgreSQL calls "unreserved") is an ordinary identifier that the
// grammar recognizes by text where it is a keyword (e.g. SET, NULLS).
//
// Thread safety: pure functions over a constant table.
#pragma once

#include <string_view>

namespace hearth::parser {

enum class KeywordCategory {
  kNone,          // identifier or unreserved keyword: usable anywhere
  kColName,       // usable as a column/table name, not as function/type name (int, time, exists, ...)
  kTypeFuncName,  // usable as a function/type name, not as a column name (left, join, like, ...)
  kReserved,      // usable only quoted (select, from, where, table, ...)
};

// Category of an (already lowercased) unquoted word.
KeywordCategory LookupKeyword(std::string_view lower_word);

}  // namespace hearth::parser
