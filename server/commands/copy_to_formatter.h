// commands/copy_to_formatter.h
//
// CopyToFormatter: writes rows in COPY TO's text or CSV format, as
// PostgreSQL 15 does. Text: fields joined by the delimiter, NULL as the NULL
// string, backslash escapes for backslash, the delimiter and \b \f \n \r \t
// \v. CSV: a field is quoted when it holds the delimiter, the quote, CR or
// LF, equals the NULL string, is a lone `\.` in a one-column COPY, or its
// column is in FORCE_QUOTE; inside quotes the quote and escape characters
// are preceded by the escape character. Every line ends with "\n".
// Binary: PostgreSQL's PGCOPY layout (header, per row an int16 field count
// and per field an int32 length, -1 for NULL, then the value's binary send
// bytes; an int16 -1 trailer).
// Appends to a caller's buffer; no allocation per row once warmed up.
// One per COPY; not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "commands/copy_options.h"
#include "utils/adt/value.h"

namespace hearth::commands {

class CopyToFormatter {
 public:
  // `force_quote` holds one flag per column (CSV only; may be empty).
  explicit CopyToFormatter(const CopyOptions& opts, std::vector<bool> force_quote = {});

  // Appends the header line (column names, formatted like values).
  void AppendHeader(const std::vector<std::string>& names, std::string* out);
  // Appends one row as a complete line (binary: one tuple).
  void AppendRow(const std::vector<types::Value>& row, std::string* out);
  // Binary format only: the file header and the end-of-data trailer.
  static void AppendBinaryHeader(std::string* out);
  static void AppendBinaryTrailer(std::string* out);

  const CopyOptions& options() const { return opts_; }

 private:
  // Appends one non-NULL field whose text is already at (*out)[start...],
  // escaping or quoting it in place.
  void FinishField(std::string* out, size_t start, size_t column, size_t ncolumns);
  void AppendBinaryRow(const std::vector<types::Value>& row, std::string* out);

  CopyOptions opts_;
  std::vector<bool> force_quote_;
  bool special_[256] = {};  // bytes that force escaping (text) or quoting (CSV)
  std::string scratch_;
};

}  // namespace hearth::commands
