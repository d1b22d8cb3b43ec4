// common/error/db_error.h
//
// DbError: the one exception SQL-facing code throws. The backend's main loop
// (tcop) turns it into an ErrorResponse and aborts the transaction; severity
// FATAL also ends the session. Storage code returns Status instead (STYLE.md).
// Safe to use from any process; carries no pointers into shared memory.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "common/error/sqlstate.h"

namespace hearth {

enum class Severity { kDebug, kLog, kInfo, kNotice, kWarning, kError, kFatal, kPanic };

// Non-localized severity name as it appears in the 'S' and 'V' fields.
const char* SeverityName(Severity s);

class DbError : public std::runtime_error {
 public:
  DbError(std::string sqlstate, std::string message, Severity severity = Severity::kError)
      : std::runtime_error(message),
        severity_(severity),
        sqlstate_(std::move(sqlstate)),
        message_(std::move(message)) {}

  // Builder-style setters so call sites read as one expression:
  //   throw DbError(sqlstate::kSyntaxError, "...").WithPosition(12);
  DbError& WithDetail(std::string d) & { detail_ = std::move(d); return *this; }
  DbError& WithHint(std::string h) & { hint_ = std::move(h); return *this; }
  DbError& WithPosition(int p) & { position_ = p; return *this; }
  DbError& WithContext(std::string c) & { context_ = std::move(c); return *this; }
  // The object the error is about (ErrorResponse fields s, t, c, n):
  // PostgreSQL sends them for constraint violations; clients read them.
  DbError& WithObject(std::string schema, std::string table, std::string column = {},
                      std::string constraint = {}) & {
    schema_ = std::move(schema);
    table_ = std::move(table);
    column_ = std::move(column);
    constraint_ = std::move(constraint);
    return *this;
  }
  DbError&& WithObject(std::string schema, std::string table, std::string column = {},
                       std::string constraint = {}) && {
    WithObject(std::move(schema), std::move(table), std::move(column), std::move(constraint));
    return std::move(*this);
  }
  DbError&& WithDetail(std::string d) && { detail_ = std::move(d); return std::move(*this); }
  DbError&& WithHint(std::string h) && { hint_ = std::move(h); return std::move(*this); }
  DbError&& WithPosition(int p) && { position_ = p; return std::move(*this); }
  DbError&& WithContext(std::string c) && { context_ = std::move(c); return std::move(*this); }

  Severity severity() const { return severity_; }
  const std::string& sqlstate() const { return sqlstate_; }
  const std::string& message() const { return message_; }
  const std::string& detail() const { return detail_; }
  const std::string& hint() const { return hint_; }
  const std::string& context() const { return context_; }
  const std::string& schema_name() const { return schema_; }
  const std::string& table_name() const { return table_; }
  const std::string& column_name() const { return column_; }
  const std::string& constraint_name() const { return constraint_; }
  // 1-based character position in the query text, 0 when unknown.
  int position() const { return position_; }

 private:
  Severity severity_;
  std::string sqlstate_;
  std::string message_;
  std::string detail_;
  std::string hint_;
  std::string context_;
  std::string schema_;
  std::string table_;
  std::string column_;
  std::string constraint_;
  int position_ = 0;
};

}  // namespace hearth
