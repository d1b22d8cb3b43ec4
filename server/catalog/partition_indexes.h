// catalog/partition_indexes.h
//
// PRIMARY KEY / UNIQUE on partitioned tables (partition_indexes.cpp).
#pragma once

#include <string>

#include "catalog/ddl.h"
#include "parser/ast.h"

namespace hearth::catalog {

// CREATE TABLE ... PARTITION BY: 0A000 `unique constraint on partitioned
// table must include all partitioning columns` for a key that lacks one.
void CheckPartitionedUniqueKeys(const parser::CreateTableStmt& stmt, const std::string& relname);

// A new or attached partition: its own unique index for each unique index
// of its partitioned table (unless it has one on the same columns).
DdlResult CreatePartitionIndexes(Oid partition);

}  // namespace hearth::catalog
