// server/executor/row_checks.cpp
//
// Principal entry point: CheckNotNull.
#include "executor/row_checks.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/text_io.h"

namespace hearth::executor {

std::string FailingRowDetail(const TableInfo& table, const Row& row) {
  std::string detail = "Failing row contains (";
  for (size_t j = 0; j < table.columns.size(); ++j) {
    if (j) detail += ", ";
    if (row[j].is_null) {
      detail += "null";
    } else {
      types::AppendOutput(row[j], &detail);
    }
  }
  return detail + ").";
}

void CheckNotNull(const TableInfo& table, const Row& row) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const ColumnInfo& c = table.columns[i];
    if (!c.not_null || !row[i].is_null) continue;
    const std::string detail = FailingRowDetail(table, row);
    throw DbError(sqlstate::kNotNullViolation, "null value in column \"" + c.name + "\" of relation \"" +
                                                   table.name + "\" violates not-null constraint")
        .WithDetail(detail)
        .WithObject(table.schema.empty() ? "public" : table.schema, table.name, c.name);
  }
}

}  // namespace hearth::executor
