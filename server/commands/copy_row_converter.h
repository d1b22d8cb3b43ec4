// commands/copy_row_converter.h
//
// CopyRowConverter: turns the field texts CopyFromParser produces into a row
// of typed Values by calling each column type's input function
// (types::InputValue with the column's type and typmod). A conversion error
// keeps the type's SQLSTATE and message (22P02, 22003, 22001, ...) and gets
// PostgreSQL's CONTEXT `COPY t, line N, column c: "value"`.
// Immutable after construction: Convert is const and safe from any thread
// as long as each caller passes its own output row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "commands/copy_from_parser.h"
#include "utils/adt/value.h"

namespace hearth::commands {

// One copied column as COPY FROM needs it.
struct CopyColumn {
  std::string name;
  types::Oid type = types::kTextOid;
  int32_t typmod = -1;
};

class CopyRowConverter {
 public:
  explicit CopyRowConverter(std::vector<CopyColumn> columns) : columns_(std::move(columns)) {}

  // Fills *row (resized to the column count; its Values are overwritten)
  // from `fields`. NULL fields become Value::Null(type). `where` supplies the
  // relation name and line number for the CONTEXT of an error.
  // REQUIRES: fields.size() == columns().size().
  void Convert(CopyFields fields, const CopyFromParser& where, std::vector<types::Value>* row) const;

  const std::vector<CopyColumn>& columns() const { return columns_; }
  // The column names, in order (what CopyFromParser wants).
  std::vector<std::string> Names() const;

 private:
  std::vector<CopyColumn> columns_;
};

}  // namespace hearth::commands
