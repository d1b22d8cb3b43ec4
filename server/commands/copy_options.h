// commands/copy_options.h
//
// COPY's format options: what `COPY t FROM STDIN (FORMAT csv, ...)` asks for,
// validated with PostgreSQL 15's rules, SQLSTATEs and messages, defaults
// filled in. Also resolves the FORCE_* column lists against the columns a
// COPY moves. Pure functions over values; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parser/ast.h"

namespace hearth::commands {

enum class CopyFormat { kText, kCsv, kBinary };

// HEADER: off, on (skip on input / write on output), or MATCH (input only:
// the header line must name the copied columns in order).
enum class CopyHeader { kNone, kSkip, kMatch };

struct CopyOptions {
  CopyFormat format = CopyFormat::kText;
  bool is_from = true;
  char delimiter = '\t';          // one byte; never '\r' or '\n'
  std::string null_string = "\\N";
  CopyHeader header = CopyHeader::kNone;
  char quote = '"';               // CSV only
  char escape = '"';              // CSV only
  bool freeze = false;            // a hint for storage (skip visibility work)
  bool force_quote_all = false;   // FORCE_QUOTE *
  std::vector<std::string> force_quote;     // CSV, COPY TO
  std::vector<std::string> force_not_null;  // CSV, COPY FROM
  std::vector<std::string> force_null;      // CSV, COPY FROM

  bool csv() const { return format == CopyFormat::kCsv; }
  bool binary() const { return format == CopyFormat::kBinary; }
};

// Validates a CopyStmt's option list (parser::CopyStmt::options) the way
// PostgreSQL's ProcessCopyOptions does and returns the options with the
// defaults of the chosen format (tab / `\N` for text, comma / empty string /
// `"` for CSV). `source_sql`, when given, is the whole query string the
// options' locations point into; errors about one option then carry its
// position. Throws DbError:
//   42601 conflicting or redundant options / option "x" not recognized /
//         "x requires a Boolean value" / cannot specify DELIMITER|NULL in
//         BINARY mode
//   22023 COPY format "x" not recognized / COPY delimiter cannot be newline
//         or carriage return / COPY delimiter cannot be "x" / ... / argument
//         to option "encoding" must be a valid encoding name
//   0A000 COPY delimiter must be a single one-byte character / COPY quote
//         available only in CSV mode / ... / non-UTF8 encodings (not
//         supported yet)
CopyOptions ParseCopyOptions(const std::vector<parser::GenericOption>& options, bool is_from,
                             std::string_view source_sql = {});

// Per copied column flags derived from FORCE_QUOTE / FORCE_NOT_NULL /
// FORCE_NULL. Each vector has one entry per copied column.
struct CopyColumnFlags {
  std::vector<bool> force_quote;
  std::vector<bool> force_not_null;
  std::vector<bool> force_null;
};

// Resolves the FORCE_* name lists. `copied` are the columns the COPY moves
// (in order); `all_columns` every column of the relation (for COPY (query)
// pass `copied` again and an empty `relname`). Throws DbError 42703
// `column "x" of relation "t" does not exist` (or `column "x" does not
// exist` without a relation) and 42P10 `FORCE_NOT_NULL column "x" not
// referenced by COPY`.
CopyColumnFlags ResolveCopyColumnFlags(const CopyOptions& opts, const std::vector<std::string>& copied,
                                       const std::vector<std::string>& all_columns, std::string_view relname);

}  // namespace hearth::commands
