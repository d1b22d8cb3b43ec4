// server/executor/in_memory_catalog.h
//
// InMemoryCatalog: a TableProvider whose tables live in process memory.
// Used by the executor/planner unit tests; also usable as a trivial
// temp-table engine. Row order is deterministic: insertion order, updates
// replace a row in place, deletes leave a hole that scans skip. No MVCC:
// changes are visible at once, except that a scan never returns rows
// appended after it was opened. Not thread-safe.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "executor/table_access.h"

namespace hearth::executor {

class InMemoryCatalog : public TableProvider {
 public:
  // Adds a table (schema empty → "public"). Returns its info (oid assigned
  // from 16384 upward). Throws 42P07 if the name is taken.
  const TableInfo& CreateTable(std::string schema, std::string name, std::vector<ColumnInfo> columns);
  // Removes a table; false if it did not exist.
  bool DropTable(const std::string& schema, const std::string& name);
  // Appends a row directly (no checks). REQUIRES: the table exists.
  void AppendRow(const std::string& name, Row row);
  // Live rows in scan order (for assertions).
  std::vector<Row> Rows(const std::string& name) const;

  std::optional<TableInfo> Lookup(const std::string& schema, const std::string& name) override;
  std::unique_ptr<TableScan> OpenScan(const TableInfo& table, bool bulk) override;
  std::unique_ptr<TableModifier> OpenModifier(const TableInfo& table) override;
  // One process, no concurrency: every row is reported locked as scanned.
  std::unique_ptr<TableRowLocker> OpenRowLocker(const TableInfo& table, RowLockStrength strength,
                                                RowLockPolicy policy) override;

  // Internal storage of one table; public for the scan/modifier classes.
  struct Table {
    TableInfo info;
    std::vector<std::optional<Row>> rows;  // index = RowId; nullopt = deleted
  };

 private:
  Table* Find(types::Oid oid);
  static std::string Key(const std::string& schema, const std::string& name);

  std::map<std::string, std::unique_ptr<Table>> tables_;  // "schema.name" → table
  types::Oid next_oid_ = 16384;
};

}  // namespace hearth::executor
