// catalog/table_rewrite.h
//
// TableRewriteProvider: the table provider an ALTER TABLE rewrite runs its
// `INSERT INTO <target> (cols) SELECT exprs FROM <table>` against, so new
// values come from the planner and executor (assignment casts, typmod
// checks, per-row DEFAULT evaluation) like any INSERT ... SELECT.
//
// - The source table is scanned with a fresh snapshot (rows committed
//   before its AccessExclusiveLock was granted and this transaction's own),
//   not the statement's: a rewrite must copy every live row.
// - The target, named kRewriteTargetSchema.<table>, is the table with its
//   new columns; its bulk inserter writes formed tuples into the new file
//   through HeapBulkInserter (a page per WAL record; no WAL under
//   wal_level = minimal, the file being new) and checks the new columns'
//   NOT NULL with ALTER TABLE's message (23502 `column "c" of relation "t"
//   contains null values`). Indexes are rebuilt afterwards
//   (FinishTableRewrite).
// - Everything else goes to the wrapped provider.
//
// Process safety: per-backend, one ALTER TABLE action; REQUIRES
// AccessExclusiveLock on the table.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

inline constexpr char kRewriteTargetSchema[] = "pg_rewrite_target";

class TableRewriteProvider final : public executor::TableProvider {
 public:
  // `columns`: the table's columns after the action (types, NOT NULL, defaults).
  TableRewriteProvider(executor::TableProvider& inner, RelationRef source, std::vector<executor::ColumnInfo> columns,
                       Oid new_relfilenode);

  std::optional<executor::TableInfo> Lookup(const std::string& schema, const std::string& name) override;
  std::unique_ptr<executor::TableScan> OpenScan(const executor::TableInfo& table, bool bulk) override;
  std::unique_ptr<executor::TableModifier> OpenModifier(const executor::TableInfo& table) override;
  std::unique_ptr<executor::TableRowLocker> OpenRowLocker(const executor::TableInfo& table,
                                                          executor::RowLockStrength strength,
                                                          executor::RowLockPolicy policy) override;
  std::unique_ptr<executor::TableScan> OpenIndexScan(const executor::TableInfo& table,
                                                     const executor::IndexInfo& index,
                                                     const executor::IndexScanRequest& req) override;
  std::unique_ptr<executor::TableBulkInserter> OpenBulkInserter(const executor::TableInfo& table) override;

 private:
  bool IsTarget(const executor::TableInfo& t) const { return t.schema == kRewriteTargetSchema; }

  executor::TableProvider& inner_;
  RelationRef source_;
  std::vector<executor::ColumnInfo> columns_;
  RelationRef target_;  // the table as rewritten: new columns, new file, no indexes
};

}  // namespace hearth::catalog
