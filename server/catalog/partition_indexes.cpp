// catalog/partition_indexes.cpp
//
// PRIMARY KEY / UNIQUE on partitioned tables, as PostgreSQL: the key must
// contain every partition key column (0A000), and each partition gets its
// own unique index on the same columns (named after the partition), so
// uniqueness holds across partitions because equal keys route to one
// partition. The partitioned table's own index stays empty (it has no rows)
// and shows in psql's \d as PostgreSQL's does.
#include <algorithm>

#include "catalog/index_ddl.h"
#include "catalog/partition_indexes.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

// Every PRIMARY KEY / UNIQUE of the statement with its columns.
std::vector<std::pair<const parser::Constraint*, std::vector<std::string>>> UniqueConstraints(
    const parser::CreateTableStmt& stmt) {
  std::vector<std::pair<const parser::Constraint*, std::vector<std::string>>> out;
  auto unique = [](const parser::Constraint& c) {
    return c.kind == parser::ConstraintKind::kPrimaryKey || c.kind == parser::ConstraintKind::kUnique;
  };
  for (const parser::ColumnDef& col : stmt.columns) {
    for (const parser::Constraint& c : col.constraints) {
      if (unique(c)) out.push_back({&c, {col.name}});
    }
  }
  for (const parser::Constraint& c : stmt.constraints) {
    if (unique(c)) out.push_back({&c, c.columns});
  }
  return out;
}

}  // namespace

void CheckPartitionedUniqueKeys(const parser::CreateTableStmt& stmt, const std::string& relname) {
  if (!stmt.partition_by) return;
  for (const auto& [c, columns] : UniqueConstraints(stmt)) {
    for (const parser::IndexElem& k : stmt.partition_by->keys) {
      if (k.column.empty() || std::find(columns.begin(), columns.end(), k.column) != columns.end()) continue;
      const char* what = c->kind == parser::ConstraintKind::kPrimaryKey ? "PRIMARY KEY" : "UNIQUE";
      throw DbError("0A000", "unique constraint on partitioned table must include all partitioning columns")
          .WithDetail(std::string(what) + " constraint on table \"" + relname + "\" lacks column \"" + k.column +
                      "\" which is part of the partition key.");
    }
  }
}

DdlResult CreatePartitionIndexes(Oid partition) {
  DdlResult result;
  RelationRef part = LookupRelationByOid(partition);
  if (part == nullptr || part->parents.empty()) return result;
  RelationRef parent = LookupRelationByOid(part->parents[0]);
  if (parent == nullptr || parent->partition_key == nullptr) return result;
  parser::CreateTableStmt synth;
  synth.table.schema = part->info.schema;
  synth.table.name = part->info.name;
  for (const executor::IndexInfo& ix : parent->info.indexes) {
    if (!ix.unique) continue;
    std::vector<int> cols;  // the partition's positions of the same columns
    parser::Constraint c;
    c.kind = ix.primary ? parser::ConstraintKind::kPrimaryKey : parser::ConstraintKind::kUnique;
    for (int pc : ix.columns) {
      const std::string& name = parent->info.columns[static_cast<size_t>(pc)].name;
      c.columns.push_back(name);
      for (size_t k = 0; k < part->info.columns.size(); ++k) {
        if (part->info.columns[k].name == name) cols.push_back(static_cast<int>(k));
      }
    }
    // ATTACH of a table that already has such an index: keep it.
    const bool present = std::any_of(part->info.indexes.begin(), part->info.indexes.end(),
                                     [&](const executor::IndexInfo& own) { return own.unique && own.columns == cols; });
    if (!present) synth.constraints.push_back(std::move(c));
  }
  if (synth.constraints.empty()) return result;
  return CreateConstraintIndexes(partition, synth);
}

}  // namespace hearth::catalog
